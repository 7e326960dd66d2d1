"""Public pages of the shared core."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.players import selectors


def home(request: HttpRequest) -> HttpResponse:
    """The landing page: the club, its strongest players, where to go next."""
    return render(
        request,
        "games/home.html",
        {"club_name": settings.CLUB_NAME, "players": selectors.player_top_rated(limit=10)},
    )

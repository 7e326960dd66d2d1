"""Reads of the club's players, for pages and the API."""

from __future__ import annotations

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from games.errors import NotFound
from games.models import Player


def player_list(*, active_only: bool = True) -> QuerySet[Player]:
    players = Player.objects.all()
    if active_only:
        players = players.filter(is_active=True)
    return players.order_by("name")


def player_list_with_login() -> QuerySet[Player]:
    """The active players who can log in (an active user account): whom a player may
    invite to a match (games.play.invitations), by name."""
    return Player.objects.filter(is_active=True, user__isnull=False, user__is_active=True).order_by(
        "name"
    )


def player_top_rated(*, limit: int = 10) -> list[Player]:
    return list(Player.objects.filter(is_active=True).order_by("-rating", "name")[:limit])


def player_get(*, player_id: int) -> Player:
    try:
        return Player.objects.get(pk=player_id)
    except Player.DoesNotExist:
        raise NotFound("player_not_found", _("There is no player with this id.")) from None

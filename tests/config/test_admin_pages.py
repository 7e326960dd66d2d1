"""The admin's read-only ledgers open for staff and offer no add, change or delete."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model

from games.models import RatedResult
from games.ratings import services as ratings
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "model",
    [
        "games/ratedresult",
        "games/clubresult",
        "chouette/chouettesession",
        "chouette/chouetteonlinegame",
    ],
)
def test_read_only_ledgers_open_for_staff(client, model) -> None:
    a, b = PlayerFactory(), PlayerFactory()
    row = ratings.rating_record(
        source=RatedResult.Source.CLUB,
        source_key="club:admin",
        player1=a,
        player2=b,
        length=3,
        winner=a,
        at=datetime.datetime(2025, 1, 1, tzinfo=datetime.UTC),
    )
    client.force_login(get_user_model().objects.create_superuser("root", "r@example.org", "pw"))
    listing = client.get(f"/admin/{model}/")
    assert listing.status_code == 200
    assert client.get(f"/admin/{model}/add/").status_code == 403
    if model == "games/ratedresult":
        assert "club:admin" in listing.content.decode()
        # The change page only shows (no save button); a POST changes nothing.
        page = client.get(f"/admin/{model}/{row.pk}/change/")
        assert page.status_code == 200 and 'name="_save"' not in page.content.decode()
        client.post(f"/admin/{model}/{row.pk}/change/", {"length": 9})
        assert RatedResult.objects.get(pk=row.pk).length == 3

"""Ratings in the API (issue 8): a player's results with each change's calculation, the
leaderboard with its filters, and clear errors for bad filters."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from games.models import RatedResult
from games.ratings import services as ratings
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

T0 = datetime.datetime(2025, 3, 1, 18, tzinfo=datetime.UTC)


def _record(key, p1, p2, *, length, winner, hours, rated=True):
    return ratings.rating_record(
        source=RatedResult.Source.CLUB,
        source_key=key,
        player1=p1,
        player2=p2,
        length=length,
        winner=p1 if winner == 1 else p2,
        at=T0 + datetime.timedelta(hours=hours),
        rated=rated,
    )


def test_player_results_show_the_calculation_newest_first():
    anna, bela = PlayerFactory(name="Anna"), PlayerFactory(name="Béla")
    _record("club:1", anna, bela, length=1, winner=1, hours=0)
    _record("club:2", bela, anna, length=3, winner=1, hours=1)
    _record("club:3", anna, bela, length=5, winner=1, hours=2, rated=False)
    body = APIClient().get(f"/api/v1/players/{anna.pk}/results/").json()
    assert body["count"] == 3
    newest, upset, first = body["results"]
    assert (newest["rated"], newest["calculation"], newest["won"]) == (False, None, True)
    # 1 point between newcomers: P_upset 0.5, K 5, change 4*5*1*0.5 = 10.00.
    assert first["calculation"] == {
        "difference": "0.00",
        "p_upset": 0.5,
        "p": 0.5,
        "upset": False,
        "k": 5.0,
        "change": "10.00",
        "rating_before": "1500.00",
        "rating_after": "1510.00",
        "experience_before": 0,
        "experience_after": 1,
    }
    assert first["opponent"] == {"id": bela.pk, "name": "Béla"}
    # Béla (1490) beat Anna (1510): an upset; Anna's loss is her own K times P.
    row = RatedResult.objects.get(source_key="club:2")
    calc = upset["calculation"]
    assert calc["upset"] is True and calc["p"] == pytest.approx(1 - row.p_upset)
    assert Decimal(calc["change"]) == row.change2 and calc["k"] == row.k2
    assert APIClient().get("/api/v1/players/999999/results/").status_code == 404


def test_player_results_query_count_does_not_grow():
    anna = PlayerFactory()
    others = PlayerFactory.create_batch(3)
    for i in range(60):
        _record(f"club:{i}", anna, others[i % 3], length=1 + i % 5, winner=1 + i % 2, hours=i)
    counts = []
    for limit in (5, 50):
        with CaptureQueriesContext(connection) as ctx:
            response = APIClient().get(f"/api/v1/players/{anna.pk}/results/?limit={limit}")
        assert response.status_code == 200 and len(response.json()["results"]) == limit
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1] <= 4


def test_leaderboard_filters_and_errors(settings):
    settings.RATING_LEADERBOARD_MIN_EXPERIENCE = 0
    anna = PlayerFactory(name="Anna", club="Pest")
    bela = PlayerFactory(name="Béla", club="Szeged")
    _record("club:1", anna, bela, length=3, winner=1, hours=0)
    client = APIClient()
    rows = client.get("/api/v1/ratings/").json()
    assert [(r["rank"], r["player"]["name"], r["played"], r["won"]) for r in rows] == [
        (1, "Anna", 1, 1),
        (2, "Béla", 1, 0),
    ]
    assert [r["player"]["name"] for r in client.get("/api/v1/ratings/?club=Szeged").json()] == [
        "Béla"
    ]
    # T0 is long ago: nobody played in the last 30 days; nobody has 4 experience.
    assert client.get("/api/v1/ratings/?period=30d").json() == []
    assert client.get("/api/v1/ratings/?min_experience=4").json() == []
    bad = client.get("/api/v1/ratings/?period=forever")
    assert bad.status_code == 400 and bad.json()["code"] == "invalid_period"
    bad = client.get("/api/v1/ratings/?min_experience=-1")
    assert bad.status_code == 400 and bad.json()["code"] == "invalid_min_experience"

"""Issue 17, defect 5: a name search matches whatever the case and the accents ("kovacs",
"Adam" and "ádám" find Fekete Ádám and Kovács Anna), on PostgreSQL (the suite's database)
and SQLite (this module run with ``DATABASE_URL=sqlite:///...``): the fold is a stored
column compared with ``LIKE``, no collation or extension involved."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Player
from games.ratings import selectors as ratings_selectors
from games.text.fold import fold
from tests.factories import PlayerFactory
from tests.tournaments.factories import DirectorFactory, EventFactory, flight_with


@pytest.mark.parametrize(
    ("text", "folded"),
    [
        ("Fekete Ádám", "fekete adam"),
        ("KOVÁCS Anna", "kovacs anna"),
        ("Győző Űrhajós", "gyozo urhajos"),  # the Hungarian double acute
        ("Straße", "strasse"),
        ("ﬁlip", "filip"),  # a compatibility ligature
        ("Ádám", fold("A\u0301da\u0301m")),  # composed or not: one fold
        ("", ""),
    ],
)
def test_the_fold_drops_case_and_accents(text, folded):
    assert fold(text) == folded


@pytest.fixture
def members(db):
    return [PlayerFactory(name="Fekete Ádám"), PlayerFactory(name="Kovács Anna")]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("query", "found"),
    [
        ("kovacs", ["Kovács Anna"]),
        ("KOVÁCS", ["Kovács Anna"]),
        ("Adam", ["Fekete Ádám"]),
        ("ádám", ["Fekete Ádám"]),
        ("Ádám", ["Fekete Ádám"]),
        ("a", ["Fekete Ádám", "Kovács Anna"]),
        ("zoltan", []),
    ],
)
def test_player_search_ignores_case_and_accents(members, query, found):
    assert [p.name for p in Player.search(query).order_by("name")] == found
    assert [p.name for p in ratings_selectors.player_search(name=query)] == found
    assert sorted(r.player.name for r in ratings_selectors.leaderboard(name=query)) == found


@pytest.mark.django_db
def test_the_search_name_follows_a_rename(members):
    adam = members[0]
    adam.name = "Fehér Ödön"
    adam.save(update_fields=["name"])
    assert [p.pk for p in Player.search("odon")] == [adam.pk]
    assert not Player.search("adam").exists()


@pytest.mark.django_db
def test_the_registration_form_and_the_players_api_search_without_accents(client, members):
    director = DirectorFactory()
    event = EventFactory(director=director)
    flight = flight_with(event, [])
    client.force_login(director)
    url = reverse("tournaments:flight-manage", kwargs={"slug": event.slug, "flight_id": flight.pk})
    page = client.get(url, {"q": "kovacs"}).content.decode()
    assert "Kovács Anna" in page and "Fekete Ádám" not in page
    api = client.get("/api/v1/ratings/", {"name": "adam"})
    assert api.status_code == 200
    assert "Fekete Ádám" in api.content.decode() and "Kovács" not in api.content.decode()

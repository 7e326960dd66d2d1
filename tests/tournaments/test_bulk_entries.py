"""Many players entered at once (issue 29, item 11): ticked club players and typed
guests in one post, each by the rules of entering one; a wrong name refused with its
line and nothing entered; players already in reported; late entries after the draw
where a place is open; the "last event" shortcut; the API; only directors."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import translation

from games.errors import Conflict, NotFound, PermissionDenied, ValidationFailed
from games.models import Player
from tests.factories import PlayerFactory, UserFactory, api_client
from tests.tournaments.factories import EventFactory, flight_with, rated_players
from tournaments.models import Entry
from tournaments.services.bulkentries import entries_add
from tournaments.services.draw import flight_draw
from tournaments.services.registration import flight_set_registration

pytestmark = pytest.mark.django_db


def _entered(flight) -> list[str]:
    return sorted(flight.entries.values_list("player__name", flat=True))


def test_ticked_players_and_typed_names_in_one_post(event, director):
    flight = flight_with(event, rated_players(2))
    first, second = flight.entries.order_by("pk")
    members = [PlayerFactory(name=n) for n in ("Kiss Anna", "Nagy Béla", "Tóth Ede")]
    flight.refresh_from_db()
    version = flight.version
    result = entries_add(
        flight_id=flight.pk,
        by=director,
        player_ids=[members[0].pk, members[1].pk, first.player_id, members[0].pk],
        names=["Új Vendég", "", "  tóth ede  ", "Másik Vendég"],
        version=version,
    )
    assert [e.player.name for e in result.entered] == [
        "Kiss Anna",
        "Nagy Béla",
        "Tóth Ede",  # a typed name that is a player's: that player
        "Új Vendég",
        "Másik Vendég",
    ]
    assert [e.player_id for e in result.already] == [first.player_id]
    assert sorted(p.name for p in result.created) == ["Másik Vendég", "Új Vendég"]
    assert all(e.status == Entry.Status.ACTIVE for e in result.entered)
    assert flight.entries.count() == 7
    assert Player.objects.filter(name="Új Vendég", user__isnull=True).exists()
    assert result.version > version
    # Again: nobody twice.
    again = entries_add(flight_id=flight.pk, by=director, player_ids=[members[2].pk], names=[])
    assert again.entered == [] and [e.player_id for e in again.already] == [members[2].pk]
    assert second.status == Entry.Status.ACTIVE


def test_a_wrong_line_refuses_everything(event, director):
    flight = flight_with(event, rated_players(2))
    before = _entered(flight)
    guests = Player.objects.count()
    member = PlayerFactory()
    with translation.override("en"), pytest.raises(ValidationFailed) as refused:
        entries_add(
            flight_id=flight.pk,
            by=director,
            player_ids=[member.pk],
            names=["Jó Név", "", "\u200b", "Másik"],
        )
    assert refused.value.code == "invalid_name"
    assert refused.value.extra["line"] == 3
    assert str(refused.value.detail).startswith("Line 3: ")
    assert _entered(flight) == before and Player.objects.count() == guests + 1
    assert not Player.objects.filter(name="Jó Név").exists()
    with pytest.raises(ValidationFailed) as empty:
        entries_add(flight_id=flight.pk, by=director, player_ids=[], names=["", " "])
    assert empty.value.code == "nothing_to_add"
    with pytest.raises(NotFound):
        entries_add(flight_id=flight.pk, by=director, player_ids=[member.pk, 99999999])
    inactive = PlayerFactory(is_active=False)
    with translation.override("en"), pytest.raises(ValidationFailed) as refused:
        entries_add(flight_id=flight.pk, by=director, player_ids=[member.pk, inactive.pk])
    assert refused.value.code == "inactive_player"
    assert str(refused.value.detail).startswith(f"{inactive.name}: ")
    assert _entered(flight) == before


def test_late_entries_after_the_draw_all_or_none(event, director):
    flight = flight_with(event, rated_players(6))  # 8-draw: two byes
    flight_draw(flight_id=flight.pk, by=director)
    late = [PlayerFactory(), PlayerFactory()]
    result = entries_add(flight_id=flight.pk, by=director, player_ids=[p.pk for p in late])
    assert [e.late for e in result.entered] == [True, True]
    assert [e.seed for e in result.entered] == [7, 8]
    # No bye left: a third refuses the post, the fourth is not entered either.
    more = [PlayerFactory(), PlayerFactory()]
    with pytest.raises(Conflict) as closed:
        entries_add(flight_id=flight.pk, by=director, player_ids=[p.pk for p in more])
    assert closed.value.code == "late_entry_closed"
    assert closed.value.extra["player_id"] == more[0].pk
    assert not Entry.objects.filter(player__in=more).exists()


def test_capacity_waitlist_stale_version_and_permission(event, director):
    flight = flight_with(event, rated_players(2))
    flight_set_registration(flight_id=flight.pk, by=director, open=True, capacity=3)
    waiting = PlayerFactory()
    Entry.objects.create(
        flight=flight, player=waiting, rating=waiting.rating, status=Entry.Status.WAITLISTED
    )
    newcomers = [PlayerFactory(), PlayerFactory()]
    result = entries_add(
        flight_id=flight.pk, by=director, player_ids=[waiting.pk, *[p.pk for p in newcomers]]
    )
    assert [e.player_id for e in result.waitlisted] == [waiting.pk]
    assert result.capacity == 3 and result.held == 4 and result.over_capacity
    with pytest.raises(Conflict) as stale:
        entries_add(flight_id=flight.pk, by=director, names=["Valaki"], version=1)
    assert stale.value.code == "stale_version"
    with pytest.raises(PermissionDenied):
        entries_add(flight_id=flight.pk, by=UserFactory(), names=["Valaki"])
    assert not Player.objects.filter(name="Valaki").exists()


def test_the_api(event, director):
    flight = flight_with(event, rated_players(1))
    member = PlayerFactory(name="Kovács Dóra")
    url = f"/api/v1/flights/{flight.pk}/entries/bulk/"
    bad = api_client(director).post(
        url, {"players": [member.pk], "names": ["Jó", "\u202eRossz"]}, format="json"
    )
    assert bad.status_code == 400
    assert bad.json()["code"] == "invalid_name" and bad.json()["line"] == 2
    assert not flight.entries.filter(player=member).exists()
    done = api_client(director).post(
        url, {"players": [member.pk], "names": ["Jó Vendég"]}, format="json"
    )
    assert done.status_code == 200, done.json()
    body = done.json()
    assert [e["name"] for e in body["entered"]] == ["Kovács Dóra", "Jó Vendég"]
    assert body["already"] == [] and len(body["created"]) == 1
    assert api_client(UserFactory()).post(url, {"names": ["X Y"]}, format="json").status_code == 403


def _page(event, flight):
    return reverse("tournaments:entries-add", kwargs={"slug": event.slug, "flight_id": flight.pk})


def test_the_page_and_the_last_event_shortcut(client, director):
    last = EventFactory(director=director, starts_on=datetime.date(2025, 2, 1))
    regulars = rated_players(3)
    flight_with(last, regulars)
    older = EventFactory(director=director, starts_on=datetime.date(2025, 1, 1))
    flight_with(older, [PlayerFactory(name="Régi Játékos")])
    event = EventFactory(director=director, starts_on=datetime.date(2025, 3, 1))
    flight = flight_with(event, [])
    client.cookies["django_language"] = "en"
    client.force_login(director)
    manage = reverse(
        "tournaments:flight-manage", kwargs={"slug": event.slug, "flight_id": flight.pk}
    )
    assert _page(event, flight) in client.get(manage).content.decode()
    page = client.get(_page(event, flight)).content.decode()
    assert "Régi Játékos" in page and f"({last.name})" in page
    assert " checked" not in page
    shortcut = client.get(_page(event, flight) + "?last=1").content.decode()
    for p in regulars:
        assert f'value="{p.pk}" checked' in shortcut
    assert shortcut.count(" checked") == 3
    post = {
        "player": [str(p.pk) for p in regulars],
        "names": "Vendég Egy\n\n\u200b",
        "version": flight.version,
    }
    refused = client.post(_page(event, flight), post)
    assert refused.status_code == 400
    text = refused.content.decode()
    assert "Line 3: " in text
    assert "Vendég Egy\n\n" in text  # the text box as typed
    assert text.count(" checked") == 3  # the ticks as they were
    assert flight.entries.count() == 0
    post["names"] = "Vendég Egy"
    done = client.post(_page(event, flight), post)
    assert done.status_code == 200
    assert "Entered: 4 players." in done.content.decode()
    assert flight.entries.count() == 4
    again = client.post(_page(event, flight), {**post, "version": ""}).content.decode()
    assert "Already in the flight:" in again and flight.entries.count() == 4
    client.force_login(UserFactory())
    assert client.get(_page(event, flight)).status_code == 403
    assert client.post(_page(event, flight), post).status_code == 403

"""Issue 29, item 6: a player entered in several flights of an event that run at the
same time is warned of (never refused): on entering (the director's flight page, the
desk's confirmation, the API's ``warnings``) and on the director's flight page ("Also
playing in: ..."). :mod:`tournaments.overlaps` decides what runs at the same time."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.factories import api_client
from tests.tournaments.factories import EventFactory, flight_with, rated_players
from tournaments import overlaps
from tournaments.models import Entry, Flight
from tournaments.services.draw import flight_draw
from tournaments.services.entries import entry_register, entry_withdraw
from tournaments.services.flights import flight_round_set
from tournaments.services.registration import flight_set_registration

pytestmark = pytest.mark.django_db


def _entry(flight, player) -> Entry:
    return Entry.objects.select_related("player", "flight").get(flight=flight, player=player)


def test_the_rules_of_simultaneous_flights():
    at = timezone.now()
    hour = datetime.timedelta(hours=1)
    w = overlaps.Window
    assert overlaps.simultaneous(w(1, "registration", None, None), w(2, "registration", None, None))
    assert overlaps.simultaneous(w(1, "drawn", None, None), w(2, "drawn", None, None))
    assert not overlaps.simultaneous(w(1, "drawn", None, None), w(2, "registration", None, None))
    assert not overlaps.simultaneous(w(1, "finished", None, None), w(2, "finished", None, None))
    assert not overlaps.simultaneous(w(1, "drawn", None, None), w(1, "drawn", None, None))
    # Start times known: their windows decide, whatever the status.
    assert overlaps.simultaneous(
        w(1, "drawn", at, at + 3 * hour), w(2, "registration", at + hour, at + hour)
    )
    assert not overlaps.simultaneous(
        w(1, "drawn", at, at + 2 * hour), w(2, "drawn", at + 3 * hour, at + 4 * hour)
    )


def test_entering_a_player_in_a_second_flight_warns_and_lists_it(client, event, director):
    p, q = rated_players(2)
    main = flight_with(event, [p, q], name="Main")
    side = flight_with(event, [q], name="Side")
    client.force_login(director)
    client.cookies["django_language"] = "en"
    done = client.post(
        reverse("tournaments:entry-register", kwargs={"slug": event.slug, "flight_id": side.pk}),
        {"player": p.pk},
        follow=True,
    ).content.decode()
    assert f"{p.name} is entered." in done
    assert f"{p.name} also plays in Main, at the same time." in done
    assert "message-warning" in done
    assert _entry(side, p).status == "active"  # entered all the same
    # Each flight's page lists the other flight on both players' lines.
    page = client.get(
        reverse("tournaments:flight-manage", kwargs={"slug": event.slug, "flight_id": main.pk})
    ).content.decode()
    for player in (p, q):
        line = page[page.index(f'data-entry="{_entry(main, player).pk}"') :]
        line = line[: line.index("</tr>")]
        assert "Also playing in:" in line and ">Side</a>" in line
    assert overlaps.flight_overlaps(main) == {
        _entry(main, p).pk: [side],
        _entry(main, q).pk: [side],
    }
    # Withdrawn from the side flight: no longer.
    entry_withdraw(entry_id=_entry(side, q).pk, by=director)
    assert list(overlaps.flight_overlaps(main)) == [_entry(main, p).pk]


def test_a_lone_entry_and_a_flight_not_at_the_same_time_warn_of_nothing(client, event, director):
    p, q, r = rated_players(3)
    early = flight_with(event, [p, q], name="Early")
    flight_draw(flight_id=early.pk, by=director)  # running
    later = flight_with(event, [r], name="Later")  # still in registration
    client.force_login(director)
    client.cookies["django_language"] = "en"
    done = client.post(
        reverse("tournaments:entry-register", kwargs={"slug": event.slug, "flight_id": later.pk}),
        {"player": p.pk},
        follow=True,
    ).content.decode()
    assert f"{p.name} is entered." in done and "also plays in" not in done
    assert overlaps.flight_overlaps(later) == {}
    # Another event's flight is never the same time.
    other = flight_with(EventFactory(), [p], name="Elsewhere")
    assert overlaps.entry_overlaps(_entry(other, p)) == []


def test_round_start_times_decide_when_known(event, director):
    p = rated_players(1)[0]
    evening = flight_with(event, [p, *rated_players(1, top=1500)], name="Evening")
    late = flight_with(event, [p], name="Late")
    at = timezone.now().replace(microsecond=0)
    flight_round_set(flight_id=evening.pk, by=director, part="main", number=1, starts_at=at)
    late_round = {"flight_id": late.pk, "by": director, "part": "main", "number": 1}
    flight_round_set(**late_round, starts_at=at + datetime.timedelta(hours=3))
    assert overlaps.entry_overlaps(_entry(late, p)) == []
    flight_round_set(**late_round, starts_at=at)
    assert overlaps.entry_overlaps(_entry(late, p)) == [Flight.objects.get(pk=evening.pk)]


def test_the_api_says_it_in_warnings(event, director):
    p = rated_players(1)[0]
    flight_with(event, [p], name="Main")
    side = flight_with(event, [], name="Side")
    answer = api_client(director).post(
        f"/api/v1/flights/{side.pk}/entries/", {"player": p.pk}, format="json"
    )
    assert answer.status_code == 201, answer.content
    assert answer.json()["warnings"] == [f"{p.name} also plays in Main, at the same time."]
    alone = api_client(director).post(
        f"/api/v1/flights/{side.pk}/entries/", {"name": "Walk In"}, format="json"
    )
    assert alone.json()["warnings"] == []


def test_the_desk_confirmation_warns(client, event, director):
    p = rated_players(1, with_login=True)[0]
    flight_with(event, [p], name="Main")
    side = flight_with(event, [], name="Side")
    flight_set_registration(flight_id=side.pk, by=director, open=True)
    # The player registering on the flight's page is told as well.
    client.force_login(p.user)
    client.cookies["django_language"] = "en"
    told = client.post(
        reverse("tournaments:flight-register", kwargs={"slug": event.slug, "flight_id": side.pk}),
        follow=True,
    ).content.decode()
    assert "You are registered" in told
    assert f"{p.name} also plays in Main, at the same time." in told
    entry = Entry.objects.get(flight=side, player=p)
    client.force_login(director)
    client.cookies["django_language"] = "en"
    done = client.post(
        reverse("tournaments:desk-confirm", kwargs={"slug": event.slug, "entry_id": entry.pk}),
        follow=True,
    ).content.decode()
    assert f"{p.name} also plays in Main, at the same time." in done
    entry.refresh_from_db()
    assert entry.status == "active"
    # The service itself refuses nothing: entering the same player elsewhere works.
    third = flight_with(event, [], name="Third")
    assert entry_register(flight_id=third.pk, by=director, player_id=p.pk).status == "active"

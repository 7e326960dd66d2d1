"""The night's desk (issue 17, item 10): a director ticks players in and marks the fee
paid, players check in on their phone with the event's code (every refusal, and the
throttle), the draw of the checked-in players only, a no-show withdrawn after the draw
as walkovers; the desk page and the API."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.urls import reverse

from games.errors import Conflict, PermissionDenied, ValidationFailed
from tests.factories import UserFactory, UserPlayerFactory, api_client
from tests.tournaments.factories import EventFactory, flight_with, rated_players
from tournaments import selectors
from tournaments.models import CHECK_IN_ALPHABET, Entry, Event, Flight, TournamentMatch
from tournaments.services.desk import (
    entry_check_in,
    entry_set_paid,
    event_check_in,
    event_new_check_in_code,
    flight_draw_checked_in,
)
from tournaments.services.draw import flight_draw
from tournaments.services.entries import entry_withdraw

pytestmark = pytest.mark.django_db


def test_every_event_gets_its_own_code_without_look_alikes():
    codes = {EventFactory().check_in_code for _ in range(20)}
    assert len(codes) == 20
    for code in codes:
        assert len(code) == 6 and set(code) <= set(CHECK_IN_ALPHABET)
        assert not set(code) & set("IL01O")


def test_the_migration_gives_existing_events_a_code_each():
    events = [EventFactory() for _ in range(3)]
    Event.objects.update(check_in_code="SAME22")
    migration = importlib.import_module("tournaments.migrations.0007_desk_registration")
    migration.codes_for_existing_events(apps, None)
    codes = set(
        Event.objects.filter(pk__in=[e.pk for e in events]).values_list("check_in_code", flat=True)
    )
    assert len(codes) == 3 and "SAME22" not in codes


def test_a_director_ticks_in_and_marks_paid(event, director):
    flight = flight_with(event, rated_players(3))
    a, b, c = flight.entries.order_by("pk")
    entry_check_in(entry_id=a.pk, by=director)
    first = Entry.objects.get(pk=a.pk).checked_in_at
    assert first is not None
    entry_check_in(entry_id=a.pk, by=director)  # again: keeps the first time
    assert Entry.objects.get(pk=a.pk).checked_in_at == first
    entry_set_paid(entry_id=a.pk, by=director, paid=True)
    entry_set_paid(entry_id=b.pk, by=director, paid=True)
    entry_check_in(entry_id=c.pk, by=director)
    entry_check_in(entry_id=c.pk, by=director, checked_in=False)
    assert Entry.objects.get(pk=c.pk).checked_in_at is None
    (desk,) = selectors.event_desk(event_id=event.pk)
    assert (desk.checked_in, desk.places, desk.paid) == (1, 3, 2)
    entry_set_paid(entry_id=b.pk, by=director, paid=False)
    assert Entry.objects.get(pk=b.pk).paid_at is None


def test_only_directors_tick(event):
    flight = flight_with(event, rated_players(2))
    entry = flight.entries.first()
    someone = UserPlayerFactory().user
    for call in (
        lambda: entry_check_in(entry_id=entry.pk, by=someone),
        lambda: entry_set_paid(entry_id=entry.pk, by=someone, paid=True),
        lambda: event_new_check_in_code(event_id=event.pk, by=someone),
        lambda: flight_draw_checked_in(flight_id=flight.pk, by=someone),
    ):
        with pytest.raises(PermissionDenied):
            call()
    entry.refresh_from_db()
    assert entry.checked_in_at is None and entry.paid_at is None


def test_a_player_checks_in_with_the_code(event, director):
    user = UserPlayerFactory().user
    main = flight_with(event, [user.player, *rated_players(2)])
    side = flight_with(event, [user.player], name="Side")
    done = event_check_in(event_id=event.pk, by=user, code=f" {event.check_in_code.lower()} ")
    assert {e.flight_id for e in done} == {main.pk, side.pk}
    assert all(e.checked_in_at for e in Entry.objects.filter(player=user.player))


def test_check_in_refusals(event, director):
    user = UserPlayerFactory().user
    with pytest.raises(PermissionDenied) as no_player:
        event_check_in(event_id=event.pk, by=UserFactory(), code=event.check_in_code)
    assert no_player.value.code == "no_player"
    flight = flight_with(event, [user.player, *rated_players(2)])
    with pytest.raises(ValidationFailed) as wrong:
        event_check_in(event_id=event.pk, by=user, code="WRONG2")
    assert wrong.value.code == "wrong_code"
    assert not Entry.objects.filter(checked_in_at__isnull=False).exists()
    stranger = UserPlayerFactory().user
    with pytest.raises(Conflict) as not_entered:
        event_check_in(event_id=event.pk, by=stranger, code=event.check_in_code)
    assert not_entered.value.code == "not_entered"
    # Another event's code does not open this one.
    other = EventFactory()
    with pytest.raises(ValidationFailed):
        event_check_in(event_id=event.pk, by=user, code=other.check_in_code)
    flight_draw(flight_id=flight.pk, by=director)
    with pytest.raises(Conflict) as drawn:
        event_check_in(event_id=event.pk, by=user, code=event.check_in_code)
    assert drawn.value.code == "already_drawn"
    # A new code: the old one stops working.
    old = event.check_in_code
    new = event_new_check_in_code(event_id=event.pk, by=director).check_in_code
    assert new != old


def test_a_waitlisted_player_does_not_check_in(event, director):
    from tournaments.services.registration import entry_self_register, flight_set_registration

    flight = flight_with(event, rated_players(1))
    flight_set_registration(flight_id=flight.pk, by=director, open=True, capacity=1)
    user = UserPlayerFactory().user
    assert entry_self_register(flight_id=flight.pk, by=user).status == "waitlisted"
    with pytest.raises(Conflict) as refused:
        event_check_in(event_id=event.pk, by=user, code=event.check_in_code)
    assert refused.value.code == "not_entered"


def test_the_draw_leaves_out_who_did_not_check_in(event, director):
    flight = flight_with(event, rated_players(6))
    entries = list(flight.entries.order_by("pk"))
    with pytest.raises(Conflict) as nobody:
        flight_draw_checked_in(flight_id=flight.pk, by=director)
    assert nobody.value.code == "nobody_checked_in"
    for e in entries[:4]:
        entry_check_in(entry_id=e.pk, by=director)
    result = flight_draw_checked_in(flight_id=flight.pk, by=director)
    assert {e.pk for e in result.left_out} == {entries[4].pk, entries[5].pk}
    assert result.flight.status == Flight.Status.DRAWN
    seeded = set(
        Entry.objects.filter(flight=flight, seed__isnull=False).values_list("pk", flat=True)
    )
    assert seeded == {e.pk for e in entries[:4]}
    assert set(
        Entry.objects.filter(flight=flight, status="withdrawn").values_list("pk", flat=True)
    ) == {
        entries[4].pk,
        entries[5].pk,
    }
    # A 4-player bracket: no byes for the left-out.
    assert TournamentMatch.objects.filter(flight=flight, round=1).count() == 2


def test_a_refused_draw_leaves_nobody_out(event, director):
    flight = flight_with(event, rated_players(3))
    first = flight.entries.order_by("pk").first()
    entry_check_in(entry_id=first.pk, by=director)
    with pytest.raises(ValidationFailed) as too_few:  # one player: the draw refuses
        flight_draw_checked_in(flight_id=flight.pk, by=director)
    assert too_few.value.code == "too_few_entrants"
    assert not flight.entries.filter(status="withdrawn").exists()


def test_after_the_draw_a_no_show_is_withdrawn_as_a_walkover(event, director):
    flight = flight_with(event, rated_players(4))
    flight_draw(flight_id=flight.pk, by=director)
    no_show = Entry.objects.get(flight=flight, seed=4)
    entry_withdraw(entry_id=no_show.pk, by=director)
    row = TournamentMatch.objects.get(flight=flight, slot_key="M1-1")
    assert row.status == TournamentMatch.Status.WALKOVER or row.winner == "a"


# ====================================================================== pages
def test_the_desk_page_ticks_and_counts(client, event, director):
    flight = flight_with(event, rated_players(3))
    entry = flight.entries.order_by("pk").first()
    client.force_login(director)
    url = reverse("tournaments:desk", args=[event.slug])
    client.cookies["django_language"] = "en"
    page = client.get(url)
    assert page.status_code == 200
    assert event.check_in_code in page.content.decode()
    client.post(
        reverse("tournaments:desk-check-in", args=[event.slug, entry.pk]), {"checked_in": "1"}
    )
    client.post(reverse("tournaments:desk-paid", args=[event.slug, entry.pk]), {"paid": "1"})
    entry.refresh_from_db()
    assert entry.checked_in_at and entry.paid_at
    text = client.get(url).content.decode()
    assert "checked in 1 of 3, paid 1" in text
    # Searchable, regardless of case and accents.
    entry.player.name = "Fekete Ádám"
    entry.player.save()
    found = client.get(url, {"q": "adam"}).content.decode()
    assert "Fekete Ádám" in found
    assert found.count('class="desk-entry') == 1


def test_the_desk_is_the_directors(client, event):
    client.force_login(UserPlayerFactory().user)
    assert client.get(reverse("tournaments:desk", args=[event.slug])).status_code == 403


def test_the_check_in_page(client, event, director):
    user = UserPlayerFactory().user
    flight_with(event, [user.player, *rated_players(1)])
    client.force_login(user)
    client.cookies["django_language"] = "en"
    url = reverse("tournaments:check-in", args=[event.slug])
    wrong = client.post(url, {"code": "NOPE22"})
    assert wrong.status_code == 400
    assert "not the event&#x27;s check-in code" in wrong.content.decode()
    assert 'value="NOPE22"' in wrong.content.decode()  # what was typed stays
    done = client.post(url, {"code": event.check_in_code}, follow=True)
    assert done.status_code == 200
    assert "data-checked-in" in done.content.decode()


def test_the_check_in_is_throttled(client, event, settings):
    user = UserPlayerFactory().user
    flight_with(event, [user.player, *rated_players(1)])
    client.force_login(user)
    url = reverse("tournaments:check-in", args=[event.slug])
    answers = [client.post(url, {"code": f"WRNG{i:02d}"}).status_code for i in range(12)]
    assert answers[:10] == [400] * 10
    assert answers[10:] == [429, 429]
    # Even the right code waits now: trying cannot go on.
    assert client.post(url, {"code": event.check_in_code}).status_code == 429
    assert not Entry.objects.filter(checked_in_at__isnull=False).exists()


def test_the_draw_button_of_the_checked_in(client, event, director):
    flight = flight_with(event, rated_players(3))
    entries = list(flight.entries.order_by("pk"))
    for e in entries[:2]:
        entry_check_in(entry_id=e.pk, by=director)
    client.force_login(director)
    manage = client.get(reverse("tournaments:flight-manage", args=[event.slug, flight.pk]))
    assert "data-draw-checked-in" in manage.content.decode()
    client.cookies["django_language"] = "en"
    url = reverse("tournaments:flight-draw-checked-in", args=[event.slug, flight.pk])
    asked = client.post(url).content.decode()  # issue 29: asked first, naming who is left out
    assert "Draw 2 players of" in asked and entries[2].player.name in asked
    assert Flight.objects.get(pk=flight.pk).status == "registration"
    answer = client.post(url, {"confirm": "1"}, follow=True)
    assert entries[2].player.name in answer.content.decode()
    assert Entry.objects.get(pk=entries[2].pk).status == "withdrawn"


def test_the_draw_of_the_checked_in_publishes_as_the_draw_form_says(client, event, director):
    """Both draw buttons share one form: its "publish" choice holds for the checked-in
    draw too (round 1 only by default; every round when asked)."""
    flights = [
        flight_with(event, rated_players(4, top=2000 - 100 * i), name=f"F{i}") for i in (0, 1)
    ]
    for flight in flights:
        for e in flight.entries.all():
            entry_check_in(entry_id=e.pk, by=director)
    client.force_login(director)
    for flight, publish in zip(flights, ("first", "all"), strict=True):
        client.post(
            reverse("tournaments:flight-draw-checked-in", args=[event.slug, flight.pk]),
            {"publish": publish, "confirm": "1"},
        )
    published = [
        sorted(flight.rounds.filter(published_at__isnull=False).values_list("number", flat=True))
        for flight in flights
    ]
    assert published == [[1], [1, 2]]


# ====================================================================== API
def test_the_api_desk_and_ticks(event, director):
    flight = flight_with(event, rated_players(2))
    entry = flight.entries.first()
    api = api_client(director)
    tick = api.post(f"/api/v1/entries/{entry.pk}/check-in/", {}, format="json")
    assert tick.status_code == 200 and tick.json()["checked_in_at"]
    paid = api.post(f"/api/v1/entries/{entry.pk}/paid/", {"paid": True}, format="json")
    assert paid.status_code == 200 and paid.json()["paid_at"]
    desk = api.get(f"/api/v1/events/{event.pk}/desk/").json()
    assert desk["check_in_code"] == event.check_in_code
    assert desk["flights"][0]["checked_in"] == 1 and desk["flights"][0]["paid"] == 1
    other = api_client(UserPlayerFactory().user)
    assert other.get(f"/api/v1/events/{event.pk}/desk/").status_code == 403
    assert other.post(f"/api/v1/entries/{entry.pk}/paid/", {"paid": False}).status_code == 403


def test_the_api_check_in_and_its_throttle(event, director):
    user = UserPlayerFactory().user
    flight_with(event, [user.player, *rated_players(1)])
    api = api_client(user)
    url = f"/api/v1/events/{event.pk}/check-in/"
    wrong = api.post(url, {"code": "XXXXXX"}, format="json")
    assert wrong.status_code == 400 and wrong.json()["code"] == "wrong_code"
    ok = api.post(url, {"code": event.check_in_code}, format="json")
    assert ok.status_code == 200 and ok.json()[0]["checked_in_at"]
    codes = [api.post(url, {"code": "XXXXXX"}, format="json").status_code for _ in range(9)]
    assert codes[-1] == 429


def test_the_api_draw_of_the_checked_in(event, director):
    flight = flight_with(event, rated_players(3))
    entries = list(flight.entries.order_by("pk"))
    for e in entries[:2]:
        entry_check_in(entry_id=e.pk, by=director)
    answer = api_client(director).post(
        f"/api/v1/flights/{flight.pk}/draw-checked-in/", {}, format="json"
    )
    assert answer.status_code == 200
    assert answer.json()["left_out"] == [entries[2].pk]

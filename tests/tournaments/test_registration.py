"""Self-registration (issue 17, item 13): a player registers for a flight open for it,
a director confirms or refuses, a cap puts the next ones on a waitlist promoted in
order when a place is freed; registrations not confirmed are never in the draw.
Every refusal by its code, and that a refusal changes nothing."""

from __future__ import annotations

import pytest

from games.errors import Conflict, PermissionDenied, ValidationFailed
from games.models import Notification
from tests.factories import UserFactory, UserPlayerFactory
from tests.tournaments.factories import flight_with, rated_players
from tournaments import selectors
from tournaments.models import Entry, Flight
from tournaments.services.draw import flight_draw
from tournaments.services.entries import entry_register, entry_withdraw
from tournaments.services.registration import (
    entry_confirm,
    entry_refuse,
    entry_self_register,
    entry_self_withdraw,
    flight_set_registration,
)

pytestmark = pytest.mark.django_db


def open_flight(event, director, *, capacity=None, players=()):
    flight = flight_with(event, players)
    flight_set_registration(flight_id=flight.pk, by=director, open=True, capacity=capacity)
    return Flight.objects.get(pk=flight.pk)


def player_users(n):
    return [UserPlayerFactory().user for _ in range(n)]


def statuses(flight):
    return {e.player.user_id: e.status for e in flight.entries.select_related("player") if e.player}


def test_a_player_registers_and_a_director_confirms(event, director):
    flight = open_flight(event, director)
    (user,) = player_users(1)
    entry = entry_self_register(flight_id=flight.pk, by=user)
    assert entry.status == Entry.Status.PENDING
    assert entry.player == user.player
    entry = entry_confirm(entry_id=entry.pk, by=director)
    assert entry.status == Entry.Status.ACTIVE
    assert Notification.objects.filter(
        recipient=user.player, kind="registration_confirmed"
    ).exists()


def test_registration_refusals(event, director):
    flight = flight_with(event, [])
    (user,) = player_users(1)
    with pytest.raises(Conflict) as closed:
        entry_self_register(flight_id=flight.pk, by=user)
    assert closed.value.code == "registration_closed"
    flight_set_registration(flight_id=flight.pk, by=director, open=True)
    with pytest.raises(PermissionDenied) as no_player:
        entry_self_register(flight_id=flight.pk, by=UserFactory())
    assert no_player.value.code == "no_player"
    entry_self_register(flight_id=flight.pk, by=user)
    with pytest.raises(Conflict) as twice:
        entry_self_register(flight_id=flight.pk, by=user)
    assert twice.value.code == "already_entered"
    assert flight.entries.count() == 1
    # After the draw: closed.
    for p in rated_players(2):
        entry_register(flight_id=flight.pk, by=director, player_id=p.pk)
    flight_draw(flight_id=flight.pk, by=director)
    (late,) = player_users(1)
    with pytest.raises(Conflict) as drawn:
        entry_self_register(flight_id=flight.pk, by=late)
    assert drawn.value.code == "already_drawn"
    with pytest.raises(Conflict) as settings_drawn:
        flight_set_registration(flight_id=flight.pk, by=director, open=False)
    assert settings_drawn.value.code == "already_drawn"


def test_only_directors_confirm_refuse_and_open(event, director):
    flight = open_flight(event, director)
    user, other = player_users(2)
    entry = entry_self_register(flight_id=flight.pk, by=user)
    for service in (entry_confirm, entry_refuse):
        with pytest.raises(PermissionDenied) as refused:
            service(entry_id=entry.pk, by=other)
        assert refused.value.code == "not_a_director"
    with pytest.raises(PermissionDenied):
        flight_set_registration(flight_id=flight.pk, by=user, open=False)
    with pytest.raises(PermissionDenied) as not_mine:
        entry_self_withdraw(entry_id=entry.pk, by=other)
    assert not_mine.value.code == "not_your_entry"
    assert Entry.objects.get(pk=entry.pk).status == Entry.Status.PENDING


def test_capacity_must_be_a_number_of_places(event, director):
    flight = flight_with(event, [])
    for bad in (0, -1, 1000, True):
        with pytest.raises(ValidationFailed) as refused:
            flight_set_registration(flight_id=flight.pk, by=director, open=True, capacity=bad)
        assert refused.value.code == "invalid_capacity"
    assert Flight.objects.get(pk=flight.pk).self_registration is False


def test_beyond_the_cap_the_waitlist_in_order_and_promotion(event, director):
    flight = open_flight(event, director, capacity=3, players=rated_players(1))
    users = player_users(5)
    entries = [entry_self_register(flight_id=flight.pk, by=u) for u in users]
    assert [e.status for e in entries] == [
        "pending",
        "pending",
        "waitlisted",
        "waitlisted",
        "waitlisted",
    ]
    waiting = [e.pk for e in selectors.flight_waitlist(flight=flight) if e.status == "waitlisted"]
    assert waiting == [entries[2].pk, entries[3].pk, entries[4].pk]
    # A confirmed waitlisted entry is refused: it waits for a place.
    with pytest.raises(Conflict) as waits:
        entry_confirm(entry_id=entries[2].pk, by=director)
    assert waits.value.code == "waitlisted"
    # The player withdraws: the first on the waitlist moves up and is told.
    entry_self_withdraw(entry_id=entries[0].pk, by=users[0])
    assert Entry.objects.get(pk=entries[2].pk).status == Entry.Status.PENDING
    assert Entry.objects.get(pk=entries[3].pk).status == Entry.Status.WAITLISTED
    assert Notification.objects.filter(
        recipient=users[2].player, kind="registration_promoted"
    ).exists()
    assert not Notification.objects.filter(
        recipient=users[3].player, kind="registration_promoted"
    ).exists()
    # The director withdraws an active entry: the next one.
    entry_withdraw(entry_id=flight.entries.get(status="active").pk, by=director)
    assert Entry.objects.get(pk=entries[3].pk).status == Entry.Status.PENDING
    # The director refuses a pending one: the last one moves up.
    entry_refuse(entry_id=entries[1].pk, by=director)
    assert Entry.objects.get(pk=entries[1].pk).status == Entry.Status.REFUSED
    assert Entry.objects.get(pk=entries[4].pk).status == Entry.Status.PENDING
    assert Notification.objects.filter(
        recipient=users[1].player, kind="registration_refused"
    ).exists()


def test_more_places_move_the_waitlist_up(event, director):
    flight = open_flight(event, director, capacity=1)
    users = player_users(3)
    entries = [entry_self_register(flight_id=flight.pk, by=u) for u in users]
    flight_set_registration(flight_id=flight.pk, by=director, open=True, capacity=2)
    assert [Entry.objects.get(pk=e.pk).status for e in entries] == [
        "pending",
        "pending",
        "waitlisted",
    ]
    flight_set_registration(flight_id=flight.pk, by=director, open=True, capacity=None)
    assert Entry.objects.get(pk=entries[2].pk).status == "pending"


def test_unconfirmed_and_waitlisted_entries_stay_out_of_the_draw(event, director):
    flight = open_flight(event, director, capacity=4, players=rated_players(2))
    users = player_users(4)
    entries = [entry_self_register(flight_id=flight.pk, by=u) for u in users]
    entry_confirm(entry_id=entries[0].pk, by=director)
    flight_draw(flight_id=flight.pk, by=director)
    drawn = Entry.objects.filter(flight=flight, seed__isnull=False)
    assert drawn.count() == 3
    assert entries[0].pk in {e.pk for e in drawn}
    for e in entries[1:]:
        assert Entry.objects.get(pk=e.pk).seed is None
    assert sum(1 for m in flight.matches.all() if m.entry_a_id in {e.pk for e in entries[1:]}) == 0
    # The flight's page and API list the flight proper only.
    page = selectors.flight_bracket(flight_id=flight.pk)
    assert {e.pk for e in page.entries} == {e.pk for e in drawn}
    # A registration left waiting after the draw: not confirmed any more, refused fine.
    with pytest.raises(Conflict) as late:
        entry_confirm(entry_id=entries[1].pk, by=director)
    assert late.value.code == "already_drawn"
    with pytest.raises(Conflict) as own:
        entry_self_withdraw(entry_id=entries[0].pk, by=users[0])
    assert own.value.code == "already_drawn"
    entry_refuse(entry_id=entries[1].pk, by=director)


def test_refuse_and_withdraw_twice_are_refused(event, director):
    flight = open_flight(event, director)
    (user,) = player_users(1)
    entry = entry_self_register(flight_id=flight.pk, by=user)
    entry_refuse(entry_id=entry.pk, by=director)
    with pytest.raises(Conflict) as again:
        entry_refuse(entry_id=entry.pk, by=director)
    assert again.value.code == "not_a_registration"
    with pytest.raises(Conflict) as confirm:
        entry_confirm(entry_id=entry.pk, by=director)
    assert confirm.value.code == "not_to_confirm"
    with pytest.raises(Conflict) as withdraw:
        entry_self_withdraw(entry_id=entry.pk, by=user)
    assert withdraw.value.code == "already_withdrawn"
    with pytest.raises(Conflict):
        entry_withdraw(entry_id=entry.pk, by=director)


# ====================================================================== pages and API
def test_the_flight_page_registers_and_withdraws(client, event, director):
    from django.urls import reverse

    flight = open_flight(event, director, capacity=1)
    first, second = player_users(2)
    entry_self_register(flight_id=flight.pk, by=first)
    url = reverse("tournaments:flight", args=[event.slug, flight.pk])
    client.cookies["django_language"] = "en"
    client.force_login(second)
    page = client.get(url).content.decode()
    assert "data-register" in page
    client.post(reverse("tournaments:flight-register", args=[event.slug, flight.pk]))
    mine = Entry.objects.get(flight=flight, player=second.player)
    assert mine.status == "waitlisted"
    page = client.get(url).content.decode()
    assert "You are number 1 on the waitlist." in page
    # Another player's registration is not withdrawn from here.
    theirs = Entry.objects.get(flight=flight, player=first.player)
    answer = client.post(
        reverse("tournaments:registration-withdraw", args=[event.slug, theirs.pk]), follow=True
    )
    assert "This is not your entry." in answer.content.decode()
    client.force_login(first)
    client.post(reverse("tournaments:registration-withdraw", args=[event.slug, theirs.pk]))
    assert Entry.objects.get(pk=mine.pk).status == "pending"
    # The director confirms from the desk.
    client.force_login(director)
    client.post(reverse("tournaments:desk-confirm", args=[event.slug, mine.pk]))
    assert Entry.objects.get(pk=mine.pk).status == "active"


def test_the_registration_api(event, director):
    from tests.factories import api_client

    flight = flight_with(event, [])
    boss = api_client(director)
    closed = api_client(UserPlayerFactory().user).post(f"/api/v1/flights/{flight.pk}/register/")
    assert closed.status_code == 409 and closed.json()["code"] == "registration_closed"
    settings = boss.post(
        f"/api/v1/flights/{flight.pk}/registrations/",
        {"open": True, "capacity": 1},
        format="json",
    )
    assert settings.status_code == 200 and settings.json()["capacity"] == 1
    users = player_users(3)
    made = [api_client(u).post(f"/api/v1/flights/{flight.pk}/register/") for u in users]
    assert [r.status_code for r in made] == [201, 201, 201]
    assert [r.json()["status"] for r in made] == ["pending", "waitlisted", "waitlisted"]
    order = api_client().get(f"/api/v1/flights/{flight.pk}/registrations/").json()
    assert [e["id"] for e in order] == [r.json()["id"] for r in made]
    ids = [r.json()["id"] for r in made]
    refused = api_client(users[1]).post(f"/api/v1/entries/{ids[1]}/confirm/")
    assert refused.status_code == 403
    gone = api_client(users[0]).post(f"/api/v1/entries/{ids[0]}/withdraw-own/")
    assert gone.status_code == 200 and gone.json()["status"] == "withdrawn"
    assert Entry.objects.get(pk=ids[1]).status == "pending"
    assert boss.post(f"/api/v1/entries/{ids[1]}/confirm/").json()["status"] == "active"
    assert boss.post(f"/api/v1/entries/{ids[2]}/refuse/").json()["status"] == "refused"
    detail = api_client().get(f"/api/v1/flights/{flight.pk}/").json()
    assert {e["id"] for e in detail["entries"]} == {ids[0], ids[1]}  # the flight proper
    assert detail["self_registration"] is True


def test_registrations_are_not_in_season_points_or_the_player_page(event, director):
    flight = open_flight(event, director, capacity=2, players=rated_players(2))
    waiting, refused = player_users(2)
    entry_self_register(flight_id=flight.pk, by=waiting)
    entry_refuse(entry_id=entry_self_register(flight_id=flight.pk, by=refused).pk, by=director)
    flight_draw(flight_id=flight.pk, by=director)
    players = {e.player_id for e, _points in selectors.flight_season_points(flight=flight)}
    assert waiting.player.pk not in players and refused.player.pk not in players
    assert len(players) == 2
    assert selectors.player_placings(player_id=waiting.player.pk) == []
    assert selectors.player_placings(player_id=refused.player.pk) == []


def test_the_registrations_api_tells_each_reader_what_the_flights_page_does(event, director):
    """Issue 30's probe: the registrations to confirm (names, ratings, statuses) were
    anyone's through the API. Now the event's directors read them in full; anyone else
    the names and statuses the public page lists, a rating only on their own; a draft
    event's flight is 404 but to its directors; once drawn, the public list is empty."""
    from tests.factories import api_client
    from tests.tournaments.factories import EventFactory

    flight = open_flight(event, director, capacity=3, players=rated_players(2))
    first, second = player_users(2)
    pending = entry_self_register(flight_id=flight.pk, by=first)
    waiting = entry_self_register(flight_id=flight.pk, by=second)
    url = f"/api/v1/flights/{flight.pk}/registrations/"

    def read(user=None):
        answer = api_client(user).get(url)
        assert answer.status_code == 200, answer.content
        return {row["id"]: (row["name"], row["status"], row["rating"]) for row in answer.json()}

    names = {pending.pk: first.player.name, waiting.pk: second.player.name}
    ratings = {pending.pk: str(pending.rating), waiting.pk: str(waiting.rating)}
    public = {
        pending.pk: (names[pending.pk], "pending", None),
        waiting.pk: (names[waiting.pk], "waitlisted", None),
    }
    assert read() == public
    assert read(UserPlayerFactory().user) == public  # another player: the same
    assert read(first) == {
        **public,
        pending.pk: (names[pending.pk], "pending", ratings[pending.pk]),
    }
    full = {k: (names[k], s, ratings[k]) for k, (_, s, _r) in public.items()}
    assert read(director) == full
    assert read(UserFactory(is_superuser=True)) == full

    # A draft event's flight: not there for the public, as its page is not.
    draft = EventFactory(status="draft", director=director)
    hidden = open_flight(draft, director)
    entry_self_register(flight_id=hidden.pk, by=first)
    hidden_url = f"/api/v1/flights/{hidden.pk}/registrations/"
    for user in (None, first, UserPlayerFactory().user):
        answer = api_client(user).get(hidden_url)
        assert answer.status_code == 404 and answer.json()["code"] == "flight_not_found"
    assert len(api_client(director).get(hidden_url).json()) == 1

    # Drawn, the page shows no registration: the public list is empty, yours stays yours.
    flight_draw(flight_id=flight.pk, by=director)
    assert read() == {}
    assert read(second) == {waiting.pk: (names[waiting.pk], "waitlisted", ratings[waiting.pk])}
    assert set(read(director)) == {pending.pk, waiting.pk}


def test_a_draft_is_answered_by_the_api_as_nothing_is(director):
    """A draft event and its flights are 404 to all but its directors with the code of
    one that does not exist, so that the answer does not tell there is a draft."""
    from tests.factories import api_client
    from tests.tournaments.factories import EventFactory

    draft = EventFactory(status="draft", director=director)
    flight = flight_with(draft, [])
    stranger = api_client(UserPlayerFactory().user)
    for path, missing in (
        (f"/api/v1/events/{draft.pk}/", "/api/v1/events/999999/"),
        (f"/api/v1/flights/{flight.pk}/", "/api/v1/flights/999999/"),
        (f"/api/v1/flights/{flight.pk}/registrations/", "/api/v1/flights/999999/registrations/"),
    ):
        hidden, absent = stranger.get(path), stranger.get(missing)
        assert hidden.status_code == absent.status_code == 404, path
        assert hidden.json() == absent.json(), path
        assert api_client(director).get(path).status_code == 200, path

"""Seeds by hand (issue 29, item 12): the director's numbers order the draw (the entries
without one after them, by rating); refusals (a number twice, not a number, after the
draw, not an active entry) change nothing and name the rows; the API and the page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.errors import Conflict, PermissionDenied, ValidationFailed
from tests.factories import UserFactory, api_client
from tests.tournaments.factories import flight_with, rated_players
from tournaments.models import Entry, Flight
from tournaments.services.draw import flight_draw
from tournaments.services.entries import entry_withdraw
from tournaments.services.seeding import flight_set_seeds

pytestmark = pytest.mark.django_db


def _by_rating(flight):
    return list(flight.entries.order_by("-rating"))  # rated_players: best first


def _numbers(flight):
    return dict(flight.entries.values_list("pk", "manual_seed"))


def test_the_draw_follows_the_numbers_then_rating(event, director):
    flight = flight_with(event, rated_players(5))
    e = _by_rating(flight)
    flight_set_seeds(flight_id=flight.pk, by=director, seeds={e[4].pk: 1, e[2].pk: 2})
    flight.refresh_from_db()
    assert flight.seeding == Flight.SeedingMethod.MANUAL
    flight_draw(flight_id=flight.pk, by=director)
    seeds = dict(flight.entries.values_list("pk", "seed"))
    assert [seeds[x.pk] for x in e] == [3, 4, 2, 5, 1]


def test_gaps_in_the_numbers_keep_their_order(event, director):
    flight = flight_with(event, rated_players(3))
    e = _by_rating(flight)
    flight_set_seeds(
        flight_id=flight.pk, by=director, seeds={e[0].pk: 30, e[1].pk: 10, e[2].pk: 20}
    )
    flight_draw(flight_id=flight.pk, by=director)
    seeds = dict(flight.entries.values_list("pk", "seed"))
    assert [seeds[x.pk] for x in e] == [3, 1, 2]


@pytest.mark.parametrize(
    ("bad", "code"),
    [(0, "invalid_seed"), (1000, "invalid_seed"), ("2", "invalid_seed"), (1, "duplicate_seed")],
)
def test_refusals_change_nothing(event, director, bad, code):
    flight = flight_with(event, rated_players(3))
    e = _by_rating(flight)
    flight_set_seeds(flight_id=flight.pk, by=director, seeds={e[0].pk: 1})
    before = (_numbers(flight), Flight.objects.get(pk=flight.pk).version)
    with pytest.raises(ValidationFailed) as caught:
        flight_set_seeds(flight_id=flight.pk, by=director, seeds={e[1].pk: 5, e[2].pk: bad})
    assert caught.value.code == code
    assert (_numbers(flight), Flight.objects.get(pk=flight.pk).version) == before


def test_only_active_entries_before_the_draw_by_a_director(event, director):
    flight = flight_with(event, rated_players(3))
    e = _by_rating(flight)
    entry_withdraw(entry_id=e[2].pk, by=director)
    with pytest.raises(ValidationFailed) as caught:
        flight_set_seeds(flight_id=flight.pk, by=director, seeds={e[2].pk: 1})
    assert caught.value.code == "unknown_entry"
    with pytest.raises(PermissionDenied):
        flight_set_seeds(flight_id=flight.pk, by=UserFactory(), seeds={e[0].pk: 1})
    flight_draw(flight_id=flight.pk, by=director)
    with pytest.raises(Conflict) as caught:
        flight_set_seeds(flight_id=flight.pk, by=director, seeds={e[0].pk: 1})
    assert caught.value.code == "already_drawn"


def test_the_api_sets_the_seeds(event, director):
    flight = flight_with(event, rated_players(3))
    e = _by_rating(flight)
    client = api_client(director)
    url = f"/api/v1/flights/{flight.pk}/seeds/"
    answer = client.put(url, [{"entry": e[2].pk, "seed": 1}], format="json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["seeding"] == "manual"
    shown = {e["id"]: e["manual_seed"] for e in answer.json()["entries"]}
    assert shown[e[2].pk] == 1 and shown[e[0].pk] is None
    assert Entry.objects.get(pk=e[2].pk).manual_seed == 1
    twice = client.put(
        url, [{"entry": e[0].pk, "seed": 2}, {"entry": e[1].pk, "seed": 2}], format="json"
    )
    assert twice.status_code == 400 and twice.json()["code"] == "duplicate_seed"
    assert Entry.objects.get(pk=e[0].pk).manual_seed is None
    zero = client.put(url, [{"entry": e[0].pk, "seed": 0}], format="json")
    assert zero.status_code == 400


def test_the_page_prefills_saves_and_keeps_what_was_typed(client, event, director):
    flight = flight_with(event, rated_players(3))
    e = _by_rating(flight)
    client.force_login(director)
    client.cookies["django_language"] = "en"
    url = reverse("tournaments:flight-seeds", args=[event.slug, flight.pk])
    manage = reverse("tournaments:flight-manage", args=[event.slug, flight.pk])
    assert url in client.get(manage).content.decode()
    page = client.get(url).content.decode()
    for n, x in enumerate(e, start=1):  # prefilled by the rating order
        assert f'name="seed-{x.pk}" id="seed-{x.pk}" value="{n}"' in page
    version = Flight.objects.get(pk=flight.pk).version
    typed = {"version": version, f"seed-{e[0].pk}": "2", f"seed-{e[1].pk}": "2"}
    typed[f"seed-{e[2].pk}"] = "x7"
    refused = client.post(url, typed)
    assert refused.status_code == 400
    text = refused.content.decode()
    assert 'value="x7"' in text and e[2].player.name in text and 'aria-invalid="true"' in text
    assert all(v is None for v in _numbers(flight).values())
    dup = client.post(url, {**typed, f"seed-{e[2].pk}": "1"})
    assert dup.status_code == 400 and "Seed 2 is given to more than one player." in (
        dup.content.decode()
    )
    assert e[0].player.name in dup.content.decode()
    done = client.post(
        url,
        {
            "version": version,
            f"seed-{e[0].pk}": "3",
            f"seed-{e[1].pk}": "1",
            f"seed-{e[2].pk}": "2",
        },
        follow=True,
    )
    assert done.redirect_chain[-1][0] == manage
    assert _numbers(flight) == {e[0].pk: 3, e[1].pk: 1, e[2].pk: 2}
    assert Flight.objects.get(pk=flight.pk).seeding == "manual"


def test_the_arrows_move_a_player_and_save_nothing(client, event, director):
    flight = flight_with(event, rated_players(3))
    e = _by_rating(flight)
    client.force_login(director)
    client.cookies["django_language"] = "en"
    url = reverse("tournaments:flight-seeds", args=[event.slug, flight.pk])
    typed = {f"seed-{x.pk}": str(n) for n, x in enumerate(e, start=1)}
    moved = client.post(url, {**typed, "move": f"{e[2].pk}:up"})
    assert moved.status_code == 200
    page = moved.content.decode()
    assert f'name="seed-{e[2].pk}" id="seed-{e[2].pk}" value="2"' in page
    assert f'name="seed-{e[1].pk}" id="seed-{e[1].pk}" value="3"' in page
    assert page.index(f'id="seed-{e[2].pk}"') < page.index(f'id="seed-{e[1].pk}"')
    assert "Not saved yet" in page
    assert all(v is None for v in _numbers(flight).values())
    top = client.post(url, {**typed, "move": f"{e[0].pk}:up"}).content.decode()
    assert f'name="seed-{e[0].pk}" id="seed-{e[0].pk}" value="1"' in top  # already first

"""Side-pool players in bulk (issue 29, item 11): the flight's players ticked into a side
pool, and ticked paid, in one post; all or none (a player already in, an entry of
another flight, a paid box for someone not in the pool refuse the whole post); the page,
the API, only directors, not once the flight is finished."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.errors import Conflict, NotFound, PermissionDenied, ValidationFailed
from tests.factories import UserFactory, api_client
from tests.tournaments.factories import flight_with, rated_players
from tournaments.models import SidePoolEntry
from tournaments.services.money import side_pool_create, side_pool_enter, side_pool_enter_many

pytestmark = pytest.mark.django_db


def _pool(event, director):
    flight = flight_with(event, rated_players(6))
    pool = side_pool_create(flight_id=flight.pk, by=director, name="Jackpot", fee="1000")
    return flight, pool, list(flight.entries.order_by("pk"))


def _members(pool) -> dict[int, bool]:
    return {m.entry_id: m.paid_at is not None for m in SidePoolEntry.objects.filter(pool=pool)}


def test_many_in_and_paid_in_one_call(event, director):
    _flight, pool, entries = _pool(event, director)
    side_pool_enter(pool_id=pool.pk, by=director, entry_id=entries[5].pk)
    changed = side_pool_enter_many(
        pool_id=pool.pk,
        by=director,
        entry_ids=[entries[0].pk, entries[1].pk, entries[2].pk],
        paid_ids=[entries[1].pk, entries[5].pk],
    )
    assert len(changed) == 4
    assert _members(pool) == {
        entries[0].pk: False,
        entries[1].pk: True,
        entries[2].pk: False,
        entries[5].pk: True,
    }


def test_one_wrong_player_changes_nothing(event, director):
    _flight, pool, entries = _pool(event, director)
    side_pool_enter(pool_id=pool.pk, by=director, entry_id=entries[0].pk)
    before = _members(pool)
    with pytest.raises(Conflict) as already:
        side_pool_enter_many(pool_id=pool.pk, by=director, entry_ids=[entries[1].pk, entries[0].pk])
    assert already.value.code == "already_in_pool"
    assert already.value.extra["entry"] == entries[0].pk
    assert entries[0].player.name in str(already.value.detail)
    other = flight_with(event, rated_players(2), name="Other").entries.first()
    with pytest.raises(NotFound):
        side_pool_enter_many(pool_id=pool.pk, by=director, entry_ids=[entries[1].pk, other.pk])
    with pytest.raises(NotFound) as not_in:
        side_pool_enter_many(
            pool_id=pool.pk, by=director, entry_ids=[entries[1].pk], paid_ids=[entries[2].pk]
        )
    assert not_in.value.code == "not_in_pool"
    with pytest.raises(ValidationFailed):
        side_pool_enter_many(pool_id=pool.pk, by=director, entry_ids=[])
    with pytest.raises(PermissionDenied):
        side_pool_enter_many(pool_id=pool.pk, by=UserFactory(), entry_ids=[entries[1].pk])
    assert _members(pool) == before


def test_the_page_and_the_api(client, event, director):
    flight, pool, entries = _pool(event, director)
    client.force_login(director)
    money = reverse("tournaments:flight-money", args=[event.slug, flight.pk])
    url = reverse("tournaments:side-pool-enter-many", args=[event.slug, pool.pk])
    page = client.get(money).content.decode()
    assert url in page and page.count('name="entry" value=') == 6
    post = {"entry": [str(entries[0].pk), str(entries[1].pk)], "paid": [str(entries[1].pk)]}
    assert client.post(url, post).status_code == 302
    assert _members(pool) == {entries[0].pk: False, entries[1].pk: True}
    # Again: the whole post is refused (entries[0] is in), nothing more changes.
    refused = client.post(url, {**post, "entry": [str(entries[2].pk), str(entries[0].pk)]})
    assert refused.status_code == 302
    assert _members(pool) == {entries[0].pk: False, entries[1].pk: True}
    api = f"/api/v1/side-pools/{pool.pk}/entries/bulk/"
    done = api_client(director).post(
        api, {"entries": [entries[3].pk], "paid": [entries[0].pk, entries[3].pk]}, format="json"
    )
    assert done.status_code == 200, done.json()
    assert sorted(r["entry"] for r in done.json()) == [entries[0].pk, entries[3].pk]
    assert all(r["paid"] for r in done.json())
    bad = api_client(director).post(api, {"entries": [entries[3].pk]}, format="json")
    assert bad.status_code == 409 and bad.json()["code"] == "already_in_pool"
    assert (
        api_client(UserFactory()).post(api, {"entries": [entries[4].pk]}, format="json").status_code
        == 403
    )
    client.force_login(UserFactory())
    assert client.post(url, post).status_code == 403

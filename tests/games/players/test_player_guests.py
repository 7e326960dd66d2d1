"""A player made on the spot from a typed name (games.players.guests), shared by the
tournaments' walk-ins and the chouette's guests: the name cleaned, a name already taken
(whatever the case) refused naming its player, also when the database's unique
constraint is what catches it; namesakes found by the folded name."""

from __future__ import annotations

import pytest

from games.errors import Conflict, ValidationFailed
from games.models import Player
from games.players import guests
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def test_a_guest_is_an_active_player_without_a_login() -> None:
    guest = guests.player_create_guest(name="  Kovacs   Anna ")
    assert guest.name == "Kovacs Anna" and guest.user is None and guest.is_active
    assert guest.search_name == "kovacs anna"


def test_a_taken_name_is_refused_whatever_the_case_and_names_its_player() -> None:
    kiss = PlayerFactory(name="Kiss Anna")
    for typed in ("Kiss Anna", "kiss anna", "KISS  ANNA"):
        with pytest.raises(Conflict) as err:
            guests.player_create_guest(name=typed)
        assert err.value.code == "player_exists"
        assert err.value.extra == {"player_id": kiss.pk, "name": "Kiss Anna"}
    with pytest.raises(ValidationFailed) as err:
        guests.player_create_guest(name="\u200b")
    assert err.value.code == "invalid_name"
    assert Player.objects.count() == 1


def test_the_unique_constraint_decides_a_race(monkeypatch) -> None:
    """Another request made the same name between the check and the insert: PostgreSQL's
    unique constraint refuses the insert and the answer is the same 409, inside a
    transaction that goes on (the insert ran in a savepoint)."""
    first = PlayerFactory(name="Nagy Béla")
    check = guests._taken
    calls: list[str] = []

    def late_check(name: str):
        calls.append(name)
        return None if len(calls) == 1 else check(name)  # the first check saw nobody

    monkeypatch.setattr(guests, "_taken", late_check)
    with pytest.raises(Conflict) as err:
        guests.player_create_guest(name="nagy béla")
    assert err.value.code == "player_exists" and err.value.extra["player_id"] == first.pk
    assert len(calls) == 2
    assert Player.objects.count() == 1  # the connection is still usable


def test_namesakes_are_found_by_the_folded_name() -> None:
    anna = PlayerFactory(name="Kovács Anna")
    PlayerFactory(name="Kovács Annamária")
    assert guests.player_namesakes(name="kovacs  anna") == [anna]
    assert guests.player_namesakes(name="Kovács Anna") == [anna]
    assert guests.player_namesakes(name="Kovács") == []
    assert guests.player_namesakes(name="   ") == []

"""Entrants' final places from finishing orders and standings (pure, no database)."""

from __future__ import annotations

from tournaments.pairing import (
    NO_PLACE,
    EntrantPlace,
    Place,
    Standing,
    entrant_places,
    standings_places,
)


def _line(rank: int, player: str) -> Standing:
    return Standing(rank, player, 0, 0, 0, 0, 0, 0, 0)


def test_standings_share_a_place_per_rank() -> None:
    table = [_line(1, "a"), _line(2, "b"), _line(2, "c"), _line(4, "d")]
    places = standings_places(table, final=True)
    assert [(p.label, p.entrants, p.final) for p in places] == [
        ("1", ("a",), True),
        ("2-3", ("b", "c"), True),
        ("4", ("d",), True),
    ]
    assert all(not p.final for p in standings_places(table, final=False))
    assert standings_places([], final=True) == ()


def test_main_and_side_places_only_when_final() -> None:
    orders = {
        "main": (
            Place(1, ("a", "b", "c", "d"), final=False),  # still playing
            Place(5, ("e", "f", "g", "h")),
        ),
        "consolation": (
            Place(1, ("e",)),
            Place(2, ("f", "g"), final=False),
            Place(4, ("h",)),
        ),
    }
    places = entrant_places(orders, main="main")
    assert "a" not in places and places.get("a", NO_PLACE) == EntrantPlace()
    assert places["e"] == EntrantPlace(5, "5-8", "consolation", "1")
    assert places["f"] == EntrantPlace(5, "5-8")  # still in the consolation
    assert places["h"] == EntrantPlace(5, "5-8", "consolation", "4")
    # Each ranking on its own: a final side place does not wait for the main one.
    side_only = entrant_places(
        {"main": (Place(1, ("x",), final=False),), "last_chance": (Place(1, ("x",)),)}, main="main"
    )
    assert side_only["x"] == EntrantPlace(None, "", "last_chance", "1")

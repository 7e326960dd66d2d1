"""Reads: the bracket page's constant query count, season points, unfinished matches."""

from __future__ import annotations

import pytest

from tests.tournaments.factories import EventFactory, flight_with, rated_players
from tournaments import selectors
from tournaments.models import TournamentMatch
from tournaments.services.draw import flight_draw
from tournaments.services.results import result_enter

pytestmark = pytest.mark.django_db


def _drawn_double(n, director):
    event = EventFactory(director=director)
    flight = flight_with(event, rated_players(n), format="double_elimination")
    flight_draw(flight_id=flight.pk, by=director)
    return flight


def _render(page):
    """Touch everything a bracket page shows."""
    names = []
    for part in page.parts.values():
        for matches in part.values():
            for m in matches:
                names += [e.player.name if e else "" for e in (m.entry_a, m.entry_b)]
    names += [e.player.name for e in page.entries]
    return page.event.name, page.flight.name, len(page.rounds), names


@pytest.mark.parametrize("n", [8, 128])
def test_the_bracket_page_loads_in_the_same_number_of_queries_for_any_field(
    n, director, django_assert_num_queries
):
    flight = _drawn_double(n, director)
    with django_assert_num_queries(4):
        page = selectors.flight_bracket(flight_id=flight.pk)
        _, _, _, names = _render(page)
    assert len(page.matches) == TournamentMatch.objects.filter(flight=flight).count()
    assert sum(1 for name in names if name) >= n  # every player placed somewhere
    assert set(page.parts) == {"winners", "losers", "final"}


def test_season_points_default_and_configured(director):
    event = EventFactory(director=director)
    players = rated_players(4)
    flight = flight_with(event, players, format="consolation")
    flight_draw(flight_id=flight.pk, by=director)
    for key in ("M1-1", "M1-2", "C1-1", "M2-1"):
        m = TournamentMatch.objects.get(flight=flight, slot_key=key)
        result_enter(match_id=m.pk, by=director, score_a=5, score_b=1)
    points = {e.seed: p for e, p in selectors.flight_season_points(flight=flight)}
    # Seed 1 won two main matches (12 each), seed 2 one; seed 4 won the consolation.
    assert points == {1: 24, 2: 12, 4: 8, 3: 0}

    configured = flight_with(
        EventFactory(director=director),
        players[:2],
        options={"season_points": {"per_win": {"*": 1}, "per_place": {"main": [10, 6]}}},
    )
    flight_draw(flight_id=configured.pk, by=director)
    final = TournamentMatch.objects.get(flight=configured, slot_key="M1-1")
    result_enter(match_id=final.pk, by=director, score_a=1, score_b=5)
    configured.refresh_from_db()
    points = {e.seed: p for e, p in selectors.flight_season_points(flight=configured)}
    assert points == {2: 11, 1: 6}


def test_unfinished_matches_of_an_event(director):
    event = EventFactory(director=director)
    a = flight_with(event, rated_players(4), name="A")
    b = flight_with(event, rated_players(3, top=1500), name="B")
    flight_draw(flight_id=a.pk, by=director)
    flight_draw(flight_id=b.pk, by=director)
    open_ = list(selectors.event_unfinished_matches(event_id=event.pk))
    assert [(m.flight.name, m.slot_key) for m in open_] == [
        ("A", "M1-1"),
        ("A", "M1-2"),
        ("B", "M1-2"),
    ]
    # Tables are shared across the event's flights.
    assert [m.table for m in open_] == [1, 2, 3]
    result_enter(match_id=open_[0].pk, by=director, score_a=5, score_b=0)
    assert len(selectors.event_unfinished_matches(event_id=event.pk)) == 2

"""Final places stored on the entries (issue 8): written by the services whenever a flight
changes, always what the finishing order says, cleared and rewritten by corrections;
the player page's section reads them in one query however many flights a player has."""

from __future__ import annotations

import importlib
import random

import pytest
from django.apps import apps
from django.db import connection
from django.template.loader import render_to_string
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from games.players.sections import player_sections
from tests.factories import PlayerFactory
from tests.tournaments.factories import EventFactory, flight_with, rated_players
from tournaments import selectors
from tournaments.models import Entry, Flight, TournamentMatch
from tournaments.pages.public import player_section_context
from tournaments.services.draw import flight_draw, round_publish
from tournaments.services.entries import entry_withdraw
from tournaments.services.results import result_correct, result_enter

pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------------- helpers
def _stored(flight) -> dict[int, tuple]:
    return {
        e.pk: (e.place, e.place_label, e.side_part, e.side_place_label)
        for e in Entry.objects.filter(flight=flight)
    }


def _expected(flight) -> dict[int, tuple]:
    """Each entry's places as the finishing order (the public page's) gives them: the
    main ranking's, and the other part's when final; nothing while not final."""
    flight = Flight.objects.get(pk=flight.pk)
    out = {e.pk: (None, "", "", "") for e in Entry.objects.filter(flight=flight)}
    orders = selectors.flight_finishing_order(flight=flight)
    main = next(iter(orders), None)
    for ranking, places in orders.items():
        for place in places:
            if not place.final:
                continue
            for entry in place.entries:
                current = out[entry.pk]
                if ranking == main:
                    out[entry.pk] = (place.rank, place.label, *current[2:])
                else:  # the later side part counts (main + consolation + last chance)
                    out[entry.pk] = (*current[:2], ranking, place.label)
    return out


def _play(flight, director, *, rng=None, check=True, limit=None) -> int:
    """Enter results for the ready matches until none is ready (Swiss: publishing each
    next round), the better seed winning (or at random with ``rng``); after each result
    the stored places must be the finishing order's."""
    entered = 0
    while limit is None or entered < limit:
        ready = list(
            TournamentMatch.objects.filter(flight=flight, status="ready")
            .select_related("entry_a", "entry_b")
            .order_by("pk")
        )
        if not ready:
            flight.refresh_from_db()
            if flight.format == "swiss" and flight.status == "drawn":
                round_publish(flight_id=flight.pk, by=director)
                continue
            break
        m = ready[0]
        a_wins = rng.random() < 0.5 if rng else m.entry_a.seed < m.entry_b.seed
        n = m.match_length
        result_enter(
            match_id=m.pk, by=director, score_a=n if a_wins else 0, score_b=0 if a_wins else n
        )
        entered += 1
        if check:
            assert _stored(flight) == _expected(flight), m.slot_key
    return entered


def _drawn(event, n, format, **kwargs):
    director = event.directors.get()
    flight = flight_with(event, rated_players(n), format=format, match_length=1, **kwargs)
    # Every round published: the tests play any ready match, in any order.
    flight_draw(flight_id=flight.pk, by=director, publish="all")
    return flight


def _by_seed(flight) -> dict[int, tuple]:
    return {
        e.seed: (e.place, e.place_label, e.side_part, e.side_place_label)
        for e in Entry.objects.filter(flight=flight)
    }


# ---------------------------------------------------------------------- stored places
def test_single_elimination_places_as_the_flight_goes_and_when_it_finishes(event, director):
    flight = _drawn(event, 4, "single_elimination")
    assert set(_stored(flight).values()) == {(None, "", "", "")}  # drawn: all playing
    _play(flight, director, limit=2)  # both semi-finals
    places = _by_seed(flight)
    assert places[3] == places[4] == (3, "3-4", "", "")
    assert places[1] == places[2] == (None, "", "", "")  # the finalists still play
    _play(flight, director)
    flight.refresh_from_db()
    assert flight.status == "finished"
    assert _by_seed(flight) == {
        1: (1, "1", "", ""),
        2: (2, "2", "", ""),
        3: (3, "3-4", "", ""),
        4: (3, "3-4", "", ""),
    }


def test_consolation_places_in_both_parts(event, director):
    flight = _drawn(event, 8, "consolation", options={"entry_rounds": 1})
    _play(flight, director)
    places = _by_seed(flight)
    # The main draw by seed; the round-1 losers (seeds 5-8) also played the consolation,
    # which seed 5 won.
    assert [places[s][:2] for s in range(1, 9)] == [
        (1, "1"),
        (2, "2"),
        (3, "3-4"),
        (3, "3-4"),
        *[(5, "5-8")] * 4,
    ]
    assert places[5][2:] == ("consolation", "1")
    assert places[6][2:] == ("consolation", "2")
    assert {places[7][2:], places[8][2:]} == {("consolation", "3-4")}
    assert all(places[s][2:] == ("", "") for s in range(1, 5))


@pytest.mark.parametrize(
    ("format", "n", "options"),
    [
        ("single_elimination", 13, {}),
        ("consolation", 11, {"entry_rounds": 2}),
        ("progressive_consolation", 9, {}),
        ("last_chance", 10, {"entry_rounds": 1}),
        ("consolation_last_chance", 16, {"entry_rounds": 1, "last_chance_rounds": 2}),
        ("double_elimination", 7, {"bracket_reset": True}),
        ("swiss", 7, {"rounds": 3}),
        ("round_robin", 5, {}),
    ],
)
def test_stored_places_follow_the_finishing_order_after_every_result(
    event, director, format, n, options
):
    flight = _drawn(event, n, format, options=options)
    rng = random.Random(n)
    entered = _play(flight, director, rng=rng, limit=3)
    # A withdrawal in the middle: walkovers, and the places move with them.
    playing = Entry.objects.filter(flight=flight, place__isnull=True, status="active")
    entry_withdraw(entry_id=playing.order_by("-seed").first().pk, by=director)
    assert _stored(flight) == _expected(flight)
    entered += _play(flight, director, rng=rng)
    flight.refresh_from_db()
    assert entered > 3 and flight.status == "finished"
    stored = _stored(flight)
    assert all(place is not None for place, *_ in stored.values()), stored
    assert stored == _expected(flight)


def test_swiss_and_round_robin_places_only_once_the_flight_is_over(event, director):
    flight = _drawn(event, 4, "round_robin")
    _play(flight, director, limit=5)  # 6 matches in all
    assert set(_stored(flight).values()) == {(None, "", "", "")}
    _play(flight, director)
    assert _by_seed(flight) == {
        1: (1, "1", "", ""),
        2: (2, "2", "", ""),
        3: (3, "3", "", ""),
        4: (4, "4", "", ""),
    }


def test_a_correction_with_reset_later_clears_and_rewrites_the_places(event, director):
    flight = _drawn(event, 4, "single_elimination")
    _play(flight, director)
    m12 = TournamentMatch.objects.get(flight=flight, slot_key="M1-2")  # seed 2 beat seed 3
    result_correct(
        match_id=m12.pk,
        by=director,
        reason="sheet misread",
        score_a=0,
        score_b=1,
        reset_later=True,
    )
    flight.refresh_from_db()
    assert flight.status == "drawn"  # the final is to be played again
    assert _by_seed(flight) == {
        1: (None, "", "", ""),
        2: (3, "3-4", "", ""),
        3: (None, "", "", ""),
        4: (3, "3-4", "", ""),
    }
    assert _stored(flight) == _expected(flight)
    final = TournamentMatch.objects.get(flight=flight, slot_key="M2-1")
    result_enter(match_id=final.pk, by=director, score_a=0, score_b=1)  # seed 3 wins
    assert _by_seed(flight)[3] == (1, "1", "", "")
    assert _by_seed(flight)[1] == (2, "2", "", "")
    # A correction of the final that keeps the winner changes nothing; one that swaps
    # it swaps the places.
    result_correct(match_id=final.pk, by=director, reason="swap", score_a=1, score_b=0)
    assert _by_seed(flight)[1] == (1, "1", "", "") and _by_seed(flight)[3] == (2, "2", "", "")
    assert _stored(flight) == _expected(flight)


def test_the_migration_fills_in_the_places_of_flights_drawn_before(event, director):
    knockout = _drawn(event, 6, "consolation", options={"entry_rounds": 1}, name="KO")
    _play(knockout, director, limit=4)  # under way
    swiss = _drawn(event, 4, "swiss", options={"rounds": 2}, name="Swiss")
    _play(swiss, director)
    waiting = flight_with(event, rated_players(2), name="Later")
    before = {f.pk: _stored(f) for f in (knockout, swiss, waiting)}
    assert any(p[0] for p in before[knockout.pk].values()) and any(
        p[0] for p in before[swiss.pk].values()
    )
    Entry.objects.update(place=None, place_label="", side_part="", side_place_label="")
    migration = importlib.import_module("tournaments.migrations.0003_entry_place")
    migration.store_places(apps, None)
    assert {f.pk: _stored(f) for f in (knockout, swiss, waiting)} == before


# ---------------------------------------------------------------------- the player page
def _placings_html(player) -> str:
    (section,) = [s for s in player_sections() if s.code == "tournaments"]
    with translation.override("en"):
        return render_to_string(section.template, {"player": player, **section.context(player)})


def test_the_player_section_is_registered_and_lists_places_and_statuses(director):
    (section,) = [s for s in player_sections() if s.code == "tournaments"]
    assert section.template == "tournaments/partials/player_placings.html"
    with translation.override("en"):
        assert section.order == 20 and str(section.title) == "Tournaments"

    me = PlayerFactory()
    assert "No tournament yet." in _placings_html(me)

    won = EventFactory(director=director, name="Tavaszi Kupa")
    done = flight_with(won, [me, *rated_players(1, top=1000)], name="Open", match_length=1)
    flight_draw(flight_id=done.pk, by=director)
    _play(done, director)  # me (1500) seed 1 against 1000: I win
    later = EventFactory(director=director, name="Őszi Kupa")
    entered = flight_with(later, [me], name="Side")
    left = flight_with(later, [me], name="Withdrawn from")
    entry_withdraw(entry_id=Entry.objects.get(flight=left, player=me).pk, by=director)

    rows = selectors.player_placings(player_id=me.pk)
    assert {(p.flight.name, p.status, p.place_label) for p in rows} == {
        ("Open", "placed", "1"),
        ("Side", "registered", ""),
        ("Withdrawn from", "withdrawn", ""),
    }
    html = _placings_html(me)
    assert '<section class="player-tournaments">' in html and "<h2>Tournaments</h2>" in html
    assert f'href="/events/{won.slug}/"' in html
    assert f'href="/events/{won.slug}/flights/{done.pk}/"' in html
    assert f'href="/events/{later.slug}/flights/{entered.pk}/"' in html
    assert '<strong class="place">1</strong>' in html
    assert "registered" in html and "withdrawn" in html


def test_a_player_still_playing_and_a_consolation_place(director):
    event = EventFactory(director=director)
    flight = _drawn(event, 4, "consolation", options={"entry_rounds": 1})
    _play(flight, director, limit=2)  # the main semi-finals
    loser = Entry.objects.select_related("player").get(flight=flight, seed=4)
    winner = Entry.objects.select_related("player").get(flight=flight, seed=1)
    (row,) = selectors.player_placings(player_id=winner.player_id)
    assert (row.status, row.place) == ("playing", None)
    assert "still playing" in _placings_html(winner.player)
    _play(flight, director)
    html = _placings_html(loser.player)
    assert '<strong class="place">3-4</strong> · Consolation: 2' in html


def _flights_of(player, n: int, director) -> None:
    """``player`` in ``n`` flights: finished, running and not drawn, across events."""
    for i in range(n):
        event = EventFactory(director=director)
        flight = flight_with(event, [player, *rated_players(1, top=1000)], match_length=1)
        if i % 3:
            flight_draw(flight_id=flight.pk, by=director)
        if i % 3 == 1:
            _play(flight, director, check=False)


def test_the_section_costs_the_same_queries_for_1_and_for_30_flights(
    director, django_assert_num_queries
):
    one, thirty = PlayerFactory(), PlayerFactory()
    _flights_of(one, 1, director)
    _flights_of(thirty, 30, director)
    with django_assert_num_queries(1):
        rows = selectors.player_placings(player_id=thirty.pk)
        [(p.event.name, p.flight.name, p.date, p.place_label, p.status) for p in rows]
    assert len(rows) == 30
    assert {p.status for p in rows} == {"placed", "playing", "registered"}
    counts = []
    for player in (one, thirty):
        with CaptureQueriesContext(connection) as queries:
            html = _placings_html(player)
        counts.append(len(queries))
        assert html.count("<tr data-entry=") == (1 if player is one else 30)
    assert counts == [1, 1]
    # The player page's context callable is the one registered.
    assert player_section_context(one)["placings"][0]["p"].entry.player_id == one.pk


def test_the_player_page_shows_the_section_at_the_same_cost_for_2_and_30_flights(client, director):
    # Two flights, one of them played: both players have rated results (the page's own
    # queries depend on that, not on the number of flights).
    few, many = PlayerFactory(), PlayerFactory()
    _flights_of(few, 2, director)
    _flights_of(many, 30, director)
    client.cookies["django_language"] = "en"
    counts = []
    for player, rows in ((few, 2), (many, 30)):
        with CaptureQueriesContext(connection) as queries:
            response = client.get(reverse("games:player", args=[player.pk]))
        assert response.status_code == 200
        counts.append(len(queries))
        html = response.content.decode()
        assert '<section class="player-tournaments">' in html
        assert html.count("<tr data-entry=") == rows
    assert counts[0] == counts[1]

"""A round robin of 6 (issue 29, item 9): table numbers for every round, head-to-head then
point difference as the default tie-breaks (Buchholz cannot separate anyone in a full
round robin), a head-to-head column that shows the numbers, and the tie-break order set
on the new-flight form and through the API."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.errors import PermissionDenied, ValidationFailed
from tests.factories import UserFactory, api_client
from tests.tournaments.factories import flight_with, rated_players
from tournaments import bridge, pairing, selectors
from tournaments.models import OPEN, Flight, TournamentMatch
from tournaments.services.draw import flight_draw
from tournaments.services.flights import flight_set_tiebreaks
from tournaments.services.results import result_enter

pytestmark = pytest.mark.django_db

# The night's results by seed: (winner, loser) -> the winner's margin. Seeds 1 and 2
# both win 4 and seed 1 beat seed 2, by one point each time, while seed 2 wins 5-0:
# head-to-head puts seed 1 first, the point difference (and so Buchholz, which ties
# them, then the point difference) would put seed 2 first. Seeds 3, 4, 5 win 2 each in
# a cycle (3 beat 4, 4 beat 5, 5 beat 3); seed 6 wins once.
BEATS = {
    1: {2, 4, 5, 6},
    2: {3, 4, 5, 6},
    3: {1, 4},
    4: {5, 6},
    5: {3, 6},
    6: {3},
}


@pytest.fixture
def en(client):
    client.cookies["django_language"] = "en"
    return client


def _drawn(event, director, *, publish="first", **kwargs):
    flight = flight_with(event, rated_players(6), format="round_robin", **kwargs)
    flight_draw(flight_id=flight.pk, by=director, publish=publish)
    flight.refresh_from_db()
    return flight


def _enter(director, m: TournamentMatch) -> None:
    a, b = m.entry_a.seed, m.entry_b.seed
    assert (b in BEATS[a]) != (a in BEATS[b])
    a_wins = b in BEATS[a]
    winner = a if a_wins else b
    loser_points = m.match_length - 1 if winner == 1 else 0
    result_enter(
        match_id=m.pk,
        by=director,
        score_a=m.match_length if a_wins else loser_points,
        score_b=loser_points if a_wins else m.match_length,
    )


def _open(flight, **filters):
    return list(
        TournamentMatch.objects.filter(flight=flight, status="ready", **filters)
        .select_related("entry_a", "entry_b")
        .order_by("round", "index")
    )


def _play_all(flight, director) -> None:
    """Every round in turn (a round is published when the one before is complete)."""
    while ready := _open(flight):
        for m in ready:
            _enter(director, m)


def test_every_round_gets_tables(event, director):
    flight = _drawn(event, director)
    for number in range(1, 6):
        rnd = _open(flight, round=number)
        assert len(rnd) == 3
        # Before issue 29 only round 1 had tables.
        assert sorted(m.table for m in rnd) == [1, 2, 3], number
        later = TournamentMatch.objects.filter(flight=flight, round__gt=number)
        assert not later.exclude(table=None).exists()  # not yet: nobody is free for them
        for m in rnd:
            _enter(director, m)
    flight.refresh_from_db()
    assert flight.status == Flight.Status.FINISHED
    assert not TournamentMatch.objects.filter(flight=flight, table=None).exists()


def test_all_rounds_published_tables_follow_the_players(event, director):
    """With every round published at the draw, a match gets a table once neither of its
    players has an open match of an earlier round; never two open matches on a table."""
    flight = _drawn(event, director, publish="all")
    assert sorted(m.table for m in _open(flight, round=1)) == [1, 2, 3]
    assert not TournamentMatch.objects.filter(flight=flight, round__gt=1).exclude(table=None)
    while ready := [m for m in _open(flight) if m.table is not None]:
        _enter(director, ready[0])
        rows = list(TournamentMatch.objects.filter(flight=flight))
        tables = [m.table for m in rows if m.status in OPEN and m.table is not None]
        assert len(tables) == len(set(tables)) and set(tables) <= {1, 2, 3}
        for m in rows:
            if m.status in OPEN and m.table is not None:
                players = {m.entry_a_id, m.entry_b_id}
                assert not [
                    o
                    for o in rows
                    if o.status in OPEN
                    and o.round < m.round
                    and {o.entry_a_id, o.entry_b_id} & players
                ], m.slot_key
    flight.refresh_from_db()
    assert flight.status == Flight.Status.FINISHED


def test_head_to_head_then_point_difference_by_default(en, event, director):
    flight = _drawn(event, director)
    assert bridge.tiebreak_order(flight) == list(pairing.ROUND_ROBIN_ORDER)
    _play_all(flight, director)
    rows = selectors.flight_standings(flight=flight)
    table = [(r.standing.rank, r.entry.seed, r.standing.wins) for r in rows]
    # Seed 1 above seed 2 on head-to-head; the cycle of 3, 4, 5 on point difference.
    assert table[:2] == [(1, 1, 4), (2, 2, 4)]
    # Seeds 3, 4, 5 each beat one of the others: point difference, 4 and 5 level (-1).
    assert table[2:] == [(3, 4, 2), (3, 5, 2), (5, 3, 2), (6, 6, 1)]
    assert rows[0].standing.buchholz == rows[1].standing.buchholz  # Buchholz cannot tell
    page = en.get(
        reverse("tournaments:flight", kwargs={"slug": event.slug, "flight_id": flight.pk})
    )
    html = page.content.decode()
    assert "Tie-breaks, in order: Wins, Head-to-head, Point difference" in html
    # A Swiss keeps Buchholz.
    swiss = flight_with(event, [], format="swiss", name="Swiss", options={"rounds": 3})
    assert bridge.tiebreak_order(swiss) == list(pairing.DEFAULT_ORDER)


def test_the_head_to_head_column_shows_the_numbers(en, event, director):
    """Even with head-to-head last (the Swiss order, where the groups left to it are
    single players) the column shows the wins against the players level on wins: it
    showed 0 for everybody before issue 29."""
    flight = _drawn(
        event,
        director,
        options={"tiebreaks": ["wins", "buchholz", "point_difference", "head_to_head"]},
    )
    _play_all(flight, director)
    rows = {r.entry.seed: r.standing for r in selectors.flight_standings(flight=flight)}
    assert {s: rows[s].head_to_head for s in rows} == {1: 1, 2: 0, 3: 1, 4: 1, 5: 1, 6: 0}
    assert rows[2].rank < rows[1].rank  # this order: the point difference put seed 2 first
    page = en.get(
        reverse("tournaments:flight", kwargs={"slug": event.slug, "flight_id": flight.pk})
    )
    cells = re.findall(r'data-label="Head-to-head">(\d+)<', page.content.decode())
    assert sorted(cells) == ["0", "0", "1", "1", "1", "1"]


def _form(**extra):
    return {
        "name": "Friday robin",
        "format": "round_robin",
        "seeding": "rating",
        "match_length": 5,
        "clock_policy": "off",
        "entry_rounds": 1,
        "last_chance_rounds": 1,
        **extra,
    }


def test_the_tie_break_order_on_the_new_flight_form(en, event, director):
    en.force_login(director)
    url = reverse("tournaments:flight-create", kwargs={"slug": event.slug})
    page = en.get(reverse("tournaments:event-manage", kwargs={"slug": event.slug}))
    html = page.content.decode()
    assert 'name="tiebreak_1"' in html and 'name="tiebreak_3"' in html
    # A repeat: refused, nothing made, what was chosen kept.
    refused = en.post(url, _form(tiebreak_1="point_difference", tiebreak_2="point_difference"))
    assert refused.status_code == 400
    html = refused.content.decode()
    assert "This tie-break is chosen already." in html
    assert re.search(r'<option value="point_difference" selected>', html)
    assert 'value="Friday robin"' in html
    assert not Flight.objects.filter(name="Friday robin").exists()
    # A gap: refused too.
    gap = en.post(url, _form(tiebreak_2="head_to_head"))
    assert gap.status_code == 400
    assert "Choose the tie-breaks above this one first." in gap.content.decode()
    # Chosen: stored after the wins.
    made = en.post(url, _form(tiebreak_1="point_difference", tiebreak_2="head_to_head"))
    assert made.status_code == 302
    flight = Flight.objects.get(name="Friday robin")
    assert flight.options == {"tiebreaks": ["wins", "point_difference", "head_to_head"]}
    assert bridge.tiebreak_order(flight) == ["wins", "point_difference", "head_to_head"]
    # None chosen: no option, the format's default.
    en.post(url, _form(name="Default robin"))
    assert Flight.objects.get(name="Default robin").options == {}


def test_the_tie_break_order_through_the_api(event, director):
    client = api_client(director)
    url = f"/api/v1/events/{event.pk}/flights/"
    made = client.post(
        url,
        {
            "name": "API robin",
            "format": "round_robin",
            "options": {"tiebreaks": ["wins", "head_to_head", "buchholz"]},
        },
        format="json",
    )
    assert made.status_code == 201, made.content
    assert Flight.objects.get(name="API robin").options["tiebreaks"] == [
        "wins",
        "head_to_head",
        "buchholz",
    ]
    refused = client.post(
        url,
        {
            "name": "Bad robin",
            "format": "round_robin",
            "options": {"tiebreaks": ["wins", "wins"]},
        },
        format="json",
    )
    assert refused.status_code == 400
    assert refused.json()["code"] == "invalid_tiebreaks"


def test_the_tie_break_order_on_its_own_page(en, event, director):
    """A drawn round robin's order changed from the director's page of the flight; a
    repeat keeps what was chosen; once finished it no longer changes."""
    flight = _drawn(event, director)
    en.force_login(director)
    manage = en.get(
        reverse("tournaments:flight-manage", kwargs={"slug": event.slug, "flight_id": flight.pk})
    )
    html = manage.content.decode()
    url = reverse(
        "tournaments:flight-tiebreaks", kwargs={"slug": event.slug, "flight_id": flight.pk}
    )
    assert url in html
    assert "Tie-breaks, in order: Wins, Head-to-head, Point difference" in html
    page = en.get(url)
    assert page.status_code == 200 and 'name="tiebreak_3"' in page.content.decode()
    refused = en.post(url, {"tiebreak_1": "buchholz", "tiebreak_2": "buchholz"})
    assert refused.status_code == 400
    html = refused.content.decode()
    assert "This tie-break is chosen already." in html
    assert len(re.findall(r'<option value="buchholz" selected>', html)) == 2
    flight.refresh_from_db()
    assert "tiebreaks" not in flight.options
    saved = en.post(url, {"tiebreak_1": "point_difference", "tiebreak_2": "buchholz"})
    assert saved.status_code == 302
    flight.refresh_from_db()
    assert flight.options["tiebreaks"] == ["wins", "point_difference", "buchholz"]
    page = en.get(url).content.decode()
    assert re.search(
        r'name="tiebreak_1"[^>]*>.*?<option value="point_difference" selected>', page, re.S
    )
    # Back to the default: nothing chosen.
    en.post(url, {})
    flight.refresh_from_db()
    assert "tiebreaks" not in flight.options
    _play_all(flight, director)
    late = en.post(url, {"tiebreak_1": "buchholz"})
    assert late.status_code == 400
    assert "no longer change" in late.content.decode()
    flight.refresh_from_db()
    assert "tiebreaks" not in flight.options


def test_the_tie_break_service_refuses_knockouts_and_other_users(event, director):
    knockout = flight_with(event, [], format="single_elimination", name="KO")
    with pytest.raises(ValidationFailed):
        flight_set_tiebreaks(flight_id=knockout.pk, by=director, tiebreaks=["wins", "buchholz"])
    robin = flight_with(event, [], format="round_robin", name="RR")
    with pytest.raises(PermissionDenied):
        flight_set_tiebreaks(flight_id=robin.pk, by=UserFactory(), tiebreaks=["wins"])
    with pytest.raises(ValidationFailed) as bad:
        flight_set_tiebreaks(flight_id=robin.pk, by=director, tiebreaks=["wins", "sonneborn"])
    assert bad.value.code == "invalid_tiebreaks"
    flight_set_tiebreaks(flight_id=robin.pk, by=director, tiebreaks=["wins", "head_to_head"])
    robin.refresh_from_db()
    assert robin.options == {"tiebreaks": ["wins", "head_to_head"]}

"""Every round's settings in one grid (issue 29, item 11): 5/5/7/9 + 5/5/7 for a main +
consolation flight in one save (7 posts before); a wrong row refuses the whole save,
names the row and changes nothing; a played round keeps its settings; the API's PUT; the
page keeps what was typed."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from games.errors import Conflict, PermissionDenied, ValidationFailed
from tests.factories import UserFactory, api_client
from tests.tournaments.factories import flight_with, rated_players
from tournaments.models import BRACKET_FORMATS, FlightRound, Format, TournamentMatch
from tournaments.services.draw import flight_draw
from tournaments.services.entries import entry_register
from tournaments.services.flights import flight_create
from tournaments.services.results import result_enter
from tournaments.services.roundgrid import flight_rounds_set, grid_rows

pytestmark = pytest.mark.django_db

LENGTHS = {("main", 1): 5, ("main", 2): 5, ("main", 3): 7, ("main", 4): 9}
LENGTHS |= {("consolation", 1): 5, ("consolation", 2): 5, ("consolation", 3): 7}


def _night(event, **kwargs):
    """16 players, main + consolation (round 1's losers), drawn: 4 + 3 rounds; the
    flight's default length 3, which every round of the grid changes."""
    flight = flight_with(
        event,
        rated_players(16),
        format="consolation",
        options={"entry_rounds": 1},
        match_length=3,
        **kwargs,
    )
    flight_draw(flight_id=flight.pk, by=event.directors.first())
    flight.refresh_from_db()
    return flight


def _rows(lengths=LENGTHS):
    return [{"part": p, "number": n, "match_length": v} for (p, n), v in lengths.items()]


def _state(flight):
    return (
        sorted(
            FlightRound.objects.filter(flight=flight).values_list("part", "number", "match_length")
        ),
        sorted(flight.matches.values_list("slot_key", "match_length")),
    )


def test_the_grid_lists_every_round_of_every_part(event):
    flight = _night(event)
    rows = grid_rows(flight)
    assert [(r.part, r.number) for r in rows] == list(LENGTHS)
    assert [r.name.code for r in rows if r.part == "main"][-2:] == ["semi_final", "final"]
    assert not any(r.played for r in rows)
    # Swiss: its planned rounds; round robin: what the players need.
    swiss = flight_with(
        event, rated_players(6), name="Swiss", format="swiss", options={"rounds": 5}
    )
    assert [(r.part, r.number) for r in grid_rows(swiss)] == [("", n) for n in range(1, 6)]
    robin = flight_with(event, rated_players(5), name="RR", format="round_robin")
    assert len(grid_rows(robin)) == 5


def test_one_save_sets_all_rounds_of_both_parts(event, director):
    flight = _night(event)
    version = flight.version
    saved = flight_rounds_set(flight_id=flight.pk, by=director, rounds=_rows(), version=version)
    assert len(saved) == 7
    stored = {(r.part, r.number): r.match_length for r in FlightRound.objects.filter(flight=flight)}
    assert stored == LENGTHS
    flight.refresh_from_db()
    assert flight.version == version + 1  # one save, one change
    # The published round's matches not started take their round's length.
    lengths = set(
        flight.matches.filter(part="main", round=1).values_list("match_length", flat=True)
    )
    assert lengths == {5}
    # The same grid again changes nothing.
    assert flight_rounds_set(flight_id=flight.pk, by=director, rounds=_rows()) == []


def test_a_wrong_row_refuses_the_whole_save_and_names_the_row(event, director):
    flight = _night(event)
    before = _state(flight)
    rows = _rows({**LENGTHS, ("consolation", 2): 30})
    with translation.override("en"), pytest.raises(ValidationFailed) as refused:
        flight_rounds_set(flight_id=flight.pk, by=director, rounds=rows)
    assert refused.value.code == "invalid_length"
    assert str(refused.value.detail).startswith("Consolation, round 2: A match is played to 1")
    assert refused.value.extra["row"] == 5
    assert _state(flight) == before
    # A round the part does not have, a clock without a preset, a round given twice.
    cases = [
        ([{"part": "consolation", "number": 4, "match_length": 5}], "no_such_round"),
        ([{"part": "main", "number": 2, "clock_policy": "required"}], "clock_preset_required"),
        ([{"part": "main", "number": 2}], "duplicate_round"),  # row 1 has it already
        ([{"part": "winners", "number": 1, "match_length": 5}], "invalid_part"),
        ([{"part": "main", "number": 3, "starts_at": "tonight"}], "invalid_starts_at"),
    ]
    for rows, code in cases:
        with pytest.raises(ValidationFailed) as refused:
            flight_rounds_set(flight_id=flight.pk, by=director, rounds=[*_rows(), *rows])
        assert refused.value.code == code
        assert refused.value.extra["row"] == len(LENGTHS) + len(rows) - 1
        assert _state(flight) == before


def test_a_played_round_keeps_its_settings(event, director):
    flight = flight_with(event, rated_players(4), name="Four")
    flight_draw(flight_id=flight.pk, by=director)
    for m in flight.matches.filter(round=1):
        result_enter(match_id=m.pk, by=director, score_a=5, score_b=1)
    assert [r.played for r in grid_rows(flight)] == [True, False]
    with pytest.raises(Conflict) as refused:
        flight_rounds_set(
            flight_id=flight.pk,
            by=director,
            rounds=[{"part": "main", "number": 1, "match_length": 7}],
        )
    assert refused.value.code == "round_played"
    # Posted as it stands, it is no change: the final still takes its length.
    flight_rounds_set(
        flight_id=flight.pk,
        by=director,
        rounds=[
            {"part": "main", "number": 1, "match_length": 5},
            {"part": "main", "number": 2, "match_length": 11},
        ],
    )
    assert flight.matches.get(round=2).match_length == 11
    assert set(flight.matches.filter(round=1).values_list("match_length", flat=True)) == {5}


def test_stale_version_and_permission(event, director):
    flight = _night(event)
    with pytest.raises(Conflict) as stale:
        flight_rounds_set(
            flight_id=flight.pk, by=director, rounds=_rows(), version=flight.version - 1
        )
    assert stale.value.code == "stale_version"
    with pytest.raises(PermissionDenied):
        flight_rounds_set(flight_id=flight.pk, by=UserFactory(), rounds=_rows())
    assert not FlightRound.objects.filter(flight=flight, part="consolation").exists()


def test_before_the_draw_the_rounds_the_entries_give(event, director):
    flight = flight_with(event, rated_players(8), format="consolation", options={"entry_rounds": 1})
    flight_rounds_set(
        flight_id=flight.pk,
        by=director,
        rounds=[
            {"part": "main", "number": 3, "match_length": 11},
            {"part": "consolation", "number": 2, "match_length": 7},
        ],
    )
    flight_draw(flight_id=flight.pk, by=director)
    assert flight.matches.get(part="main", round=3).match_length == 11
    assert flight.matches.get(part="consolation", round=2).match_length == 7


def test_the_api_puts_every_round_at_once(event, director):
    flight = _night(event)
    url = f"/api/v1/flights/{flight.pk}/rounds/"
    client = api_client(director)
    bad = client.put(url, {"rounds": _rows({**LENGTHS, ("main", 3): 0})}, format="json")
    assert bad.status_code == 400
    body = bad.json()
    assert body["code"] == "invalid_length" and body["row"] == 2
    assert body["detail"].startswith("Main draw, round 3:")
    assert not FlightRound.objects.filter(flight=flight, number=3).exists()
    done = client.put(url, {"rounds": _rows(), "version": flight.version}, format="json")
    assert done.status_code == 200, done.json()
    out = done.json()
    assert out["changed"] == 7
    assert [(r["part"], r["number"], r["match_length"]) for r in out["rounds"]] == [
        (p, n, v) for (p, n), v in LENGTHS.items()
    ]
    assert out["rounds"][3]["title"] == "final"
    stale = client.put(url, {"rounds": _rows(), "version": 1}, format="json")
    assert stale.status_code == 409 and stale.json()["code"] == "stale_version"
    other = api_client(UserFactory()).put(url, {"rounds": _rows()}, format="json")
    assert other.status_code == 403
    # The one-round POST still works.
    one = client.post(url, {"part": "main", "number": 4, "match_length": 13}, format="json")
    assert one.status_code == 200 and one.json()["match_length"] == 13


def _page(event, flight):
    return reverse("tournaments:flight-rounds", kwargs={"slug": event.slug, "flight_id": flight.pk})


def test_the_page_saves_the_grid_in_one_post(client, event, director):
    flight = _night(event)
    client.cookies["django_language"] = "en"
    client.force_login(director)
    manage = reverse(
        "tournaments:flight-manage", kwargs={"slug": event.slug, "flight_id": flight.pk}
    )
    assert _page(event, flight) in client.get(manage).content.decode()
    page = client.get(_page(event, flight)).content.decode()
    assert "Consolation, round 3" in page and "Main draw, round 4" in page
    assert '<span class="round-name">Final</span>' in page
    post = {"version": flight.version}
    for i, ((part, number), length) in enumerate(LENGTHS.items()):
        post |= {
            f"r-{i}-part": part,
            f"r-{i}-number": number,
            f"r-{i}-match_length": length,
            f"r-{i}-clock_preset": "",
            f"r-{i}-clock_policy": "off",
            f"r-{i}-starts_at": "",
        }
    bad = {**post, "r-5-match_length": "30", "r-1-match_length": "6"}
    refused = client.post(_page(event, flight), bad)
    assert refused.status_code == 400
    text = refused.content.decode()
    assert "Consolation, round 2: A match is played to 1 to 25 points." in text
    assert 'name="r-5-match_length" value="30"' in text  # as typed
    assert 'name="r-1-match_length" value="6"' in text
    assert 'aria-describedby="row-error-5"' in text
    assert not FlightRound.objects.filter(flight=flight, part="consolation").exists()
    done = client.post(_page(event, flight), post)
    assert done.status_code == 302
    stored = {(r.part, r.number): r.match_length for r in FlightRound.objects.filter(flight=flight)}
    assert stored == LENGTHS
    # Only the event's directors.
    client.force_login(UserFactory())
    assert client.get(_page(event, flight)).status_code == 403
    assert client.post(_page(event, flight), post).status_code == 403


def test_the_page_shows_a_played_round_without_inputs(client, event, director):
    flight = flight_with(event, rated_players(4), name="Four")
    flight_draw(flight_id=flight.pk, by=director)
    for m in flight.matches.filter(round=1):
        result_enter(match_id=m.pk, by=director, score_a=5, score_b=0)
    client.force_login(director)
    page = client.get(_page(event, flight)).content.decode()
    assert 'name="r-0-match_length"' not in page and 'name="r-1-match_length"' in page
    assert (
        TournamentMatch.objects.filter(flight=flight, round=1, decided_at__isnull=False).count()
        == 2
    )


@pytest.mark.parametrize("entrants", [0, 3])
def test_the_page_opens_for_every_format_before_the_draw(client, event, director, entrants):
    client.force_login(director)
    opened = 0
    for fmt in Format.values:
        options = {"rounds": 3} if fmt == Format.SWISS else {}
        try:
            flight = flight_create(
                event_id=event.pk, by=director, name=f"F {fmt}", format=fmt, options=options
            )
        except ValidationFailed:
            # A format whose bracket builder is not there yet (issue 29's combined
            # format until it lands) cannot be created at all.
            assert fmt in BRACKET_FORMATS
            continue
        for p in rated_players(entrants):
            entry_register(flight_id=flight.pk, by=director, player_id=p.pk)
        assert client.get(_page(event, flight)).status_code == 200, fmt
        opened += 1
    assert opened >= 7

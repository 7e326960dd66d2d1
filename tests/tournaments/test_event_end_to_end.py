"""The acceptance run of issue 6: a 13-player main + progressive consolation event with
per-round lengths 5/5/7/9, every result typed game by game through the services (one
refused for a cube in the Crawford game, which changes nothing), to both finals, and the
finishing order checked."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.errors import ValidationFailed
from games.models import Notification
from games.notifications.services import notification_text
from tests.tournaments.factories import crawford_cube_sheet, flight_with, rated_players, sheet
from tournaments import selectors
from tournaments.models import Event, Flight, TournamentMatch
from tournaments.pages.common import part_title
from tournaments.services.draw import flight_draw
from tournaments.services.events import event_finish
from tournaments.services.flights import flight_round_set
from tournaments.services.results import result_enter

pytestmark = pytest.mark.django_db


def _snapshot():
    return (
        list(TournamentMatch.objects.order_by("pk").values()),
        list(Flight.objects.order_by("pk").values()),
        Notification.objects.count(),
    )


def test_thirteen_players_main_and_progressive_consolation_to_the_finals(event, director):
    players = rated_players(13)  # player i is seed i + 1
    seed_of = {p.pk: i + 1 for i, p in enumerate(players)}
    flight = flight_with(
        event, players, format="progressive_consolation", match_length=5, name="Open"
    )
    for number, length in enumerate((5, 5, 7, 9), start=1):
        flight_round_set(
            flight_id=flight.pk, by=director, part="main", number=number, match_length=length
        )
    flight_draw(flight_id=flight.pk, by=director)
    flight.refresh_from_db()
    assert flight.status == Flight.Status.DRAWN
    assert flight.bracket["size"] == 16

    # Round 1 of the main: seeds 1-3 have byes, 4v13 ... 8v9 are ready at tables 1-5.
    ready = TournamentMatch.objects.filter(flight=flight, status="ready").order_by("table")
    assert [m.slot_key[:2] for m in ready] == ["M1"] * 5
    assert [m.table for m in ready] == [1, 2, 3, 4, 5]
    assert {m.match_length for m in ready} == {5}
    assert TournamentMatch.objects.filter(flight=flight, part="main", status="bye").count() == 3
    first = ready[0]
    note = Notification.objects.get(recipient=first.entry_a.player, kind="match_ready")
    # Stored in the club's language; the pages render it again in the reader's.
    with translation.override("en"):
        title = notification_text(note).title
    assert first.entry_b.player.name in title and "table 1" in title
    assert notification_text(note).url == f"/events/{event.slug}/flights/{flight.pk}/"

    refused_once = False
    entered = 0
    while True:
        ready = list(
            TournamentMatch.objects.filter(flight=flight, status="ready")
            .select_related("entry_a__player", "entry_b__player")
            .order_by("pk")
        )
        if not ready:
            break
        for m in ready:
            # The better seed always wins, so the final places are known in advance.
            a, b = seed_of[m.entry_a.player_id], seed_of[m.entry_b.player_id]
            winner = 1 if a < b else 2
            if m.part == "main":
                assert m.match_length == (5, 5, 7, 9)[m.round - 1], m.slot_key
            else:
                assert m.match_length == 5, m.slot_key
            if not refused_once and m.part == "main" and m.round == 3:
                before = _snapshot()
                with pytest.raises(ValidationFailed) as refused:
                    result_enter(match_id=m.pk, by=director, games=crawford_cube_sheet(winner, 7))
                assert refused.value.code == "crawford_cube"
                assert refused.value.extra["game"] == 7
                assert "Crawford" in str(refused.value.detail)
                assert _snapshot() == before
                refused_once = True
            done = result_enter(
                match_id=m.pk,
                by=director,
                games=sheet(winner, m.match_length),
                expected_version=m.version,
            )
            assert done.status == "confirmed"
            assert (done.score_a, done.score_b) == (
                (m.match_length, 1) if winner == 1 else (1, m.match_length)
            )
            entered += 1
    assert refused_once
    # Main: 5 + 4 + 2 + 1 played; consolation: 1 + 4 + 2 + 2 + 1 (the rest are byes).
    assert entered == 22
    flight.refresh_from_db()
    event.refresh_from_db()
    assert flight.status == Flight.Status.FINISHED
    # The event goes on (another flight may follow) until its director ends it.
    assert event.status == Event.Status.RUNNING
    assert event_finish(event_id=event.pk, by=director).status == Event.Status.FINISHED

    order = selectors.flight_finishing_order(flight=flight)
    assert set(order) == {"main", "consolation"}

    def seeds(places):
        return [(p.label, sorted(seed_of[e.player_id] for e in p.entries)) for p in places]

    assert seeds(order["main"]) == [
        ("1", [1]),
        ("2", [2]),
        ("3-4", [3, 4]),
        ("5-8", [5, 6, 7, 8]),
        ("9-13", [9, 10, 11, 12, 13]),
    ]
    consolation = seeds(order["consolation"])
    # Losers of main round 3 (seeds 3 and 4) join in consolation round 4 and meet in
    # its final; main round 2's losers (5-8) beat the round-1 survivors in round 2.
    assert consolation[:2] == [("1", [3]), ("2", [4])]
    assert [label for label, _ in consolation] == ["1", "2", "3-4", "5-6", "7-10", "11"]
    assert sorted(consolation[2][1] + consolation[3][1]) == [5, 6, 7, 8]
    assert sorted(consolation[4][1] + consolation[5][1]) == [9, 10, 11, 12, 13]
    assert all(p.final for places in order.values() for p in places)

    with translation.override("en"):
        text = selectors.flight_finishing_order_csv(flight=flight, part_title=part_title)
    lines = text.splitlines()
    assert lines[0] == "\ufeffPlace,Player id,Name,Club,Country,Part"
    club = f"{players[0].club},{players[0].country}"
    assert lines[1] == f"1,{players[0].pk},{players[0].name},{club},Main draw"
    assert f"1,{players[2].pk},{players[2].name},{club},Consolation" in lines
    assert len(lines) == 1 + 13 + 11  # the final's loser does not drop
    # The file for programs: the same rows, stable column names and the ranking's code.
    with translation.override("hu"):
        data = selectors.flight_finishing_order_data_csv(flight=flight).splitlines()
    assert data[0] == "place,player_id,name,club,country,ranking"
    assert data[1] == f"1,{players[0].pk},{players[0].name},{club},main"
    assert f"1,{players[2].pk},{players[2].name},{club},consolation" in data
    assert len(data) == len(lines)

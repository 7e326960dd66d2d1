"""Chouette services on PostgreSQL: the issue's 5 players over 30 scripted games in both
profiles, through the services, with totals checked game by game against the pure
tests' independent reference, zero-sum rows in the database at every step, a wrong game
saved and undone in the middle; the roll-off (given or rolled by the server and
recorded); seat changes; refusals that change nothing; undo; the summary."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

import pytest
from django.db.models import Sum

from chouette import rules, selectors
from chouette.models import ChouetteEvent, ChouetteLine, ChouetteParticipant, ChouetteSession
from chouette.services.common import ledger_of
from chouette.services.games import game_preview, game_record, game_undo_last
from chouette.services.seating import session_come_back, session_join, session_sit_out
from chouette.services.sessions import session_create, session_end
from chouette.services.summary import session_summary, session_totals
from games.errors import Conflict, NotFound, PermissionDenied, ValidationFailed
from games.play.dice import ScriptedDice
from tests.chouette.factories import players, scorekeeper, session_with, simple_entry
from tests.chouette.rulesdata import (
    CLASSIC_SCRIPT,
    EXPECTED_FINAL,
    INDIVIDUAL_SCRIPT,
    SESSION_PROFILES,
    reference_game,
    script_entry,
)
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def _db_totals(session: ChouetteSession) -> dict[int, int]:
    return session_totals(session)


def _game_sums(session: ChouetteSession) -> list[int]:
    return list(
        ChouetteLine.objects.filter(session=session)
        .values("event_id")
        .annotate(total=Sum("points"))
        .values_list("total", flat=True)
    )


def _snapshot(session: ChouetteSession):
    session.refresh_from_db()
    return (
        session.version,
        session.seating,
        session.status,
        list(ChouetteEvent.objects.filter(session=session).order_by("seq").values()),
        list(ChouetteLine.objects.filter(session=session).order_by("pk").values()),
        list(ChouetteParticipant.objects.filter(session=session).order_by("pk").values()),
    )


# ====================================================================== the issue
@pytest.mark.parametrize("kind", ["classic", "individual"])
def test_five_players_thirty_scripted_games_on_the_database(kind: str) -> None:
    profile = SESSION_PROFILES[kind]
    script = CLASSIC_SCRIPT if kind == "classic" else INDIVIDUAL_SCRIPT
    cast = players()
    pk = {n: p.pk for n, p in cast.items()}
    name = {p: n for n, p in pk.items()}
    creator = scorekeeper()
    session = session_with(
        cast,
        by=creator,
        profile=profile.to_dict(),
        stake_per_point=Decimal("0.50"),
        currency="eur",
    )
    assert session.rolled_by_server is False
    assert session.start_seating == {
        "box": pk["Bob"],
        "line": [pk["Ann"], pk["Cy"], pk["Eve"], pk["Dee"]],
        "out": [],
    }
    # The reference state, kept by hand (names), as in the pure test.
    box, line, out = "Bob", ["Ann", "Cy", "Eve", "Dee"], []
    totals = dict.fromkeys(pk, 0)
    dee = cast["Dee"].user  # a seated player with a login enters some of the games
    for number, script_line in enumerate(script, start=1):
        if number == 11:
            session = session_sit_out(session_id=session.pk, by=dee, player_id=pk["Dee"])
            if box == "Dee":
                box = line.pop(0)
            else:
                line.remove("Dee")
            out.append("Dee")
        if number == 15:
            session = session_come_back(session_id=session.pk, by=creator, player_id=pk["Dee"])
            out.remove("Dee")
            line.append("Dee")
        game = script_entry(script_line, pk[box], [pk[p] for p in line])
        expected_ids, keeps = reference_game(script_line, pk[box], [pk[p] for p in line], profile)
        session.refresh_from_db()
        by = dee if number % 3 == 0 else creator
        # The phone's preview shows the points and saves nothing.
        before = _snapshot(session)
        preview = game_preview(session_id=session.pk, by=by, entry=game.to_dict())
        assert preview.points == expected_ids, f"preview of game {number}"
        assert _snapshot(session) == before
        if number == 16:
            # A wrong entry (winner flipped) is saved, then undone: totals and seating
            # come back exactly.
            wrong = replace(game, winner="box" if game.winner == "team" else "team")
            game_record(
                session_id=session.pk,
                by=by,
                entry=wrong.to_dict(),
                expected_version=session.version,
            )
            assert _db_totals(session) != {pk[n]: t for n, t in totals.items()}
            session.refresh_from_db()
            undone = game_undo_last(
                session_id=session.pk, by=creator, expected_version=session.version
            )
            assert undone.undone and undone.data["winner"] == wrong.winner
            session.refresh_from_db()
            assert _db_totals(session) == {pk[n]: t for n, t in totals.items()}
            assert session.seating == {
                "box": pk[box],
                "line": [pk[p] for p in line],
                "out": [pk[p] for p in out],
            }
        event = game_record(
            session_id=session.pk, by=by, entry=game.to_dict(), expected_version=session.version
        )
        lines = dict(event.lines.values_list("player_id", "points"))
        assert lines == expected_ids, f"game {number}"
        assert sum(lines.values()) == 0
        for p, v in expected_ids.items():
            totals[name[p]] += v
        if keeps:
            line.append(line.pop(0))
        else:
            new_box = line.pop(0)
            line.append(box)
            box = new_box
        session.refresh_from_db()
        db_totals = _db_totals(session)
        assert {name[p]: t for p, t in db_totals.items()} == totals, f"after game {number}"
        assert sum(db_totals.values()) == 0
        assert set(_game_sums(session)) == {0}
        assert session.seating == {
            "box": pk[box],
            "line": [pk[p] for p in line],
            "out": [pk[p] for p in out],
        }
        board = selectors.scoreboard(session_id=session.pk)
        assert board.game_count == number
        assert {s.name: s.total for s in board.seats} == totals
        assert board.seats[0].role == "box" and board.seats[0].name == box
        assert board.seats[1].role == "captain" and board.seats[1].name == line[0]
    assert {name[p]: t for p, t in _db_totals(session).items()} == EXPECTED_FINAL[kind]
    # 30 games and one undone, 2 seat changes: the log keeps all of them.
    assert session.events.filter(kind="game").count() == 31
    assert session.events.filter(undone=True).count() == 1
    assert session.events.filter(kind="seat_change").count() == 2
    # The stored log replays to the same ledger as the pure rules.
    assert ledger_of(session).totals_dict() == _db_totals(session)
    summary = session_summary(session_id=session.pk).summary
    assert sum(p.points for p in summary.players) == 0
    assert {p.player: p.money for p in summary.players} == {
        pk[n]: Decimal("0.50") * t for n, t in EXPECTED_FINAL[kind].items()
    }
    assert len(summary.transfers) <= 4
    balance = dict.fromkeys(pk.values(), 0)
    for t in summary.transfers:
        balance[t.payer] -= t.points
        balance[t.payee] += t.points
    assert balance == _db_totals(session)


# ====================================================================== roll-off
def test_server_rolls_the_roll_off_when_not_given_and_records_it() -> None:
    cast = players(("A", "B", "C", "D"), with_login=False)
    ids = [p.pk for p in cast.values()]
    # A 5, B 5, C 2, D 6 -> A and B re-roll: 3, 4 -> D box, B captain, A, C.
    dice = ScriptedDice([5, 5, 2, 6, 3, 4])
    session = session_create(by=scorekeeper(), name="Szerda", player_ids=ids, dice=dice)
    assert session.rolled_by_server is True
    assert session.rolls == [
        {"player": cast["A"].pk, "rolls": [5, 3]},
        {"player": cast["B"].pk, "rolls": [5, 4]},
        {"player": cast["C"].pk, "rolls": [2]},
        {"player": cast["D"].pk, "rolls": [6]},
    ]
    assert session.seating == {
        "box": cast["D"].pk,
        "line": [cast["B"].pk, cast["A"].pk, cast["C"].pk],
        "out": [],
    }
    assert list(session.participants.values_list("player__name", flat=True)) == [
        "D",
        "B",
        "A",
        "C",
    ]
    # The real source (secrets) always gives a seating.
    other = session_create(by=scorekeeper(), name="Csütörtök", player_ids=ids)
    assert other.rolled_by_server and len(other.rolls) == 4


@pytest.mark.parametrize(
    ("kwargs", "code", "error"),
    [
        ({"rolls": {"A": 4, "B": 4, "C": 1}}, "tied_rolls", ValidationFailed),
        ({"rolls": {"A": 4, "B": 3}}, "rolls_do_not_match_players", ValidationFailed),
        ({"rolls": {"A": 7, "B": 3, "C": 1}}, "invalid_roll", ValidationFailed),
        (
            {"profile": {"kind": "classic", "beavers": True}},
            "option_needs_individual",
            ValidationFailed,
        ),
        ({"profile": {"nonsense": 1}}, "invalid_data", ValidationFailed),
        ({"stake_per_point": Decimal("-1"), "currency": "EUR"}, "invalid_stake", ValidationFailed),
        (
            {"stake_per_point": Decimal("0.001"), "currency": "EUR"},
            "invalid_stake",
            ValidationFailed,
        ),
        ({"stake_per_point": Decimal("1"), "currency": ""}, "invalid_stake", ValidationFailed),
        ({"name": " "}, "invalid_name", ValidationFailed),
        ({"players": ["A", "B"]}, "too_few_players", ValidationFailed),
        ({"players": ["A", "A", "B"]}, "duplicate_player", ValidationFailed),
        ({"player_ids": [999999, 999998, 999997]}, "player_not_found", NotFound),
    ],
)
def test_session_create_refuses(kwargs, code, error) -> None:
    cast = players(("A", "B", "C"), with_login=False)
    args = {"by": scorekeeper(), "name": "Hétfő", "player_ids": [p.pk for p in cast.values()]}
    if "rolls" in kwargs:
        kwargs["rolls"] = {cast[n].pk: r for n, r in kwargs["rolls"].items()}
    if "players" in kwargs:
        kwargs["player_ids"] = [cast[n].pk for n in kwargs.pop("players")]
    args.update(kwargs)
    with pytest.raises(error) as err:
        session_create(**args)
    assert err.value.code == code
    assert ChouetteSession.objects.count() == 0


# ====================================================================== seats, undo
def test_join_sit_out_come_back_and_who_may_write() -> None:
    cast = players()
    session = session_with(cast)
    newcomer = PlayerFactory(name="Flo")
    stranger = UserFactory()
    with pytest.raises(PermissionDenied) as err:
        session_join(session_id=session.pk, by=stranger, player_id=newcomer.pk)
    assert err.value.code == "not_in_session"
    session = session_join(session_id=session.pk, by=cast["Ann"].user, player_id=newcomer.pk)
    assert session.seating["line"][-1] == newcomer.pk
    assert session.participants.get(player=newcomer).order == 5
    with pytest.raises(ValidationFailed) as err:
        session_join(session_id=session.pk, by=cast["Ann"].user, player_id=newcomer.pk)
    assert err.value.code == "already_seated"
    # The box sits out: the captain takes the box.
    session = session_sit_out(session_id=session.pk, by=cast["Bob"].user, player_id=cast["Bob"].pk)
    assert session.seating["box"] == cast["Ann"].pk and session.seating["out"] == [cast["Bob"].pk]
    # Sitting out, Bob may still write (he is a player of the session).
    session = session_come_back(
        session_id=session.pk, by=cast["Bob"].user, player_id=cast["Bob"].pk
    )
    assert session.seating["line"][-1] == cast["Bob"].pk
    with pytest.raises(ValidationFailed) as err:
        session_come_back(session_id=session.pk, by=cast["Bob"].user, player_id=cast["Bob"].pk)
    assert err.value.code == "not_sitting_out"
    staff = UserFactory(is_staff=True)
    session_sit_out(session_id=session.pk, by=staff, player_id=newcomer.pk)
    with pytest.raises(Conflict) as err:
        session_sit_out(
            session_id=session.pk, by=staff, player_id=cast["Ann"].pk, expected_version=0
        )
    assert err.value.code == "stale_version"


def test_undo_restores_seating_and_totals_and_keeps_later_seat_changes() -> None:
    cast = players()
    session = session_with(cast)
    by = cast["Ann"].user
    start = _snapshot(session)
    with pytest.raises(Conflict) as err:
        game_undo_last(session_id=session.pk, by=by)
    assert err.value.code == "nothing_to_undo"
    assert _snapshot(session) == start
    game_record(session_id=session.pk, by=by, entry=simple_entry(session))
    session.refresh_from_db()
    seating_after_one = session.seating
    totals_after_one = _db_totals(session)
    game_record(
        session_id=session.pk, by=by, entry=simple_entry(session, winner="box", kind="gammon")
    )
    session.refresh_from_db()
    assert _db_totals(session) != totals_after_one
    session_join(session_id=session.pk, by=by, player_id=PlayerFactory(name="Flo").pk)
    game_undo_last(session_id=session.pk, by=by)
    session.refresh_from_db()
    flo = session.participants.get(player__name="Flo").player_id
    assert session.seating == {**seating_after_one, "line": [*seating_after_one["line"], flo]}
    assert _db_totals(session) == {**totals_after_one, flo: 0}
    # Undo again: back to the start (Flo still joined).
    game_undo_last(session_id=session.pk, by=by)
    session.refresh_from_db()
    assert session.seating["box"] == start[1]["box"]
    assert set(_db_totals(session).values()) == {0}
    assert session.events.filter(undone=True).count() == 2


def test_refused_games_change_nothing_and_ended_sessions_refuse_writes() -> None:
    cast = players()
    session = session_with(cast)
    by = cast["Eve"].user
    before = _snapshot(session)
    bad = simple_entry(session)
    wrong_box = {**bad, "box": bad["captain"], "captain": bad["box"]}
    cases = [
        ({**bad, "winner": None}, "missing_result"),
        (wrong_box, "duplicate_player"),
        ({**bad, "box": bad["members"][1]["player"]}, "duplicate_player"),
        ({**bad, "members": bad["members"][:2]}, "entry_seating_mismatch"),
        ({**bad, "members": [{**m, "cube": 3} for m in bad["members"]]}, "invalid_cube"),
        (
            {**bad, "members": [{**m, "beavers": 1, "cube": 4} for m in bad["members"]]},
            "beaver_not_allowed",
        ),
        ({**bad, "extra": 1}, "invalid_data"),
        ("not a mapping", "invalid_data"),
    ]
    for entry, code in cases:
        with pytest.raises(ValidationFailed) as err:
            game_record(session_id=session.pk, by=by, entry=entry)
        assert err.value.code == code, entry
        with pytest.raises(ValidationFailed):
            game_preview(session_id=session.pk, by=by, entry=entry)
        assert _snapshot(session) == before
    session_end(session_id=session.pk, by=by)
    session.refresh_from_db()
    assert session.status == "ended" and session.ended_at is not None
    ended = _snapshot(session)
    for call in (
        lambda: game_record(session_id=session.pk, by=by, entry=bad),
        lambda: game_undo_last(session_id=session.pk, by=by),
        lambda: session_end(session_id=session.pk, by=by),
        lambda: session_sit_out(session_id=session.pk, by=by, player_id=cast["Eve"].pk),
    ):
        with pytest.raises(Conflict) as err:
            call()
        assert err.value.code == "session_ended"
    assert _snapshot(session) == ended
    # The summary stays readable.
    assert session_summary(session_id=session.pk).summary.transfers == ()


def test_partner_profile_with_six_players() -> None:
    names = ("A", "B", "C", "D", "E", "F")
    cast = players(names, with_login=False)
    profile = rules.Profile(kind="individual", box_partner=True)
    session = session_with(
        cast,
        rolls={"A": 6, "B": 5, "C": 4, "D": 3, "E": 2, "F": 1},
        profile=profile.to_dict(),
    )
    board = selectors.scoreboard(session_id=session.pk)
    assert [s.role for s in board.seats] == ["box", "captain", "team", "team", "team", "partner"]
    team = [cast[n].pk for n in "BCDE"]
    entry = {
        "box": cast["A"].pk,
        "captain": cast["B"].pk,
        "partner": cast["F"].pk,
        "members": [{"player": p, "cube": 1, "fate": "took"} for p in team],
        "winner": "team",
        "kind": "single",
    }
    preview = game_preview(session_id=session.pk, by=session.created_by, entry=entry)
    assert preview.points == {cast["A"].pk: -2, cast["F"].pk: -2, **dict.fromkeys(team, 1)}
    event = game_record(session_id=session.pk, by=session.created_by, entry=entry)
    assert sum(event.lines.values_list("points", flat=True)) == 0


def test_player_sessions_selector() -> None:
    cast = players()
    first = session_with(cast, name="Első")
    second = session_with(cast, name="Második")
    game_record(session_id=first.pk, by=first.created_by, entry=simple_entry(first))
    game_record(
        session_id=second.pk, by=second.created_by, entry=simple_entry(second, winner="box")
    )
    game_undo_last(session_id=second.pk, by=second.created_by)
    rows = selectors.player_sessions(player_id=cast["Bob"].pk)
    assert [(r.session.name, r.points, r.games) for r in rows] == [
        ("Második", 0, 0),
        ("Első", -4, 1),
    ]

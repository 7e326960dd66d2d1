"""The .mat match file (R1 interchange): export, validated import, round trips.

No gnubg binary is needed here: the fixtures in ``tests/games/engine/data/`` were written by
Debian's gnubg 1.07 self-playing (0-ply) and the final scores below are what gnubg's
``show score`` printed after importing them (the oracle's output, recorded).
``test_matfile_gnubg.py`` runs gnubg itself.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.actions import Action, apply_action
from games.engine.errors import EngineError
from games.engine.game import apply_result, new_game
from games.engine.match import MatchState
from games.engine.matfile.read import import_mat
from games.engine.matfile.record import MatchRecord, MatError, MatGame, build_record
from games.engine.matfile.write import export_mat
from games.engine.notation import parse_play
from games.engine.position import position_id
from games.engine.rules import RuleOptions
from games.engine.selfplay import random_game

DATA = Path(__file__).parent / "data"

# (file, games, final score) as gnubg 1.07 reported them after `import mat` + `show score`.
GNUBG_FIXTURES = [
    ("gnubg_3pt.mat", 3, 2, (5, 0)),
    ("gnubg_5pt.mat", 5, 4, (4, 7)),
    ("gnubg_7pt.mat", 7, 5, (7, 1)),
    # Both players "human" in gnubg: each game's starter rolled, then resigned.
    ("gnubg_resign_after_roll.mat", 3, 2, (0, 3)),
]


def fixture_text(name: str) -> str:
    return (DATA / name).read_text()


# ====================================================================== helpers
class Log:
    """A hand-written game: actions applied as they are added (so they are legal)."""

    def __init__(self, match: MatchState, options: RuleOptions | None = None) -> None:
        self.state = new_game(options or RuleOptions(), match)
        self.actions: list[Action] = []

    def do(self, what: Any, player: int | None = None, **data: Any) -> Log:
        action = Action(what, player, data)
        self.state = apply_action(self.state, action)
        self.actions.append(action)
        return self

    def roll(self, player: int, d1: int, d2: int, text: str | None = None) -> Log:
        self.do("roll", player, dice=[d1, d2])
        return self if text is None else self.play(player, text)

    def play(self, player: int, text: str) -> Log:
        assert self.state.dice is not None
        play = parse_play(self.state.position, text, *self.state.dice)
        return self.do("play", player, position_id=position_id(play.result))


def random_match(
    seed: int, length: int = 5, options: RuleOptions | None = None, money_games: int = 6
) -> tuple[list[list[Action]], MatchState]:
    """Random legal games (selfplay.random_game: doubles, takes, drops, beavers,
    resignations) until the match is over, or ``money_games`` games of a session."""
    opts = options or RuleOptions()
    rng = random.Random(seed)
    match = MatchState.new(length)
    logs: list[list[Action]] = []
    while not match.is_over and (length or len(logs) < money_games):
        final, log = random_game(new_game(opts, match), rng)
        assert final.result is not None
        logs.append(log)
        match = apply_result(match, final.result)
    return logs, match


def summary(actions: Any, winner: int | None, points: int) -> tuple[Any, ...]:
    """What a .mat file keeps of a game: the deciding opening roll, rolls, the plays'
    resulting positions, the cube actions and the result. Tied opening rolls, declined
    resignations and the resigner's kind are not kept (the points are); a roll that was
    never played because the game then ended by resignation may be left out."""
    out: list[tuple[Any, ...]] = []
    for action in actions:
        data = action.data
        if action.kind == "opening_roll" and data["dice"][0] != data["dice"][1]:
            out.append(("opening", tuple(data["dice"])))
        elif action.kind == "roll":
            out.append(("roll", action.player, tuple(data["dice"])))
        elif action.kind == "play":
            out.append(("play", action.player, data["position_id"]))
        elif action.kind in ("double", "take", "drop", "beaver"):
            out.append((action.kind, action.player))
    resigned = bool(actions) and actions[-1].kind in (
        "accept_resignation",
        "resign",  # seed002: the resignation ends the game at once
        "claim_timeout",
    )
    if resigned and out and out[-1][0] in ("roll", "opening"):
        out.pop()
    return (*out, winner, points)


def assert_same_match(original: MatchRecord, imported: MatchRecord) -> None:
    assert imported.players == original.players
    assert imported.length == original.length
    assert imported.final_score == original.final_score
    assert len(imported.games) == len(original.games)
    for number, (before, after) in enumerate(zip(original.games, imported.games, strict=True), 1):
        assert after.score == before.score, f"game {number}"
        assert summary(after.actions, after.winner, after.points) == summary(
            before.actions, before.winner, before.points
        ), f"game {number}"


# ====================================================================== gnubg's own files
@pytest.mark.parametrize(("name", "length", "games", "score"), GNUBG_FIXTURES)
def test_R1_gnubg_files_import_with_gnubgs_final_score(name, length, games, score):
    record = import_mat(fixture_text(name))
    assert record.players == ("gnubg", "root")
    assert record.length == length
    assert len(record.games) == games
    assert record.final_score == score
    assert record.date == dt.date(2026, 11, 29)
    assert all(game.winner is not None for game in record.games)


@pytest.mark.parametrize(("name", "length", "games", "score"), GNUBG_FIXTURES)
def test_R1_gnubg_files_round_trip_through_our_export(name, length, games, score):
    record = import_mat(fixture_text(name))
    again = import_mat(export_mat(record))
    assert again == record  # import gives canonical actions: exactly the same record


def test_R11_the_gnubg_5pt_fixture_has_its_crawford_and_post_crawford_games():
    record = import_mat(fixture_text("gnubg_5pt.mat"))
    assert [game.score for game in record.games] == [(0, 0), (0, 2), (4, 2), (4, 3)]
    # Game 4 is post-Crawford: root (the trailer) doubles at once, gnubg takes.
    kinds = [a.kind for a in record.games[3].actions[:5]]
    assert kinds == ["opening_roll", "play", "double", "take", "roll"]


# ====================================================================== hand-written games
def golden_record() -> MatchRecord:
    m = MatchState.new(3)
    g1 = (
        Log(m)
        .do("opening_roll", dice=[4, 4])  # a tie: re-rolled, not in the file
        .do("opening_roll", dice=[3, 1])
        .play(0, "8/5 6/5")
        .roll(1, 6, 4, "24/18 13/9")
        .do("double", 0)
        .do("take", 1)
        .roll(0, 6, 6, "24/18(2) 13/7*(2)")
        .do("resign", 1, kind="gammon")
        .do("decline_resignation", 0)  # leaves no trace
        .do("resign", 1, kind="single")
        .do("accept_resignation", 0)
    )
    assert g1.state.result is not None
    m = apply_result(m, g1.state.result)
    g2 = (  # the Crawford game (R11); player 1 starts
        Log(m)
        .do("opening_roll", dice=[2, 5])
        .play(1, "13/8 13/11")
        .roll(0, 5, 5, "13/3(2)")
        .do("resign", 0, kind="gammon")
        .do("accept_resignation", 1)
    )
    assert g2.state.result is not None
    m = apply_result(m, g2.state.result)
    g3 = (  # double match point, post-Crawford: the cube is legal (R11)
        Log(m).do("opening_roll", dice=[6, 1]).play(0, "13/7 8/7").do("double", 1).do("drop", 0)
    )
    return build_record(
        ("Alice", "Bob"),
        3,
        [g1.actions, g2.actions, g3.actions],
        event="Club night",
        date=dt.date(2026, 3, 14),
    )


# The layout gnubg writes (a line with only the left column keeps gnubg's padding to
# column 33); gnubg 1.07 imports this text as "Alice 2, Bob 3" (checked).
GOLDEN = (
    '; [Event "Club night"]\n'
    '; [EventDate "2026.03.14"]\n'
    "\n"
    " 3 point match\n"
    "\n"
    " Game 1\n"
    " Alice : 0                      Bob : 0\n"
    "  1) 31: 8/5 6/5                 64: 24/18 13/9\n"
    "  2)  Doubles => 2                Takes\n"
    "  3) 66: 24/18 24/18 13/7* 13/7  \n"
    "      Wins 2 points\n"
    "\n"
    " Game 2\n"
    " Alice : 2                      Bob : 0\n"
    "  1)                             52: 13/8 13/11\n"
    "  2) 55: 13/8 13/8 8/3 8/3       \n"
    "                                  Wins 2 points\n"
    "\n"
    " Game 3\n"
    " Alice : 2                      Bob : 2\n"
    "  1) 61: 13/7 8/7                 Doubles => 2\n"
    "  2)  Drops                      \n"
    "                                  Wins 1 point\n"
    "\n"
)


def test_R1_export_writes_gnubgs_layout():
    assert export_mat(golden_record()) == GOLDEN


def test_R1_the_golden_file_imports_to_the_same_match():
    record = golden_record()
    imported = import_mat(GOLDEN)
    assert_same_match(record, imported)
    assert imported.final_score == (2, 3)
    assert imported.event == "Club night"
    assert imported.date == dt.date(2026, 3, 14)
    g1 = imported.games[0].actions
    assert g1[0] == Action("opening_roll", None, {"dice": [3, 1]})
    assert g1[-2:] == (
        Action("resign", 1, {"kind": "single"}),
        Action("accept_resignation", 0),
    )
    # Player 1 won game 2's opening roll: player 0's die is the lower one.
    assert imported.games[1].actions[0] == Action("opening_roll", None, {"dice": [2, 5]})
    assert imported.games[1].actions[-2:] == (
        Action("resign", 0, {"kind": "gammon"}),
        Action("accept_resignation", 1),
    )


def test_R3_a_roll_without_a_legal_move_is_written_with_no_moves():
    # Seed-searched: random games dance often enough; every dance must survive.
    found = 0
    for seed in range(40):
        logs, _ = random_match(seed, length=3)
        text = export_mat(build_record(("a", "b"), 3, logs))
        found += len(re.findall(r"\) [1-6][1-6]: {2,}[1-6][1-6]:|[1-6][1-6]:$", text, re.M))
        if found:
            break
    assert found


def test_R1_a_resignation_after_rolling_keeps_the_roll_unless_the_play_was_forced():
    m = MatchState.new(5)
    game = Log(m).do("opening_roll", dice=[3, 1]).play(0, "8/5 6/5").roll(1, 6, 4)
    game.do("resign", 1, kind="gammon").do("accept_resignation", 0)
    text = export_mat(build_record(("a", "b"), 5, [game.actions]))
    assert "  1) 31: 8/5 6/5                 64:\n      Wins 2 points" in text
    imported = import_mat(text)
    assert imported.games[0].actions[2] == Action("roll", 1, {"dice": [6, 4]})
    assert imported.final_score == (2, 0)


def test_R1_an_unfinished_last_game_round_trips():
    m = MatchState.new(5)
    game = Log(m).do("opening_roll", dice=[6, 5]).play(0, "24/13").roll(1, 6, 4)
    record = build_record(("a", "b"), 5, [game.actions])
    assert record.games[0].winner is None
    text = export_mat(record)
    assert "Wins" not in text
    imported = import_mat(text)
    assert imported.games[0].actions[-1] == Action("roll", 1, {"dice": [6, 4]})  # pending
    assert_same_match(record, imported)
    assert imported.final_score == (0, 0)


def test_R10_a_match_resumed_at_a_score_keeps_it():
    match = MatchState(length=7, score=(6, 3), crawford=True)
    logs = [random_game(new_game(RuleOptions(), match), random.Random(5))[1]]
    record = build_record(("a", "b"), 7, logs, start_score=(6, 3))
    imported = import_mat(export_mat(record))
    assert imported.games[0].score == (6, 3)
    assert_same_match(record, imported)


def test_R1_names_and_metadata_survive_and_are_made_safe():
    m = MatchState.new(1)
    game = (
        Log(m).do("opening_roll", dice=[2, 1]).play(0, "13/11 6/5").do("resign", 1, kind="single")
    )
    game.do("accept_resignation", 0)
    record = build_record(
        ("  Anna   Kovács ", "X: the  great"),
        1,
        [game.actions],
        event='Spring "Open"',
        site="Budapest",
        round="Final",
        date=dt.date(2026, 4, 1),
        transcriber="club server",
        comment="first line\nsecond line",
    )
    text = export_mat(record)
    assert "; [Event \"Spring 'Open'\"]" in text
    assert "; first line\n; second line\n" in text
    imported = import_mat(text)
    assert imported.players == ("Anna Kovács", "X. the great")
    assert (imported.event, imported.site, imported.round) == ("Spring 'Open'", "Budapest", "Final")
    assert (imported.date, imported.transcriber) == (dt.date(2026, 4, 1), "club server")
    assert imported.comment == "first line\nsecond line"


# ====================================================================== random round trips
@pytest.mark.parametrize("seed", range(6))
def test_R1_random_matches_round_trip(seed):
    logs, match = random_match(seed, length=5)
    record = build_record(("alice", "bob"), 5, logs)
    assert record.final_score == match.score
    imported = import_mat(export_mat(record))
    assert_same_match(record, imported)
    assert imported.final_score == match.score


SETUPS = [
    (RuleOptions(), 7),
    (RuleOptions(), 1),
    (RuleOptions(variant="nackgammon"), 3),
    (RuleOptions(), 0),
    (RuleOptions(jacoby=True, beavers=True), 0),
    (RuleOptions(resign_mode="seed002"), 5),
]


@settings(max_examples=8, deadline=None)
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 2**32))
def test_R1_random_matches_and_sessions_round_trip(setup, seed):
    options, length = setup
    logs, match = random_match(seed, length, options, money_games=3)
    record = build_record(("alice", "bob"), length, logs, options=options)
    imported = import_mat(export_mat(record), options=options)
    assert_same_match(record, imported)
    assert imported.final_score == (match.score if length else record.final_score)


def test_R8_money_sessions_carry_their_options_in_the_header():
    options = RuleOptions(jacoby=True, beavers=True)
    logs, _ = random_match(3, 0, options, money_games=5)
    text = export_mat(build_record(("a", "b"), 0, logs, options=options))
    assert " 0 point match\n" in text
    assert '; [Jacoby "On"]' in text
    assert '; [Beaver "On"]' in text
    assert import_mat(text).options == options


def test_R8_a_beaver_is_written_as_gnubg_reads_it():
    options = RuleOptions(beavers=True)
    m = MatchState.money()
    game = Log(m, options).do("opening_roll", dice=[3, 1]).play(0, "8/5 6/5")
    game.do("double", 1).do("beaver", 0).roll(1, 2, 1, "13/11 6/5").do("double", 0).do("drop", 1)
    text = export_mat(build_record(("a", "b"), 0, [game.actions], options=options))
    assert "  1) 31: 8/5 6/5                  Doubles => 2\n" in text
    assert "  2)  Beavers => 4               21: 13/11 6/5\n" in text
    assert "  3)  Doubles => 8                Drops\n      Wins 4 points" in text
    assert import_mat(text).final_score == (4, 0)


# ====================================================================== variants of the format
def jellyfish_style(text: str) -> str:
    """Our export rewritten the way other programs write .mat files: CRLF, a BOM, tabs,
    lower case, wider columns, bar/off, merged (2) moves, "and the match"."""
    out = []
    for line in text.splitlines():
        line = line.replace("25/", "bar/").replace("/0", "/off")
        line = re.sub(r"(\d+/\d+\*?) \1 \1 \1", r"\1(4)", line)
        line = re.sub(r"(?<![/\d])(\d+/\d+\*?) \1(?![/\d*])", r"\1(2)", line)
        line = line.replace(" point match", " Point Match")
        line = re.sub(r"^(\s*\d+\)) (?=\S| [DT])", "\\1\t", line)  # a tab, not a space
        line = line.replace("                 ", "                        ")  # wider columns
        out.append(line.rstrip())
    joined = "\r\n".join(out)
    joined = re.sub(r"(Wins \d+ points?)(\s*)$", r"\1 and the match\2", joined)
    return "\ufeff" + joined + "\r\n"


@pytest.mark.parametrize("seed", range(2))
def test_R1_other_writers_whitespace_and_notation_are_read(seed):
    logs, _ = random_match(seed, length=5)
    record = build_record(("alice", "bob"), 5, logs)
    text = jellyfish_style(export_mat(record))
    assert "\t" in text
    assert_same_match(record, import_mat(text))


def test_R1_consolidated_moves_are_matched_by_position():
    text = (
        " 3 point match\n\n Game 1\n Ann : 0   Ben : 0\n"
        "  1) 65: 24/13                    64: 24/14\n"
        "  2) 21: 13/11/10                 66:\n"  # the hit on 11 is not marked
        "  3) 33: 8/5(2) 6/3(2)            43: bar/21 13/10\n"
    )
    game = import_mat(text).games[0]
    assert game.winner is None
    kinds = [a.kind for a in game.actions]
    assert (
        kinds == ["opening_roll", "play"] + ["roll", "play"] * 2 + ["roll"] + ["roll", "play"] * 2
    )
    assert [a.data["play"] for a in game.actions if a.kind == "play"] == [
        "24/13",
        "24/14",
        "13/11*/10",
        "8/5(2) 6/3(2)",
        "bar/21 13/10",
    ]


# ====================================================================== refused files
def edited(name: str, old: str, new: str) -> str:
    text = fixture_text(name)
    assert text.count(old) == 1, old
    return text.replace(old, new)


def refused(text: str, **kwargs: Any) -> MatError:
    with pytest.raises(MatError) as caught:
        import_mat(text, **kwargs)
    assert isinstance(caught.value, EngineError)
    return caught.value


def test_R4_an_illegal_play_names_game_move_and_player():
    error = refused(edited("gnubg_5pt.mat", "  5) 64: 25/21 21/15 ", "  5) 64: 25/21 21/17 "))
    assert error.code == "mat_illegal_action"
    assert error.cause == "illegal_play"
    assert (error.game, error.move, error.player) == (3, 5, 0)
    assert error.message == "game 3, move 5 (player 0): 25/21 21/17 is not legal with 6-4"


def test_R4_an_illegal_play_in_the_right_column_is_player_1s():
    error = refused(edited("gnubg_3pt.mat", "53: 8/5 9/4 ", "53: 8/5 9/5 "))
    assert (error.code, error.game, error.move, error.player) == ("mat_illegal_action", 2, 14, 1)
    assert "8/5 9/5 is not legal with 5-3" in str(error)


def test_R11_a_double_in_the_crawford_game_is_refused():
    error = refused(
        edited(
            "gnubg_5pt.mat",
            "  2) 52: 6/4* 13/8               65: 25/20 20/14 ",
            "  2) 52: 6/4* 13/8                Doubles => 2",
        )
    )
    assert (error.code, error.cause) == ("mat_illegal_action", "crawford_no_double")
    assert (error.game, error.move, error.player) == (3, 2, 1)


def test_R8_a_take_without_a_double_is_refused():
    error = refused(
        edited("gnubg_3pt.mat", "  9)  Doubles => 2                Drops", "  9)  Takes")
    )
    assert (error.code, error.cause, error.game, error.move) == (
        "mat_illegal_action",
        "no_double_pending",
        1,
        9,
    )


def test_R9_a_wins_line_that_disagrees_with_the_game_is_refused():
    error = refused(edited("gnubg_3pt.mat", "      Wins 1 point", "      Wins 2 points"))
    assert (error.code, error.game, error.move) == ("mat_result_mismatch", 1, 9)
    assert error.message.endswith("the game gives player 0 1 point")
    # gnubg resigned game 2 for root (gnubg resigns hopeless positions): 4 = cube 4 x 1.
    error = refused(edited("gnubg_3pt.mat", "      Wins 4 points", "      Wins 5 points"))
    assert (error.code, error.game, error.move) == ("mat_result_mismatch", 2, 23)
    assert "a resignation wins the cube (4) times 1, 2 or 3, not 5" in error.message


def test_R10_a_header_score_that_disagrees_with_the_games_is_refused():
    error = refused(edited("gnubg_3pt.mat", " gnubg : 1      ", " gnubg : 2      "))
    assert (error.code, error.game, error.move) == ("mat_result_mismatch", 2, None)


def test_R6_a_missing_play_is_refused():
    error = refused(edited("gnubg_3pt.mat", "  2) 44: 13/9 13/9 9/5 9/5 ", "  2) 44: "))
    assert (error.code, error.game, error.move, error.player) == ("mat_illegal_action", 1, 2, 0)
    assert "no play is written for 4-4" in error.message


def test_R6_moves_after_a_dance_are_refused():
    error = refused(edited("gnubg_3pt.mat", "65: \n", "65: 24/18\n"))
    assert (error.code, error.game, error.move, error.player) == ("mat_illegal_action", 1, 6, 1)


def test_R3_a_double_as_opening_roll_is_refused():
    error = refused(edited("gnubg_3pt.mat", "  1) 21: 13/11 24/23 ", "  1) 22: 13/11 24/23 "))
    assert (error.code, error.game, error.move) == ("mat_illegal_action", 1, 1)


def test_R1_a_wrong_cube_value_is_refused():
    error = refused(edited("gnubg_3pt.mat", " Doubles => 4", " Doubles => 8"))
    assert (error.code, error.game, error.move, error.player) == ("mat_invalid", 2, 6, 1)


def test_R10_a_money_option_in_a_match_is_refused():
    error = refused(fixture_text("gnubg_3pt.mat"), options=RuleOptions(jacoby=True))
    assert error.code == "mat_invalid"
    assert error.cause == "money_option_in_match"


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "no 'N point match' line"),
        ("hello world\nthis is not a match\n", "no 'N point match' line"),
        ("\x00\x01\x02garbage\xff", "no 'N point match' line"),
        (" 5 point match\n", "the file has no games"),
        (" 5 point match\n\n  1) 31: 8/5 6/5\n", "expected 'Game 1'"),
        (" 5 point match\n Game 1\n alice bob\n", "expected 'name : score"),
        (" 5 point match\n Game 2\n a : 0   b : 0\n", "found 'Game 2' where game 1"),
        (" 5 point match\n Game 1\n a : 0   b : 0\n  1) 31: 8/5 6/x\n", "cannot read"),
        (" 5 point match\n Game 1\n a : 0   b : 0\n  1) hello there\n", "cannot read the line"),
        (" 5 point match\n Game 1\n a : 0   b : 9\n", "past the match"),
        (" 5 point match\n Game 1\n a : 0   b : 0\n\n Game 2\n a : 0   b : 0\n", "no result"),
    ],
)
def test_R1_garbage_gives_a_clear_error(text, fragment):
    error = refused(text)
    assert error.code == "mat_invalid"
    assert fragment in error.message


def test_R1_an_unknown_variation_is_unsupported():
    text = '; [Variation "HyperGammon (1)"]\n' + fixture_text("gnubg_3pt.mat")
    assert refused(text).code == "mat_unsupported"


# ====================================================================== refused exports
def test_R3_acey_deucey_and_other_rules_can_not_be_exported():
    for options in (
        RuleOptions(variant="acey-deucey"),
        RuleOptions(max_checkers_per_point=5),
        RuleOptions(min_pip_waste=True),
        RuleOptions(backgammon_value=2),
    ):
        record = MatchRecord(("a", "b"), 0, (), options=options)
        with pytest.raises(MatError) as caught:
            export_mat(record)
        assert caught.value.code == "mat_unsupported"


def test_R8_an_automatic_double_can_not_be_exported():
    options = RuleOptions(automatic_doubles=True)
    game = Log(MatchState.money(), options).do("opening_roll", dice=[4, 4])
    game.do("opening_roll", dice=[3, 1]).play(0, "8/5 6/5")
    with pytest.raises(MatError) as caught:
        export_mat(build_record(("a", "b"), 0, [game.actions], options=options))
    assert (caught.value.code, caught.value.game) == ("mat_unsupported", 1)


def test_R12_a_match_lost_on_time_can_not_be_exported_but_a_gammon_timeout_can():
    game = Log(MatchState.new(5), RuleOptions(timeout_result="match")).do(
        "opening_roll", dice=[3, 1]
    )
    game.play(0, "8/5 6/5").do("timeout", 1).do("claim_timeout", 0)
    with pytest.raises(MatError) as caught:
        export_mat(
            build_record(("a", "b"), 5, [game.actions], options=RuleOptions(timeout_result="match"))
        )
    assert caught.value.code == "mat_unsupported"
    # For an analysis: every move, the last game left unfinished (no "Wins" line).
    record = build_record(
        ("a", "b"), 5, [game.actions], options=RuleOptions(timeout_result="match")
    )
    unfinished = export_mat(record, forfeit_unfinished=True)
    assert "Wins" not in unfinished and "31: 8/5 6/5" in unfinished
    assert import_mat(unfinished).final_score == (0, 0)
    gammon = Log(MatchState.new(5)).do("opening_roll", dice=[3, 1]).play(0, "8/5 6/5")
    gammon.do("timeout", 1).do("claim_timeout", 0)
    text = export_mat(build_record(("a", "b"), 5, [gammon.actions]))
    assert "      Wins 2 points" in text
    assert import_mat(text).final_score == (2, 0)  # read back as a resigned gammon


def test_R1_an_inconsistent_record_is_refused():
    record = golden_record()
    first = record.games[0]
    wrong_winner = MatGame(first.score, first.actions, winner=1, points=first.points)
    with pytest.raises(MatError) as caught:
        export_mat(MatchRecord(record.players, 3, (wrong_winner, *record.games[1:])))
    assert (caught.value.code, caught.value.game) == ("mat_invalid", 1)
    wrong_score = MatGame((1, 0), record.games[1].actions, 1, 2)
    with pytest.raises(MatError) as caught:
        export_mat(MatchRecord(record.players, 3, (first, wrong_score, record.games[2])))
    assert (caught.value.code, caught.value.game) == ("mat_invalid", 2)
    bad_action = MatGame((0, 0), (Action("roll", 0, {"dice": [3, 1]}),))
    with pytest.raises(MatError) as caught:
        export_mat(MatchRecord(record.players, 3, (bad_action,)))
    assert (caught.value.code, caught.value.cause) == ("mat_invalid", "opening_roll_required")

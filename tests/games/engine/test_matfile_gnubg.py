"""The .mat interchange against the real GNU Backgammon (Debian's gnubg 1.07, headless).

1. Our exports of random matches (doubles, takes, drops, resignations, dances, gammons,
   the Crawford game, post-Crawford doubles including the 1-away leader's), a
   Nackgammon match, a money session with Jacoby and beavers and hand-written edge cases
   are read by ``gnubg -t -q`` (``import mat`` + ``show score``): gnubg must read every
   game and reach our final score.
2. gnubg self-plays a fresh 5-point match (0-ply); :func:`import_mat` must reach gnubg's
   score, and gnubg must read our re-export of it with the same score.

The binary is required: CI installs it (``apt-get install gnubg``); a missing gnubg fails
these tests, it does not skip them.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest

from games.engine.actions import apply_action
from games.engine.game import apply_result, new_game
from games.engine.match import MatchState
from games.engine.matfile.read import import_mat
from games.engine.matfile.record import MatchRecord, build_record
from games.engine.matfile.write import export_mat
from games.engine.rules import RuleOptions
from tests.games.engine.test_matfile import Log, golden_record, random_match

SCORE = re.compile(r"The score \(after (\d+) games?\) is: (\S+) (\d+), (\S+) (\d+) \(")
TIMEOUT = 120  # seconds for one gnubg run; a 0-ply self-played 5-point match takes ~3


@pytest.fixture(scope="module")
def gnubg() -> str:
    path = shutil.which("gnubg") or "/usr/games/gnubg"
    if not os.access(path, os.X_OK):
        pytest.fail(
            "GNU Backgammon is required for the .mat interchange tests and was not found "
            "(looked for `gnubg` on PATH and /usr/games/gnubg): apt-get install gnubg"
        )
    return path


def run_gnubg(gnubg: str, commands: list[str]) -> str:
    """gnubg's text output for ``commands`` (no GUI, no banner questions)."""
    done = subprocess.run(
        [gnubg, "-t", "-q"],
        input="\n".join(commands) + "\n",
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    return done.stdout + done.stderr


def scores(output: str) -> list[tuple[int, int, int]]:
    """Every ``show score`` line: (games, player 0's score, player 1's score)."""
    return [(int(m[1]), int(m[3]), int(m[5])) for m in SCORE.finditer(output)]


def features(record: MatchRecord) -> set[str]:
    """What happens in a record's games (to show the gnubg test covers it)."""
    found: set[str] = set()
    match = MatchState(length=record.length, score=record.games[0].score)
    for game in record.games:
        state = new_game(record.options, match)
        if match.crawford:
            found.add("crawford game")
        for action in game.actions:
            before = state
            state = apply_action(state, action)
            if action.kind == "double" and match.post_crawford:
                found.add("post-Crawford double")
                assert action.player is not None
                if match.away(action.player) == 1 and match.away(1 - action.player) > 1:
                    found.add("1-away leader's double")
            if action.kind in ("take", "drop", "beaver", "decline_resignation"):
                found.add(action.kind)
            if action.kind == "accept_resignation":
                found.add("resignation after rolling" if before.phase == "move" else "resignation")
            if action.kind == "roll" and state.turn != action.player:
                found.add("dance")
            if action.kind == "opening_roll" and state.phase == "move" and state.turn == 1:
                found.add("player 1 starts")
        assert state.result is not None
        if state.result.reason == "bear_off" and state.result.kind != "single":
            found.add(state.result.kind)
        match = apply_result(match, state.result)
    return found


def resign_before_the_opening_roll() -> MatchRecord:
    """Game 1 resigned before its opening roll (a bare "Wins" line), then a short game.
    gnubg 1.07 reads such a game only when another game follows it: a file whose last
    game has no roll at all imports as "No game in progress" (a gnubg limitation)."""
    first = Log(MatchState.new(3)).do("resign", 1, kind="gammon").do("accept_resignation", 0)
    second = Log(MatchState(length=3, score=(2, 0), crawford=True))
    second.do("opening_roll", dice=[3, 1]).play(0, "8/5 6/5")
    second.do("resign", 1, kind="single").do("accept_resignation", 0)
    return build_record(("first", "second"), 3, [first.actions, second.actions])


def random_record(seed: int, length: int = 5, options: RuleOptions | None = None) -> MatchRecord:
    logs, _ = random_match(seed, length, options, money_games=6)
    return build_record(("alice", "bob"), length, logs, options=options)


def test_R1_gnubg_reads_our_exports_with_the_same_score(gnubg, tmp_path):
    # Seeds 6, 8 and 9 cover the features asserted below; 266 once ended with a forced play
    # left unplayed before a resignation (gnubg plays a forced move written without
    # moves: the export now leaves such a roll out).
    records = [random_record(seed) for seed in (6, 8, 9, 266)]
    covered = set().union(*(features(record) for record in records))
    assert covered >= {
        "crawford game",
        "post-Crawford double",
        "1-away leader's double",  # gnubg 1.07 reads it (its players never make it)
        "take",
        "drop",
        "resignation",
        "resignation after rolling",
        "decline_resignation",
        "dance",
        "player 1 starts",
        "gammon",
        "backgammon",
    }
    records += [
        random_record(4, 3, RuleOptions(variant="nackgammon")),
        golden_record(),
        resign_before_the_opening_roll(),
    ]
    money = random_record(2, 0, RuleOptions(jacoby=True, beavers=True))
    assert "beaver" in features(money)
    records.append(money)  # last: `set jacoby on` (gnubg ignores the [Jacoby] header)
    commands = ["set jacoby on"]
    for index, record in enumerate(records):
        path = tmp_path / f"match{index}.mat"
        path.write_text(export_mat(record))
        commands += [f"import mat {path}", "show score"]
    output = run_gnubg(gnubg, commands)
    expected = [(len(record.games), *record.final_score) for record in records]
    assert scores(output) == expected, output[-3000:]


def test_R1_a_match_gnubg_plays_imports_with_gnubgs_score(gnubg, tmp_path):
    played = tmp_path / "gnubg.mat"
    output = run_gnubg(
        gnubg,
        [
            "set player 0 gnubg",
            "set player 1 gnubg",
            *(
                f"set player {p} {what} evaluation plies 0"
                for p in (0, 1)
                for what in ("chequerplay", "cubedecision")
            ),
            "new match 5",
            f"export match mat {played}",
            "show score",
        ],
    )
    gnubg_score = scores(output)[-1]
    text = played.read_text()
    record = import_mat(text)
    assert (len(record.games), *record.final_score) == gnubg_score, text
    assert max(record.final_score) >= 5
    # And gnubg reads our re-export of its match the same way.
    again = tmp_path / "ours.mat"
    again.write_text(export_mat(record))
    assert scores(run_gnubg(gnubg, [f"import mat {again}", "show score"])) == [gnubg_score]

"""The command-line contract ``python -m games.engine plays`` (stable: other tools use it).

Run as a real subprocess from the repository root, the way those tools run it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine.movegen import legal_plays
from games.engine.notation import format_play
from games.engine.position import position_from_id, position_id, start_position
from tests.games.engine.selfplay import make_position as mk

ROOT = Path(__file__).resolve().parents[3]
START = "4HPwATDgc/ABMA"


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "games.engine", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def lines(out: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in out.splitlines()]


def test_R4_R7_single_mode_start_3_1() -> None:
    """One JSON object per legal play (R4-R7), with the result's Position ID encoded
    while the mover is still on roll (gnubg's key of the move)."""
    done = run("plays", "--position-id", START, "--dice", "3", "1")
    assert done.returncode == 0, done.stderr
    rows = lines(done.stdout)
    assert len(rows) == 16
    assert all(set(row) == {"play", "position_id"} for row in rows)
    by_play = {row["play"]: row["position_id"] for row in rows}
    # 8/5 6/5: the mover (still on roll) is the second half of the key.
    after = position_from_id(str(by_play["8/5 6/5"]))
    assert after.opponent == start_position().opponent
    assert {i + 1: c for i, c in enumerate(after.mover) if c} == {24: 2, 13: 5, 8: 2, 6: 4, 5: 2}
    # Passing the turn gives gnubg's documented ID for this position with O on roll.
    assert position_id(after.swapped()) == "sGfwATDgc/ABMA"


def test_R5_single_mode_matches_library() -> None:
    pos = mk({25: 1, 13: 5, 8: 3, 6: 6}, {1: 2, 12: 5, 17: 3, 19: 5})
    done = run("plays", "--position-id", position_id(pos), "--dice", "6", "3")
    assert done.returncode == 0, done.stderr
    expected = [
        {"play": format_play(p), "position_id": position_id(p.result)}
        for p in legal_plays(pos, 6, 3)
    ]
    assert lines(done.stdout) == expected


def test_R4_R6_options_are_passed_on() -> None:
    """--max-per-point (R4) and --min-pip-waste (R6)."""
    pid = position_id(mk({8: 1, 6: 5, 1: 9}))
    plain = lines(run("plays", "--position-id", pid, "--dice", "2", "1").stdout)
    limited = lines(
        run("plays", "--position-id", pid, "--dice", "2", "1", "--max-per-point", "5").stdout
    )
    assert {r["play"] for r in plain} - {r["play"] for r in limited} == {"8/6 1/off"}
    pid = position_id(mk({3: 1, 2: 1}))
    waste = lines(run("plays", "--position-id", pid, "--dice", "6", "1", "--min-pip-waste").stdout)
    assert [r["play"] for r in waste] == ["3/off 2/1"]


def test_R2_variant_gives_the_start_when_no_id() -> None:
    standard = lines(run("plays", "--dice", "6", "5").stdout)
    assert standard == lines(run("plays", "--position-id", START, "--dice", "6", "5").stdout)
    nack = lines(run("plays", "--variant", "nackgammon", "--dice", "6", "5").stdout)
    nack_id = position_id(start_position("nackgammon"))
    assert nack == lines(run("plays", "--position-id", nack_id, "--dice", "6", "5").stdout)
    assert nack != standard


def test_R6_no_legal_play_prints_nothing() -> None:
    """Closed board, a checker on the bar: no line at all (R6: the turn passes)."""
    pid = position_id(mk({25: 1, 6: 14}, dict.fromkeys(range(19, 25), 2)))
    done = run("plays", "--position-id", pid, "--dice", "6", "6")
    assert done.returncode == 0
    assert done.stdout == ""


def test_R4_R7_jsonl_mode() -> None:
    closed = position_id(mk({25: 1, 6: 14}, dict.fromkeys(range(19, 25), 2)))
    requests = [
        {"position_id": START, "dice": [3, 1]},
        {"position_id": "sGfwATDgc/ABMA", "dice": [6, 6]},
        {"position_id": closed, "dice": [4, 2]},
    ]
    stdin = "\n".join(json.dumps(r) for r in requests) + "\n\n"
    done = run("plays", "--jsonl", stdin=stdin)
    assert done.returncode == 0, done.stderr
    rows = lines(done.stdout)
    assert [(r["position_id"], r["dice"]) for r in rows] == [
        (r["position_id"], r["dice"]) for r in requests
    ]
    single = lines(run("plays", "--position-id", START, "--dice", "3", "1").stdout)
    assert rows[0]["plays"] == single
    assert len(rows[1]["plays"]) == len(legal_plays(position_from_id("sGfwATDgc/ABMA"), 6, 6))
    assert rows[2]["plays"] == []


@pytest.mark.parametrize(
    "args",
    [
        ("plays", "--position-id", "nonsense", "--dice", "3", "1"),
        ("plays", "--position-id", "//////////////", "--dice", "3", "1"),
        ("plays", "--position-id", START, "--dice", "7", "1"),
        ("plays", "--position-id", START, "--dice", "0", "1"),
        ("plays", "--position-id", START, "--dice", "x", "1"),
        ("plays", "--position-id", START),
        ("plays", "--position-id", START, "--dice", "3", "1", "--variant", "tavla"),
        ("plays", "--position-id", START, "--dice", "3", "1", "--max-per-point", "0"),
        ("plays",),
        (),
    ],
)
def test_bad_arguments_exit_2(args: tuple[str, ...]) -> None:
    done = run(*args)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.strip()


@pytest.mark.parametrize(
    "line",
    [
        "not json",
        '{"position_id": "nonsense", "dice": [3, 1]}',
        '{"position_id": "4HPwATDgc/ABMA", "dice": [3]}',
        '{"position_id": "4HPwATDgc/ABMA", "dice": [3, 9]}',
        '{"position_id": "4HPwATDgc/ABMA", "dice": [true, 1]}',
        '{"position_id": "4HPwATDgc/ABMA"}',
        '{"dice": [3, 1]}',
        "[1, 2]",
    ],
)
def test_jsonl_bad_input_exit_2(line: str) -> None:
    """A bad line stops the run with status 2; earlier lines were answered."""
    good = json.dumps({"position_id": START, "dice": [2, 1]})
    done = run("plays", "--jsonl", stdin=f"{good}\n{line}\n{good}\n")
    assert done.returncode == 2
    assert len(done.stdout.splitlines()) == 1
    assert done.stderr.strip()

"""Command line of the rules engine. A stable contract: other tools rely on it.

``python -m games.engine plays --position-id ID --dice D1 D2 [--variant standard|nackgammon]
[--max-per-point N] [--min-pip-waste]`` prints one JSON object per legal play (R4-R7), one
per line::

    {"play": "24/18 13/10*", "position_id": "..."}

``play`` is the standard notation (:mod:`games.engine.notation`); ``position_id`` is the
gnubg Position ID of the position after the play, encoded while the mover is still on
roll (before the turn passes), exactly as gnubg encodes the result of a move. Nothing is
printed when there is no legal play (R6: the turn passes). The order of the plays is the
engine's (deterministic, but not a ranking); compare them as a set.

``python -m games.engine plays --jsonl [--max-per-point N] [--min-pip-waste]`` reads lines
``{"position_id": ..., "dice": [d1, d2]}`` from stdin and writes for each, in the same
order, ``{"position_id": ..., "dice": [...], "plays": [{"play": ..., "position_id": ...},
...]}``. Blank lines are skipped.

The Position ID settles the checkers, and the moving rules of ``standard`` and
``nackgammon`` are the same (they differ only in the start, R2), so ``--variant`` does
one thing: when ``--position-id`` is left out, the variant's start position is used. It
defaults to ``standard`` and has no effect with ``--jsonl``.

Bad input (an unreadable Position ID, dice outside 1-6, bad JSON or a bad option) prints
a message on stderr and exits with status 2; in ``--jsonl`` mode the lines before the bad
one have been answered already.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from games.engine.errors import EngineError
from games.engine.movegen import legal_plays
from games.engine.notation import format_play
from games.engine.position import position_from_id, position_id, start_position

EXIT_BAD_INPUT = 2


def _plays(pid: str, d1: int, d2: int, limit: int | None, min_waste: bool) -> list[dict[str, str]]:
    pos = position_from_id(pid)
    return [
        {"play": format_play(play), "position_id": position_id(play.result)}
        for play in legal_plays(pos, d1, d2, max_checkers_per_point=limit, min_pip_waste=min_waste)
    ]


def _dice(value: Any) -> tuple[int, int]:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or any(type(d) is not int or not 1 <= d <= 6 for d in value)
    ):
        raise EngineError("invalid_dice", f"dice must be two integers 1-6, got {value!r}")
    return value[0], value[1]


def _jsonl(stdin: TextIO, stdout: TextIO, limit: int | None, min_waste: bool) -> None:
    for number, line in enumerate(stdin, 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise EngineError("invalid_json", f"line {number}: {exc}") from exc
        if not isinstance(item, dict) or not isinstance(item.get("position_id"), str):
            raise EngineError("invalid_input", f"line {number}: needs position_id and dice")
        d1, d2 = _dice(item.get("dice"))
        plays = _plays(item["position_id"], d1, d2, limit, min_waste)
        out = {"position_id": item["position_id"], "dice": [d1, d2], "plays": plays}
        stdout.write(json.dumps(out) + "\n")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m games.engine", description="Backgammon rules engine tools."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    plays = commands.add_parser("plays", help="list the legal plays of a position and roll")
    plays.add_argument("--position-id", help="gnubg Position ID (default: the start)")
    plays.add_argument("--dice", nargs=2, type=int, metavar=("D1", "D2"))
    plays.add_argument("--variant", choices=("standard", "nackgammon"), default="standard")
    plays.add_argument("--max-per-point", type=int, default=None, metavar="N")
    plays.add_argument("--min-pip-waste", action="store_true")
    plays.add_argument("--jsonl", action="store_true", help="read JSON lines from stdin")
    return parser


def main(
    argv: Sequence[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None
) -> int:
    """Run the command line; returns the exit status."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    parser = _parser()
    args = parser.parse_args(argv)
    if args.max_per_point is not None and args.max_per_point < 1:
        parser.error("--max-per-point must be at least 1")
    try:
        if args.jsonl:
            if args.position_id is not None or args.dice is not None:
                parser.error("--jsonl reads positions and dice from stdin")
            _jsonl(stdin, stdout, args.max_per_point, args.min_pip_waste)
            return 0
        if args.dice is None:
            parser.error("--dice D1 D2 is required (or use --jsonl)")
        d1, d2 = _dice(list(args.dice))
        pid = args.position_id or position_id(start_position(args.variant))
        for play in _plays(pid, d1, d2, args.max_per_point, args.min_pip_waste):
            stdout.write(json.dumps(play) + "\n")
    except EngineError as exc:
        stdout.flush()
        print(f"error: {exc.code}: {exc.message}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:  # the reader went away (``| head``): not an error of ours
        sys.stderr.close()
        sys.exit(0)

"""GNU Backgammon as the tests' match maker and oracle: matches it plays against itself
(with noise, so both sides err), and its own analysis of a match file."""

from __future__ import annotations

import re
import subprocess
import tempfile
from pathlib import Path

from django.conf import settings


def gnubg(commands: list[str], *, timeout: float = 120) -> str:
    """Run gnubg on ``commands`` (its stdin) and return what it printed."""
    with tempfile.TemporaryDirectory(prefix="gnubg-home-") as home:  # its settings, not ours
        return _gnubg(commands, timeout=timeout, home=home)


def _gnubg(commands: list[str], *, timeout: float, home: str) -> str:
    done = subprocess.run(
        [settings.GNUBG_PROGRAM, "-t", "-q"],
        input="\n".join(commands) + "\n",
        capture_output=True,
        text=True,
        timeout=timeout,
        env={"PATH": "/usr/bin:/bin", "HOME": home, "LANG": "C", "LC_ALL": "C"},
        check=False,
    )
    return done.stdout


def selfplay(path: Path, *, length: int, seed: int, noise: float = 0.04) -> str:
    """A match to ``length`` gnubg plays against itself at 0-ply with ``noise``, exported
    as ``.mat`` to ``path``; returns its text."""
    commands = ["set threads 1", f"set seed {seed}"]
    for player, name in ((0, "Anna"), (1, "Bela")):
        commands += [
            f"set player {player} gnubg",
            f"set player {player} name {name}",
            f"set player {player} chequerplay evaluation plies 0",
            f"set player {player} cubedecision evaluation plies 0",
            f"set player {player} chequerplay evaluation noise {noise}",
            f"set player {player} cubedecision evaluation noise {noise}",
        ]
    commands += [f"new match {length}", f"export match mat {path}"]
    gnubg(commands)
    return path.read_text(encoding="utf-8")


def reference(path: Path, *, plies: int = 0) -> dict[str, list[float]]:
    """gnubg's own ``analyse match`` + ``show statistics match`` of the file at ``path``:
    per player, unforced moves, close or actual cube decisions, overall error rate."""
    out = gnubg(
        [
            "set threads 1",
            f"set analysis chequerplay evaluation plies {plies}",
            f"set analysis cubedecision evaluation plies {plies}",
            f"import mat {path}",
            "analyse match",
            "show statistics match",
        ]
    )
    figures: dict[str, list[float]] = {}
    section = ""
    for line in out.splitlines():
        if line.strip().endswith("statistics"):
            section = line.strip()
        for key, label, where in (
            ("unforced", "Unforced moves", "Chequerplay statistics"),
            ("close", "Close or actual cube decisions", "Cube statistics"),
            ("rate", "Error rate mEMG", "Overall statistics"),
        ):
            if line.startswith(label) and section == where:
                numbers = re.findall(r"[-+]?\d+(?:\.\d+)?", line[len(label) :])
                first, second = (numbers[0], numbers[2]) if key == "rate" else numbers[:2]
                figures[key] = [abs(float(first)), abs(float(second))]
    assert set(figures) == {"unforced", "close", "rate"}, out[-2000:]
    return figures

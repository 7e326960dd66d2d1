"""The analysis job as GNU Backgammon runs it: ``gnubg -t -q -r -p gnubg_job.py``.

This file runs inside gnubg's embedded Python (Debian's 1.07), never in Django: it
imports only the standard library and gnubg's own ``gnubg`` module. The driver
(:mod:`games.analysis.driver`) passes its inputs in the environment:

- ``ANALYSIS_MAT``: the ``.mat`` file to analyse;
- ``ANALYSIS_PLIES``: the lookahead for chequer play and cube decisions;
- ``ANALYSIS_OUT``: where to write the result (JSON);
- ``ANALYSIS_STATS``: where to write ``show statistics match`` as gnubg prints it.

It analyses the match game by game and writes ``@progress DONE TOTAL`` on stderr after
each game, so the driver can move the job's progress. The result holds gnubg's match
dictionary (``gnubg.match(analysis=1)``) reduced to what is stored, per decision, with
the cube decisions' equities converted as gnubg's statistics convert them (below);
the per-player figures are taken by the driver from the printed statistics.

Cube decisions: in a match gnubg's dictionary gives the no-double and double/take
cubeful values as match winning chances; its statistics (``analysis.c``,
``updateStatcontext``) judge them as equities normalised to the cube (``mwc2eq`` with
the cube's state at the decision; double/pass = +1), which is what we store.
"""

from __future__ import annotations

import ctypes
import json
import os
import sys
from typing import Any

import gnubg  # type: ignore[import-not-found,import-untyped,unused-ignore]

#: gnubg's ``isCloseCubedecision`` (eval.c): a no-double is "close" when doubling (its
#: double/take value, at most +1) is within this of the best cube action.
CLOSE = 0.16

SKILLS = {"very bad": "very_bad", "bad": "bad", "doubtful": "doubtful"}
LUCKS = {
    "verybad": "very_unlucky",
    "bad": "unlucky",
    "good": "lucky",
    "verygood": "very_lucky",
}


def step(move: Any) -> str:
    """gnubg's notation of a move tuple, as its ``movetupletostring`` writes it; falls
    back to ``a/b`` pairs where that function needs a board we have not got."""
    parts = []
    for src, dst in move:
        parts.append(f"{'bar' if src == 25 else src}/{'off' if dst <= 0 else dst}")
    return " ".join(parts)


def played_move(entry: dict[str, Any]) -> str:
    return step(entry.get("move") or ())


class Cube:
    """The cube's state while walking one game's records."""

    def __init__(self, length: int, score: tuple[int, int], crawford: bool) -> None:
        self.length, self.score, self.crawford = length, score, crawford
        self.value, self.owner = 1, -1

    def info(self, player: int) -> Any:
        return gnubg.cubeinfo(
            self.value, self.owner, player, self.length, self.score, int(self.crawford), 0
        )

    def equities(self, analysis: dict[str, Any], player: int) -> tuple[float, float, float]:
        """(no double, double/take, double/pass) as normalised equities."""
        nd, dt = analysis["nd-cubeful-eq"], analysis["dt-cubeful-eq"]
        if self.length:
            info = self.info(player)
            nd, dt = gnubg.mwc2eq(nd, info), gnubg.mwc2eq(dt, info)
        return float(nd), float(dt), 1.0


def optimal(nd: float, dt: float, dp: float) -> float:
    """gnubg's ``FindCubeDecision``: double when both answers beat not doubling."""
    return min(dt, dp) if dt >= nd and dp >= nd else nd


def close(nd: float, dt: float, dp: float) -> bool:
    """gnubg's ``isCloseCubedecision``."""
    return optimal(nd, dt, dp) - min(dt, 1.0) < CLOSE


def game_decisions(
    game: dict[str, Any], length: int, crawford: bool, index: dict[str, int]
) -> list[dict[str, Any]]:
    info = game["info"]
    cube = Cube(length, (info["score-X"], info["score-O"]), crawford)
    out: list[dict[str, Any]] = []
    pending: tuple[float, float, float] | None = None
    for entry in game["game"]:
        action = entry.get("action")
        player = index.get(entry.get("player", ""), 0)
        analysis = entry.get("analysis") or {}
        if action == "move":
            if "nd-cubeful-eq" in analysis:
                nd, dt, dp = cube.equities(analysis, player)
                best = optimal(nd, dt, dp)
                lost = max(0.0, best - nd)
                if lost > 0 or close(nd, dt, dp):
                    out.append(
                        {
                            "kind": "cube",
                            "player": player,
                            "action": "no_double",
                            "played": "no_double",
                            "best": "no_double" if best == nd else "double",
                            "equity_lost": lost,
                            "mark": SKILLS.get(analysis.get("cube-skill", ""), ""),
                            "close": close(nd, dt, dp),
                        }
                    )
            moves = analysis.get("moves") or []
            imove = analysis.get("imove")
            lost = 0.0
            best_text = played_move(entry)
            if moves and imove is not None and imove < len(moves):
                lost = max(0.0, moves[0]["score"] - moves[imove]["score"])
                best_text = step(moves[0]["move"])
            luck = analysis.get("luck-value")
            out.append(
                {
                    "kind": "move",
                    "player": player,
                    "action": "move",
                    "dice": "".join(str(d) for d in entry.get("dice") or ()),
                    "played": played_move(entry),
                    "best": best_text,
                    "equity_lost": lost,
                    "mark": SKILLS.get(analysis.get("skill", ""), ""),
                    "luck": None if luck is None else float(luck),
                    "luck_mark": LUCKS.get(analysis.get("luck", ""), ""),
                    "forced": len(moves) <= 1,
                }
            )
        elif action == "double":
            pending = None
            if "nd-cubeful-eq" in analysis:
                pending = cube.equities(analysis, player)
                nd, dt, dp = pending
                best = optimal(nd, dt, dp)
                lost = max(0.0, best - min(dt, dp))
                out.append(
                    {
                        "kind": "cube",
                        "player": player,
                        "action": "double",
                        "played": "double",
                        "best": "double" if best != nd else "no_double",
                        "equity_lost": lost,
                        "mark": SKILLS.get(analysis.get("skill", ""), ""),
                        "close": True,
                    }
                )
        elif action in ("take", "drop"):
            if pending is not None:
                _nd, dt, dp = pending
                # The taker's view: taking is worth -dt, dropping -dp.
                best = "take" if -dt >= -dp else "drop"
                mine = -dt if action == "take" else -dp
                out.append(
                    {
                        "kind": "cube",
                        "player": player,
                        "action": action,
                        "played": action,
                        "best": best,
                        "equity_lost": max(0.0, max(-dt, -dp) - mine),
                        "mark": SKILLS.get(analysis.get("skill", ""), ""),
                        "close": True,
                    }
                )
            if action == "take":
                cube.value *= 2
                cube.owner = player
            pending = None
        else:
            out.append({"kind": "other", "player": player, "action": action})
    return out


def crawford_flags(games: list[dict[str, Any]], length: int, rules: list[str]) -> list[bool]:
    """Which games are Crawford games: the first game in which a player needs one point."""
    flags, seen = [], False
    for game in games:
        info = game["info"]
        at = length - 1 in (info["score-X"], info["score-O"])
        flag = bool(length) and "Crawford" in rules and at and not seen
        seen = seen or at
        flags.append(flag)
    return flags


def fail(out: str, code: str, detail: str) -> None:
    with open(out, "w", encoding="utf-8") as handle:
        json.dump({"error": code, "detail": detail}, handle)


def main() -> None:
    path, out = os.environ["ANALYSIS_MAT"], os.environ["ANALYSIS_OUT"]
    stats = os.environ["ANALYSIS_STATS"]
    plies = int(os.environ.get("ANALYSIS_PLIES", "2"))
    gnubg.command("set threads 1")
    for kind in ("chequerplay", "cubedecision"):
        gnubg.command(f"set analysis {kind} evaluation plies {plies}")
        gnubg.command(f"set analysis {kind} evaluation cubeful on")
    gnubg.command(f"import mat {path}")
    match = gnubg.match(analysis=0, boards=0, statistics=0, verbose=0)
    if not match or not match.get("games"):
        fail(out, "gnubg_refused", "GNU Backgammon could not read the match file")
        return
    total = len(match["games"])
    gnubg.command("first game")
    for number in range(1, total + 1):
        gnubg.command("analyse game")
        os.write(2, b"@progress %d %d\n" % (number, total))
        if number < total:
            gnubg.command("next game")
    # The printed statistics go to the C library's stdout: point file descriptor 1 at
    # a file while gnubg prints them, flushing both buffers either side.
    libc = ctypes.CDLL(None)
    sys.stdout.flush()
    libc.fflush(None)
    handle = os.open(stats, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    saved = os.dup(1)
    os.dup2(handle, 1)
    gnubg.command("show statistics match")
    libc.fflush(None)
    os.dup2(saved, 1)
    os.close(handle)

    match = gnubg.match(analysis=1, boards=0, statistics=1, verbose=0)
    info = match["match-info"]
    length = int(info.get("match-length", 0) or 0)
    index = {"X": 0, "O": 1}
    flags = crawford_flags(match["games"], length, list(info.get("rules") or []))
    games = [
        game_decisions(game, length, flag, index)
        for game, flag in zip(match["games"], flags, strict=True)
    ]
    stats_dict = match.get("stats") or {}
    with open(out, "w", encoding="utf-8") as handle:
        json.dump(
            {
                "names": [info["X"]["name"], info["O"]["name"]],
                "length": length,
                "games": games,
                "stats": [stats_dict.get("X"), stats_dict.get("O")],
            },
            handle,
        )


try:
    main()
except Exception as exc:  # anything gnubg raised: the driver reports it, never a hang
    fail(os.environ["ANALYSIS_OUT"], "gnubg_error", f"{type(exc).__name__}: {exc}")

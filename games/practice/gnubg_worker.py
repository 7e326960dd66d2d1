"""The practice opponent's brain process: GNU Backgammon's evaluation (PyPI ``gnubg``)
behind a JSON-lines pipe, run as ``python -m games.practice.gnubg_worker``.

It never runs inside a web or worker process (:mod:`games.practice.brain` starts it): the
PyPI build is an alpha that has crashed on some inputs, and a crash here costs one child
process, not the server. No Django, no database: one request line in, one answer line
out, so the caller can time it out and start a fresh child.

Terms: a **board** is gnubg's ``[player not on roll, player on roll]``, each 25 counts
(index i = that side's point i + 1, 24 = the bar). A **cube** is ``{"value", "owner"
(-1 centred, else 0/1), "move" (who is on roll on the board), "length" (0 = money),
"score" [s0, s1], "crawford" (0/1)}`` with the match's player numbers 0/1. A **level**
is ``{"plies", "noise"}`` (gnubg's own player presets: beginner 0-ply with noise 0.06,
... world class 2-ply). Equities are the player on roll's, in gnubg's cubeful
normalised units; cube answers are converted to match winning chances (MWC) by gnubg's
own ``eq2mwc`` so that the three of them compare (money: equities).

Requests (``op``):
``ping``   -> ``{"ok": true, "version": ...}``
``play``   ``{"boards": [...], "cube": ..., "level": ...}``: the positions after each
           candidate play, with the opponent on roll (``cube.move`` = the opponent). Every
           candidate is screened at 0-ply, the best few (gnubg's default move filter:
           up to 8 within 0.16) are evaluated at the level's plies, and the answer is the
           one leaving the opponent the least: ``{"index": i, "equity": e}`` (the mover's).
``cube``   ``{"board": b, "cube": ..., "level": ...}`` seen by the player on roll, who may
           double: ``{"nd", "dt", "dp", "swing"}``, that player's no double / double-take /
           double-pass, comparable, and what one cube is worth (pass minus loss).
           :mod:`games.practice.brain` decides from them.
``eval``   ``{"board": b, "cube": ..., "level": ...}`` -> ``{"equity", "mwc",
           "probs"}`` of the player on roll.
"""

from __future__ import annotations

import json
import sys
from typing import Any

#: gnubg's default move filter for its evaluations above 0-ply: keep at most this many
#: candidates of the 0-ply screen, and only those within this much equity of its best.
SCREEN_KEEP = 8
SCREEN_WIDTH = 0.16


def _cubeinfo(
    gnubg: Any, cube: dict[str, Any], *, value: int | None = None, owner: int | None = None
) -> Any:
    score = cube.get("score", [0, 0])
    return gnubg.cubeinfo(
        int(cube["value"] if value is None else value),
        int(cube["owner"] if owner is None else owner),
        int(cube["move"]),
        int(cube.get("length", 0)),
        (int(score[0]), int(score[1])),
        int(cube.get("crawford", 0)),
        0,
    )


def _context(gnubg: Any, level: dict[str, Any], *, plies: int | None = None) -> Any:
    noise = float(level.get("noise", 0.0))
    # deterministic=0: the noise is drawn afresh each time (a weaker player's misjudgement),
    # not a fixed function of the position.
    return gnubg.evalcontext(
        1, int(level["plies"] if plies is None else plies), 0 if noise else 1, 1, noise
    )


def _equity(gnubg: Any, board: Any, ci: Any, ec: Any) -> float:
    return float(gnubg.evaluate(board, ci, ec)[5])


def handle(gnubg: Any, request: dict[str, Any]) -> dict[str, Any]:
    op = request.get("op")
    if op == "ping":
        version = getattr(gnubg, "version", "?")
        return {"ok": True, "version": str(version() if callable(version) else version)}
    level = request.get("level", {"plies": 0, "noise": 0.0})
    if op == "play":
        boards = request["boards"]
        ci = _cubeinfo(gnubg, request["cube"])
        if len(boards) == 1:
            return {"index": 0, "equity": None}
        screen = _context(gnubg, level, plies=0)
        # The opponent is on roll in each board: the mover wants the lowest of theirs.
        scored = sorted((_equity(gnubg, b, ci, screen), i) for i, b in enumerate(boards))
        plies = int(level["plies"])
        if plies == 0:
            best, index = scored[0]
            return {"index": index, "equity": -best}
        kept = [(e, i) for e, i in scored[:SCREEN_KEEP] if e <= scored[0][0] + SCREEN_WIDTH]
        deep = _context(gnubg, level)
        best, index = min((_equity(gnubg, boards[i], ci, deep), i) for _, i in kept)
        return {"index": index, "equity": -best}
    if op == "cube":
        board = request["board"]
        cube = request["cube"]
        ec = _context(gnubg, level)
        ci_nd = _cubeinfo(gnubg, cube)
        # After a take the opponent owns the cube at twice the value, the doubler rolls.
        ci_dt = _cubeinfo(gnubg, cube, value=2 * int(cube["value"]), owner=1 - int(cube["move"]))
        nd = _equity(gnubg, board, ci_nd, ec)
        dt = _equity(gnubg, board, ci_dt, ec)
        if int(cube.get("length", 0)):
            # Each equity is normalised to its own cube: compare match winning chances.
            # A pass is worth +1 (the cube's points) in the no-double normalisation.
            return {
                "nd": float(gnubg.eq2mwc(nd, ci_nd)),
                "dt": float(gnubg.eq2mwc(dt, ci_dt)),
                "dp": float(gnubg.eq2mwc(1.0, ci_nd)),
                "swing": float(gnubg.eq2mwc(1.0, ci_nd) - gnubg.eq2mwc(-1.0, ci_nd)),
            }
        # Money: equities per cube before the double (a take doubles every result).
        return {"nd": nd, "dt": 2.0 * dt, "dp": 1.0, "swing": 2.0}
    if op == "eval":
        ci = _cubeinfo(gnubg, request["cube"])
        out = gnubg.evaluate(request["board"], ci, _context(gnubg, level))
        mwc = float(gnubg.eq2mwc(out[5], ci)) if int(request["cube"].get("length", 0)) else None
        return {"equity": float(out[5]), "mwc": mwc, "probs": [float(p) for p in out[:5]]}
    return {"error": f"unknown op {op!r}"}


def main() -> None:
    import gnubg

    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            answer = handle(gnubg, json.loads(line))
        except Exception as exc:  # an answer, not a dead pipe: the caller decides
            answer = {"error": f"{type(exc).__name__}: {exc}"}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()

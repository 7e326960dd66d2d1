"""The practice opponent's decisions, by GNU Backgammon's evaluation in a child process.

:class:`Brain` keeps one child (``python -m games.practice.gnubg_worker``) alive per
process, behind a lock, and asks it one JSON line at a time with a time limit; a child
that dies, answers garbage or takes too long is killed and the next request starts a
fresh one (a crash of the alpha PyPI build costs a child, never the server). Measured
here: the child starts in about 0.3 s (the weights load), so it is kept rather than
started per turn.

Decisions take the engine's :class:`~games.engine.game.GameState` and answer in the
engine's terms:

* **play**: gnubg ranks the positions each of OUR legal plays
  (:meth:`GameState.legal_plays`) leads to, so the chosen play is always one of ours:
  positions are compared, never notation (gnubg prints one of many orders).
* **cube**: gnubg's cube-aware figures ``nd``/``dt``/``dp`` (:mod:`.gnubg_worker`) are
  match winning chances computed with gnubg's own match equity table for the match
  score (Crawford and post-Crawford included), or money equities. The PyPI build's
  ``evaluate`` is cubeless -- a *dead* cube, worth nothing to its owner -- so the dead
  cube's rule "double when min(dt, dp) > nd" would double as soon as ahead. We add the
  classic doubling window: double only when the double is at least close to a pass
  (``dt >= dp - DOUBLE_WINDOW x swing``, where ``swing`` is what one cube is worth at
  this score: 2 in money), and not when too good (``nd >= dp``: playing on for a gammon
  is worth more than the cash). A take allows for the recube the dead cube leaves out
  (``dt <= dp + TAKE_ALLOWANCE x swing``): in money that moves the take point from 25 %
  towards the live cube's ~21.5 %. At post-Crawford scores the dead cube is exact.
* **resignation**: accepted when the points offered are at least the cubeless points
  gnubg expects the bot to win by playing on.
"""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import threading
from dataclasses import dataclass
from typing import Any

from games.engine.game import GameState
from games.engine.movegen import Play
from games.engine.position import Position

log = logging.getLogger(__name__)

#: The levels (``Match.bot_level``) as gnubg's own player presets.
LEVELS: dict[str, dict[str, Any]] = {
    "beginner": {"plies": 0, "noise": 0.06},
    "intermediate": {"plies": 0, "noise": 0.04},
    "expert": {"plies": 0, "noise": 0.0},
    "world_class": {"plies": 2, "noise": 0.0},
}
#: See the module docstring (fractions of one cube's swing).
DOUBLE_WINDOW = 0.15
TAKE_ALLOWANCE = 0.07
#: A request slower than this kills the child (2-ply evaluations take ~0.1 s each).
REQUEST_TIMEOUT = 30.0


#: The child's command line: this Python running the worker module.
WORKER_COMMAND = (sys.executable, "-m", "games.practice.gnubg_worker")


class BrainUnavailable(Exception):
    """gnubg cannot be used: its module does not import, or its child fails."""


@dataclass(frozen=True)
class CubeView:
    """gnubg's figures for the player on roll: no double, double-take, double-pass."""

    nd: float
    dt: float
    dp: float
    swing: float


def _board(position: Position) -> list[list[int]]:
    """gnubg's board for the player on roll of ``position``: [not on roll, on roll]."""
    return [list(position.opponent), list(position.mover)]


def _board_after(play: Play) -> list[list[int]]:
    """gnubg's board after ``play``, the opponent on roll (``play.result`` is still the
    mover's view)."""
    return [list(play.result.mover), list(play.result.opponent)]


def _cube(state: GameState, *, move: int) -> dict[str, Any]:
    match = state.match
    return {
        "value": state.cube,
        "owner": -1 if state.cube_owner is None else state.cube_owner,
        "move": move,
        "length": match.length,
        "score": list(match.score),
        "crawford": 1 if match.crawford else 0,
    }


class Brain:
    """One gnubg child per process (see the module docstring). Thread-safe."""

    def __init__(self, command: list[str] | None = None) -> None:
        self.command = command or list(WORKER_COMMAND)
        self._lock = threading.Lock()
        self._child: subprocess.Popen[str] | None = None

    # ------------------------------------------------------------------ the child
    def _start(self) -> subprocess.Popen[str]:
        try:
            return subprocess.Popen(  # noqa: S603 -- our own module, no shell
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                bufsize=1,
            )
        except OSError as exc:
            raise BrainUnavailable(f"cannot start gnubg: {exc}") from exc

    def close(self) -> None:
        with self._lock:
            self._kill()

    def _kill(self) -> None:
        child, self._child = self._child, None
        if child is not None:
            child.kill()
            child.wait()

    def ask(self, request: dict[str, Any], timeout: float = REQUEST_TIMEOUT) -> dict[str, Any]:
        """Send one request and read its answer; ``BrainUnavailable`` when the child
        fails (it is killed; the next request starts a fresh one)."""
        with self._lock:
            if self._child is None or self._child.poll() is not None:
                self._child = self._start()
            child = self._child
            assert child.stdin is not None and child.stdout is not None
            answer: list[str] = []
            reader = threading.Thread(target=lambda: answer.append(child.stdout.readline()))  # type: ignore[union-attr]
            try:
                child.stdin.write(json.dumps(request) + "\n")
                child.stdin.flush()
                reader.start()
                reader.join(timeout)
            except OSError as exc:
                self._kill()
                raise BrainUnavailable(f"gnubg's process failed: {exc}") from exc
            if not answer or not answer[0]:
                why = "timed out" if reader.is_alive() else self._why_dead(child)
                self._kill()
                raise BrainUnavailable(f"gnubg's process {why}")
            try:
                data: dict[str, Any] = json.loads(answer[0])
            except ValueError as exc:
                self._kill()
                raise BrainUnavailable(f"gnubg's process answered garbage: {exc}") from exc
        if "error" in data:
            raise BrainUnavailable(f"gnubg failed: {data['error']}")
        return data

    @staticmethod
    def _why_dead(child: subprocess.Popen[str]) -> str:
        child.kill()
        child.wait()
        err = child.stderr.read() if child.stderr else ""
        last = err.strip().splitlines()[-1] if err.strip() else f"exit {child.returncode}"
        return f"stopped ({last})"

    # ------------------------------------------------------------------ decisions
    def ping(self) -> str:
        return str(self.ask({"op": "ping"}, timeout=60.0).get("version", "?"))

    def choose_play(self, state: GameState, level: str) -> Play:
        """The legal play gnubg likes best (phase ``move``, the bot on roll)."""
        plays = state.legal_plays()
        if len(plays) == 1:
            return plays[0]
        # Several orders can reach one position: rank each position once.
        by_position: dict[Position, Play] = {}
        for play in plays:
            by_position.setdefault(play.result, play)
        candidates = list(by_position.values())
        if len(candidates) == 1:
            return candidates[0]
        answer = self.ask(
            {
                "op": "play",
                "boards": [_board_after(p) for p in candidates],
                "cube": _cube(state, move=1 - state.turn),
                "level": LEVELS[level],
            }
        )
        return candidates[int(answer["index"])]

    def cube_view(self, state: GameState, level: str) -> CubeView:
        """gnubg's cube figures for ``state.turn`` (the doubler) at this position."""
        answer = self.ask(
            {
                "op": "cube",
                "board": _board(state.position),
                "cube": _cube(state, move=state.turn),
                "level": LEVELS[level],
            }
        )
        return CubeView(nd=answer["nd"], dt=answer["dt"], dp=answer["dp"], swing=answer["swing"])

    def should_double(self, state: GameState, level: str) -> bool:
        """Whether the player on roll (the bot) doubles now (phase ``roll``)."""
        if not state.can_double(state.turn):
            return False
        view = self.cube_view(state, level)
        return (
            view.dt > view.nd
            and view.dt >= view.dp - DOUBLE_WINDOW * view.swing
            and view.nd < view.dp
        )

    def should_take(self, state: GameState, level: str) -> bool:
        """Whether the bot takes the double ``state.turn`` just offered (phase ``doubled``)."""
        view = self.cube_view(state, level)
        return view.dt <= view.dp + TAKE_ALLOWANCE * view.swing

    def accepts_resignation(self, state: GameState, level: str) -> bool:
        """Whether the bot accepts the pending resignation offer."""
        offer = state.resignation
        assert offer is not None
        bot = 1 - offer.player
        answer = self.ask(
            {
                "op": "eval",
                "board": _board(state.position),
                "cube": _cube(state, move=state.turn),
                "level": LEVELS[level],
            }
        )
        win, wg, wbg, lg, lbg = answer["probs"]
        # Cubeless points for the player on roll, per cube.
        points = (2 * win - 1) + (wg - lg) + (wbg - lbg)
        if state.turn != bot:
            points = -points
        kind = {"single": 1, "gammon": 2, "backgammon": 3}.get(str(offer.kind), 1)
        return kind >= points


_BRAIN: Brain | None = None
_BRAIN_LOCK = threading.Lock()


def brain() -> Brain:
    """This process's brain (its child starts on the first request)."""
    global _BRAIN
    with _BRAIN_LOCK:
        if _BRAIN is None:
            _BRAIN = Brain()
        return _BRAIN


def probe() -> str | None:
    """Why gnubg cannot play here (``None`` when it can): a fresh child, not this
    process's, is started, asked to answer a ping and stopped (so a web process that
    only asks never keeps a gnubg child)."""
    trial = Brain()
    try:
        trial.ping()
    except BrainUnavailable as exc:
        return str(exc)
    finally:
        trial.close()
    return None

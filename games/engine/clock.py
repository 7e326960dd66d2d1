"""Game clocks: a delay on every turn, then a reserve (docs/rules.md R12).

A clock is an immutable value. Nothing here reads the time: every method that depends
on it takes ``now_ms``, integer milliseconds on the caller's clock (the app's one
injectable ``now``, see docs/architecture.md "Time and randomness"). All durations are integer
milliseconds as well, so nothing is ever rounded. Players are ``0`` and ``1``.

Terms:

turn
    One run of one player's clock, from the :meth:`ClockState.switch` that started it to
    the next switch. Every switch starts a fresh turn, also to the same player, as a
    physical clock does when it is hit: a double and its answer are turns of their own.
delay
    ``ClockSettings.delay_ms``: free time at the start of every turn. It runs first, is
    not accumulated, and what is left of it when the turn ends is lost (a "simple
    delay" clock, not Bronstein, not Fischer).
reserve
    Each player's bank of time (``ClockState.reserves``). It runs only once the turn's
    delay is used up: a turn of ``elapsed`` ms costs ``max(0, elapsed - delay_ms)``.
flag
    A player *flags* (has lost on time, R12) when their reserve reaches 0, that is at
    ``now_ms >= deadline``. The clock records who flagged first
    (``ClockState.flagged``) and carries on: the opponent must claim the win (R12,
    :meth:`games.engine.game.GameState.claim_timeout`) and the app decides the rest.
deadline
    The absolute time at which the running player flags,
    ``turn_started_ms + delay_ms + reserve`` (:meth:`ClockState.deadline_ms`). The app
    stores it and arms a timer for it; nothing ticks.
low time
    :meth:`ClockState.low_time_at` is the absolute time at which the running player's
    reserve falls to a threshold, for a "your time is running low" notice.

The reserve each player is given (:meth:`ClockSettings.reserve_for`), in a match to
``length`` points at score ``(a, b)``::

    reserve_ms + reserve_per_point_ms * length - deduct_per_point_scored_ms * (a + b)

Both players get the same amount. The mode says when it is given:

``per_match``  once, at the first game the clock is used in; then the reserves carry
               over from game to game (what is left at the end of a game is there at
               the start of the next).
``per_game``   afresh at the start of every game, from the score at that moment.

Money play (``length == 0``) has no match to spread a reserve over: in either mode every
game gets ``money_reserve_ms``, by default the reserve of a 1-point match
(``reserve_ms + reserve_per_point_ms``).

Presets (:data:`PRESETS`, :func:`preset`); any other clock is a :class:`ClockSettings`
built directly:

=================  =====  ==========================================  =========  =========
name               delay  reserve per player                          mode       money game
=================  =====  ==========================================  =========  =========
``seed002``        11 s   1 min 30 s                                  per_match  1 min 30 s
``usbgf``          12 s   2 min x length - 1 min x points scored      per_match  2 min
``galaxy-casual``  15 s   3 min x length                              per_match  3 min
``wbgf-speed``     9 s    2 min                                       per_match  2 min
=================  =====  ==========================================  =========  =========

The USBGF formula is that of the U.S. Backgammon Clock Rules (simple delay clocks, March
2013, 2.1): "two minutes per match point, less one minute per point already scored by
either player", with a 12 s delay per move. At 0-0 in a 7-point match each player gets
2 x 7 = 14 min; a clock introduced at 3-2 gives 14 - (3 + 2) = 9 min each. Clocks are
introduced only at the start of a game and the reserve then carries over to the end of
the match (``per_match``); the deduction is what makes a clock brought in mid-match (or
a match resumed at a score) fair. Validation keeps ``2 x deduct <= per point`` (the
published formulas have exactly 2 to 1), so at any score of a live match the reserve is
at least ``reserve_ms + 2 x deduct``: never negative, and positive whenever the clock
has a reserve at all.

Decisions where docs/rules.md is silent:

* **A flag does not stop the clock.** :meth:`ClockState.switch` still passes the turn:
  the opponent's clock must run while they decide to claim. Only the first flag is
  recorded. A flagged player's reserve stays at 0, in ``per_match`` also in later games
  (the delay is all they have left).
* **Time never goes back.** A ``now_ms`` earlier than the start of the turn (two servers
  whose clocks disagree) counts as no time elapsed: nobody gains time.
* **Between games** the clock stops (:meth:`ClockState.end_game`), unless
  ``runs_between_games``: then it runs for the player the app names (the one who must
  start the next game) and :meth:`ClockState.new_game` charges that time. In
  ``per_game`` mode that time only matters if it flags someone, the reserves are given
  afresh anyway.
* **seed 002** states 11 s and 1 min 30 s per player, not whether per game or per match;
  the preset gives the reserve once per match.

Every duration of the settings is bounded (:data:`MAX_SETTING_MS`: delay 10 min, reserve
and money reserve 24 h, per point 1 h), so a deadline is always a date a computer can
write; the refusal names the field (``EngineError.field``).

Error codes: ``invalid_clock`` (settings, state, a stored dict, a preset name or a
threshold that can't be used), ``invalid_player``, ``invalid_match`` (length),
``invalid_score``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from types import MappingProxyType
from typing import Any, Literal, get_args

from games.engine.errors import EngineError

ReserveMode = Literal["per_match", "per_game"]
RESERVE_MODES: tuple[ReserveMode, ...] = ("per_match", "per_game")
assert get_args(ReserveMode) == RESERVE_MODES

SECOND_MS = 1_000
MINUTE_MS = 60 * SECOND_MS


HOUR_MS = 60 * MINUTE_MS

#: The largest value of each duration in :class:`ClockSettings` (ms). A clock is for a
#: sitting at a board, not a correspondence game: beyond these nothing is sensible, and
#: an unbounded reserve overflowed the date of its deadline (issue 16).
MAX_SETTING_MS: Mapping[str, int] = MappingProxyType(
    {
        "delay_ms": 10 * MINUTE_MS,
        "reserve_ms": 24 * HOUR_MS,
        "reserve_per_point_ms": HOUR_MS,
        "deduct_per_point_scored_ms": HOUR_MS // 2,
        "money_reserve_ms": 24 * HOUR_MS,
    }
)


def _invalid(message: str, field: str | None = None) -> EngineError:
    return EngineError("invalid_clock", message, field=field)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_time(now_ms: int) -> None:
    if not _is_int(now_ms):
        raise _invalid(f"times are integer milliseconds, not {now_ms!r}")


def _check_player(player: int | None) -> None:
    if player is not None and (player not in (0, 1) or isinstance(player, bool)):
        raise EngineError("invalid_player", f"player must be 0, 1 or None, not {player!r}")


def _check_length_and_score(length: int, score: tuple[int, int]) -> None:
    if not _is_int(length) or length < 0:
        raise EngineError("invalid_match", "match length must be 0 (money) or positive")
    if (
        not isinstance(score, tuple)
        or len(score) != 2
        or not all(_is_int(s) and s >= 0 for s in score)
    ):
        raise EngineError("invalid_score", "the score is two non-negative integers")
    if length and max(score) >= length:
        raise EngineError("invalid_score", "no game is played once a player has won the match")


@dataclass(frozen=True, slots=True)
class ClockSettings:
    """How a match is clocked (see the module docstring for the terms and the formula).

    Attributes:
        delay_ms: the delay of every turn.
        reserve_ms: the fixed part of each player's reserve.
        reserve_per_point_ms: added to the reserve per point of match length.
        deduct_per_point_scored_ms: taken from the reserve per point already scored (by
            either player) when the reserve is given; at most half of
            ``reserve_per_point_ms``.
        mode: ``per_match`` (given once, carried over) or ``per_game`` (given afresh).
        money_reserve_ms: each player's reserve per money game; ``None`` = the reserve
            of a 1-point match.
        runs_between_games: the clock keeps running between games (see
            :meth:`ClockState.end_game`).
    """

    delay_ms: int
    reserve_ms: int = 0
    reserve_per_point_ms: int = 0
    deduct_per_point_scored_ms: int = 0
    mode: ReserveMode = "per_match"
    money_reserve_ms: int | None = None
    runs_between_games: bool = False

    def __post_init__(self) -> None:
        for name, most in MAX_SETTING_MS.items():
            value = getattr(self, name)
            if value is None and name == "money_reserve_ms":
                continue
            if not _is_int(value) or not 0 <= value <= most:
                raise _invalid(
                    f"{name} must be an integer from 0 to {most} (ms), not {value!r}", name
                )
        if 2 * self.deduct_per_point_scored_ms > self.reserve_per_point_ms:
            raise _invalid(
                "deduct_per_point_scored_ms may be at most half of reserve_per_point_ms, "
                "or a reserve could run out before the match does",
                "deduct_per_point_scored_ms",
            )
        if self.mode not in RESERVE_MODES:
            raise _invalid(f"mode must be one of {RESERVE_MODES}, not {self.mode!r}", "mode")
        if not isinstance(self.runs_between_games, bool):
            raise _invalid("runs_between_games must be a bool", "runs_between_games")
        if self.delay_ms + self.reserve_ms + self.reserve_per_point_ms == 0:
            raise _invalid("a clock must give some time: a delay or a reserve")
        if self.delay_ms + self.money_reserve() == 0:
            raise _invalid("a clock must give some time in money play: a delay or a reserve")

    def money_reserve(self) -> int:
        """Each player's reserve in a money game."""
        if self.money_reserve_ms is not None:
            return self.money_reserve_ms
        return self.reserve_ms + self.reserve_per_point_ms

    def reserve_for(self, length: int, score: tuple[int, int]) -> int:
        """The reserve each player gets at the start of a game of a match to ``length``
        points (``0`` = money) at ``score``. Raises ``invalid_score`` once the match is
        won."""
        _check_length_and_score(length, score)
        if length == 0:
            return self.money_reserve()
        return (
            self.reserve_ms
            + self.reserve_per_point_ms * length
            - self.deduct_per_point_scored_ms * (score[0] + score[1])
        )


PRESETS: Mapping[str, ClockSettings] = MappingProxyType(
    {
        "seed002": ClockSettings(delay_ms=11 * SECOND_MS, reserve_ms=90 * SECOND_MS),
        "usbgf": ClockSettings(
            delay_ms=12 * SECOND_MS,
            reserve_per_point_ms=2 * MINUTE_MS,
            deduct_per_point_scored_ms=1 * MINUTE_MS,
        ),
        "galaxy-casual": ClockSettings(delay_ms=15 * SECOND_MS, reserve_per_point_ms=3 * MINUTE_MS),
        "wbgf-speed": ClockSettings(delay_ms=9 * SECOND_MS, reserve_ms=2 * MINUTE_MS),
    }
)
"""The named clocks (see the module docstring), by name."""


def preset(name: str) -> ClockSettings:
    """The settings of the preset called ``name`` (``invalid_clock`` if there is none)."""
    try:
        return PRESETS[name]
    except (KeyError, TypeError):
        raise _invalid(f"unknown clock preset {name!r}; known: {', '.join(PRESETS)}") from None


_SETTINGS_FIELDS = tuple(f.name for f in fields(ClockSettings))


def settings_to_dict(settings: ClockSettings) -> dict[str, Any]:
    """``settings`` as a JSON-able dict, one key per field (the snapshot a match keeps)."""
    return {name: getattr(settings, name) for name in _SETTINGS_FIELDS}


def settings_from_dict(data: Mapping[str, Any]) -> ClockSettings:
    """The settings stored by :func:`settings_to_dict`. Missing keys take their
    defaults (``delay_ms`` has none); unknown keys raise ``invalid_clock``."""
    if not isinstance(data, Mapping):
        raise _invalid("clock settings must be a mapping")
    unknown = sorted(set(data) - set(_SETTINGS_FIELDS), key=str)
    if unknown:
        raise _invalid(f"unknown clock settings {unknown}", str(unknown[0]))
    if "delay_ms" not in data:
        raise _invalid("clock settings need delay_ms", "delay_ms")
    return ClockSettings(**data)


@dataclass(frozen=True, slots=True)
class ClockState:
    """Both players' clocks at the last switch (see the module docstring).

    The state changes only at a switch; between switches every reading is computed from
    ``now_ms``.

    Attributes:
        settings: the clock's settings.
        reserves: each player's reserve (ms) as of the last switch; the running player's
            turn has not been charged yet (:meth:`reserves_at` shows it).
        running: the player whose clock runs, or ``None`` when the clock is stopped.
        turn_started_ms: when the running player's turn began (``None`` when stopped).
        flagged: the first player who ran out of time, as recorded by a switch or
            :meth:`record_flag` (``None``: nobody yet).
    """

    settings: ClockSettings
    reserves: tuple[int, int]
    running: int | None = None
    turn_started_ms: int | None = None
    flagged: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.settings, ClockSettings):
            raise _invalid("settings must be ClockSettings")
        if (
            not isinstance(self.reserves, tuple)
            or len(self.reserves) != 2
            or not all(_is_int(r) and r >= 0 for r in self.reserves)
        ):
            raise _invalid("reserves are two non-negative integers (ms)")
        for name in ("running", "flagged"):
            value = getattr(self, name)
            if value is not None and (value not in (0, 1) or isinstance(value, bool)):
                raise _invalid(f"{name} must be 0, 1 or None, not {value!r}")
        if (self.running is None) != (self.turn_started_ms is None):
            raise _invalid("turn_started_ms is set exactly while a clock runs")
        if self.turn_started_ms is not None and not _is_int(self.turn_started_ms):
            raise _invalid("turn_started_ms is integer milliseconds")

    # ================================================================== constructors
    @classmethod
    def start(
        cls,
        settings: ClockSettings,
        *,
        length: int,
        score: tuple[int, int],
        player: int | None,
        now_ms: int,
    ) -> ClockState:
        """The clock of the first clocked game of a match to ``length`` points (``0`` =
        money) at ``score``: both reserves are :meth:`ClockSettings.reserve_for`, and
        ``player``'s clock runs from ``now_ms`` (``None``: nobody's yet, e.g. before
        the opening roll)."""
        reserve = settings.reserve_for(length, score)
        return cls(settings, (reserve, reserve)).switch(now_ms, player)

    def new_game(
        self, *, length: int, score: tuple[int, int], player: int | None, now_ms: int
    ) -> ClockState:
        """The clock at the start of the next game, at ``score`` (the score before it).

        Whatever runs is charged up to ``now_ms`` first. Then the reserves are given
        afresh in ``per_game`` mode and in money play, and kept in ``per_match`` mode.
        No flag is carried over (a flagged player's reserve of 0 is). ``player``'s clock
        runs from ``now_ms`` (``None``: nobody's yet)."""
        charged = self.switch(now_ms, None)
        if self.settings.mode == "per_game" or length == 0:
            reserve = self.settings.reserve_for(length, score)
            reserves = (reserve, reserve)
        else:
            _check_length_and_score(length, score)
            reserves = charged.reserves
        return ClockState(self.settings, reserves).switch(now_ms, player)

    # ================================================================== changes
    def switch(self, now_ms: int, to_player: int | None) -> ClockState:
        """Ends the running turn at ``now_ms`` and starts one for ``to_player`` (``None``
        stops the clock).

        The running player pays ``elapsed - delay`` (never less than 0) from their
        reserve. If that uses it all (``now_ms >= deadline``) the reserve is 0 and, if
        nobody flagged before, the flag is recorded; the turn passes all the same. When
        the clock is stopped nothing is charged."""
        _check_time(now_ms)
        _check_player(to_player)
        reserves, flagged = self.reserves, self.flagged
        mover = self.running
        if mover is not None:
            left = self._reserve_left(mover, now_ms)
            reserves = (left, reserves[1]) if mover == 0 else (reserves[0], left)
            if flagged is None and self._out_of_time(now_ms):
                flagged = mover
        started = None if to_player is None else now_ms
        return ClockState(self.settings, reserves, to_player, started, flagged)

    def end_game(self, now_ms: int, *, next_player: int | None = None) -> ClockState:
        """The game is over at ``now_ms``: the mover is charged, then the clock stops,
        or, with ``runs_between_games``, runs for ``next_player`` (the one who must
        start the next game) until :meth:`new_game`."""
        return self.switch(now_ms, next_player if self.settings.runs_between_games else None)

    def record_flag(self, now_ms: int) -> ClockState:
        """This state with the flag recorded if the running player is out of time at
        ``now_ms`` and nobody flagged before (else unchanged). The clock keeps running;
        the reserve is charged at the next switch. For the app's deadline timer."""
        _check_time(now_ms)
        if self.flagged is None and self._out_of_time(now_ms):
            return replace(self, flagged=self.running)
        return self

    # ================================================================== readings
    def deadline_ms(self) -> int | None:
        """When the running player flags: ``turn_started_ms + delay_ms + reserve``
        (``None`` while the clock is stopped)."""
        if self.running is None or self.turn_started_ms is None:
            return None
        return self.turn_started_ms + self.settings.delay_ms + self.reserves[self.running]

    def remaining(self, now_ms: int) -> tuple[int, int] | None:
        """``(delay_left_ms, reserve_left_ms)`` of the running player at ``now_ms``
        (``None`` while the clock is stopped). From the turn's start on, their sum is
        ``max(0, deadline_ms() - now_ms)``."""
        _check_time(now_ms)
        if self.running is None:
            return None
        delay_left = max(0, self.settings.delay_ms - self._elapsed(now_ms))
        return delay_left, self._reserve_left(self.running, now_ms)

    def reserves_at(self, now_ms: int) -> tuple[int, int]:
        """Both players' reserves as a clock would show them at ``now_ms`` (the running
        player's turn charged so far)."""
        _check_time(now_ms)
        if self.running is None:
            return self.reserves
        left = self._reserve_left(self.running, now_ms)
        return (left, self.reserves[1]) if self.running == 0 else (self.reserves[0], left)

    def flagged_player(self, now_ms: int) -> int | None:
        """Who has flagged by ``now_ms``: the recorded flag, else the running player if
        their deadline has passed, else ``None``."""
        _check_time(now_ms)
        if self.flagged is not None:
            return self.flagged
        return self.running if self._out_of_time(now_ms) else None

    def is_flagged(self, now_ms: int) -> bool:
        """Whether a player has run out of time by ``now_ms``."""
        return self.flagged_player(now_ms) is not None

    def low_time_at(self, threshold_ms: int) -> int | None:
        """When the running player's reserve falls to ``threshold_ms`` in this turn:
        ``turn_started_ms + delay_ms + reserve - threshold_ms``. ``None`` while the clock
        is stopped, and when the reserve is already at or below the threshold as the
        turn starts (it crossed it in an earlier turn). ``low_time_at(0)`` is the
        deadline."""
        if not _is_int(threshold_ms) or threshold_ms < 0:
            raise _invalid(f"threshold_ms must be a non-negative integer, not {threshold_ms!r}")
        deadline = self.deadline_ms()
        if deadline is None or self.running is None or self.reserves[self.running] <= threshold_ms:
            return None
        return deadline - threshold_ms

    # ================================================================== storage
    def to_dict(self) -> dict[str, Any]:
        """This state as a JSON-able dict (the settings included)."""
        return {
            "settings": settings_to_dict(self.settings),
            "reserves": list(self.reserves),
            "running": self.running,
            "turn_started_ms": self.turn_started_ms,
            "flagged": self.flagged,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ClockState:
        """The state stored by :meth:`to_dict` (``invalid_clock`` if it isn't one)."""
        if not isinstance(data, Mapping):
            raise _invalid("a clock state must be a mapping")
        keys = {"settings", "reserves", "running", "turn_started_ms", "flagged"}
        if set(data) != keys:
            raise _invalid(f"a clock state has exactly the keys {sorted(keys)}")
        reserves = data["reserves"]
        if not isinstance(reserves, list | tuple):
            raise _invalid("reserves are a list of two integers")
        return cls(
            settings=settings_from_dict(data["settings"]),
            reserves=tuple(reserves),  # two non-negative ints: checked by __post_init__
            running=data["running"],
            turn_started_ms=data["turn_started_ms"],
            flagged=data["flagged"],
        )

    # ================================================================== helpers
    def _elapsed(self, now_ms: int) -> int:
        assert self.turn_started_ms is not None
        return max(0, now_ms - self.turn_started_ms)

    def _reserve_left(self, player: int, now_ms: int) -> int:
        used = max(0, self._elapsed(now_ms) - self.settings.delay_ms)
        return max(0, self.reserves[player] - used)

    def _out_of_time(self, now_ms: int) -> bool:
        deadline = self.deadline_ms()
        return deadline is not None and now_ms >= deadline

"""The running ledger of a chouette session: games, seat changes, totals, undo.

Terms:

* An **event** is either a played game (:class:`~chouette.rules.settlement.GameEntry`)
  or a seat change between games (:class:`SeatChange`: ``join``, ``sit_out``,
  ``come_back``; :class:`Reseat`: box, captain and line set by hand, issue 27).
* A :class:`Ledger` is the session's profile, its starting seating and its events, plus
  what follows from them: the current seating, every player's running total and one
  :class:`GameRow` per game (points, seating before and after, totals after).

The ledger is immutable and **recomputable**: :meth:`Ledger.replay` rebuilds it from the
events, which is how the database side restores it and how :meth:`Ledger.undo` works.
:meth:`Ledger.apply` and :meth:`Ledger.seat` extend it incrementally (the same code path
as a replay, one event at a time).

Undo removes the **last game** and replays the seat changes entered after it on the
restored seating (a player who sat out after the game still sits out). Totals and seating
are therefore exactly those of a session in which that game was never entered.

An **edit** (:meth:`Ledger.replace`, issue 27) puts a corrected entry in the place of game
*n* and replays every later event as it was entered: the later games keep the players who
played them (their entries name box, captain, partner and team) and only their points
follow. If the corrected game rotates the table otherwise, so that a later game's entry no
longer fits the seating it is replayed on, the edit is refused
(``edit_breaks_later_game``, naming that game; a seating set by hand in between, a
:class:`Reseat`, fixes the seating again and so keeps the later games valid).

Invariants (asserted): every game row sums to zero, and so do the running totals after
every event (R13).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias, get_args

from chouette.rules.common import (
    ChouetteError,
    PlayerId,
    as_tuple,
    check_keys,
    check_player,
    require_tuple,
)
from chouette.rules.profile import Profile
from chouette.rules.seating import Seating, come_back, join, reseat, sit_out
from chouette.rules.settlement import GameEntry, next_seating, settle
from chouette.rules.transfers import SessionSummary, Stake, summarize

SeatAction = Literal["join", "sit_out", "come_back"]
SEAT_ACTIONS: tuple[SeatAction, ...] = ("join", "sit_out", "come_back")
assert get_args(SeatAction) == SEAT_ACTIONS

Totals: TypeAlias = tuple[tuple[PlayerId, int], ...]
"""Running totals as ``(player, points)`` pairs, in order of first appearance."""


@dataclass(frozen=True, slots=True)
class SeatChange:
    """A seat change between games (see :mod:`chouette.rules.seating`)."""

    action: SeatAction
    player: PlayerId

    def __post_init__(self) -> None:
        if self.action not in SEAT_ACTIONS:
            raise ChouetteError("invalid_data", f"unknown seat action {self.action!r}")
        check_player(self.player)

    def apply_to(self, seating: Seating) -> Seating:
        if self.action == "join":
            return join(seating, self.player)
        if self.action == "sit_out":
            return sit_out(seating, self.player)
        return come_back(seating, self.player)

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.action, "player": self.player}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SeatChange:
        check_keys(data, ("action", "player"), ("action", "player"), "seat change")
        return cls(action=data["action"], player=data["player"])


@dataclass(frozen=True, slots=True)
class Reseat:
    """Box, captain and line set by hand between games (:func:`~chouette.rules.seating.reseat`:
    the same seated players). ``before`` is the seating it replaced, kept for the record
    (who changed it from what to what); the replay does not need it."""

    box: PlayerId
    line: tuple[PlayerId, ...]
    before: Seating | None = None

    def __post_init__(self) -> None:
        require_tuple(self.line, "line")

    def apply_to(self, seating: Seating) -> Seating:
        return reseat(seating, self.box, self.line)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"action": "set", "box": self.box, "line": list(self.line)}
        if self.before is not None:
            data["before"] = self.before.to_dict()
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Reseat:
        check_keys(data, ("action", "box", "line", "before"), ("action", "box", "line"), "reseat")
        if data["action"] != "set":
            raise ChouetteError("invalid_data", "a reseat's action is 'set'")
        before = data.get("before")
        return cls(
            box=data["box"],
            line=as_tuple(data["line"], "line"),
            before=None if before is None else Seating.from_dict(before),
        )


Event: TypeAlias = GameEntry | SeatChange | Reseat


@dataclass(frozen=True, slots=True)
class GameRow:
    """One settled game of the session.

    Attributes:
        number: 1-based game number in the session.
        entry: the game as entered.
        points: every player's points for the game (box, partner, members).
        seating_before: the seating the game was played from.
        seating_after: the seating after rotation.
        totals_after: the running totals after the game.
    """

    number: int
    entry: GameEntry
    points: tuple[tuple[PlayerId, int], ...]
    seating_before: Seating
    seating_after: Seating
    totals_after: Totals

    def points_dict(self) -> dict[PlayerId, int]:
        return dict(self.points)


@dataclass(frozen=True, slots=True)
class Ledger:
    """A session's state (see the module docstring). Build it with :meth:`new` or
    :meth:`replay`; the derived fields are only consistent when built that way."""

    profile: Profile
    start: Seating
    events: tuple[Event, ...]
    seating: Seating
    totals: Totals
    rows: tuple[GameRow, ...]

    @classmethod
    def new(cls, profile: Profile, seating: Seating) -> Ledger:
        """An empty session at ``seating``: every player (sitting out too) at 0."""
        return cls(
            profile=profile,
            start=seating,
            events=(),
            seating=seating,
            totals=tuple((p, 0) for p in seating.all_players),
            rows=(),
        )

    @classmethod
    def replay(cls, profile: Profile, start: Seating, events: Iterable[Event]) -> Ledger:
        """Rebuild a session from its events (validating every one of them)."""
        ledger = cls.new(profile, start)
        for event in events:
            ledger = ledger._with(event)
        return ledger

    # ------------------------------------------------------------------ transitions
    def apply(self, entry: GameEntry) -> Ledger:
        """The ledger after one more game (refused if the entry does not fit the seating)."""
        return self._with(entry)

    def seat(self, change: SeatChange | Reseat) -> Ledger:
        """The ledger after a seat change between games."""
        return self._with(change)

    def replace(self, number: int, entry: GameEntry) -> Ledger:
        """The ledger with game ``number`` (1-based) entered as ``entry`` instead, every
        later event replayed as it was (module docstring). Refusals: ``game_not_found``;
        the corrected entry's own; ``edit_breaks_later_game`` (``ChouetteError.game``:
        the later game that no longer fits)."""
        at = [i for i, e in enumerate(self.events) if isinstance(e, GameEntry)]
        if not 1 <= number <= len(at):
            raise ChouetteError("game_not_found", f"there is no game {number}")
        i = at[number - 1]
        ledger = Ledger.replay(self.profile, self.start, self.events[:i])._with(entry)
        for event in self.events[i + 1 :]:
            try:
                ledger = ledger._with(event)
            except ChouetteError as exc:
                later = len(ledger.rows) + 1
                raise ChouetteError(
                    "edit_breaks_later_game",
                    f"game {later} no longer fits the seating after the edit ({exc.code})",
                    game=later if isinstance(event, GameEntry) else None,
                ) from None
        return ledger

    def undo(self) -> Ledger:
        """The ledger without its last game (``nothing_to_undo`` if there is none)."""
        for i in range(len(self.events) - 1, -1, -1):
            if isinstance(self.events[i], GameEntry):
                return Ledger.replay(
                    self.profile, self.start, self.events[:i] + self.events[i + 1 :]
                )
        raise ChouetteError("nothing_to_undo", "no game has been entered yet")

    def _with(self, event: Event) -> Ledger:
        if isinstance(event, SeatChange | Reseat):
            seating = event.apply_to(self.seating)
            totals = self.totals
            if isinstance(event, SeatChange) and event.action == "join":
                totals = (*totals, (event.player, 0))
            return Ledger(
                profile=self.profile,
                start=self.start,
                events=(*self.events, event),
                seating=seating,
                totals=totals,
                rows=self.rows,
            )
        if not isinstance(event, GameEntry):
            raise ChouetteError("invalid_data", f"not a ledger event: {event!r}")
        after = next_seating(self.seating, event, self.profile)
        points = settle(event, self.profile)
        totals = tuple((p, t + points.get(p, 0)) for p, t in self.totals)
        assert sum(t for _, t in totals) == 0, "running totals sum to zero (R13)"
        row = GameRow(
            number=len(self.rows) + 1,
            entry=event,
            points=tuple(points.items()),
            seating_before=self.seating,
            seating_after=after,
            totals_after=totals,
        )
        return Ledger(
            profile=self.profile,
            start=self.start,
            events=(*self.events, event),
            seating=after,
            totals=totals,
            rows=(*self.rows, row),
        )

    # ------------------------------------------------------------------ queries
    @property
    def games(self) -> tuple[GameEntry, ...]:
        return tuple(row.entry for row in self.rows)

    def totals_dict(self) -> dict[PlayerId, int]:
        return dict(self.totals)

    def summary(self, stake: Stake | None = None) -> SessionSummary:
        """Net points, money at ``stake`` and the fewest transfers (end of session)."""
        return summarize(self.totals_dict(), stake)

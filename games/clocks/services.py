"""Over-the-board table clocks (R12, issue 5): a tablet or phone between two players,
synced to the server.

The clock arithmetic is the pure clock's (:mod:`games.engine.clock`); here it meets the
database, as :mod:`games.play.clock` and :mod:`games.play.alarms` do for online games:

* Every write (:func:`table_clock_start`, :func:`table_clock_tap`, ...) locks the row,
  checks the expected version, computes the new :class:`ClockState` at the one wall-clock
  reading (:func:`games.wallclock.now`), stores it with the next version and the
  ``deadline_at`` at which the running player flags, and after commit sends a timer task
  (``games.table_clock_alarm``, :mod:`games.clocks.tasks`) with an ETA at that deadline
  when it is near (:data:`games.background.ARM_WINDOW`), and tells the pages that show
  the clock (its ``tableclock:<id>`` topic and the list's ``clocks:all``,
  :mod:`games.clocks.live`). A refused write raises inside the transaction, so it
  changes nothing.
* :func:`table_clock_alarm` records the flag when it is due: it locks the row, returns
  "stale" when the version moved or the clock no longer runs, "not_due" before the
  deadline. Running it twice has one effect. The timer calls it, so does the sweeper
  (:func:`table_clocks_sweep_alarms`, called from ``games.clocks.sweep.clocks_sweep_alarms``,
  which beat runs every 2 s and the one-command local run's thread every second), and so
  do reads (:func:`table_clocks_flag_due`). A flag is therefore recorded on the server
  even when the tablet died.
* :func:`games.clocks.selectors.table_clock_view` is the clock as every client shows
  it: readings computed from the stored state at the server's time.

Decisions where docs/rules.md is silent:

* **A tap ends the turn of the player whose clock runs**; a tap on the other half is
  refused (409 ``not_your_clock``): a double tap or a bump of the opponent's half must
  not give the turn back.
* **A flag stops the table clock** (status ``flagged``): over the board the players call
  the director, who rules (claim, R12) and finishes the clock. The flagged player's
  reserve shows 0. A tap, pause or finish that arrives after the deadline records the
  flag first (the tap is then not a switch).
* **A pause freezes the turn where it is**: the readings are taken at ``paused_at``, and
  resuming moves the turn's start by the length of the pause, so neither the delay nor
  the reserve runs while paused and nobody gets a fresh delay from a pause. This is the
  only thing done to a state outside the engine: the turn's start is moved; the engine
  charges it as always.
* A tap is charged when the server handles it (the network's few milliseconds go to the
  tapping player): the server's time is the only one every client agrees on.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any, Literal

from django.db import transaction
from django.db.models import F, Q
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import background, wallclock
from games.clocks import live
from games.clocks.selectors import paused_ms, table_clock_can_operate
from games.engine.clock import ClockSettings, ClockState, preset, settings_from_dict
from games.engine.errors import EngineError
from games.errors import Conflict, NotFound, PermissionDenied, ValidationFailed
from games.models import Match, Player, TableClock
from games.players.names import player_name_clean

log = logging.getLogger(__name__)

AlarmOutcome = Literal["stale", "not_due", "flagged"]

#: The registered name of the table clock timer task (:mod:`games.clocks.tasks`).
TABLE_CLOCK_ALARM = "games.table_clock_alarm"

#: Longest match a table clock computes per-point reserves for (as for online matches).
MAX_MATCH_LENGTH = 25

Status = TableClock.Status

#: People's words for the engine's codes a table clock can meet.
_ENGINE_MESSAGES: dict[str, Promise] = {
    "invalid_clock": gettext_lazy("These clock settings cannot be used."),
    "invalid_match": gettext_lazy("That match length cannot be used."),
    "invalid_score": gettext_lazy("That score does not fit the match length."),
    "invalid_player": gettext_lazy("A table clock has player 1 and player 2 only."),
}


def _engine_error(exc: EngineError) -> ValidationFailed:
    if exc.field is not None:  # a clock setting out of range: say which one
        return ValidationFailed(
            exc.code,
            _("This clock setting is not valid: %(field)s.") % {"field": exc.field},
            extra={"reason": exc.message, "field": exc.field},
        )
    message = _ENGINE_MESSAGES.get(exc.code, gettext_lazy("These clock settings cannot be used."))
    return ValidationFailed(exc.code, str(message), extra={"reason": exc.message})


# ====================================================================== creating
def _typed_name(name: str) -> str:
    """A name typed for the clock, checked as every player's name is (400
    ``invalid_name``); empty when none was typed."""
    return player_name_clean(name=name) if (name or "").strip() else ""


def table_clock_create(
    *,
    label: str,
    clock: str | Mapping[str, Any] | None = None,
    player1_name: str = "",
    player2_name: str = "",
    player1: Player | None = None,
    player2: Player | None = None,
    match: Match | None = None,
    match_length: int | None = None,
    score: tuple[int, int] | None = None,
    created_by: Any = None,
) -> TableClock:
    """A new table clock, ready to start.

    ``clock``: a preset name (``seed002``, ``usbgf``, ``galaxy-casual``, ``wbgf-speed``)
    or custom settings (``delay_ms``, ``reserve_ms``, ...; see
    :class:`~games.engine.clock.ClockSettings`). ``match_length`` and ``score`` give the
    per-point reserves (USBGF: 2 min per point less 1 min per point scored); 0 is money
    play. A linked ``match`` gives the players, length, score and (when ``clock`` is not
    given) its own clock. Names left empty are taken from the linked players."""
    label = (label or "").strip()
    if not label:
        raise ValidationFailed("label_required", _("Give the clock a label, e.g. Table 7."))
    if match is not None:
        player1 = player1 or match.player1
        player2 = player2 or match.player2
        if match_length is None:
            match_length = match.length
        if score is None:
            score = (match.score1, match.score2)
        if clock is None:
            clock = match.clock
    names = (
        _typed_name(player1_name) or (player1.name if player1 is not None else ""),
        _typed_name(player2_name) or (player2.name if player2 is not None else ""),
    )
    if not all(names):
        raise ValidationFailed("player_names_required", _("Both players need a name."))
    length = 0 if match_length is None else match_length
    if not 0 <= length <= MAX_MATCH_LENGTH:
        raise ValidationFailed(
            "invalid_length",
            _("A match is played to 1 to %(max)d points (0 for money play).")
            % {"max": MAX_MATCH_LENGTH},
        )
    if clock is None or clock == "":
        raise ValidationFailed(
            "invalid_clock", _("Choose a clock preset or give the delay and the reserve.")
        )
    at_ms = wallclock.to_ms(wallclock.now())
    try:
        clock_settings = _settings(clock)
        state = ClockState.start(
            clock_settings, length=length, score=score or (0, 0), player=None, now_ms=at_ms
        )
    except EngineError as exc:
        raise _engine_error(exc) from None
    table_clock = TableClock.objects.create(
        label=label,
        player1_name=names[0],
        player2_name=names[1],
        player1=player1,
        player2=player2,
        match=match,
        preset=clock if isinstance(clock, str) else "",
        match_length=length,
        clock_settings=state.to_dict()["settings"],
        state=state.to_dict(),
        status=Status.READY,
        created_by=created_by if getattr(created_by, "is_authenticated", False) else None,
    )
    live.clock_list_changed()
    return table_clock


def _settings(clock: str | Mapping[str, Any]) -> ClockSettings:
    if isinstance(clock, str):
        return preset(clock)
    return settings_from_dict(clock)


# ====================================================================== writes
def table_clock_start(
    *, clock_id: int, player: int, expected_version: int | None = None, by: Any = None
) -> TableClock:
    """Start a ready clock: ``player``'s (0 or 1) runs first. ``by``: the user (``None``:
    the system); ``expected_version``: refused (``stale_version``) when the clock moved."""
    _check_player(player)
    with transaction.atomic():
        clock, state, at = _for_write(clock_id, by=by, expected_version=expected_version)
        if clock.status != Status.READY:
            raise _refused(clock, started=True)
        _store(clock, state.switch(wallclock.to_ms(at), player), Status.RUNNING, at)
    return clock


def table_clock_tap(
    *, clock_id: int, player: int, expected_version: int, by: Any = None
) -> TableClock:
    """``player`` (0 or 1) taps their half: their turn ends and the other player's clock
    runs. Only the player whose clock runs may tap (409 ``not_your_clock``); a tap after
    the deadline records the flag instead (status ``flagged``)."""
    _check_player(player)
    with transaction.atomic():
        clock, state, at = _for_write(clock_id, by=by, expected_version=expected_version)
        if clock.status != Status.RUNNING:
            raise _refused(clock)
        if state.running != player:
            raise Conflict(
                "not_your_clock",
                _("%(name)s's clock is not running: only the player whose clock runs taps.")
                % {"name": clock.names[player]},
                extra={"version": clock.version},
            )
        at_ms = wallclock.to_ms(at)
        stopped = state.switch(at_ms, None)
        if stopped.flagged is not None:
            _store(clock, stopped, Status.FLAGGED, at)
        else:
            _store(clock, state.switch(at_ms, 1 - player), Status.RUNNING, at)
    return clock


def table_clock_pause(
    *, clock_id: int, expected_version: int | None = None, by: Any = None
) -> TableClock:
    """Stop a running clock where it is (a director's ruling, a break). When the running
    player is already out of time, the flag is recorded instead."""
    with transaction.atomic():
        clock, state, at = _for_write(clock_id, by=by, expected_version=expected_version)
        if clock.status != Status.RUNNING:
            raise _refused(clock)
        at_ms = wallclock.to_ms(at)
        if state.flagged_player(at_ms) is not None:
            _store(clock, state.switch(at_ms, None), Status.FLAGGED, at)
        else:
            _store(clock, state, Status.PAUSED, at, paused_at=at)
    return clock


def table_clock_resume(
    *, clock_id: int, expected_version: int | None = None, by: Any = None
) -> TableClock:
    """Restart a paused clock: the same player's turn goes on with the delay and reserve
    they had when it was paused."""
    with transaction.atomic():
        clock, state, at = _for_write(clock_id, by=by, expected_version=expected_version)
        if clock.status != Status.PAUSED:
            raise _refused(clock, resuming=True)
        _store(clock, _resumed(state, clock, at), Status.RUNNING, at)
    return clock


def table_clock_finish(
    *, clock_id: int, expected_version: int | None = None, by: Any = None
) -> TableClock:
    """The game or match at the table is over: the clock stops for good (a running
    player is charged up to now, and flagged if out of time)."""
    with transaction.atomic():
        clock, state, at = _for_write(clock_id, by=by, expected_version=expected_version)
        if clock.status == Status.FINISHED:
            raise _refused(clock)
        stopped = state
        if clock.status == Status.RUNNING:
            stopped = state.switch(wallclock.to_ms(at), None)
        elif clock.status == Status.PAUSED:
            stopped = state.switch(paused_ms(clock, at), None)
        _store(clock, stopped, Status.FINISHED, at)
    return clock


# ====================================================================== alarms
def table_clock_alarm(
    *, clock_id: int, version: int | None = None, at: datetime | None = None
) -> AlarmOutcome:
    """Record the flag of a running clock whose deadline has passed. ``version``: the
    version the timer was armed for (``None``: whatever is current). Safe to run twice:
    a second run finds the version moved ("stale")."""
    at = at or wallclock.now()
    with transaction.atomic():
        clock = TableClock.objects.select_for_update().filter(pk=clock_id).first()
        if clock is None or clock.status != Status.RUNNING:
            return "stale"
        if version is not None and clock.version != version:
            return "stale"
        state = ClockState.from_dict(clock.state)
        at_ms = wallclock.to_ms(at)
        if state.flagged_player(at_ms) is None:
            return "not_due"
        _store(clock, state.record_flag(at_ms).switch(at_ms, None), Status.FLAGGED, at)
        log.info("table clock %s: player %s flagged", clock.pk, clock.flagged_index)
        return "flagged"


def table_clocks_flag_due(
    *, table_clocks: Iterable[TableClock], at: datetime | None = None
) -> bool:
    """On a read: record the flags that are due among ``table_clocks`` now. True when
    one was recorded (the caller reads them again)."""
    at = at or wallclock.now()
    changed = False
    for clock in table_clocks:
        due = clock.deadline_at is not None and clock.deadline_at <= at
        if clock.status == Status.RUNNING and due:
            changed |= table_clock_alarm(clock_id=clock.pk, at=at) == "flagged"
    return changed


def table_clocks_sweep_alarms(*, at: datetime | None = None, limit: int = 500) -> dict[str, int]:
    """The backstop: flag every overdue running clock, arm the near deadlines that have
    no timer. Returns counts (for the tests and the log)."""
    at = at or wallclock.now()
    counts = {"flagged": 0, "armed": 0}
    overdue = list(
        TableClock.objects.filter(status=Status.RUNNING, deadline_at__lte=at)
        .order_by("deadline_at")
        .values_list("pk", "version")[:limit]
    )
    for clock_id, version in overdue:
        if table_clock_alarm(clock_id=clock_id, version=version, at=at) == "flagged":
            counts["flagged"] += 1
    if background.celery_timers():
        near = list(
            TableClock.objects.filter(
                status=Status.RUNNING,
                deadline_at__gt=at,
                deadline_at__lte=at + background.ARM_WINDOW,
            )
            .filter(Q(armed_version__isnull=True) | ~Q(armed_version=F("version")))
            .values_list("pk", "version", "deadline_at")[:limit]
        )
        for clock_id, version, deadline_at in near:
            with transaction.atomic():
                armed = TableClock.objects.filter(pk=clock_id, version=version).update(
                    armed_version=version
                )
                if armed:
                    _arm_on_commit(clock_id, version, deadline_at)
                    counts["armed"] += 1
    return counts


# ====================================================================== helpers
def _check_player(player: int) -> None:
    if player not in (0, 1) or isinstance(player, bool):
        raise ValidationFailed(
            "invalid_player", str(_ENGINE_MESSAGES["invalid_player"]), extra={"player": player}
        )


def _for_write(
    clock_id: int, *, by: Any, expected_version: int | None
) -> tuple[TableClock, ClockState, datetime]:
    """The clock locked for a write, its state and the write's moment; refuses a user
    who may not operate it and a stale version. Call inside a transaction."""
    clock = TableClock.objects.select_for_update().filter(pk=clock_id).first()
    if clock is None:
        raise NotFound("table_clock_not_found", _("There is no table clock with this id."))
    if by is not None and not table_clock_can_operate(clock=clock, user=by):
        raise PermissionDenied(
            "not_clock_operator",
            _("Only the director and whoever set up this clock may operate it."),
        )
    if expected_version is not None and clock.version != expected_version:
        raise Conflict(
            "stale_version",
            _("The clock has moved on since you looked: it shows the current times now."),
            extra={"version": clock.version},
        )
    try:
        state = ClockState.from_dict(clock.state)
    except EngineError as exc:  # a damaged row: say so rather than fail with a 500
        raise _engine_error(exc) from None
    return clock, state, wallclock.now()


def _refused(clock: TableClock, *, started: bool = False, resuming: bool = False) -> Conflict:
    """The 409 for an action the clock's status does not allow."""
    messages: dict[str, tuple[str, str]] = {
        Status.READY: ("clock_not_started", _("The clock has not been started yet.")),
        Status.RUNNING: (
            ("clock_already_started", _("The clock has already been started."))
            if started
            else ("clock_running", _("The clock is running."))
        ),
        Status.PAUSED: ("clock_paused", _("The clock is paused.")),
        Status.FLAGGED: ("clock_flagged", _("Time is up on this clock.")),
        Status.FINISHED: ("clock_finished", _("This clock is finished.")),
    }
    if started and clock.status == Status.PAUSED:
        messages[Status.PAUSED] = (
            "clock_already_started",
            _("The clock has already been started."),
        )
    if resuming and clock.status == Status.RUNNING:
        messages[Status.RUNNING] = ("clock_not_paused", _("The clock is not paused."))
    code, detail = messages[Status(clock.status)]
    return Conflict(code, detail, extra={"version": clock.version, "status": clock.status})


def _resumed(state: ClockState, clock: TableClock, at: datetime) -> ClockState:
    """The paused turn going on at ``at``: its start moved by the pause's length (never
    back: a server clock that went back gives nobody time)."""
    if state.running is None or state.turn_started_ms is None:
        return state
    pause = max(0, wallclock.to_ms(at) - paused_ms(clock, at))
    return ClockState(
        state.settings, state.reserves, state.running, state.turn_started_ms + pause, state.flagged
    )


def _store(
    clock: TableClock,
    state: ClockState,
    status: str,
    at: datetime,
    *,
    paused_at: datetime | None = None,
) -> None:
    """Persist ``state`` with the next version, the deadline and the timer. Under the
    row's lock."""
    clock.version += 1
    clock.state = state.to_dict()
    clock.status = status
    clock.flagged_index = state.flagged
    clock.paused_at = paused_at
    deadline = wallclock.from_ms(state.deadline_ms()) if status == Status.RUNNING else None
    near = deadline is not None and deadline - at <= background.ARM_WINDOW
    clock.deadline_at = deadline
    clock.armed_version = clock.version if near else None
    if status == Status.FINISHED:
        clock.finished_at = at
    clock.save()
    live.table_clock_changed(clock.pk)
    if near:
        _arm_on_commit(clock.pk, clock.version, deadline)


def _arm_on_commit(clock_id: int, version: int, deadline_at: datetime | None) -> None:
    """Send the timer task for this version after commit (its ETA: the deadline)."""
    background.send_timer_on_commit(TABLE_CLOCK_ALARM, (clock_id, version), deadline_at)

"""What every write of online chouette play shares: the refusals in words, the locks
(the session's row, then the game's), the version check, the log row, the move clock and
the alarm, and :func:`store_step`, which stores one step of a game (and, at its end,
the ledger's game: :func:`chouette.services.games.game_record_locked`). The writes
themselves: :mod:`chouette.online.services` and :mod:`chouette.online.alarms`."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _

from chouette import rules
from chouette.messages import rule_message
from chouette.models import ChouetteOnlineAction, ChouetteOnlineGame, ChouetteSession
from chouette.online import live
from chouette.online import selectors as online_selectors
from chouette.online.table import BOX, TEAM, Table
from chouette.services.games import game_record_locked
from games import background, wallclock
from games.engine.clock import ClockState
from games.errors import ApplicationError, Conflict, NotFound, PermissionDenied, ValidationFailed
from games.models import Player

#: The registered names of the timer tasks (chouette.online.tasks).
ONLINE_ALARM = "chouette.online_alarm"
ONLINE_SWEEP = "chouette.sweep_online_alarms"


def rule_error(exc: rules.ChouetteError) -> ApplicationError:
    conflict = exc.code in CONFLICT_CODES
    cls = Conflict if conflict else ValidationFailed
    return cls(exc.code, online_message(exc.code), extra={"reason": exc.message})


#: Refusals about the game's moment rather than the input: 409.
CONFLICT_CODES = frozenset(
    {
        "game_over",
        "decision_pending",
        "not_your_turn",
        "not_your_decision",
        "no_decision_pending",
        "cube_not_available",
        "already_answered",
        "must_roll_first",
        "already_rolled",
        "must_choose_double",
        "no_double_to_choose",
        "box_must_take_half",
        "settlement_not_now",
        "no_extra_offer",
    }
)


def online_message(code: str) -> str:
    messages = {
        "game_over": _("This game is over."),
        "decision_pending": _("A cube decision waits for an answer first."),
        "not_your_turn": _("It is not your turn."),
        "not_your_decision": _("This decision is not yours to take."),
        "no_decision_pending": _("No cube decision waits for you."),
        "cube_not_available": _("You may not double now."),
        "already_answered": _("You have already answered."),
        "invalid_answer": _("That is not an answer to this decision."),
        "illegal_play": _("That play is not legal with these dice."),
        "must_roll_first": _("Roll the dice first."),
        "already_rolled": _("The dice are rolled: play them."),
        "must_choose_double": _("Name the Acey-Deucey double first."),
        "no_double_to_choose": _("There is no double to choose."),
        "classic_one_cube": _("One team cube: the box doubles every member at once."),
        "not_classic": _("With individual cubes each member doubles alone."),
        "not_individual": _("One team cube: propose the team double instead."),
        "invalid_dice": _("A die shows 1 to 6."),
        "not_a_member": _("This player has no cube in this game."),
        "not_in_game": _("This player is out of this game."),
        "settlement_not_now": _("A settlement is offered between turns, before a roll."),
        "invalid_settlement": _("A settlement is a whole number of points."),
        "invalid_extra_side": _("Say whether you back the team or the box."),
        "no_extra_offer": _("This extra is no longer offered."),
    }
    message = messages.get(code)
    return str(message) if message is not None else rule_message(code)


def player_of(user: Any) -> Player:
    if user is None or not getattr(user, "is_authenticated", False):
        raise PermissionDenied("not_logged_in", _("Log in to do this."))
    player = Player.of_user(user)
    if player is None:
        raise PermissionDenied("no_player", _("Your login is not linked to a player."))
    return player


def lock_session_of_game(game_id: int) -> tuple[ChouetteSession, ChouetteOnlineGame]:
    session_id = (
        ChouetteOnlineGame.objects.filter(pk=game_id).values_list("session_id", flat=True).first()
    )
    if session_id is None:
        raise NotFound("online_game_not_found", _("There is no online chouette game with this id."))
    session = ChouetteSession.objects.select_for_update().get(pk=session_id)
    game = ChouetteOnlineGame.objects.select_for_update().get(pk=game_id)
    return session, game


def check_version(game: ChouetteOnlineGame, expected_version: int | None) -> None:
    if expected_version is not None and expected_version != game.version:
        raise Conflict(
            "stale_version",
            _("The game has moved on since you looked: look again and act."),
            extra={"version": game.version},
        )


def check_playing(game: ChouetteOnlineGame) -> None:
    if not game.is_playing:
        raise Conflict("game_over", _("This game is over."))


def log_action(
    game: ChouetteOnlineGame,
    *,
    kind: str,
    actor: int | None,
    by_player: int | None = None,
    data: dict[str, Any] | None = None,
    at: datetime,
) -> ChouetteOnlineAction:
    return ChouetteOnlineAction.objects.create(
        game=game,
        seq=game.version,
        kind=kind,
        actor_id=actor,
        by_player_id=by_player if by_player != actor else None,
        data=data or {},
        created_at=at,
    )


# ====================================================================== the clock
def clock_side(table: Table) -> int | None:
    """Whose move clock runs: the side that must roll or move, whether or not somebody
    at the table may move for it (none while a cube decision waits: its own time window
    runs instead)."""
    side = table.side_to_move
    if side is None:
        return None
    return BOX if side == "box" else TEAM


def _clock_after(clock: ClockState | None, table: Table, at_ms: int) -> ClockState | None:
    if clock is None:
        return None
    side = clock_side(table)
    if table.is_over:
        return clock.switch(at_ms, None)
    if side is not None and side == clock.running:
        return clock
    return clock.switch(at_ms, side)


def decision_deadline(
    session: ChouetteSession, game: ChouetteOnlineGame, table: Table
) -> datetime | None:
    """The end of the present wait's window (a cube decision, or a side nobody at the
    table moves for: :func:`chouette.online.selectors.window_deadline`)."""
    return online_selectors.window_deadline(session, game, table)


def present(session: ChouetteSession, table: Table) -> Table:
    """The table with the session's players away now (those who named a proxy)."""
    return table.with_away(online_selectors.session_away(session))


def set_alarm(session: ChouetteSession, game: ChouetteOnlineGame, table: Table) -> None:
    """``alarm_at``: the earliest of the decision window's end and the running clock's
    flag; the timer is sent after commit when it is near (games.background)."""
    due = []
    decision = decision_deadline(session, game, table)
    if decision is not None:
        due.append(decision)
    if game.clock is not None and not table.is_over:
        deadline = ClockState.from_dict(game.clock).deadline_ms()
        if deadline is not None:
            flag_at = wallclock.from_ms(deadline)
            assert flag_at is not None
            due.append(flag_at)
    game.alarm_at = min(due) if due else None
    if game.alarm_at is not None and game.alarm_at - wallclock.now() <= background.ARM_WINDOW:
        background.send_timer_on_commit(ONLINE_ALARM, (game.pk, game.version), game.alarm_at)


# ====================================================================== a step stored
def store_step(
    session: ChouetteSession,
    game: ChouetteOnlineGame,
    before: Table,
    after: Table,
    *,
    kind: str,
    actor: int | None,
    by_player: int | None,
    data: dict[str, Any],
    at: datetime,
) -> None:
    """The new state, its log row, the clock, the alarm and, when the game is over, the
    ledger: one transaction (the caller's)."""
    at_ms = wallclock.to_ms(at)
    game.version += 1
    if after.decisions and (
        not before.decisions or _asked(after) - _asked(before) or game.decisions_since is None
    ):
        game.decisions_since = at  # a new question: its window runs from now
    elif not after.decisions and after.unmanned is not None:
        if before.decisions or before.unmanned != after.unmanned or game.decisions_since is None:
            game.decisions_since = at  # nobody at the table moves for it from now
    elif not after.decisions:
        game.decisions_since = None
    clock = None if game.clock is None else ClockState.from_dict(game.clock)
    clock = _clock_after(clock, after, at_ms)
    game.clock = None if clock is None else clock.to_dict()
    game.table = after.to_dict()
    row = log_action(game, kind=kind, actor=actor, by_player=by_player, data=data, at=at)
    fields = ["version", "table", "clock", "decisions_since", "alarm_at"]
    if after.is_over:
        entry = after.entry()
        event = game_record_locked(session=session, entry=entry, by=None)
        game.status = ChouetteOnlineGame.Status.FINISHED
        game.event = event
        game.ended_at = at
        game.alarm_at = None
        fields += ["status", "event", "ended_at"]
    else:
        set_alarm(session, game, after)
    game.save(update_fields=fields)
    live.game_changed(game, row, session_id=session.pk)


def _asked(table: Table) -> set[tuple[Any, str]]:
    return {(d.member, d.kind) for d in table.decisions}

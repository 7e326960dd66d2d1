"""Writes of online chouette play: start a game, every action, the team's chat, the timers.

The house pattern (docs/architecture.md), as for a two-player game: **lock, check the
version, rebuild the pure state, let it decide, store the new state with one log row and
the bumped version**. Every write locks the *session* row first and then the game row,
so one session's writes (an online action, a game typed in, a seat change) are serialised
in one order and never deadlock; an action made against a version that moved is refused
(409 ``stale_version``) and changes nothing.

* :func:`online_game_start`: a writer of the session (its players, the scorekeeper,
  staff) starts a game from the current seating; the server rolls the opening roll (R3),
  ties again (and again: automatic doubles, R8) until one side starts.
* :func:`online_game_act`: a player of the game acts (roll, play, a cube action, an
  answer); the server rolls the dice. A proxy (``ChouetteParticipant.proxy``) may answer
  the cube decisions of the member they stand in for (``as_player``).
* The **time window** of a cube decision (``ChouetteSession.decision_seconds``) and the
  R12 **move clock** of box and captain (``ChouetteSession.online_clock``) are stored
  deadlines (``alarm_at``); a timer task (``chouette.online_alarm``) or the sweeper
  (``chouette.sweep_online_alarms``) acts on them through :func:`online_game_alarm`,
  which is safe to run twice (a moved version is "stale"), and every read and write of a
  game acts first on an alarm already due, so nobody sees a decision open past its time.
* **Away** (docs/rules.md R13, "Played online"): a player who named a proxy has left
  the table; every step rebuilds the table with the session's away players
  (:meth:`Table.with_away`), so the next member at the table moves for the team, and a
  proxy named or cleared mid-game reaches the game at once
  (:func:`online_presence_changed`, a log row ``away``). A side nobody at the table moves
  for has a window too (:func:`chouette.online.selectors.window_deadline`) and forfeits
  when it runs out (a log row ``forfeit``); every timeout's row names its rule and what
  it decided (``defaults``: the answers given; ``flag``; ``forfeit``).
* When the game ends, its entry goes to
  :func:`chouette.services.games.game_record_locked` in the same transaction: the same
  settlement, zero-sum check and ledger as a game typed in; undo works on it as on any.
* :func:`online_team_message_post`: a team member writes to the team (or suggests a play);
  the box never sees it (its topic is the team's only, :mod:`chouette.online.live`).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from chouette import live as chouette_live
from chouette import rules
from chouette import selectors as chouette_selectors
from chouette.messages import rule_message
from chouette.models import (
    MAX_DECISION_SECONDS,
    TEAM_MESSAGE_LENGTH,
    ChouetteOnlineAction,
    ChouetteOnlineGame,
    ChouetteSession,
    ChouetteTeamMessage,
)
from chouette.online import live
from chouette.online import selectors as online_selectors
from chouette.online.table import BOX, TEAM, Table, table_new
from chouette.services.common import NOT_IN_SESSION, lock_for_write, may_write
from chouette.services.games import game_record_locked
from chouette.stored import profile_of
from games import background, wallclock
from games.engine.clock import PRESETS, ClockState, settings_from_dict, settings_to_dict
from games.engine.errors import EngineError
from games.engine.notation import format_play
from games.engine.position import position_id
from games.errors import ApplicationError, Conflict, NotFound, PermissionDenied, ValidationFailed
from games.models import Player
from games.play.dice import SYSTEM_DICE, DiceSource, roll_die

log = logging.getLogger(__name__)

#: The registered names of the timer tasks (chouette.tasks).
ONLINE_ALARM = "chouette.online_alarm"
ONLINE_SWEEP = "chouette.sweep_online_alarms"

#: Every action a client may send, with the table method it calls.
ACTIONS = (
    "roll",
    "play",
    "choose_double",
    "propose_double",
    "consent",
    "double",
    "box_double",
    "answer",
    "offer_settlement",
    "offer_extra",
    "answer_extra",
)
#: Opening rolls tried before giving up (each tie is one more roll; R3).
MAX_OPENING_ROLLS = 100


def _rule_error(exc: rules.ChouetteError) -> ApplicationError:
    conflict = exc.code in CONFLICT_CODES
    cls = Conflict if conflict else ValidationFailed
    return cls(exc.code, _online_message(exc.code), extra={"reason": exc.message})


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


def _online_message(code: str) -> str:
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


def _player_of(user: Any) -> Player:
    if user is None or not getattr(user, "is_authenticated", False):
        raise PermissionDenied("not_logged_in", _("Log in to do this."))
    player = Player.of_user(user)
    if player is None:
        raise PermissionDenied("no_player", _("Your login is not linked to a player."))
    return player


def _lock_session_of_game(game_id: int) -> tuple[ChouetteSession, ChouetteOnlineGame]:
    session_id = (
        ChouetteOnlineGame.objects.filter(pk=game_id).values_list("session_id", flat=True).first()
    )
    if session_id is None:
        raise NotFound("online_game_not_found", _("There is no online chouette game with this id."))
    session = ChouetteSession.objects.select_for_update().get(pk=session_id)
    game = ChouetteOnlineGame.objects.select_for_update().get(pk=game_id)
    return session, game


def _check_version(game: ChouetteOnlineGame, expected_version: int | None) -> None:
    if expected_version is not None and expected_version != game.version:
        raise Conflict(
            "stale_version",
            _("The game has moved on since you looked: look again and act."),
            extra={"version": game.version},
        )


def _check_playing(game: ChouetteOnlineGame) -> None:
    if not game.is_playing:
        raise Conflict("game_over", _("This game is over."))


def _log(
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
def _clock_side(table: Table) -> int | None:
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
    side = _clock_side(table)
    if table.is_over:
        return clock.switch(at_ms, None)
    if side is not None and side == clock.running:
        return clock
    return clock.switch(at_ms, side)


def _decision_deadline(
    session: ChouetteSession, game: ChouetteOnlineGame, table: Table
) -> datetime | None:
    """The end of the present wait's window (a cube decision, or a side nobody at the
    table moves for: :func:`chouette.online.selectors.window_deadline`)."""
    return online_selectors.window_deadline(session, game, table)


def _present(session: ChouetteSession, table: Table) -> Table:
    """The table with the session's players away now (those who named a proxy)."""
    return table.with_away(online_selectors.session_away(session))


def _set_alarm(session: ChouetteSession, game: ChouetteOnlineGame, table: Table) -> None:
    """``alarm_at``: the earliest of the decision window's end and the running clock's
    flag; the timer is sent after commit when it is near (games.background)."""
    due = []
    decision = _decision_deadline(session, game, table)
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


# ====================================================================== start
def online_game_start(
    *,
    session_id: int,
    by: Any,
    expected_version: int | None = None,
    dice: DiceSource | None = None,
    at: datetime | None = None,
) -> ChouetteOnlineGame:
    """Start a game online from the session's seating (see the module docstring)."""
    at = at or wallclock.now()
    dice = dice if dice is not None else SYSTEM_DICE  # looked up now: tests script it
    with transaction.atomic():
        session = lock_for_write(session_id=session_id, by=by, expected_version=expected_version)
        if session.online_games.filter(status=ChouetteOnlineGame.Status.PLAYING).exists():
            raise Conflict(
                "online_game_in_progress", _("A game of this session is already being played.")
            )
        profile = profile_of(session)
        seating = rules.Seating.from_dict(session.seating)
        table = _present(
            session,
            table_new(
                profile=profile,
                box=seating.box,
                members=seating.team(profile),
                partner=seating.partner(profile),
            ),
        )
        rolls = []
        for _attempt in range(MAX_OPENING_ROLLS):
            box_die, team_die = roll_die(dice), roll_die(dice)
            rolls.append([box_die, team_die])
            table = table.opening_roll(box_die, team_die)
            if table.board.phase != "opening":
                break
        else:  # pragma: no cover - a hundred ties in a row
            raise Conflict("opening_roll_failed", _("The opening roll kept tying: try again."))
        top = session.online_games.aggregate(top=Max("number"))["top"]
        clock = None
        if session.online_clock:
            try:
                clock_settings = settings_from_dict(session.online_clock)
            except EngineError:
                clock_settings = None
            if clock_settings is not None:
                clock = ClockState.start(
                    clock_settings,
                    length=0,
                    score=(0, 0),
                    player=_clock_side(table),
                    now_ms=wallclock.to_ms(at),
                )
        game = ChouetteOnlineGame.objects.create(
            session=session,
            number=(top or 0) + 1,
            table=table.to_dict(),
            version=1,
            clock=None if clock is None else clock.to_dict(),
            decisions_since=at if table.unmanned else None,
            started_by=by,
            started_at=at,
        )
        row = _log(game, kind="opening_roll", actor=None, data={"rolls": rolls}, at=at)
        _set_alarm(session, game, table)
        game.save(update_fields=["alarm_at"])
        session.version += 1
        session.save(update_fields=["version"])
        live.game_changed(game, row, session_id=session.pk)
    return game


# ====================================================================== acting
def _actor(
    session: ChouetteSession, table: Table, me: Player, as_player: int | None
) -> tuple[int, int]:
    """(the player the action is made for, the player who pressed). A proxy answers for
    the member they stand in for; everybody else acts for themselves."""
    if as_player is None or as_player == me.pk:
        if me.pk != table.box and me.pk not in table.members:
            raise PermissionDenied("not_in_game", _("Only the box and the team play this game."))
        return me.pk, me.pk
    if isinstance(as_player, bool) or not isinstance(as_player, int):
        raise ValidationFailed("invalid_player", rule_message("invalid_player"))
    proxy = online_selectors.game_proxies(session, table).get(as_player)
    if proxy != me.pk:
        raise PermissionDenied(
            "not_a_proxy", _("You may act only for a member who named you their proxy.")
        )
    return as_player, me.pk


def online_game_act(
    *,
    game_id: int,
    by: Any,
    action: str,
    expected_version: int | None,
    position_id: str | None = None,
    member: int | None = None,
    members: Sequence[int] | None = None,
    answer: str | None = None,
    value: int | None = None,
    as_player: int | None = None,
    points: int | None = None,
    other: int | None = None,
    backs: str | None = None,
    stake: int | None = None,
    price: int | None = None,
    offer: int | None = None,
    dice: DiceSource | None = None,
    at: datetime | None = None,
) -> ChouetteOnlineGame:
    """One action of a player of the game (see the module docstring). ``action`` is one of
    :data:`ACTIONS`; ``position_id`` for ``play``; ``member`` and ``answer`` for
    ``answer`` (``consent`` takes ``answer`` yes/no); ``members`` for ``box_double``
    (individual: whose cubes; default every cube the box may turn); ``value`` for
    ``choose_double``; ``member`` and ``points`` for ``offer_settlement`` (the box);
    ``other``, ``backs`` (``team`` or ``box``), ``stake`` and ``price`` for
    ``offer_extra``; ``offer`` (its index) and ``answer`` (accept or refuse) for
    ``answer_extra``."""
    me = _player_of(by)
    if action not in ACTIONS:
        raise ValidationFailed("invalid_action", _("Unknown action."))
    at = at or wallclock.now()
    dice = dice if dice is not None else SYSTEM_DICE  # looked up now: tests script it
    online_game_alarm(game_id=game_id, at=at)  # a window or a clock already out: first
    with transaction.atomic():
        session, game = _lock_session_of_game(game_id)
        _check_playing(game)
        _check_version(game, expected_version)
        table = _present(session, Table.from_dict(game.table))
        actor, pressed = _actor(session, table, me, as_player)
        if pressed != actor and action not in ("answer", "consent"):
            raise PermissionDenied(
                "proxy_answers_only", _("A proxy answers cube decisions; the member plays.")
            )
        data: dict[str, Any] = {}
        try:
            if action == "roll":
                if not table.may_roll(actor):
                    table.roll(actor, 1, 1)  # raises the refusal (nothing is drawn)
                    raise Conflict("not_your_turn", _online_message("not_your_turn"))
                d1, d2 = roll_die(dice), roll_die(dice)
                data = {"dice": [d1, d2]}
                after = table.roll(actor, d1, d2)
            elif action == "play":
                if not isinstance(position_id, str) or not position_id:
                    raise ValidationFailed("invalid_play", _("Choose a play."))
                chosen = _legal_play(table, position_id)
                after = table.play(actor, position_id)
                rolled = list(table.board.dice or ())
                data = {"position_id": position_id, "play": chosen, "dice": rolled}
            elif action == "choose_double":
                after = table.choose_double(actor, _whole(value, "value"))
                data = {"value": value}
            elif action == "propose_double":
                after = table.propose_double(actor)
            elif action == "consent":
                after = table.consent(actor, _text(answer))
                data = {"answer": answer}
            elif action == "double":
                after = table.member_double(actor)
            elif action == "box_double":
                if actor != table.box:
                    raise Conflict("not_your_turn", _("Only the box doubles the team."))
                targets = None if members is None else [_whole(m, "members") for m in members]
                after = table.box_double(targets)
                doubled = [m.player for m in after.cubes if m.pending == "box_doubled"]
                data = {"members": doubled}
            elif action == "offer_settlement":
                target = _whole(member, "member")
                after = table.offer_settlement(actor, target, _whole(points, "points"))
                data = {"member": target, "points": points}
            elif action == "offer_extra":
                partner = _whole(other, "other")
                after = table.offer_extra(
                    actor,
                    partner,
                    backs=_text(backs),
                    stake=_whole(stake, "stake"),
                    price=0 if price is None else _whole(price, "price"),
                )
                data = {"other": partner, "backs": backs, "stake": stake, "price": price or 0}
            elif action == "answer_extra":
                reply = _text(answer)
                if reply not in ("accept", "refuse"):
                    raise ValidationFailed("invalid_answer", _online_message("invalid_answer"))
                index = _whole(offer, "offer")
                extra = None
                if 0 <= index < len(table.extra_offers):
                    extra = table.extra_offers[index][1].to_dict()
                after = table.answer_extra(actor, index, reply == "accept")
                data = {"offer": index, "answer": reply, "extra": extra}
            else:  # answer
                target = _whole(member if member is not None else actor, "member")
                after = table.answer(actor, target, _text(answer))
                data = {"member": target, "answer": answer}
        except rules.ChouetteError as exc:
            raise _rule_error(exc) from None
        _store(
            session,
            game,
            table,
            after,
            kind=action,
            actor=actor,
            by_player=pressed,
            data=data,
            at=at,
        )
    return game


def _legal_play(table: Table, wanted: str) -> str:
    for play in table.board.legal_plays():
        if position_id(play.result) == wanted:
            return format_play(play)
    raise ValidationFailed("illegal_play", _("That play is not legal with these dice."))


def _whole(value: Any, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValidationFailed(f"invalid_{field}", _("A whole number is needed here."))
    return value


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise ValidationFailed("invalid_answer", _("That is not an answer to this decision."))
    return value


def _store(
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
    row = _log(game, kind=kind, actor=actor, by_player=by_player, data=data, at=at)
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
        _set_alarm(session, game, after)
    game.save(update_fields=fields)
    live.game_changed(game, row, session_id=session.pk)


def _asked(table: Table) -> set[tuple[Any, str]]:
    return {(d.member, d.kind) for d in table.decisions}


# ====================================================================== timers
def online_game_alarm(
    *, game_id: int, version: int | None = None, at: datetime | None = None
) -> str:
    """Act on what is due in a game: a cube decision's window that ran out (every open
    decision takes its default) or a move clock that flagged (R12: the game ends, a
    gammon for the other side). ``version``: what the timer was armed for. Safe to run
    twice: ``stale`` when the game moved on or ended, ``not_due`` before its time."""
    at = at or wallclock.now()
    # One cheap read first: every page and every action asks, and mostly nothing is due.
    found = (
        ChouetteOnlineGame.objects.filter(pk=game_id)
        .values_list("status", "version", "alarm_at")
        .first()
    )
    if found is None or found[0] != ChouetteOnlineGame.Status.PLAYING:
        return "stale"
    if version is not None and found[1] != version:
        return "stale"
    if found[2] is None or found[2] > at:
        return "not_due"
    with transaction.atomic():
        session, game = _lock_session_of_game(game_id)
        if not game.is_playing or (version is not None and game.version != version):
            return "stale"
        if game.alarm_at is None or game.alarm_at > at:
            return "not_due"
        table = _present(session, Table.from_dict(game.table))
        at_ms = wallclock.to_ms(at)
        decision_due = _decision_deadline(session, game, table)
        if decision_due is not None and decision_due <= at:
            seconds = online_selectors.window_seconds(session, table)
            if table.decisions:
                answered = [(d.member, d.kind) for d in table.decisions]
                default = session.decision_default
                after, given = table.defaults_applied(default)  # type: ignore[arg-type]
                _store(
                    session,
                    game,
                    table,
                    after,
                    kind="defaults",
                    actor=None,
                    by_player=None,
                    data={
                        "rule": "decision_window",
                        "seconds": seconds,
                        "default": default,
                        "decisions": [[m, k] for m, k in answered],
                        "answers": [list(a) for a in given],
                    },
                    at=at,
                )
                return "defaults"
            side = table.unmanned
            if side is not None:
                after = table.forfeit(side)
                _store(
                    session,
                    game,
                    table,
                    after,
                    kind="forfeit",
                    actor=None,
                    by_player=None,
                    data={
                        "rule": "away_window",
                        "seconds": seconds,
                        "side": side,
                        "result": "gammon",
                    },
                    at=at,
                )
                return "forfeit"
        if game.clock is not None:
            clock = ClockState.from_dict(game.clock)
            flagged = clock.flagged_player(at_ms)
            if flagged is not None:
                side_name = "box" if flagged == BOX else "team"
                after = table.flag(side_name)
                _store(
                    session,
                    game,
                    table,
                    after,
                    kind="flag",
                    actor=table.box if flagged == BOX else table.acting_captain,
                    by_player=None,
                    data={"rule": "move_clock", "side": side_name, "result": "gammon"},
                    at=at,
                )
                return "flagged"
        _set_alarm(session, game, table)
        game.save(update_fields=["alarm_at"])
        return "not_due"


def online_presence_changed(*, session: ChouetteSession, at: datetime | None = None) -> None:
    """A player of the session named or cleared a proxy (away or back,
    :func:`chouette.services.proxies.participant_proxy_set`, in its transaction, the session
    locked): the game being played takes the new away list at once, with a log row
    (``away``: who left, who came back), so a side nobody at the table moves for starts
    its window now and a member back at the table moves again."""
    at = at or wallclock.now()
    game = (
        ChouetteOnlineGame.objects.select_for_update()
        .filter(session=session, status=ChouetteOnlineGame.Status.PLAYING)
        .first()
    )
    if game is None:
        return
    table = Table.from_dict(game.table)
    after = _present(session, table)
    if after.away == table.away:
        return
    proxies = chouette_selectors.session_proxies(session)
    data = {
        "away": [[p, proxies.get(p)] for p in after.away if p not in table.away],
        "back": [p for p in table.away if p not in after.away],
    }
    _store(session, game, table, after, kind="away", actor=None, by_player=None, data=data, at=at)


def online_sweep_alarms(*, at: datetime | None = None, limit: int = 200) -> int:
    """Act on every overdue alarm and arm the near ones: the backstop of lost timers
    (Celery beat, every 2 s). Returns how many games were acted on."""
    at = at or wallclock.now()
    overdue = list(
        ChouetteOnlineGame.objects.filter(
            status=ChouetteOnlineGame.Status.PLAYING, alarm_at__lte=at
        ).values_list("pk", flat=True)[:limit]
    )
    acted = 0
    for pk in overdue:
        if online_game_alarm(game_id=pk, at=at) not in ("stale", "not_due"):
            acted += 1
    near = ChouetteOnlineGame.objects.filter(
        status=ChouetteOnlineGame.Status.PLAYING,
        alarm_at__gt=at,
        alarm_at__lte=at + background.ARM_WINDOW,
    ).values_list("pk", "version", "alarm_at")[:limit]
    if background.celery_timers():
        for pk, version, alarm_at in near:
            try:
                background.task(ONLINE_ALARM).apply_async((pk, version), eta=alarm_at)
            except Exception:  # the next sweep tries again
                log.exception("could not arm the online chouette alarm of game %s", pk)
    return acted


# ====================================================================== abandon
def online_game_abandon(
    *, game_id: int, by: Any, expected_version: int | None = None, at: datetime | None = None
) -> ChouetteOnlineGame:
    """Stop a game that can't be finished (the players had to leave): nothing goes to the
    ledger, the seating stays. A writer of the session may."""
    at = at or wallclock.now()
    with transaction.atomic():
        session, game = _lock_session_of_game(game_id)
        if not may_write(by, session):
            raise PermissionDenied("not_in_session", NOT_IN_SESSION)
        _check_playing(game)
        _check_version(game, expected_version)
        game.version += 1
        game.status = ChouetteOnlineGame.Status.ABANDONED
        game.ended_at = at
        game.alarm_at = None
        me = Player.of_user(by)
        row = _log(game, kind="abandon", actor=None if me is None else me.pk, at=at)
        game.save(update_fields=["version", "status", "ended_at", "alarm_at"])
        session.version += 1
        session.save(update_fields=["version"])
        live.game_changed(game, row, session_id=session.pk)
    return game


# ====================================================================== the team's chat
def online_team_message_post(
    *, game_id: int, by: Any, text: str = "", play: str = "", at: datetime | None = None
) -> ChouetteTeamMessage:
    """A member of the team writes to the team (``text``) or suggests a play (``play``,
    its Position ID: one of the legal plays of the dice rolled). The box and the partner
    never see it; droppers still consult."""
    me = _player_of(by)
    at = at or wallclock.now()
    if not isinstance(text, str) or not isinstance(play, str):
        raise ValidationFailed("invalid_message", _("Write a message or choose a play."))
    text = " ".join(text.split())
    if len(text) > TEAM_MESSAGE_LENGTH:
        raise ValidationFailed(
            "message_too_long",
            _("A message has at most %(max)d characters.") % {"max": TEAM_MESSAGE_LENGTH},
        )
    with transaction.atomic():
        game = _lock_session_of_game(game_id)[1]
        _check_playing(game)
        table = Table.from_dict(game.table)
        if me.pk not in table.members:
            raise PermissionDenied("not_in_team", _("Only the team reads and writes here."))
        notation = ""
        if play:
            if table.board.phase != "move" or table.board.turn != TEAM:
                raise Conflict("nothing_to_suggest", _("There is no team play to suggest now."))
            notation = _legal_play(table, play)
        if not text and not notation:
            raise ValidationFailed("invalid_message", _("Write a message or choose a play."))
        message = ChouetteTeamMessage.objects.create(
            game=game, author=me, text=text, play=notation, created_at=at
        )
        live.team_changed(game.pk)
    return message


# ====================================================================== settings
def online_settings_update(
    *,
    session_id: int,
    by: Any,
    decision_seconds: int,
    decision_default: str,
    clock_preset: str = "",
    expected_version: int | None = None,
) -> ChouetteSession:
    """The session's settings for online play: the cube decision's time window (0 = no
    limit, at most :data:`~chouette.models.MAX_DECISION_SECONDS`), what an unanswered
    double becomes (``take`` or ``drop``) and the R12 move clock of box and captain (a
    preset's name, or empty for none). Changed between games only: a game being played
    keeps the settings it started with for its clock."""
    if isinstance(decision_seconds, bool) or not isinstance(decision_seconds, int):
        raise ValidationFailed("invalid_decision_seconds", _("A whole number of seconds."))
    if not 0 <= decision_seconds <= MAX_DECISION_SECONDS:
        raise ValidationFailed(
            "invalid_decision_seconds",
            _("A cube decision has 0 (no limit) to %(max)d seconds.")
            % {"max": MAX_DECISION_SECONDS},
        )
    if decision_default not in ("take", "drop"):
        raise ValidationFailed(
            "invalid_decision_default", _("An unanswered double is taken or dropped.")
        )
    clock = None
    if clock_preset:
        if not isinstance(clock_preset, str) or clock_preset not in PRESETS:
            raise ValidationFailed("invalid_clock", _("Unknown clock preset."))
        clock = settings_to_dict(PRESETS[clock_preset])
    with transaction.atomic():
        session = lock_for_write(session_id=session_id, by=by, expected_version=expected_version)
        if session.online_games.filter(status=ChouetteOnlineGame.Status.PLAYING).exists():
            raise Conflict(
                "online_game_in_progress",
                _("A game is being played: change the settings after it."),
            )
        session.decision_seconds = decision_seconds
        session.decision_default = decision_default
        session.online_clock = clock
        session.version += 1
        session.save(
            update_fields=["decision_seconds", "decision_default", "online_clock", "version"]
        )
        chouette_live.session_changed(session.pk)
    return session


def clock_preset_of(session: ChouetteSession) -> str:
    """The name of the preset the session's online clock is (empty: none or custom)."""
    if not session.online_clock:
        return ""
    for name, preset in PRESETS.items():
        if settings_to_dict(preset) == session.online_clock:
            return name
    return ""

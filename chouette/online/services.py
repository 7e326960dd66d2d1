"""Writes of online chouette play: start a game, every action, abandon, the team's chat,
the online settings (the timers: :mod:`chouette.online.alarms`).

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
* The **time window** of a cube decision, the R12 **move clock** of box and captain and
  the away window are stored deadlines acted on by :mod:`chouette.online.alarms`
  (:func:`~chouette.online.alarms.online_game_alarm`, which every action calls first).
* **Away** (docs/rules.md R13, "Played online"): a player who named a proxy has left
  the table; every step rebuilds the table with the session's away players
  (:meth:`Table.with_away`), so the next member at the table moves for the team, and a
  proxy named or cleared mid-game reaches the game at once
  (:func:`~chouette.online.alarms.online_presence_changed`, a log row ``away``). A side
  nobody at the table moves for has a window too
  (:func:`chouette.online.selectors.window_deadline`) and forfeits when it runs out (a
  log row ``forfeit``).
* Every step is stored by :func:`chouette.online.steps.store_step`; when the game ends,
  its entry goes to :func:`chouette.services.games.game_record_locked` in the same
  transaction: the same settlement, zero-sum check and ledger as a game typed in; undo
  works on it as on any.
* :func:`online_team_message_post`: a team member writes to the team (or suggests a play);
  the box never sees it (its topic is the team's only, :mod:`chouette.online.live`).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from chouette import live as chouette_live
from chouette import rules
from chouette.messages import rule_message
from chouette.models import (
    MAX_DECISION_SECONDS,
    TEAM_MESSAGE_LENGTH,
    ChouetteOnlineGame,
    ChouetteSession,
    ChouetteTeamMessage,
)
from chouette.online import live
from chouette.online import selectors as online_selectors
from chouette.online.alarms import online_game_alarm
from chouette.online.steps import (
    check_playing,
    check_version,
    clock_side,
    lock_session_of_game,
    log_action,
    online_message,
    player_of,
    present,
    rule_error,
    set_alarm,
    store_step,
)
from chouette.online.table import TEAM, Table, table_new
from chouette.services.common import NOT_IN_SESSION, lock_for_write, may_write
from chouette.stored import profile_of
from games import wallclock
from games.engine.clock import PRESETS, ClockState, settings_from_dict, settings_to_dict
from games.engine.errors import EngineError
from games.engine.notation import format_play
from games.engine.position import position_id
from games.errors import Conflict, PermissionDenied, ValidationFailed
from games.models import Player
from games.play.dice import SYSTEM_DICE, DiceSource, roll_die

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
        table = present(
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
                    player=clock_side(table),
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
        row = log_action(game, kind="opening_roll", actor=None, data={"rolls": rolls}, at=at)
        set_alarm(session, game, table)
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
    me = player_of(by)
    if action not in ACTIONS:
        raise ValidationFailed("invalid_action", _("Unknown action."))
    at = at or wallclock.now()
    dice = dice if dice is not None else SYSTEM_DICE  # looked up now: tests script it
    online_game_alarm(game_id=game_id, at=at)  # a window or a clock already out: first
    with transaction.atomic():
        session, game = lock_session_of_game(game_id)
        check_playing(game)
        check_version(game, expected_version)
        table = present(session, Table.from_dict(game.table))
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
                    raise Conflict("not_your_turn", online_message("not_your_turn"))
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
                    raise ValidationFailed("invalid_answer", online_message("invalid_answer"))
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
            raise rule_error(exc) from None
        store_step(
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


# ====================================================================== abandon
def online_game_abandon(
    *, game_id: int, by: Any, expected_version: int | None = None, at: datetime | None = None
) -> ChouetteOnlineGame:
    """Stop a game that can't be finished (the players had to leave): nothing goes to the
    ledger, the seating stays. A writer of the session may."""
    at = at or wallclock.now()
    with transaction.atomic():
        session, game = lock_session_of_game(game_id)
        if not may_write(by, session):
            raise PermissionDenied("not_in_session", NOT_IN_SESSION)
        check_playing(game)
        check_version(game, expected_version)
        game.version += 1
        game.status = ChouetteOnlineGame.Status.ABANDONED
        game.ended_at = at
        game.alarm_at = None
        me = Player.of_user(by)
        row = log_action(game, kind="abandon", actor=None if me is None else me.pk, at=at)
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
    me = player_of(by)
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
        game = lock_session_of_game(game_id)[1]
        check_playing(game)
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

"""Writes of the shared core: create and start matches, and every game action.

Each service is one transaction. A game action follows the house pattern
(docs/architecture.md) -- check the version the client acted on, rebuild the engine state from
the stored snapshot, let the pure engine decide, then store the new snapshot, one
append-only log row and the bumped version -- with one change of order, measured for
speed (``bench/moves.py``): the game row is read without a lock, and the write is a
compare-and-set, ``UPDATE ... WHERE id = %s AND version = %s``, that takes the row lock.
Two actions made against the same version are still serialised by that lock and the
version: the second ``UPDATE`` waits for the first to commit, then finds the version moved
and changes nothing (409 ``stale_version``). On PostgreSQL the update and the log row are
one statement, so an ordinary action costs two round trips (read, write) instead of five.
When a game ends, the match score moves on (R10, R11) and the next game starts with its
opening roll, in the same transaction as the game's last write. A refused action raises an
:class:`~games.errors.ApplicationError` and so changes nothing. The game row's read, its
compare-and-set write and a new game's creation are :mod:`games.play.gamestore`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import wallclock
from games.engine import actions as engine_actions
from games.engine.actions import Action, ActionKind
from games.engine.clock import (
    ClockSettings,
    ClockState,
    preset,
    settings_from_dict,
    settings_to_dict,
)
from games.engine.errors import EngineError
from games.engine.game import GameState, apply_result
from games.engine.match import MatchState
from games.engine.notation import format_play, parse_play
from games.engine.position import position_id
from games.errors import Conflict, NotFound, PermissionDenied, ValidationFailed
from games.models import Game, GameAction, Match, MatchInvitation, Player
from games.play import clock as game_clock
from games.play import live, notices
from games.play.dice import SYSTEM_DICE, DiceSource, roll_die
from games.play.gamestore import (
    game_begin,
    game_for_action,
    game_row_values,
    game_store,
    stale_version,
)
from games.play.messages import engine_message
from games.players import services as players
from games.ratings import services as ratings
from games.signals import bot_game_changed, match_finished

#: Longest match a club plays; the engine's Match ID holds up to 32767.
MAX_MATCH_LENGTH = 25


def _engine_error(exc: EngineError) -> ValidationFailed:
    if exc.field is not None:  # e.g. a clock setting out of range: say which one
        return ValidationFailed(
            exc.code,
            _("This clock setting is not valid: %(field)s.") % {"field": exc.field},
            extra={"reason": exc.message, "field": exc.field},
        )
    return ValidationFailed(exc.code, engine_message(exc.code), extra={"reason": exc.message})


# ====================================================================== matches
def match_create(
    *,
    player1: Player,
    player2: Player,
    length: int,
    rules: Mapping[str, Any] | None = None,
    clock: str | Mapping[str, Any] | None = None,
    timeout_claim: bool = True,
    created_by: Any = None,
    played_for: str = "",
) -> Match:
    """A new match (``length`` points, 0 = money session) with its rules frozen.
    ``clock``: a preset name (``seed002``, ``usbgf``, ...), custom clock settings, or
    ``None`` for no clock (R12); ``timeout_claim``: a win on time must be claimed.
    ``played_for``: the key of what the match is played for (``Match.played_for``; the
    app that owns it rates it), empty for a casual match (rated as an online result)."""
    if player1.pk == player2.pk:
        raise ValidationFailed("same_player", _("A player cannot play against themselves."))
    if not (player1.is_active and player2.is_active):
        raise ValidationFailed("inactive_player", _("Both players must be active members."))
    if not 0 <= length <= MAX_MATCH_LENGTH:
        raise ValidationFailed(
            "invalid_length",
            _("A match is played to 1 to %(max)d points (0 for money play).")
            % {"max": MAX_MATCH_LENGTH},
        )
    match_state = MatchState.money() if length == 0 else MatchState.new(length)
    try:
        options = engine_actions.options_from_dict(dict(rules or {}))
        if match_state.is_money is False:
            match_state.check_options(options)
        clock_settings = _clock_settings(clock)
    except EngineError as exc:
        raise _engine_error(exc) from None
    return Match.objects.create(
        player1=player1,
        player2=player2,
        length=length,
        rules=engine_actions.options_to_dict(options),
        state=engine_actions.match_to_dict(match_state),
        clock=None if clock_settings is None else settings_to_dict(clock_settings),
        timeout_claim=timeout_claim,
        created_by=created_by,
        played_for=played_for,
    )


def _clock_settings(clock: str | Mapping[str, Any] | None) -> ClockSettings | None:
    if clock is None or clock == "":
        return None
    if isinstance(clock, str):
        return preset(clock)
    return settings_from_dict(clock)


def match_arrange(
    *,
    player1: Player,
    player2: Player,
    start: bool,
    length: int,
    rules: Mapping[str, Any] | None = None,
    clock: str | Mapping[str, Any] | None = None,
    timeout_claim: bool = True,
    created_by: Any = None,
) -> Match:
    """A match staff arrange between two players, as a director does (the API's
    ``POST /api/v1/matches/`` and the lobby's form for staff): no invitation; created
    and, with ``start``, started in one transaction, so a start that is refused leaves no
    match. Staff need no player of their own for it. The computer opponent plays only a
    member who invites it (400 ``bot_invitation_only``)."""
    for field, player in (("player1", player1), ("player2", player2)):
        if player.bot:
            raise ValidationFailed(
                "bot_invitation_only",
                _("The computer opponent plays only a member who invites it."),
                extra={"field": field},
            )
    with transaction.atomic():
        match = match_create(
            player1=player1,
            player2=player2,
            length=length,
            rules=rules,
            clock=clock,
            timeout_claim=timeout_claim,
            created_by=created_by,
        )
        if start:
            match_start(match_id=match.pk)
    return match


def match_start(*, match_id: int, by: Player | None = None, dice: DiceSource = SYSTEM_DICE) -> Game:
    """Start a waiting match: game 1 and its opening roll (R3). ``by`` (when given)
    must be one of the match's players. A match its invitee has not accepted yet waits
    for that (409 ``invitation_pending``: accepting starts it, games.play.invitations)."""
    with transaction.atomic():
        try:
            match = Match.objects.select_for_update().get(pk=match_id)
        except Match.DoesNotExist:
            raise NotFound("match_not_found", _("There is no match with this id.")) from None
        if by is not None and match.player_index(by.pk) is None:
            raise PermissionDenied("not_a_player", _("Only the match's players may do this."))
        if match.status == Match.Status.CANCELLED:
            raise Conflict(
                "match_called_off",
                _("This match was called off: its invitation was declined or withdrawn."),
            )
        if match.status != Match.Status.WAITING:
            raise Conflict("match_already_started", _("This match has already started."))
        # Read under the match's lock, which every answer to an invitation takes first.
        if MatchInvitation.objects.filter(
            match=match, status=MatchInvitation.Status.PENDING
        ).exists():
            raise Conflict(
                "invitation_pending",
                _("The invited player has not accepted yet: the match starts when they do."),
            )
        match.status = Match.Status.PLAYING
        match.started_at = timezone.now()
        match.save(update_fields=["status", "started_at"])
        options = engine_actions.options_from_dict(match.rules)
        return game_begin(
            match=match,
            number=1,
            options=options,
            match_state=engine_actions.match_from_dict(match.state),
            dice=dice,
            previous_clock=None,
        )


def match_end_session(*, match_id: int, by: Player) -> Match:
    """End a money session between games (either player may). The session's current
    game must not have been played beyond its opening roll; it is kept, marked ``void``,
    so the append-only log stays whole. The winner is whoever is ahead, none when even."""
    with transaction.atomic():
        try:
            match = Match.objects.select_for_update().get(pk=match_id)
        except Match.DoesNotExist:
            raise NotFound("match_not_found", _("There is no match with this id.")) from None
        if match.player_index(by.pk) is None:
            raise PermissionDenied("not_a_player", _("Only the match's players may do this."))
        if not match.is_money:
            raise ValidationFailed(
                "not_money_session", _("Only a money session can be ended; a match is played out.")
            )
        if match.status != Match.Status.PLAYING:
            raise Conflict("match_not_playing", _("This session is not being played."))
        game = Game.objects.select_for_update().filter(match=match).order_by("-number").first()
        if game is not None and (
            game.is_over or game.actions.exclude(kind="opening_roll").exists()
        ):
            # Locked, so no action can land between this check and the update below;
            # one that read the game earlier fails its compare-and-set on is_over.
            raise Conflict(
                "game_in_progress",
                _("A game is under way: finish it (or resign) before ending the session."),
            )
        now = timezone.now()
        if game is not None:
            game.is_over = True
            game.result_kind = Game.VOID
            game.finished_at = now
            game.save(update_fields=["is_over", "result_kind", "finished_at"])
        match.status = Match.Status.FINISHED
        match.finished_at = now
        if match.score1 != match.score2:
            match.winner_id = match.player1_id if match.score1 > match.score2 else match.player2_id
        match.save(update_fields=["status", "finished_at", "winner"])
        if match.score1 or match.score2:  # a session ended before any game: none played
            _switch_sides(match)
        live.publish_match_changed(match_id=match.pk)
    return match


def _switch_sides(match: Match) -> None:
    """Seed 000: the players of a match just finished who asked for it get their home
    board on the other side (in the finishing transaction: both or neither)."""
    players.players_switch_sides(player_ids=[match.player1_id, match.player2_id])


# ====================================================================== game actions
@dataclass(frozen=True)
class ActionOutcome:
    """What a game action did: the game after it, the logged action, and the next game
    when this one ended and the match goes on."""

    game: Game
    action: GameAction
    next_game: Game | None = None
    state: GameState | None = None


def _game_act(
    *,
    game_id: int,
    player: Player,
    expected_version: int,
    build: Callable[[GameState, int], Action],
    dice: DiceSource = SYSTEM_DICE,
) -> ActionOutcome:
    """The one path of every game action (see the module docstring)."""
    game = game_for_action(game_id)
    index = game.match.player_index(player.pk)
    if index is None:
        raise PermissionDenied("not_a_player", _("Only the match's players may do this."))
    if game.version != expected_version:
        raise stale_version(game.version)
    if game.result_kind == Game.VOID:
        raise Conflict("session_ended", _("This money session has ended."))
    now = wallclock.now()
    try:
        state = engine_actions.state_from_dict(game.state)
    except EngineError as exc:
        raise _engine_error(exc) from None
    clock = None if game.clock is None else ClockState.from_dict(game.clock)
    if (
        clock is not None
        and state.flagged is None
        and clock.flagged_player(wallclock.to_ms(now)) is not None
    ):
        # R12: someone's time is up; the flag is being recorded (timer, sweeper or the
        # next read). Nothing else may happen in this game but the claim that follows.
        raise Conflict(
            "out_of_time",
            _("Time is up in this game: reload to see the result or claim the win."),
        )
    try:
        action = build(state, index)
        after = engine_actions.apply_action(state, action)
    except EngineError as exc:
        raise _engine_error(exc) from None

    values = game_row_values(after, version=expected_version + 1)
    if clock is not None:
        at_ms = wallclock.to_ms(now)
        if after.result is None:
            clock = game_clock.clock_after(clock, to_player=after.player_to_act, at_ms=at_ms)
        else:
            clock = clock.end_game(at_ms)
        values.update(game_clock.clock_columns(clock, version=expected_version + 1, at=now))
    next_game = None
    if after.result is None:
        (logged,) = game_store(
            game=game,
            expected_version=expected_version,
            values=values,
            actions=[action],
            actor=player,
            now=now,
        )
        live.publish_actions(game=game, rows=[logged])
    else:
        values["finished_at"] = now
        with transaction.atomic():
            (logged,) = game_store(
                game=game,
                expected_version=expected_version,
                values=values,
                actions=[action],
                actor=player,
                now=now,
            )
            live.publish_actions(game=game, rows=[logged])
            # Only the writer that won the compare-and-set gets here; the lock keeps
            # the match row in step with match_end_session.
            match = Match.objects.select_for_update().get(pk=game.match_id)
            next_game = _match_advance(
                match=match,
                state=after,
                dice=dice,
                previous_clock=clock,
                after=[game.number, logged.seq],
            )
            game.match = match
    if values.get("armed_version") is not None:
        game_clock.arm_on_commit(game.pk, values["version"], values["alarm_at"])
    for field, value in values.items():
        setattr(game, field, value)
    notices.after_action(game=game, action=action, state=after, next_game=next_game)
    if game.match.bot_level and next_game is None:  # a next game sent its own, when begun
        bot_game_changed.send(
            sender=Game, game_id=game.pk, version=values["version"], match_id=game.match_id
        )
    return ActionOutcome(game=game, action=logged, next_game=next_game, state=after)


def _match_advance(
    *,
    match: Match,
    state: GameState,
    dice: DiceSource = SYSTEM_DICE,
    previous_clock: ClockState | None = None,
    after: list[int] | None = None,
) -> Game | None:
    """Record a finished game in the match (R10, R11) and start the next game unless
    the match is over. A money session goes on game after game until a player ends it
    between games. ``after``: the live position of the finished game's last action."""
    assert state.result is not None
    match_state = apply_result(state.match, state.result)
    match.state = engine_actions.match_to_dict(match_state)
    match.score1, match.score2 = match_state.score
    fields = ["state", "score1", "score2"]
    next_game = None
    if match_state.is_over:
        match.status = Match.Status.FINISHED
        match.winner_id = match.player1_id if match_state.winner == 0 else match.player2_id
        match.finished_at = timezone.now()
        fields += ["status", "winner", "finished_at"]
    else:
        options = engine_actions.options_from_dict(match.rules)
        next_game = game_begin(
            match=match,
            number=match.games.count() + 1,
            options=options,
            match_state=match_state,
            dice=dice,
            previous_clock=previous_clock,
            after=after,
        )
    match.save(update_fields=fields)
    if match.status == Match.Status.FINISHED:
        # A casual match is rated now (a tournament's is rated by its app, through the
        # signal): in this transaction, so a finished match and its rating go together.
        ratings.rating_record_online(match=match)
        _switch_sides(match)
        match_finished.send(sender=Match, match=match)
    return next_game


def _simple(kind: ActionKind, /, **data: Any) -> Callable[[GameState, int], Action]:
    def build(state: GameState, index: int) -> Action:
        return Action(kind, index, data)

    return build


def game_roll(
    *, game_id: int, player: Player, expected_version: int, dice: DiceSource = SYSTEM_DICE
) -> ActionOutcome:
    """Roll the server's dice for ``player`` (R14). With no legal move the turn passes
    at once (R6)."""

    def build(state: GameState, index: int) -> Action:
        # Draw only when the engine would accept a roll now, so a refused roll never
        # consumes dice (a scripted source stays in step).
        if state.phase == "roll" and state.player_to_act == index and state.resignation is None:
            return Action("roll", index, {"dice": [roll_die(dice), roll_die(dice)]})
        return Action("roll", index, {"dice": [1, 1]})  # refused by the engine below

    return _game_act(
        game_id=game_id, player=player, expected_version=expected_version, build=build, dice=dice
    )


def game_play(
    *,
    game_id: int,
    player: Player,
    expected_version: int,
    play: str = "",
    result_position_id: str = "",
    dice: DiceSource = SYSTEM_DICE,
) -> ActionOutcome:
    """Play the rolled dice: ``play`` in notation (``24/18 13/10*``) or the resulting
    ``result_position_id``. Final once submitted (R14)."""

    def build(state: GameState, index: int) -> Action:
        if state.phase != "move" or state.player_to_act != index or state.dice is None:
            return Action("play", index, {})  # the engine names what is wrong
        if result_position_id:
            for legal in state.legal_plays():
                if position_id(legal.result) == result_position_id:
                    return _play_action(index, format_play(legal), result_position_id)
            raise EngineError("illegal_play", "no legal play gives that position")
        if not play.strip():
            raise EngineError("invalid_notation", "a play is required")
        chosen = parse_play(
            state.position,
            play,
            *state.dice,
            max_checkers_per_point=state.options.max_checkers_per_point,
            min_pip_waste=state.options.min_pip_waste,
        )
        return _play_action(index, format_play(chosen), position_id(chosen.result))

    return _game_act(
        game_id=game_id, player=player, expected_version=expected_version, build=build, dice=dice
    )


def _play_action(index: int, notation: str, result: str) -> Action:
    return Action("play", index, {"play": notation, "position_id": result})


def game_choose_double(
    *, game_id: int, player: Player, expected_version: int, value: int
) -> ActionOutcome:
    """Acey-Deucey (R3): name the double to play after a 1-2."""
    return _game_act(
        game_id=game_id,
        player=player,
        expected_version=expected_version,
        build=_simple("choose_double", value=value),
    )


def cube_offer(*, game_id: int, player: Player, expected_version: int) -> ActionOutcome:
    """Double (R8; refused in the Crawford game, R11)."""
    return _game_act(
        game_id=game_id, player=player, expected_version=expected_version, build=_simple("double")
    )


def cube_take(
    *, game_id: int, player: Player, expected_version: int, dice: DiceSource = SYSTEM_DICE
) -> ActionOutcome:
    return _game_act(
        game_id=game_id,
        player=player,
        expected_version=expected_version,
        build=_simple("take"),
        dice=dice,
    )


def cube_drop(
    *, game_id: int, player: Player, expected_version: int, dice: DiceSource = SYSTEM_DICE
) -> ActionOutcome:
    """Refuse a double: the game ends, the doubler wins the cube before the double."""
    return _game_act(
        game_id=game_id,
        player=player,
        expected_version=expected_version,
        build=_simple("drop"),
        dice=dice,
    )


def cube_beaver(*, game_id: int, player: Player, expected_version: int) -> ActionOutcome:
    """Take and redouble at once, keeping the cube (R8, money play with beavers)."""
    return _game_act(
        game_id=game_id, player=player, expected_version=expected_version, build=_simple("beaver")
    )


def resign_offer(
    *,
    game_id: int,
    player: Player,
    expected_version: int,
    kind: str | None = None,
    dice: DiceSource = SYSTEM_DICE,
) -> ActionOutcome:
    """Resign (R9): in ``offer`` mode an offer of ``kind`` the opponent answers; in
    ``seed002`` mode the game ends at once."""
    data = {} if kind is None else {"kind": kind}
    return _game_act(
        game_id=game_id,
        player=player,
        expected_version=expected_version,
        build=_simple("resign", **data),
        dice=dice,
    )


def resign_accept(
    *, game_id: int, player: Player, expected_version: int, dice: DiceSource = SYSTEM_DICE
) -> ActionOutcome:
    return _game_act(
        game_id=game_id,
        player=player,
        expected_version=expected_version,
        build=_simple("accept_resignation"),
        dice=dice,
    )


def game_claim_timeout(
    *, game_id: int, player: Player, expected_version: int, dice: DiceSource = SYSTEM_DICE
) -> ActionOutcome:
    """R12: the opponent's time ran out (their ``timeout`` is logged); claim the win,
    scored per the match's ``timeout_result``."""
    return _game_act(
        game_id=game_id,
        player=player,
        expected_version=expected_version,
        build=_simple("claim_timeout"),
        dice=dice,
    )


def resign_decline(*, game_id: int, player: Player, expected_version: int) -> ActionOutcome:
    return _game_act(
        game_id=game_id,
        player=player,
        expected_version=expected_version,
        build=_simple("decline_resignation"),
    )


def game_flag(
    *, game: Game, state: GameState, clock: ClockState, flagged: int, at: datetime
) -> None:
    """Record that player ``flagged`` ran out of time (R12): log the engine's ``timeout``
    (and, when the match needs no claim, the opponent's ``claim_timeout``), stop the
    clock, tell both players, and move the match on when the game ended. Called by the
    alarms (:mod:`games.play.alarms`) under the game's row lock, which they took."""
    at_ms = wallclock.to_ms(at)
    log_rows = [Action("timeout", flagged, {})]
    after = engine_actions.apply_action(state, log_rows[0])
    match = game.match
    if not match.timeout_claim:
        claim = Action("claim_timeout", 1 - flagged, {})
        after = engine_actions.apply_action(after, claim)
        log_rows.append(claim)
    stopped = clock.record_flag(at_ms).end_game(at_ms)
    values = game_row_values(after, version=game.version + len(log_rows))
    values.update(clock=stopped.to_dict(), deadline_at=None, alarm_at=None, armed_version=None)
    if after.result is not None:
        values["finished_at"] = at
    # Under our row lock the compare-and-set cannot fail.
    logged = game_store(
        game=game,
        expected_version=game.version,
        values=values,
        actions=log_rows,
        actor=None,
        now=at,
    )
    live.publish_actions(game=game, rows=logged)
    for field, value in values.items():
        setattr(game, field, value)
    notices.lost_on_time(game=game, player_index=flagged, claim_needed=match.timeout_claim)
    if after.result is not None:
        locked = Match.objects.select_for_update().get(pk=match.pk)
        _match_advance(
            match=locked,
            state=after,
            previous_clock=stopped,
            after=[game.number, values["version"]],
        )
        notices.match_over(match=locked)

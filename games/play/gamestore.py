"""A game's row as stored, below the services that decide what happens in it.

The :class:`~games.models.Game` columns that mirror an engine state
(:func:`game_row_values`), a new game begun with its opening roll (:func:`game_begin`,
:func:`game_begin_next`), the read of a game for an action with its match's players in one
query (:func:`game_for_action`) and the write of an action: the compare-and-set of the row
with its log rows in one statement (:func:`game_store`, 409 ``stale_version`` when another
action came first). :mod:`games.play.services` decides each action and calls these; the
module docstring there says why the write is a compare-and-set.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import connection, transaction
from django.utils.translation import gettext as _

from games import wallclock
from games.engine import actions as engine_actions
from games.engine.actions import Action
from games.engine.clock import ClockState
from games.engine.game import GameState, new_game
from games.engine.match import MatchState
from games.engine.position import position_id
from games.engine.rules import RuleOptions
from games.errors import Conflict, NotFound
from games.models import Game, GameAction, Match, Player
from games.play import actionsql, live
from games.play import clock as game_clock
from games.play.dice import SYSTEM_DICE, DiceSource, roll_die
from games.signals import bot_game_changed


def game_row_values(state: GameState, *, version: int) -> dict[str, Any]:
    """The :class:`~games.models.Game` columns that mirror an engine state."""
    result = state.result
    return {
        "state": engine_actions.state_to_dict(state),
        "version": version,
        "position_id": position_id(state.position),
        "gnubg_match_id": state.match_id(),
        "is_over": result is not None,
        "winner_index": None if result is None else result.winner,
        "points": None if result is None else result.points,
        "result_kind": "" if result is None else result.kind,
    }


def game_begin(
    *,
    match: Match,
    number: int,
    options: RuleOptions,
    match_state: MatchState,
    dice: DiceSource,
    previous_clock: ClockState | None,
    after: list[int] | None = None,
) -> Game:
    """Create game ``number`` and make its opening roll (R3): each player rolls one die,
    a tie rolls again (the engine doubles the cube then when automatic doubles are on).
    A clocked match's clock then runs for the opening roll's winner, who plays it.
    ``after``: the live position of the previous game's last action (games.play.live)."""
    state = new_game(options, match_state)
    log: list[Action] = []
    while state.phase == "opening":
        action = Action("opening_roll", None, {"dice": [roll_die(dice), roll_die(dice)]})
        state = engine_actions.apply_action(state, action)
        log.append(action)
    at = wallclock.now()
    clock = game_clock.clock_for_new_game(
        match=match,
        previous=previous_clock,
        length=match_state.length,
        score=match_state.score,
        player=state.player_to_act,
        at_ms=wallclock.to_ms(at),
    )
    values = game_row_values(state, version=len(log))
    values.update(game_clock.clock_columns(clock, version=len(log), at=at))
    game = Game.objects.create(
        match=match,
        number=number,
        crawford=match_state.crawford,
        **values,
    )
    if clock is not None:
        game_clock.arm_on_commit(
            game.pk, game.version, game.alarm_at if game.armed_version else None
        )
    rows = GameAction.objects.bulk_create(
        GameAction(game=game, seq=seq, kind=a.kind, player_index=a.player, data=dict(a.data))
        for seq, a in enumerate(log, start=1)
    )
    live.publish_actions(game=game, rows=rows, after=after)
    if match.bot_level:
        bot_game_changed.send(sender=Game, game_id=game.pk, version=game.version, match_id=match.pk)
    return game


def game_begin_next(
    *, match: Match, match_state: MatchState, dice: DiceSource = SYSTEM_DICE
) -> Game:
    """Begin the next game of a playing match whose games so far are all over, exactly
    as live play begins it after a game (``games.play.services._match_advance``): its
    opening roll (R3), no clock carried over. For a match recorded from a file cut between
    two games (games.play.interchange); called inside the caller's transaction."""
    return game_begin(
        match=match,
        number=match.games.count() + 1,
        options=engine_actions.options_from_dict(match.rules),
        match_state=match_state,
        dice=dice,
        previous_clock=None,
    )


def game_for_action(game_id: int) -> Game:
    """The game row with its match's player ids and the players' notification choices,
    in one plain query (games.play.actionsql says why not the ORM)."""
    game = actionsql.game_for_action(game_id)
    if game is None:
        raise NotFound("game_not_found", _("There is no game with this id."))
    return game


def game_store(
    *,
    game: Game,
    expected_version: int,
    values: Mapping[str, Any],
    actions: Sequence[Action],
    actor: Player | None,
    now: Any,
) -> list[GameAction]:
    """Compare-and-set the game row to ``values`` if it is still at ``expected_version``
    and append ``actions`` to the log (numbered up to ``values["version"]``); 409
    ``stale_version`` when another action came first. The ``UPDATE`` takes the row lock,
    so concurrent writers queue and all but the first find the version moved."""
    first = values["version"] - len(actions) + 1
    logged = [
        GameAction(
            game=game,
            seq=first + i,
            kind=action.kind,
            player_index=action.player,
            actor=actor,
            data=dict(action.data),
            created_at=now,
        )
        for i, action in enumerate(actions)
    ]
    if connection.vendor == "postgresql":
        # One statement, so no transaction of our own is needed for it: if the CTE's
        # UPDATE matches no row, the INSERT inserts none. created_at is the service's
        # clock reading (the model's auto_now_add applies only to ORM saves).
        sql, is_json = actionsql.store_statement(tuple(values), len(logged))
        params = actionsql.store_params(values, is_json)
        params += [game.pk, expected_version, None if actor is None else actor.pk, now]
        for row in logged:
            params += [row.seq, row.kind, row.player_index, json.dumps(row.data)]
        with actionsql.statement_cursor() as cursor:
            cursor.execute(sql, params)
            ids = [found[0] for found in cursor.fetchall()]
        if not ids:
            raise stale_version(_current_version(game.pk))
        for row, pk in zip(logged, sorted(ids), strict=True):
            row.pk = pk
            row._state.adding = False
        return logged
    # Elsewhere (SQLite in the one-command local run) the same in two statements.
    with transaction.atomic():
        rows = Game.objects.filter(pk=game.pk, version=expected_version, is_over=False)
        if not rows.update(**values):
            raise stale_version(_current_version(game.pk))
        for row in logged:
            row.save(force_insert=True)
    return logged


def stale_version(version: int) -> Conflict:
    return Conflict(
        "stale_version",
        _("The game has moved on since you looked: reload and try again."),
        extra={"version": version},
    )


def _current_version(game_id: int) -> int | None:
    return Game.objects.filter(pk=game_id).values_list("version", flat=True).first()

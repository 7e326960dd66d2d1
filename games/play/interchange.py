"""Matches in and out as ``.mat`` files (the Jellyfish / GNU Backgammon text format).

The text format itself lives in the pure engine (:mod:`games.engine.matfile`); this
module joins it to the database: :func:`match_export_mat` writes a stored match,
:func:`match_import_mat` records a match played elsewhere after the engine has replayed
and accepted every action of it. A refused file stores nothing.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engine import actions as engine_actions
from games.engine.actions import Action
from games.engine.game import apply_result, new_game
from games.engine.matfile import (
    MatchRecord,
    MatError,
    build_record,
    export_mat,
    first_match_state,
    import_mat,
)
from games.errors import ValidationFailed
from games.models import Game, GameAction, Match, Player
from games.play.services import game_row_values


def match_record(*, match: Match) -> MatchRecord:
    """The stored match as a :class:`MatchRecord` (every game's log, in order)."""
    logs: list[list[Action]] = []
    actions = (
        GameAction.objects.filter(game__match=match)
        .exclude(game__result_kind=Game.VOID)  # never played: nothing to export
        .order_by("game__number", "seq")
    )
    current: int | None = None
    for row in actions.values_list("game_id", "kind", "player_index", "data"):
        game_id, kind, player, data = row
        if game_id != current:
            logs.append([])
            current = game_id
        logs[-1].append(Action(kind, player, data))
    first_score = (0, 0)
    return build_record(
        (match.player1.name, match.player2.name),
        match.length,
        logs,
        options=engine_actions.options_from_dict(match.rules),
        start_score=first_score,
        date=match.started_at.date() if match.started_at else None,
    )


def match_export_mat(*, match: Match) -> str:
    """The ``.mat`` text of a stored match (refused with ``mat_unsupported`` for rules
    the format cannot carry, such as Acey-Deucey)."""
    try:
        return export_mat(match_record(match=match))
    except MatError as exc:
        raise ValidationFailed(
            exc.code,
            _("This match cannot be written as a .mat file: %(reason)s") % {"reason": exc.message},
        ) from None


def _player_named(name: str) -> Player:
    existing = Player.objects.annotate(lname=Lower("name")).filter(lname=name.lower()).first()
    return existing or Player.objects.create(name=name)


def match_import_mat(
    *,
    text: str,
    player1_name: str | None = None,
    player2_name: str | None = None,
    created_by: Any = None,
) -> Match:
    """Record a match from ``.mat`` text. Every action is replayed by the engine first;
    the first illegal one refuses the whole file (``mat_illegal_action`` and friends,
    naming the game and move), and nothing is stored."""
    try:
        record = import_mat(text)
    except MatError as exc:
        raise ValidationFailed(
            exc.code,
            _("The .mat file was refused: %(reason)s") % {"reason": exc.message},
            extra={"game": exc.game, "move": exc.move},
        ) from None
    if not record.games:
        raise ValidationFailed("mat_invalid", _("The .mat file holds no game."))
    names = (player1_name or record.players[0], player2_name or record.players[1])
    if names[0].strip().lower() == names[1].strip().lower():
        raise ValidationFailed("same_player", _("A player cannot play against themselves."))
    with transaction.atomic():
        players = (_player_named(names[0].strip()), _player_named(names[1].strip()))
        match_state = first_match_state(record.length, record.games[0].score)
        match = Match.objects.create(
            player1=players[0],
            player2=players[1],
            length=record.length,
            rules=engine_actions.options_to_dict(record.options),
            state=engine_actions.match_to_dict(match_state),
            status=Match.Status.PLAYING,
            created_by=created_by,
            started_at=timezone.now(),
        )
        for number, game in enumerate(record.games, start=1):
            state = engine_actions.replay(new_game(record.options, match_state), game.actions)
            row = Game.objects.create(
                match=match,
                number=number,
                crawford=match_state.crawford,
                finished_at=timezone.now() if state.is_over else None,
                **game_row_values(state, version=len(game.actions)),
            )
            GameAction.objects.bulk_create(
                GameAction(game=row, seq=seq, kind=a.kind, player_index=a.player, data=dict(a.data))
                for seq, a in enumerate(game.actions, start=1)
            )
            if state.result is not None:
                match_state = apply_result(match_state, state.result)
        match.state = engine_actions.match_to_dict(match_state)
        match.score1, match.score2 = match_state.score
        if match_state.is_over or (record.length == 0 and record.games[-1].winner is not None):
            match.status = Match.Status.FINISHED
            match.finished_at = timezone.now()
            if match_state.winner is not None:
                match.winner = players[match_state.winner]
        match.save()
    return match

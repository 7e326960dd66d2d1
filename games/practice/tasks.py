"""Celery tasks of the practice opponent, on the queue "bot" (settings): thin, they take
ids, call one service and are safe to run twice. Sent by name (:mod:`games.background`)."""

from __future__ import annotations

from celery import shared_task

from games.practice import services

BOT_TURN = "games.bot_turn"
BOT_SWEEP = "games.bot_sweep"


@shared_task(name=BOT_TURN, ignore_result=True)
def bot_turn(game_id: int, version: int) -> str:
    """The bot's one decision in a game at ``version`` ("stale" when the game moved on,
    so a re-delivered or doubled task has no second effect)."""
    return services.bot_act(game_id=game_id, version=version)


@shared_task(name=BOT_SWEEP, ignore_result=True)
def bot_sweep() -> dict[str, int]:
    """Beat's backstop every few seconds: bot games left waiting on the bot (a lost
    task, a gnubg failure) get their decision."""
    from django.conf import settings

    return services.bot_sweep(older_than=settings.PRACTICE_BOT_SWEEP_AFTER)

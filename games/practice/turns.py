"""When the bot plays: its turns scheduled after each change of a bot game.

The play services send ``bot_game_changed`` (games.signals) inside the transaction of
every action of a bot match and of each game it begins; :func:`on_bot_game_changed`
schedules the bot's decision after commit:

* with a Celery worker (production, CI): the task ``games.bot_turn(game_id, version)``
  on the queue "bot", ``PRACTICE_BOT_PAUSE`` seconds later (a small human-like pause, so
  that a person sees the roll before the move); beat's ``games.bot_sweep`` is the
  backstop for a lost task;
* in the one-command local run (no worker; Celery would run the task eagerly inside the
  person's request, which would then wait for gnubg): a thread of the serving process
  (:func:`start_inprocess_bot`) is woken instead, and makes every decision due, one
  pause apart. Its moves reach the pages through the same live publish as anyone's.

A task sent for a game where the bot need not act (the person's turn) finds that and
does nothing (``not_bot_turn``).
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from django.conf import settings
from django.db import close_old_connections, connection, transaction

from games import background
from games.practice import services
from games.practice.tasks import BOT_TURN

log = logging.getLogger(__name__)

_wake = threading.Event()


def on_bot_game_changed(sender: Any, *, game_id: int, version: int, **kwargs: Any) -> None:
    if settings.PRACTICE_BOT_INPROCESS:
        transaction.on_commit(_wake.set)
        return

    def send() -> None:
        try:
            background.task(BOT_TURN).apply_async(
                (game_id, version), countdown=settings.PRACTICE_BOT_PAUSE
            )
        except Exception:  # the broker is down: the sweep finds the game
            log.exception("could not send %s(%s, %s)", BOT_TURN, game_id, version)

    transaction.on_commit(send)


def on_bot_invited(sender: Any, **kwargs: Any) -> None:
    """Refuse an invitation to the bot where gnubg cannot play (503 ``bot_unavailable``)."""
    services.bot_require_available()


def on_bot_status(sender: Any, **kwargs: Any) -> tuple[Any, str | None]:
    """The bot's account (made when first needed) and why it cannot play here, if so."""
    return services.bot_player_get_or_create(), services.bot_unavailable_reason()


class BotRunner:
    """The local run's bot: a daemon thread that makes every decision due, woken by each
    change of a bot game (and every ``period`` seconds in any case)."""

    def __init__(self, *, period: float = 2.0, pause: float | None = None) -> None:
        self.period = period
        self.pause = settings.PRACTICE_BOT_PAUSE if pause is None else pause
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="practice-bot", daemon=True)

    def start(self) -> BotRunner:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        _wake.set()
        self._thread.join(timeout=30)

    def _loop(self) -> None:
        while not self._stop.is_set():
            _wake.wait(self.period)
            _wake.clear()
            try:
                self._play_all_due()
            except Exception:  # keep playing; the error is in the log
                log.exception("the practice opponent's thread failed")
            finally:
                close_old_connections()
                connection.close()

    def _play_all_due(self) -> None:
        while not self._stop.is_set():
            due = services.bot_games_waiting()
            if not due:
                return
            time.sleep(self.pause)
            acted = False
            for game_id, version in due:
                if self._stop.is_set():
                    return
                if services.bot_act(game_id=game_id, version=version) not in (
                    "stale",
                    "unavailable",
                    "not_bot_turn",
                ):
                    acted = True
            if not acted:
                return


_runner: BotRunner | None = None


def start_inprocess_bot() -> BotRunner:
    """Start the local run's bot thread (once per process)."""
    global _runner
    if _runner is None:
        _runner = BotRunner().start()
    return _runner


def register() -> None:
    """Connect the receivers (the app's ``ready``)."""
    from games.signals import bot_game_changed, bot_invited, bot_status

    bot_game_changed.connect(on_bot_game_changed, dispatch_uid="practice-bot-turn")
    bot_invited.connect(on_bot_invited, dispatch_uid="practice-bot-invited")
    bot_status.connect(on_bot_status, dispatch_uid="practice-bot-status")

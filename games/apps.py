"""The shared core's app: players, match play, clocks, notifications and ratings, as the
feature packages of one Django app (label ``games``; docs/architecture.md)."""

import os
from importlib import import_module

from django.apps import AppConfig
from django.conf import settings
from django.utils.translation import gettext_lazy as _

#: The Celery tasks modules, beside the services they call. Services send tasks by name
#: (games.background), so the names must be registered in every process, web included.
TASK_MODULES = (
    "games.play.tasks",
    "games.clocks.tasks",
    "games.notifications.tasks",
    "games.analysis.tasks",
    "games.practice.tasks",
    "games.players.signup.tasks",
    "games.players.tasks",
)


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        for module in TASK_MODULES:
            import_module(module)
        # Register the shared core's notification kinds (your turn, double offered, ...)
        # before any page, task or admin form lists them. Other apps register theirs
        # the same way, from their own ready().
        import_module("games.notifications.services")
        import_module("games.players.signup.notices").register()
        # The live topics this app publishes (games.live): a match, move by move; a
        # user's notifications; the list of live clocks and each table clock.
        import_module("games.play.live").register()
        import_module("games.notifications.live").register()
        import_module("games.clocks.live").register()
        # Every finished or imported match is queued for GNU Backgammon's analysis.
        import_module("games.analysis.receivers").connect()
        # The practice opponent plays the turns of bot matches (games.practice.turns).
        import_module("games.practice.turns").register()
        # The one-command local run has no Celery beat: runserver's serving process
        # (RUN_MAIN is set in the autoreloader's child) sweeps the clocks' alarms itself.
        if settings.GAMES_INPROCESS_SWEEPER and os.environ.get("RUN_MAIN") == "true":
            import_module("games.clocks.sweep").start_inprocess_sweeper()
        if settings.PRACTICE_BOT_INPROCESS and os.environ.get("RUN_MAIN") == "true":
            import_module("games.practice.turns").start_inprocess_bot()

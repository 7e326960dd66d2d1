import os

from django.apps import AppConfig
from django.conf import settings
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        # The one-command local run has no Celery beat: runserver's serving process
        # (RUN_MAIN is set in the autoreloader's child) sweeps the clocks' alarms itself.
        if settings.GAMES_INPROCESS_SWEEPER and os.environ.get("RUN_MAIN") == "true":
            from .clocks import start_inprocess_sweeper

            start_inprocess_sweeper()
        # Register the shared core's notification kinds (your turn, double offered, ...)
        # before any page, task or admin form lists them. Other apps register theirs
        # the same way, from their own ready().
        from . import notifications  # noqa: F401

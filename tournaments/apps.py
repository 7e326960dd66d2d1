from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        # The notification kinds of tournaments (match ready, result to confirm).
        from games.signals import match_finished

        from . import notifications  # noqa: F401
        from .services import on_match_finished

        # A tournament match played online reports itself when its last game ends.
        match_finished.connect(on_match_finished, dispatch_uid="tournaments.match_finished")

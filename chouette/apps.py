from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ChouetteConfig(AppConfig):
    name = "chouette"
    verbose_name = _("Chouette")

    def ready(self) -> None:
        from games.players.sections import register_player_section

        from . import live
        from .selectors import player_chouette_totals

        # The scoreboard's live topic (games.live).
        live.register()

        # The player page (games) shows a player's chouette totals per session.
        register_player_section(
            "chouette",
            title=_("Chouette"),
            template="chouette/partials/player_sessions.html",
            context=player_chouette_totals,
            order=30,
        )

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ChouetteConfig(AppConfig):
    name = "chouette"
    verbose_name = _("Chouette")

    def ready(self) -> None:
        from importlib import import_module

        from games.players.sections import register_player_section

        from . import live
        from .selectors import player_chouette_totals

        # The scoreboard's live topic (games.live).
        live.register()
        # Online play: the game's and the team's topics, and its timer tasks (by name).
        import_module("chouette.online.live").register()
        import_module("chouette.online.tasks")
        from games.clocks.sweep import register_inprocess_sweep

        # The one-command local run has no beat: its sweeper thread sweeps these too.
        online = import_module("chouette.online.alarms")
        register_inprocess_sweep(online.online_sweep_alarms)
        # A proxy named or cleared: the game being played takes the player away or back.
        from .services.proxies import register_presence_hook

        register_presence_hook(online.online_presence_changed)

        # The player page (games) shows a player's chouette totals per session.
        register_player_section(
            "chouette",
            title=_("Chouette"),
            template="chouette/partials/player_sessions.html",
            context=player_chouette_totals,
            order=30,
        )

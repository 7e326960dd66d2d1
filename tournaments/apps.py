from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        # The notification kinds of tournaments (match ready, result to confirm).
        from games.players.sections import register_player_section
        from games.ratings.sources import register_result_links
        from games.signals import match_finished

        from . import live, notifications  # noqa: F401
        from .pages.public import player_section_context
        from .selectors import result_links, result_will_be_rated
        from .services.online import on_match_finished

        # The live topics of the flight, event and director's pages (games.live).
        live.register()
        # A tournament match played online reports itself when its last game ends.
        match_finished.connect(on_match_finished, dispatch_uid="tournaments.match_finished")
        # The player page (games) lists the player's tournaments with their places.
        register_player_section(
            "tournaments",
            title=_("Tournaments"),
            template="tournaments/partials/player_placings.html",
            context=player_section_context,
            order=20,
        )
        # The player page's results link tournament results to their flight page, and a
        # tournament match played online says before it ends whether it will be rated.
        register_result_links("tmatch", result_links, rated=result_will_be_rated)

"""Match-play pages (public reading, player actions)."""

from django.urls import path

from . import pages

app_name = "games"

urlpatterns = [
    path("matches/", pages.lobby, name="lobby"),
    path("matches/new/", pages.match_create_page, name="match-create"),
    path("matches/<int:match_id>/", pages.match_page, name="match"),
    path("games/<int:game_id>/act/", pages.game_action_page, name="game-act"),
]

"""The pages of the shared core (namespace ``games``): match play, players, the leaderboard."""

from django.urls import path

from games.analysis import pages as analysis_pages
from games.play import pages, replay_pages
from games.players import mine
from games.players import pages as player_pages
from games.ratings import pages as ratings_pages

app_name = "games"

urlpatterns = [
    path("matches/", pages.lobby, name="lobby"),
    path("matches/new/", pages.match_create_page, name="match-create"),
    path("matches/arrange/", pages.match_arrange_page, name="match-arrange"),
    path("matches/import/", pages.match_import_page, name="match-import"),
    path(
        "matches/invitations/<int:invitation_id>/accept/",
        pages.invitation_accept_page,
        name="invitation-accept",
    ),
    path(
        "matches/invitations/<int:invitation_id>/decline/",
        pages.invitation_decline_page,
        name="invitation-decline",
    ),
    path(
        "matches/invitations/<int:invitation_id>/withdraw/",
        pages.invitation_withdraw_page,
        name="invitation-withdraw",
    ),
    path("matches/<int:match_id>/", pages.match_page, name="match"),
    path("matches/<int:match_id>/export.mat", pages.match_export_page, name="match-export"),
    path("matches/<int:match_id>/end/", pages.match_end_session_page, name="match-end"),
    path(
        "matches/<int:match_id>/replay/<int:number>/",
        replay_pages.game_replay_page,
        name="game-replay",
    ),
    path("matches/<int:match_id>/rematch/", pages.match_rematch_page, name="match-rematch"),
    path(
        "matches/<int:match_id>/analyse/",
        analysis_pages.match_analyse_page,
        name="match-analyse",
    ),
    path("games/<int:game_id>/act/", pages.game_action_page, name="game-act"),
    path("games/<int:game_id>/board.svg", pages.game_board_page, name="game-board"),
    path("players/me/settings/", mine.my_settings_page, name="my-settings"),
    path("players/<int:player_id>/", player_pages.player_page, name="player"),
    path(
        "players/<int:player_id>/vs/<int:opponent_id>/",
        player_pages.head_to_head_page,
        name="head-to-head",
    ),
    path("ratings/", ratings_pages.leaderboard_page, name="leaderboard"),
]

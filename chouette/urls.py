"""Chouette pages (included at ``chouette/``): what anyone reads, and the posts of the
session's writers (its creator, its players with a login, staff)."""

from django.urls import path

from .online import pages as online
from .pages import actions, entry, joining, scoreboard, sessions

app_name = "chouette"

urlpatterns = [
    path("", sessions.session_list, name="session-list"),
    path("new/", sessions.session_create, name="session-create"),
    path("<int:session_id>/", scoreboard.scoreboard, name="scoreboard"),
    path("<int:session_id>/summary/", sessions.summary, name="summary"),
    path("<int:session_id>/game/", entry.game_entry, name="game-entry"),
    path("<int:session_id>/games/<int:number>/edit/", entry.game_entry, name="game-edit"),
    path("<int:session_id>/seats/", actions.seat_change, name="seat-change"),
    path("<int:session_id>/seating/", actions.seating_set, name="seating"),
    path("<int:session_id>/guest/", actions.join_guest, name="join-guest"),
    path("<int:session_id>/join-code/", actions.new_join_code, name="new-join-code"),
    path("<int:session_id>/proxy/", actions.proxy_set, name="proxy"),
    path("<int:session_id>/split/", actions.session_split, name="split"),
    path("<int:session_id>/me/", joining.me, name="me"),
    path("join/", joining.join, name="join"),
    path("join/<str:code>/", joining.join, name="join-code"),
    path("<int:session_id>/undo/", actions.game_undo, name="undo"),
    path("<int:session_id>/end/", actions.session_end, name="end"),
    path("<int:session_id>/reopen/", actions.session_reopen, name="reopen"),
    path("players/<int:player_id>/", sessions.player_page, name="player"),
    # Played online (issue 19): the table, and its posts.
    path("<int:session_id>/play/", online.play_page, name="play"),
    path("<int:session_id>/play/start/", online.start, name="play-start"),
    path("<int:session_id>/play/settings/", online.settings_update, name="play-settings"),
    path("play/<int:game_id>/act/", online.act, name="play-act"),
    path("play/<int:game_id>/board/", online.board_page, name="play-board"),
    path("play/<int:game_id>/team/", online.team_message, name="play-team"),
    path("play/<int:game_id>/abandon/", online.abandon, name="play-abandon"),
]

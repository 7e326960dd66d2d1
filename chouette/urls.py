"""Chouette pages (included at ``chouette/``): what anyone reads, and the posts of the
session's writers (its creator, its players with a login, staff)."""

from django.urls import path

from . import pages
from .online import pages as online

app_name = "chouette"

urlpatterns = [
    path("", pages.session_list, name="session-list"),
    path("new/", pages.session_create, name="session-create"),
    path("<int:session_id>/", pages.scoreboard, name="scoreboard"),
    path("<int:session_id>/summary/", pages.summary, name="summary"),
    path("<int:session_id>/game/", pages.game_entry, name="game-entry"),
    path("<int:session_id>/games/<int:number>/edit/", pages.game_entry, name="game-edit"),
    path("<int:session_id>/seats/", pages.seat_change, name="seat-change"),
    path("<int:session_id>/seating/", pages.seating_set, name="seating"),
    path("<int:session_id>/guest/", pages.join_guest, name="join-guest"),
    path("<int:session_id>/join-code/", pages.new_join_code, name="new-join-code"),
    path("<int:session_id>/proxy/", pages.proxy_set, name="proxy"),
    path("<int:session_id>/split/", pages.session_split, name="split"),
    path("<int:session_id>/me/", pages.me, name="me"),
    path("join/", pages.join, name="join"),
    path("join/<str:code>/", pages.join, name="join-code"),
    path("<int:session_id>/undo/", pages.game_undo, name="undo"),
    path("<int:session_id>/end/", pages.session_end, name="end"),
    path("<int:session_id>/reopen/", pages.session_reopen, name="reopen"),
    path("players/<int:player_id>/", pages.player_page, name="player"),
    # Played online (issue 19): the table, and its posts.
    path("<int:session_id>/play/", online.play_page, name="play"),
    path("<int:session_id>/play/start/", online.start, name="play-start"),
    path("<int:session_id>/play/settings/", online.settings_update, name="play-settings"),
    path("play/<int:game_id>/act/", online.act, name="play-act"),
    path("play/<int:game_id>/board/", online.board_page, name="play-board"),
    path("play/<int:game_id>/team/", online.team_message, name="play-team"),
    path("play/<int:game_id>/abandon/", online.abandon, name="play-abandon"),
]

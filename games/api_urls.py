from django.urls import path
from rest_framework.authtoken.views import obtain_auth_token

from games.clocks import api as tableclocks
from games.notifications import api as notifications
from games.play import api as views
from games.ratings import api as ratings
from games.ratings import club_api as club_results

app_name = "games-api"

urlpatterns = [
    path("auth/token/", obtain_auth_token, name="token"),
    path("me/", views.MeApi.as_view(), name="me"),
    path("players/", views.PlayerListApi.as_view(), name="player-list"),
    path("players/<int:player_id>/", views.PlayerDetailApi.as_view(), name="player-detail"),
    path(
        "players/<int:player_id>/results/",
        ratings.PlayerResultsApi.as_view(),
        name="player-results",
    ),
    path("ratings/", ratings.LeaderboardApi.as_view(), name="leaderboard"),
    path("matches/", views.MatchListApi.as_view(), name="match-list"),
    path("matches/<int:match_id>/", views.MatchDetailApi.as_view(), name="match-detail"),
    path("matches/<int:match_id>/start/", views.MatchStartApi.as_view(), name="match-start"),
    path("matches/<int:match_id>/end/", views.MatchEndSessionApi.as_view(), name="match-end"),
    path("games/<int:game_id>/", views.GameDetailApi.as_view(), name="game-detail"),
    path("games/<int:game_id>/actions/", views.GameActionsApi.as_view(), name="game-actions"),
    # notifications (the requester's)
    path("notifications/", notifications.NotificationListApi.as_view(), name="notification-list"),
    path(
        "notifications/<int:notification_id>/read/",
        notifications.NotificationReadApi.as_view(),
        name="notification-read",
    ),
    path(
        "notifications/read-all/",
        notifications.NotificationReadAllApi.as_view(),
        name="notification-read-all",
    ),
    path(
        "notifications/channels/",
        notifications.NotificationChannelsApi.as_view(),
        name="notification-channels",
    ),
    # club match results typed in, for the rating (issue 8; the club's directors)
    path("club-results/", club_results.ClubResultListApi.as_view(), name="club-result-list"),
    path(
        "club-results/<int:result_id>/",
        club_results.ClubResultDetailApi.as_view(),
        name="club-result-detail",
    ),
    # over-the-board table clocks (R12)
    path("table-clocks/", tableclocks.TableClockListApi.as_view(), name="table-clock-list"),
    path(
        "table-clocks/<int:clock_id>/",
        tableclocks.TableClockDetailApi.as_view(),
        name="table-clock-detail",
    ),
    path(
        "table-clocks/<int:clock_id>/start/",
        tableclocks.TableClockStartApi.as_view(),
        name="table-clock-start",
    ),
    path(
        "table-clocks/<int:clock_id>/tap/",
        tableclocks.TableClockTapApi.as_view(),
        name="table-clock-tap",
    ),
    path(
        "table-clocks/<int:clock_id>/pause/",
        tableclocks.TableClockPauseApi.as_view(),
        name="table-clock-pause",
    ),
    path(
        "table-clocks/<int:clock_id>/resume/",
        tableclocks.TableClockResumeApi.as_view(),
        name="table-clock-resume",
    ),
    path(
        "table-clocks/<int:clock_id>/finish/",
        tableclocks.TableClockFinishApi.as_view(),
        name="table-clock-finish",
    ),
]

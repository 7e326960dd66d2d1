"""The API's URLs (``/api/v1/``, namespace ``games-api``): each feature's views.
(``auth/token/``, which issues tokens, is config's: config.urls, config.authentication.)"""

from django.urls import path

from games.analysis import api as analysis
from games.clocks import api as clocks
from games.notifications import api as notifications
from games.play import api as play
from games.players import api as players
from games.practice import api as practice
from games.ratings import api as ratings
from games.ratings import club_api

app_name = "games-api"

urlpatterns = [
    path("me/", players.MeApi.as_view(), name="me"),
    path("me/settings/", players.MySettingsApi.as_view(), name="my-settings"),
    path("players/", players.PlayerListApi.as_view(), name="player-list"),
    path("players/<int:player_id>/", players.PlayerDetailApi.as_view(), name="player-detail"),
    path(
        "players/<int:player_id>/results/",
        players.PlayerResultsApi.as_view(),
        name="player-results",
    ),
    path("ratings/", ratings.LeaderboardApi.as_view(), name="leaderboard"),
    path("matches/", play.MatchListApi.as_view(), name="match-list"),
    path("matches/<int:match_id>/", play.MatchDetailApi.as_view(), name="match-detail"),
    path("matches/<int:match_id>/start/", play.MatchStartApi.as_view(), name="match-start"),
    path("matches/<int:match_id>/end/", play.MatchEndSessionApi.as_view(), name="match-end"),
    path("matches/<int:match_id>/rematch/", play.MatchRematchApi.as_view(), name="match-rematch"),
    # GNU Backgammon's analysis of a match (issue 28)
    path(
        "matches/<int:match_id>/analysis/",
        analysis.MatchAnalysisApi.as_view(),
        name="match-analysis",
    ),
    path("invitations/", play.InvitationListApi.as_view(), name="invitation-list"),
    path("practice/", practice.PracticeApi.as_view(), name="practice"),
    path(
        "invitations/<int:invitation_id>/accept/",
        play.InvitationAcceptApi.as_view(),
        name="invitation-accept",
    ),
    path(
        "invitations/<int:invitation_id>/decline/",
        play.InvitationDeclineApi.as_view(),
        name="invitation-decline",
    ),
    path(
        "invitations/<int:invitation_id>/withdraw/",
        play.InvitationWithdrawApi.as_view(),
        name="invitation-withdraw",
    ),
    path("games/<int:game_id>/", play.GameDetailApi.as_view(), name="game-detail"),
    path("games/<int:game_id>/actions/", play.GameActionsApi.as_view(), name="game-actions"),
    path("games/<int:game_id>/replay/", play.GameReplayApi.as_view(), name="game-replay"),
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
    path("club-results/", club_api.ClubResultListApi.as_view(), name="club-result-list"),
    path(
        "club-results/<int:result_id>/",
        club_api.ClubResultDetailApi.as_view(),
        name="club-result-detail",
    ),
    # over-the-board table clocks (R12)
    path("table-clocks/", clocks.TableClockListApi.as_view(), name="table-clock-list"),
    path(
        "table-clocks/<int:clock_id>/",
        clocks.TableClockDetailApi.as_view(),
        name="table-clock-detail",
    ),
    path(
        "table-clocks/<int:clock_id>/start/",
        clocks.TableClockStartApi.as_view(),
        name="table-clock-start",
    ),
    path(
        "table-clocks/<int:clock_id>/tap/",
        clocks.TableClockTapApi.as_view(),
        name="table-clock-tap",
    ),
    path(
        "table-clocks/<int:clock_id>/pause/",
        clocks.TableClockPauseApi.as_view(),
        name="table-clock-pause",
    ),
    path(
        "table-clocks/<int:clock_id>/resume/",
        clocks.TableClockResumeApi.as_view(),
        name="table-clock-resume",
    ),
    path(
        "table-clocks/<int:clock_id>/finish/",
        clocks.TableClockFinishApi.as_view(),
        name="table-clock-finish",
    ),
]

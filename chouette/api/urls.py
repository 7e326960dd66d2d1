"""The chouette API (included at ``api/v1/``)."""

from django.urls import path

from . import join, online, views

app_name = "chouette-api"

urlpatterns = [
    path("chouette/join/", join.SessionJoinByCodeApi.as_view(), name="join"),
    path("chouette/sessions/", views.SessionListApi.as_view(), name="session-list"),
    path(
        "chouette/sessions/<int:session_id>/",
        views.SessionDetailApi.as_view(),
        name="session-detail",
    ),
    path(
        "chouette/sessions/<int:session_id>/join/",
        views.SessionJoinApi.as_view(),
        name="session-join",
    ),
    path(
        "chouette/sessions/<int:session_id>/join-guest/",
        views.SessionJoinGuestApi.as_view(),
        name="session-join-guest",
    ),
    path(
        "chouette/sessions/<int:session_id>/sit-out/",
        views.SessionSitOutApi.as_view(),
        name="session-sit-out",
    ),
    path(
        "chouette/sessions/<int:session_id>/come-back/",
        views.SessionComeBackApi.as_view(),
        name="session-come-back",
    ),
    path(
        "chouette/sessions/<int:session_id>/proxy/",
        views.SessionProxyApi.as_view(),
        name="session-proxy",
    ),
    path(
        "chouette/sessions/<int:session_id>/split/",
        views.SessionSplitApi.as_view(),
        name="session-split",
    ),
    path(
        "chouette/sessions/<int:session_id>/games/preview/",
        views.GamePreviewApi.as_view(),
        name="game-preview",
    ),
    path(
        "chouette/sessions/<int:session_id>/games/",
        views.GameRecordApi.as_view(),
        name="game-record",
    ),
    path(
        "chouette/sessions/<int:session_id>/games/<int:number>/",
        views.GameEditApi.as_view(),
        name="game-edit",
    ),
    path(
        "chouette/sessions/<int:session_id>/seating/",
        views.SessionSeatingApi.as_view(),
        name="session-seating",
    ),
    path(
        "chouette/sessions/<int:session_id>/undo/",
        views.GameUndoApi.as_view(),
        name="game-undo",
    ),
    path(
        "chouette/sessions/<int:session_id>/summary/",
        views.SessionSummaryApi.as_view(),
        name="session-summary",
    ),
    path(
        "chouette/sessions/<int:session_id>/end/",
        views.SessionEndApi.as_view(),
        name="session-end",
    ),
    path(
        "chouette/sessions/<int:session_id>/reopen/",
        views.SessionReopenApi.as_view(),
        name="session-reopen",
    ),
    # Played online (issue 19).
    path(
        "chouette/sessions/<int:session_id>/online-games/",
        online.OnlineGameStartApi.as_view(),
        name="online-game-start",
    ),
    path(
        "chouette/sessions/<int:session_id>/online-settings/",
        online.OnlineSettingsApi.as_view(),
        name="online-settings",
    ),
    path(
        "chouette/online-games/<int:game_id>/",
        online.OnlineGameDetailApi.as_view(),
        name="online-game-detail",
    ),
    path(
        "chouette/online-games/<int:game_id>/actions/",
        online.OnlineGameActApi.as_view(),
        name="online-game-act",
    ),
    path(
        "chouette/online-games/<int:game_id>/abandon/",
        online.OnlineGameAbandonApi.as_view(),
        name="online-game-abandon",
    ),
    path(
        "chouette/online-games/<int:game_id>/team-messages/",
        online.TeamMessagesApi.as_view(),
        name="online-team-messages",
    ),
]

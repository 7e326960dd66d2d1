from django.urls import path
from rest_framework.authtoken.views import obtain_auth_token

from . import views

app_name = "games-api"

urlpatterns = [
    path("auth/token/", obtain_auth_token, name="token"),
    path("me/", views.MeApi.as_view(), name="me"),
    path("players/", views.PlayerListApi.as_view(), name="player-list"),
    path("players/<int:player_id>/", views.PlayerDetailApi.as_view(), name="player-detail"),
    path("matches/", views.MatchListApi.as_view(), name="match-list"),
    path("matches/<int:match_id>/", views.MatchDetailApi.as_view(), name="match-detail"),
    path("matches/<int:match_id>/start/", views.MatchStartApi.as_view(), name="match-start"),
    path("matches/<int:match_id>/end/", views.MatchEndSessionApi.as_view(), name="match-end"),
    path("games/<int:game_id>/", views.GameDetailApi.as_view(), name="game-detail"),
    path("games/<int:game_id>/actions/", views.GameActionsApi.as_view(), name="game-actions"),
]

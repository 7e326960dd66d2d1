from django.urls import path

from . import views

app_name = "games-api"

urlpatterns = [
    path("players/", views.PlayerListApi.as_view(), name="player-list"),
    path("players/<int:player_id>/", views.PlayerDetailApi.as_view(), name="player-detail"),
]

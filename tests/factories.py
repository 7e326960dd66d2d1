"""factory_boy factories for the project's models (no JSON fixtures)."""

from __future__ import annotations

import factory
from django.contrib.auth import get_user_model

from games.models import Player


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("jelszo-123")


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    name = factory.Sequence(lambda n: f"Játékos {n}")
    country = "HU"
    club = "Budapest Backgammon Kör"


class UserPlayerFactory(PlayerFactory):
    """A player with a login."""

    user = factory.SubFactory(UserFactory)


def api_client(user=None):  # type: ignore[no-untyped-def]
    """A DRF test client speaking English, authenticated by ``user``'s token if given."""
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    client = APIClient()
    headers = {"HTTP_ACCEPT_LANGUAGE": "en"}
    if user is not None:
        token, _ = Token.objects.get_or_create(user=user)
        headers["HTTP_AUTHORIZATION"] = f"Token {token.key}"
    client.credentials(**headers)
    return client


def finish_by_resignation(match, *, kind: str = "single"):  # type: ignore[no-untyped-def]
    """Start ``match``'s first game (opening roll 3-1) and let the player to move resign it
    (``kind``: single, gammon or backgammon), accepted by the opponent: the one game of a
    1-point match ends the match. Returns ``(winner, loser)``."""
    from games.engine.actions import state_from_dict
    from games.play import services
    from games.play.dice import ScriptedDice

    game = services.match_start(match_id=match.pk, dice=ScriptedDice((3, 1)))
    mover = state_from_dict(game.state).player_to_act
    players = (match.player1, match.player2)
    offered = services.resign_offer(
        game_id=game.pk, player=players[mover], expected_version=game.version, kind=kind
    )
    services.resign_accept(
        game_id=game.pk, player=players[1 - mover], expected_version=offered.game.version
    )
    match.refresh_from_db()
    return players[1 - mover], players[mover]

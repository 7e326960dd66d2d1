"""factory_boy factories for the project's models (no JSON fixtures)."""

from __future__ import annotations

import factory
from django.contrib.auth import get_user_model
from django.utils import timezone

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


# ---------------------------------------------------------------- analysis (issue 28)
# The stored figures of an analysis, made directly (the real ones are gnubg's: the
# analysis job's tests make those).
class MatchAnalysisFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "games.MatchAnalysis"

    status = "done"
    plies = 2
    progress = 100
    attempts = 1


class PlayerAnalysisFactory(factory.django.DjangoModelFactory):
    """One player's figures; ``analysis`` and ``player`` given, ``match`` and ``index``
    follow from them (the player's place in the match)."""

    class Meta:
        model = "games.PlayerAnalysis"

    match = factory.LazyAttribute(lambda o: o.analysis.match)
    index = factory.LazyAttribute(lambda o: 0 if o.match.player1_id == o.player.pk else 1)
    unforced_moves = 40
    close_cube_decisions = 4
    chequer_error_emg = factory.LazyAttribute(lambda o: o.error_total_emg * 0.8)
    cube_error_emg = factory.LazyAttribute(lambda o: o.error_total_emg * 0.2)
    pr = 5.0
    error_rate_memg = factory.LazyAttribute(lambda o: o.pr * 2)
    error_total_emg = factory.LazyAttribute(
        lambda o: o.pr * 2 * (o.unforced_moves + o.close_cube_decisions) / 1000
    )
    snowie_error_rate = factory.LazyAttribute(lambda o: o.pr)
    luck_total_emg = 0.1
    luck_rate_memg = 2.5
    luck_adjusted_result = 0.05
    rating_words = "Advanced"
    luck_words = "None"
    counts = True
    played_at = factory.LazyFunction(timezone.now)


class DecisionAnalysisFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "games.DecisionAnalysis"

    game_number = 1
    ordinal = factory.Sequence(lambda n: n + 1)
    player_index = 0
    kind = "move"
    dice = "31"
    played = "24/21 6/5"
    best = "8/5 6/5"
    equity_lost = 0.083
    mark = "bad"


def analysed_match(match, *, prs=(5.0, 7.5), **player_kwargs):  # type: ignore[no-untyped-def]
    """A done analysis of ``match`` with both players' figures (PRs ``prs``)."""
    analysis = MatchAnalysisFactory(match=match)
    for player, pr in zip((match.player1, match.player2), prs, strict=True):
        PlayerAnalysisFactory(analysis=analysis, player=player, pr=pr, **player_kwargs)
    return analysis

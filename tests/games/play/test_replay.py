"""R14: every game stored through the services can be replayed from its action log to
exactly its stored state. 500 random games on PostgreSQL under many rule sets, in seven
parts of 72 (504 games) so that a parallel run shares them out."""

from __future__ import annotations

import io
import os
import random

import pytest
from django.core.management import CommandError, call_command

from games.engine.actions import state_from_dict
from games.engine.selfplay import random_action
from games.models import Game, Match
from games.play import services
from games.play.dice import ScriptedDice
from games.play.selectors import game_replayed_state
from tests.factories import PlayerFactory
from tests.games.play.test_services import _perform

GAMES = int(os.environ.get("REPLAY_GAMES", "500"))
GAMES_PER_SESSION = 10

RULE_SETS = [
    (1, {}),
    (3, {}),
    (0, {"beavers": True, "jacoby": True, "automatic_doubles": True}),
    (1, {"variant": "nackgammon", "backgammon_value": 2}),
    (0, {"variant": "acey-deucey", "acey_deucey_cube": True}),
    (1, {"max_checkers_per_point": 5, "min_pip_waste": True}),
    (0, {"resign_mode": "seed002"}),
]
PARTS = 7


@pytest.mark.django_db
@pytest.mark.parametrize("part", range(PARTS), ids=lambda n: f"part{n + 1}of{PARTS}")
def test_R14_five_hundred_random_games_replay_to_their_stored_state(part):
    games = -(-GAMES // PARTS)  # this part's share, rounded up
    rng = random.Random(20261129 + part)
    players = (PlayerFactory(), PlayerFactory())
    played = 0
    while played < games:
        # Each part goes through the rule sets from a different one.
        length, rules = RULE_SETS[(part + played) % len(RULE_SETS)]
        match = services.match_create(
            player1=players[0], player2=players[1], length=length, rules=rules
        )
        game = services.match_start(
            match_id=match.pk, dice=ScriptedDice(rng.randint(1, 6) for _ in range(100))
        )
        # Play this game to its end; a longer match goes on with its next game, a money
        # session for at most GAMES_PER_SESSION games (its state carries every game's
        # result, so one endless session would make each action slower than the last).
        in_match = 0
        while True:
            state = state_from_dict(game.state)
            if state.is_over:
                played += 1
                in_match += 1
                game = Game.objects.filter(match=match).order_by("-number").first()
                if game.is_over or played >= games or in_match >= GAMES_PER_SESSION:
                    break
                continue
            outcome = _perform(game, players, random_action(state, rng), rng)
            game = outcome.game
    stored = Game.objects.filter(is_over=True).select_related("match")
    assert stored.count() >= games
    for game in stored:
        assert game_replayed_state(game=game) == state_from_dict(game.state), game.pk
    assert Match.objects.exclude(status=Match.Status.WAITING).count() > 0


@pytest.mark.django_db
def test_audit_command_reports_a_tampered_state():
    players = (PlayerFactory(), PlayerFactory())
    match = services.match_create(player1=players[0], player2=players[1], length=3)
    game = services.match_start(match_id=match.pk, dice=ScriptedDice([3, 1]))
    out = io.StringIO()
    call_command("audit_games", stdout=out)
    assert "1 games replayed" in out.getvalue()
    # Someone edits the snapshot behind the services' back: the audit catches it.
    tampered = dict(game.state, cube=2)
    Game.objects.filter(pk=game.pk).update(state=tampered)
    with pytest.raises(CommandError, match="1 of 1 games failed"):
        call_command("audit_games", stdout=io.StringIO(), stderr=io.StringIO())

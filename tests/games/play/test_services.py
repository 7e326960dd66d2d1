"""Match and game services on PostgreSQL: every action through the engine, stored with
its log row; refused actions change nothing (non-negotiable 4)."""

from __future__ import annotations

import random

import pytest
from django.db import IntegrityError, connection, transaction

from games.engine.actions import Action, new_game_from_dicts, replay, state_from_dict
from games.engine.position import position_id
from games.engine.selfplay import random_action
from games.errors import Conflict, NotFound, PermissionDenied, ValidationFailed
from games.models import Game, GameAction, Match
from games.play import services
from games.play.dice import ScriptedDice
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def players():
    return PlayerFactory(), PlayerFactory()


def _started(players, *, length=5, rules=None, opening=(3, 1)):
    match = services.match_create(
        player1=players[0], player2=players[1], length=length, rules=rules
    )
    game = services.match_start(match_id=match.pk, dice=ScriptedDice(opening))
    return match, game


def _snapshot():
    return (
        list(Match.objects.order_by("pk").values()),
        list(Game.objects.order_by("pk").values()),
        list(GameAction.objects.order_by("pk").values()),
    )


def test_match_start_makes_the_opening_roll_and_logs_it(players):
    match, game = _started(players, opening=(4, 4, 3, 1))  # a tie re-rolls (R3)
    assert game.number == 1
    assert game.version == 2
    kinds = list(game.actions.values_list("kind", "data"))
    assert kinds == [("opening_roll", {"dice": [4, 4]}), ("opening_roll", {"dice": [3, 1]})]
    state = state_from_dict(game.state)
    assert state.phase == "move" and state.turn == 0 and state.dice == (3, 1)
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING


def test_a_play_is_stored_with_notation_and_the_turn_passes(players):
    _, game = _started(players)
    outcome = services.game_play(
        game_id=game.pk, player=players[0], expected_version=1, play="8/5 6/5"
    )
    game.refresh_from_db()
    assert game.version == 2
    assert outcome.action.kind == "play"
    assert outcome.action.data["play"] == "8/5 6/5"
    assert outcome.action.actor == players[0]
    state = state_from_dict(game.state)
    assert state.turn == 1 and state.phase == "roll"
    # GNUBG.md: after 8/5 6/5, with O on roll.
    assert game.position_id == "sGfwATDgc/ABMA"


def test_roll_uses_the_server_dice_and_logs_both(players):
    _, game = _started(players)
    services.game_play(game_id=game.pk, player=players[0], expected_version=1, play="8/5 6/5")
    outcome = services.game_roll(
        game_id=game.pk, player=players[1], expected_version=2, dice=ScriptedDice([6, 5])
    )
    assert outcome.action.data == {"dice": [6, 5]}
    assert state_from_dict(outcome.game.state).dice == (6, 5)


@pytest.mark.parametrize(
    ("call", "error", "code"),
    [
        (
            lambda g, p: services.game_play(
                game_id=g.pk, player=p[1], expected_version=1, play="8/5 6/5"
            ),
            ValidationFailed,
            "not_your_turn",
        ),
        (
            lambda g, p: services.game_play(
                game_id=g.pk, player=p[0], expected_version=1, play="24/18"
            ),
            ValidationFailed,
            "illegal_play",
        ),
        (
            lambda g, p: services.game_play(
                game_id=g.pk, player=p[0], expected_version=0, play="8/5 6/5"
            ),
            Conflict,
            "stale_version",
        ),
        (
            lambda g, p: services.game_play(
                game_id=g.pk, player=PlayerFactory(), expected_version=1, play="8/5 6/5"
            ),
            PermissionDenied,
            "not_a_player",
        ),
        (
            lambda g, p: services.game_roll(game_id=g.pk, player=p[0], expected_version=1),
            ValidationFailed,
            "already_rolled",
        ),
        (
            lambda g, p: services.cube_offer(game_id=g.pk, player=p[0], expected_version=1),
            ValidationFailed,
            "already_rolled",  # doubling comes before rolling (R8)
        ),
        (
            lambda g, p: services.cube_take(game_id=g.pk, player=p[1], expected_version=1),
            ValidationFailed,
            "no_double_pending",
        ),
        (
            lambda g, p: services.game_roll(game_id=987654, player=p[0], expected_version=1),
            NotFound,
            "game_not_found",
        ),
    ],
)
def test_refused_actions_raise_a_stable_code_and_change_nothing(players, call, error, code):
    _, game = _started(players)
    before = _snapshot()
    with pytest.raises(error) as refused:
        call(game, players)
    assert refused.value.code == code
    assert _snapshot() == before


def test_match_create_validates(players):
    a, b = players
    with pytest.raises(ValidationFailed) as same:
        services.match_create(player1=a, player2=a, length=5)
    assert same.value.code == "same_player"
    with pytest.raises(ValidationFailed) as long:
        services.match_create(player1=a, player2=b, length=99)
    assert long.value.code == "invalid_length"
    with pytest.raises(ValidationFailed) as jacoby:
        services.match_create(player1=a, player2=b, length=5, rules={"jacoby": True})
    assert jacoby.value.code == "money_option_in_match"
    with pytest.raises(ValidationFailed) as unknown:
        services.match_create(player1=a, player2=b, length=5, rules={"colour": "red"})
    assert unknown.value.code == "invalid_options"
    assert Match.objects.count() == 0


def test_a_match_starts_once(players):
    match, _ = _started(players)
    with pytest.raises(Conflict) as again:
        services.match_start(match_id=match.pk)
    assert again.value.code == "match_already_started"


def test_R8_drop_ends_the_game_and_the_next_one_starts(players):
    match, game = _started(players, opening=(3, 1))
    services.game_play(game_id=game.pk, player=players[0], expected_version=1, play="8/5 6/5")
    services.cube_offer(game_id=game.pk, player=players[1], expected_version=2)
    outcome = services.cube_drop(
        game_id=game.pk, player=players[0], expected_version=3, dice=ScriptedDice([2, 5])
    )
    game.refresh_from_db()
    match.refresh_from_db()
    assert game.is_over and game.winner_index == 1 and game.points == 1
    assert (match.score1, match.score2) == (0, 1)
    assert outcome.next_game is not None and outcome.next_game.number == 2
    assert state_from_dict(outcome.next_game.state).turn == 1  # 5 beats 2


def test_R11_crawford_game_refuses_the_double_and_post_crawford_allows_it(players):
    """A 3-point match: player 2 wins two games by drops (2-away ... 1-away), then the
    Crawford game refuses a double; after it the cube is back (R11)."""
    match, game = _started(players, length=3, opening=(1, 3))  # player 2 starts
    rng = random.Random(7)
    # Game 1: player 2 opens; player 1 doubles, player 2 takes, player 1 resigns a
    # single on the 2-cube: 0-2, player 2 is 1-away.
    state = state_from_dict(game.state)
    first = state.legal_plays()[0]
    services.game_play(
        game_id=game.pk,
        player=players[1],
        expected_version=game.version,
        result_position_id=position_id(first.result),
    )
    services.cube_offer(game_id=game.pk, player=players[0], expected_version=game.version + 1)
    services.cube_take(game_id=game.pk, player=players[1], expected_version=game.version + 2)
    outcome = services.resign_offer(
        game_id=game.pk, player=players[0], expected_version=game.version + 3, kind="single"
    )
    outcome = services.resign_accept(
        game_id=game.pk,
        player=players[1],
        expected_version=outcome.game.version,
        dice=ScriptedDice([6, 2]),
    )
    match.refresh_from_db()
    assert (match.score1, match.score2) == (0, 2)
    crawford = outcome.next_game
    assert crawford.crawford is True
    # Game 2 is the Crawford game: player 1 on roll after the opening 6-2 plays, then the
    # trailer may not double.
    state = state_from_dict(crawford.state)
    services.game_play(
        game_id=crawford.pk,
        player=players[0],
        expected_version=crawford.version,
        result_position_id=position_id(rng.choice(state.legal_plays()).result),
    )
    with pytest.raises(ValidationFailed) as refused:
        services.cube_offer(
            game_id=crawford.pk, player=players[1], expected_version=crawford.version + 1
        )
    assert refused.value.code == "crawford_no_double"
    # Player 2 resigns the Crawford game: 1-2, post-Crawford.
    v = crawford.version + 1
    services.resign_offer(game_id=crawford.pk, player=players[1], expected_version=v, kind="single")
    post = services.resign_accept(
        game_id=crawford.pk, player=players[0], expected_version=v + 1, dice=ScriptedDice([5, 4])
    ).next_game
    assert post.crawford is False
    state = state_from_dict(post.state)
    services.game_play(
        game_id=post.pk,
        player=players[0],
        expected_version=post.version,
        result_position_id=position_id(state.legal_plays()[0].result),
    )
    # The trailer doubles in a post-Crawford game: allowed (R11).
    outcome = services.cube_offer(
        game_id=post.pk, player=players[1], expected_version=post.version + 1
    )
    assert outcome.action.kind == "double"


def test_the_stored_state_equals_the_replayed_log(players):
    match, game = _started(players, length=0, rules={"beavers": True, "jacoby": True})
    rng = random.Random(3)
    for _ in range(60):
        game.refresh_from_db()
        state = state_from_dict(game.state)
        if state.is_over:
            break
        action = random_action(state, rng)
        _perform(game, players, action, rng)
    game.refresh_from_db()
    log = [Action(a.kind, a.player_index, a.data) for a in game.actions.order_by("seq")]
    start = new_game_from_dicts(match.rules, game.state["match"])
    assert replay(start, log) == state_from_dict(game.state)


def _perform(game, players, action, rng):
    """Carry out an engine action through the matching service."""
    player = players[action.player] if action.player is not None else players[0]
    common = {"game_id": game.pk, "player": player, "expected_version": game.version}
    dice = ScriptedDice([rng.randint(1, 6) for _ in range(40)])
    if action.kind == "roll":
        return services.game_roll(**common, dice=dice)
    if action.kind == "play":
        return services.game_play(**common, result_position_id=action.data["position_id"])
    if action.kind == "choose_double":  # Acey-Deucey: after a 1-2, the double to play
        return services.game_choose_double(**common, value=action.data["value"])
    if action.kind == "double":
        return services.cube_offer(**common)
    if action.kind == "take":
        return services.cube_take(**common, dice=dice)
    if action.kind == "drop":
        return services.cube_drop(**common, dice=dice)
    if action.kind == "beaver":
        return services.cube_beaver(**common)
    if action.kind == "resign":
        return services.resign_offer(**common, kind=action.data.get("kind"), dice=dice)
    if action.kind == "accept_resignation":
        return services.resign_accept(**common, dice=dice)
    if action.kind == "decline_resignation":
        return services.resign_decline(**common)
    raise AssertionError(action)


def test_the_action_log_is_append_only_on_postgresql(players):
    _, game = _started(players)
    row = game.actions.first()
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        GameAction.objects.filter(pk=row.pk).update(kind="forged")
    with (
        pytest.raises(IntegrityError, match="append-only"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute("DELETE FROM games_gameaction WHERE id = %s", [row.pk])
    assert GameAction.objects.get(pk=row.pk).kind == "opening_roll"


def test_an_actions_two_statements_are_prepared_and_no_other_query_is(players):
    """games.play.actionsql.statement_cursor: after a few actions the read of the game and
    the compare-and-set are prepared statements of the connection (planning them was most
    of PostgreSQL's time for them, bench/README.md); the ORM's queries, bound on the
    client, never are. Fails if the settings stop preparing (``prepare_threshold``)."""
    _, game = _started(players, length=0)
    dice = ScriptedDice([6, 5, 4, 2, 3, 1] * 10)
    for _ in range(16):
        game.refresh_from_db()
        state = state_from_dict(game.state)
        common = {"game_id": game.pk, "player": players[state.player_to_act]}
        if state.phase == "roll":
            services.game_roll(**common, expected_version=game.version, dice=dice)
        else:
            services.game_play(
                **common,
                expected_version=game.version,
                result_position_id=position_id(state.legal_plays()[0].result),
            )
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = sorted(row[0].split(" ", 3)[0:3] for row in cursor.fetchall())
    assert prepared == [["SELECT", 'g."id",', 'g."match_id",'], ["WITH", "u", "AS"]]

"""The practice opponent (issue 28, games.practice) through the real play services and the
real GNU Backgammon (PyPI ``gnubg`` in its child process): invited, it accepts at once;
it plays legal moves, doubles, takes and drops sanely, answers twice-asked turns once,
plays a whole match, and its matches are never rated."""

from __future__ import annotations

import dataclasses
import random

import pytest

from games.engine import actions as engine_actions
from games.engine.game import GameState
from games.engine.notation import parse_play
from games.engine.position import Position, position_id
from games.errors import ApplicationError
from games.models import Game, GameAction, Match, RatedResult
from games.play import invitations, services
from games.play.dice import ScriptedDice
from games.play.gamestore import game_row_values
from games.practice import services as practice
from tests.factories import UserPlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def person(db):
    return UserPlayerFactory(name="Anna")


@pytest.fixture
def bot(db):
    return practice.bot_player_get_or_create()


def _bot_match(person, bot, *, length=3, level="world_class", opening=(3, 1)):
    invitation = invitations.invitation_send(
        inviter=person, invitee=bot, length=length, bot_level=level, dice=ScriptedDice(opening)
    )
    match = Match.objects.get(pk=invitation.match_id)
    return match, match.games.get(number=1)


def _state(game: Game) -> GameState:
    game.refresh_from_db()
    return engine_actions.state_from_dict(game.state)


def _set_state(game: Game, state: GameState) -> None:
    """Put the game in ``state`` (a test set-up: the position the bot is asked about)."""
    values = game_row_values(state, version=game.version + 1)
    Game.objects.filter(pk=game.pk).update(**values)
    game.refresh_from_db()


def _side(points: dict[int, int]) -> tuple[int, ...]:
    side = [0] * 25
    for point, count in points.items():
        side[point - 1 if point <= 24 else 24] = count
    return tuple(side)


def test_the_bot_account_is_made_once(db):
    first = practice.bot_player_get_or_create()
    assert practice.bot_player_get_or_create().pk == first.pk
    assert first.bot == "gnubg" and first.user_id is None and first.name == "GNU Backgammon"


def test_invited_the_bot_accepts_at_once_and_the_match_starts(person, bot):
    match, _game = _bot_match(person, bot)
    assert match.status == Match.Status.PLAYING
    assert match.bot_level == "world_class"
    assert match.invitation.status == "accepted"


def test_an_invitation_to_the_bot_needs_a_level(person, bot):
    with pytest.raises(ApplicationError) as refused:
        invitations.invitation_send(inviter=person, invitee=bot, length=3)
    assert refused.value.code == "bot_level_required"
    assert not Match.objects.exists()


def test_the_bot_plays_a_legal_move_from_a_set_position(person, bot):
    # The bot won the opening roll with 3-1 (bot is player 2: the second die is its).
    _match, game = _bot_match(person, bot, opening=(1, 3))
    state = _state(game)
    assert state.player_to_act == 1 and state.phase == "move"
    legal = {position_id(p.result) for p in state.legal_plays()}
    assert practice.bot_act(game_id=game.pk, version=game.version) == "played"
    last = GameAction.objects.filter(game=game).order_by("-seq").first()
    assert last.kind == "play" and last.actor_id == bot.pk
    assert last.data["position_id"] in legal
    # gnubg's best opening 3-1 is 8/5 6/5 (every level above beginner agrees).
    best = parse_play(state.position, "8/5 6/5", 3, 1)
    assert last.data["position_id"] == position_id(best.result)


def test_twice_asked_the_bot_acts_once(person, bot):
    _match, game = _bot_match(person, bot, opening=(1, 3))
    version = game.version
    assert practice.bot_act(game_id=game.pk, version=version) == "played"
    assert practice.bot_act(game_id=game.pk, version=version) == "stale"
    assert GameAction.objects.filter(game=game, actor=bot).count() == 1


def test_on_the_persons_turn_the_bot_does_nothing(person, bot):
    _match, game = _bot_match(person, bot, opening=(3, 1))
    assert practice.bot_act(game_id=game.pk, version=game.version) == "not_bot_turn"


def _race(state: GameState, *, turn: int, mover: dict[int, int], opponent: dict[int, int]):
    position = Position(_side(mover), _side(opponent))
    return dataclasses.replace(state, position=position, turn=turn, phase="roll", dice=None)


def test_the_bot_doubles_a_won_race_and_the_bot_drops_a_lost_one(person, bot):
    _match, game = _bot_match(person, bot, length=7, opening=(3, 1))
    state = _state(game)
    # Bot on roll, far ahead in a pure race: double (and, for the person, a pass).
    ahead = _race(
        state, turn=1, mover={1: 3, 2: 3, 3: 3, 4: 2, 5: 2, 6: 2}, opponent={4: 5, 5: 5, 6: 5}
    )
    _set_state(game, ahead)
    assert practice.bot_act(game_id=game.pk, version=game.version) == "doubled"
    # The person doubles the bot in the mirror position: the bot drops.
    behind = _race(
        state, turn=0, mover={1: 3, 2: 3, 3: 3, 4: 2, 5: 2, 6: 2}, opponent={4: 5, 5: 5, 6: 5}
    )
    _set_state(game, dataclasses.replace(behind, phase="doubled"))
    assert practice.bot_act(game_id=game.pk, version=game.version) == "dropped"


def test_the_bot_does_not_double_the_opening_and_takes_an_early_double(person, bot):
    _match, game = _bot_match(person, bot, length=7, opening=(3, 1))
    state = _state(game)
    start = dataclasses.replace(state, turn=1, phase="roll", dice=None)
    _set_state(game, start)
    assert practice.bot_act(game_id=game.pk, version=game.version) == "rolled"
    game.refresh_from_db()
    # The person doubles at the start position: an easy take.
    _set_state(game, dataclasses.replace(start, turn=0, phase="doubled"))
    assert practice.bot_act(game_id=game.pk, version=game.version) == "took"


def test_a_bot_match_played_to_the_end_is_not_rated(person, bot):
    match, game = _bot_match(person, bot, length=1, opening=(3, 1))
    services.resign_offer(
        game_id=game.pk, player=person, expected_version=game.version, kind="single"
    )
    game.refresh_from_db()
    assert practice.bot_act(game_id=game.pk, version=game.version) == "accepted"
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.winner_id == bot.pk
    assert not RatedResult.objects.filter(match=match).exists()


def _person_turn(person, game: Game, rng: random.Random) -> None:
    """A scripted person: rolls, plays a random legal play, takes every double."""
    state = _state(game)
    kwargs = {"game_id": game.pk, "player": person, "expected_version": game.version}
    if state.resignation is not None:
        services.resign_decline(**kwargs)
    elif state.phase == "doubled":
        services.cube_take(**kwargs)
    elif state.phase == "roll":
        services.game_roll(**kwargs, dice=rng)
    elif state.phase == "move":
        play = rng.choice(state.legal_plays())
        services.game_play(**kwargs, result_position_id=position_id(play.result))


def test_the_bot_plays_a_whole_match_against_a_scripted_person(person, bot):
    rng = random.Random(28)
    match, game = _bot_match(person, bot, length=3, level="expert", opening=(3, 1))
    for _turn in range(2000):
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            break
        game = match.games.order_by("-number").first()
        state = _state(game)
        if state.player_to_act == 1:
            outcome = practice.bot_act(game_id=game.pk, version=game.version, dice=rng)
            assert outcome in {"rolled", "played", "doubled", "took", "dropped", "declined"}
        else:
            _person_turn(person, game, rng)
    assert match.status == Match.Status.FINISHED
    assert match.winner_id in (person.pk, bot.pk)
    assert max(match.score1, match.score2) >= 3
    assert not RatedResult.objects.filter(match=match).exists()


# ====================================================================== pages and API
def test_the_lobby_offers_the_bot_with_its_levels(client, person):
    client.force_login(person.user)
    page = client.get("/matches/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    bot = practice.bot_player_get_or_create()
    assert f'<option value="{bot.pk}" data-bot' in page
    assert "GNU Backgammon (computer, practice)" in page
    assert 'name="bot_level"' in page and "world class" in page
    assert 'data-testid="bot-offer"' in page


def test_inviting_the_bot_from_the_lobby_starts_a_practice_match(client, person):
    client.force_login(person.user)
    bot = practice.bot_player_get_or_create()
    answer = client.post(
        "/matches/new/",
        {"opponent": bot.pk, "length": "3", "bot_level": "expert", "timeout_claim": "claim"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    match = Match.objects.get()
    assert answer.status_code == 302 and answer["Location"].endswith(f"/matches/{match.pk}/")
    assert (match.status, match.bot_level) == ("playing", "expert")
    page = client.get(f"/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Practice match against GNU Backgammon (expert), not rated." in page
    lobby = client.get("/matches/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-testid="practice-badge"' in lobby


def test_the_api_invites_the_bot_and_says_where_it_is(person):
    from tests.factories import api_client

    api = api_client(person.user)
    found = api.get("/api/v1/practice/").json()
    assert found["available"] is True and found["reason"] is None and found["rated"] is False
    assert [level["key"] for level in found["levels"]] == [
        "beginner",
        "intermediate",
        "expert",
        "world_class",
    ]
    bot_id = found["player"]["id"]
    refused = api.post(
        "/api/v1/matches/",
        {"player1": person.pk, "player2": bot_id, "length": 1},
        format="json",
    )
    assert refused.status_code == 400 and refused.json()["code"] == "bot_level_required"
    made = api.post(
        "/api/v1/matches/",
        {"player1": person.pk, "player2": bot_id, "length": 1, "bot_level": "beginner"},
        format="json",
    )
    assert made.status_code == 201, made.json()
    assert made.json()["status"] == "playing" and made.json()["bot_level"] == "beginner"


def test_where_gnubg_fails_inviting_the_bot_is_refused_and_the_pages_say_why(
    client, person, monkeypatch
):
    """A gnubg child that cannot start (here: a Python without the module's package
    path, so ``import gnubg`` fails in the child) makes the bot unavailable."""
    from django.core.cache import cache

    from games.practice import brain

    running, _game = _bot_match(person, practice.bot_player_get_or_create())
    cache.delete(practice.STATUS_KEY)
    monkeypatch.setattr(brain, "WORKER_COMMAND", ("/usr/bin/python3", "-I", "-c", "import gnubg"))
    bot = practice.bot_player_get_or_create()
    client.force_login(person.user)
    lobby = client.get("/matches/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-testid="bot-unavailable"' in lobby
    assert "GNU Backgammon is not available on this server" in lobby
    answer = client.post(
        "/matches/new/",
        {"opponent": bot.pk, "length": "1", "bot_level": "expert"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert answer.status_code == 503
    assert list(Match.objects.all()) == [running]  # no new match
    # The match already running says it too.
    page = client.get(f"/matches/{running.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-testid="bot-unavailable"' in page
    assert "GNU Backgammon is not available on this server" in page
    cache.delete(practice.STATUS_KEY)


def test_the_task_twice_acts_once_and_the_sweep_finds_a_waiting_game(person, bot):
    from games.practice import tasks

    _match, game = _bot_match(person, bot, opening=(1, 3))  # the bot opens: its move
    assert practice.bot_games_waiting() == [(game.pk, game.version)]
    version = game.version
    assert tasks.bot_turn(game.pk, version) == "played"
    assert tasks.bot_turn(game.pk, version) == "stale"
    assert practice.bot_games_waiting() == []
    # The person rolls and plays; the bot's roll is then due, and the sweep makes it.
    rng = random.Random(3)
    _person_turn(person, game, rng)
    _person_turn(person, game, rng)
    game.refresh_from_db()
    assert _state(game).player_to_act == 1 and _state(game).phase == "roll"
    before = game.version
    assert practice.bot_sweep() in ({"rolled": 1}, {"doubled": 1})
    game.refresh_from_db()
    assert game.version == before + 1


def test_the_bot_is_not_on_the_leaderboard(person, bot):
    from games.ratings import selectors as ratings_selectors

    names = [row.player.name for row in ratings_selectors.leaderboard()]
    assert "Anna" in names and "GNU Backgammon" not in names

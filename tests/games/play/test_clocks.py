"""Clocks in match play (R12, issue 5) on PostgreSQL: the clock switches on every action,
deadlines are stored with the version, timers and the sweeper flag a player once, and a
win on time is claimed (seed 002) or applied at once. Time is injected through
``games.wallclock.now``, the one place that reads the wall clock."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games import wallclock
from games.engine.actions import state_from_dict
from games.engine.clock import ClockState
from games.errors import Conflict, ValidationFailed
from games.models import Game, GameAction, Match, Notification
from games.play import alarms, selectors, services
from games.play.dice import ScriptedDice
from tests.factories import PlayerFactory, UserPlayerFactory
from tests.wall import T0

pytestmark = pytest.mark.django_db


@pytest.fixture
def players():
    return UserPlayerFactory(name="Anna"), UserPlayerFactory(name="Bence")


def _clocked(players, *, clock="seed002", length=5, timeout_claim=True, rules=None):
    match = services.match_create(
        player1=players[0],
        player2=players[1],
        length=length,
        clock=clock,
        timeout_claim=timeout_claim,
        rules=rules,
    )
    # Opening roll 3-1: player 0 wins it and plays 8/5 6/5 first.
    game = services.match_start(match_id=match.pk, dice=ScriptedDice([3, 1]))
    return match, game


def _play_first(game, players):
    state = state_from_dict(game.state)
    (plays,) = [
        a["plays"]
        for a in selectors.legal_actions(state, state.player_to_act)
        if a["action"] == "play"
    ]
    return services.game_play(
        game_id=game.pk,
        player=players[state.player_to_act],
        expected_version=game.version,
        result_position_id=plays[0]["position_id"],
    ).game


def test_a_clocked_game_starts_running_for_the_opening_winner(wall, players):
    _, game = _clocked(players)
    clock = ClockState.from_dict(game.clock)
    assert clock.running == 0
    assert clock.reserves == (90_000, 90_000)
    # seed002: 11 s delay + 90 s reserve; the deadline is stored with the version.
    assert game.deadline_at == T0 + timedelta(seconds=101)
    # The low-time alarm (30 s of reserve left) comes first: 11 + 60 s.
    assert game.alarm_at == T0 + timedelta(seconds=71)
    assert game.armed_version == game.version


def test_the_clock_switches_on_every_action_and_charges_only_after_the_delay(wall, players):
    _, game = _clocked(players)
    wall.advance(seconds=8)  # inside the delay: free
    game = _play_first(game, players)
    clock = ClockState.from_dict(game.clock)
    assert (clock.running, clock.reserves) == (1, (90_000, 90_000))
    assert game.deadline_at == T0 + timedelta(seconds=8 + 101)
    # Player 1 rolls after 20 s (9 s of reserve), then plays at once: the turn goes on,
    # no second delay for the play.
    wall.advance(seconds=20)
    game = services.game_roll(
        game_id=game.pk,
        player=players[1],
        expected_version=game.version,
        dice=ScriptedDice([6, 5]),
    ).game
    clock = ClockState.from_dict(game.clock)
    assert clock.running == 1
    assert clock.turn_started_ms == wallclock.to_ms(T0 + timedelta(seconds=8))
    wall.advance(seconds=2)
    game = _play_first(game, players)
    clock = ClockState.from_dict(game.clock)
    assert (clock.running, clock.reserves) == (0, (90_000, 90_000 - 11_000))


def test_an_unclocked_match_has_no_clock_columns(wall, players):
    match = services.match_create(player1=players[0], player2=players[1], length=3)
    game = services.match_start(match_id=match.pk, dice=ScriptedDice([3, 1]))
    assert (match.clock, game.clock, game.deadline_at, game.alarm_at) == (None, None, None, None)
    assert selectors.game_view(game=game, viewer_index=0)["clock"] is None


def test_bad_clock_settings_are_refused_and_nothing_is_stored(players):
    for clock in ("no-such-preset", {"delay_ms": -1}):
        with pytest.raises(ValidationFailed) as refused:
            services.match_create(player1=players[0], player2=players[1], length=5, clock=clock)
        assert refused.value.code == "invalid_clock"
    assert Match.objects.count() == 0


def test_a_flag_is_recorded_once_and_the_opponent_claims_the_win(wall, players):
    match, game = _clocked(players)
    version = game.version
    assert alarms.game_clock_alarm(game_id=game.pk, version=version) == "not_due"
    wall.advance(seconds=101)
    assert alarms.game_clock_alarm(game_id=game.pk, version=version) == "flagged"
    # Twice: the version moved, nothing more happens.
    assert alarms.game_clock_alarm(game_id=game.pk, version=version) == "stale"
    assert alarms.game_clock_alarm(game_id=game.pk) == "stale"
    game.refresh_from_db()
    kinds = list(game.actions.order_by("seq").values_list("kind", "player_index"))
    assert kinds[-1] == ("timeout", 0)
    assert game.version == version + 1
    assert (game.deadline_at, game.alarm_at, game.is_over) == (None, None, False)
    state = state_from_dict(game.state)
    assert state.flagged == 0
    assert selectors.legal_actions(state, 1) == [{"action": "claim_timeout"}]
    assert selectors.legal_actions(state, 0) == []
    # The flagged player can do nothing more; the log is unchanged by the refusal.
    with pytest.raises(ValidationFailed) as refused:
        services.resign_offer(
            game_id=game.pk, player=players[0], expected_version=game.version, kind="single"
        )
    assert refused.value.code == "out_of_time"
    assert game.actions.count() == version + 1
    # Both players are told (seed 002: the opponent must claim).
    told = set(Notification.objects.values_list("recipient__name", "kind"))
    assert {("Anna", "lost_on_time"), ("Bence", "win_claimable")} <= told
    outcome = services.game_claim_timeout(
        game_id=game.pk,
        player=players[1],
        expected_version=game.version,
        dice=ScriptedDice([2, 1]),
    )
    assert outcome.game.result_kind == "gammon"
    assert outcome.game.points == 2
    match.refresh_from_db()
    assert (match.score1, match.score2) == (0, 2)


def test_without_a_claim_the_win_on_time_is_scored_at_once(wall, players):
    match, game = _clocked(players, timeout_claim=False, rules={"timeout_result": "match"})
    wall.advance(seconds=102)
    assert alarms.game_clock_alarm(game_id=game.pk, version=game.version) == "flagged"
    game.refresh_from_db()
    kinds = list(game.actions.order_by("seq").values_list("kind", "player_index"))
    assert kinds[-2:] == [("timeout", 0), ("claim_timeout", 1)]
    assert game.is_over
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert (match.score1, match.score2, match.winner_id) == (0, 5, players[1].pk)
    assert Notification.objects.filter(kind="match_finished").count() == 2
    assert not Notification.objects.filter(kind="win_claimable").exists()


def test_an_action_after_the_deadline_is_refused_until_the_flag_is_recorded(wall, players):
    _, game = _clocked(players)
    wall.advance(seconds=101, milliseconds=1)
    before = GameAction.objects.count()
    with pytest.raises(Conflict) as refused:
        _play_first(game, players)
    assert refused.value.code == "out_of_time"
    assert GameAction.objects.count() == before


def test_a_timer_for_an_old_version_does_nothing(wall, players):
    _, game = _clocked(players)
    old = game.version
    game = _play_first(game, players)
    wall.advance(seconds=500)
    assert alarms.game_clock_alarm(game_id=game.pk, version=old) == "stale"
    game.refresh_from_db()
    assert state_from_dict(game.state).flagged is None


def test_time_running_low_is_told_once_then_the_alarm_moves_to_the_deadline(wall, players):
    _, game = _clocked(players)
    wall.advance(seconds=71)
    assert alarms.game_clock_alarm(game_id=game.pk, version=game.version) == "low_time"
    assert alarms.game_clock_alarm(game_id=game.pk, version=game.version) == "not_due"
    low = Notification.objects.get(kind="time_low")
    assert low.recipient == players[0]
    assert low.context["remaining_ms"] == 30_000
    game.refresh_from_db()
    assert game.alarm_at == game.deadline_at == T0 + timedelta(seconds=101)


def test_the_sweeper_flags_overdue_games_and_arms_near_alarms(wall, players, settings):
    _, overdue = _clocked(players)
    other = (PlayerFactory(), PlayerFactory())
    far_match = services.match_create(player1=other[0], player2=other[1], length=25, clock="usbgf")
    far = services.match_start(match_id=far_match.pk, dice=ScriptedDice([3, 1]))
    # An alarm whose timer was never sent (the broker was down).
    Game.objects.filter(pk=overdue.pk).update(armed_version=None)
    wall.advance(seconds=60)
    counts = alarms.games_sweep_alarms()
    assert counts == {"flagged": 0, "low_time": 0, "armed": 1}
    assert Game.objects.get(pk=overdue.pk).armed_version == overdue.version
    assert Game.objects.get(pk=far.pk).armed_version is None  # 50 min away: not yet
    wall.advance(seconds=15)  # 75 s: 26 s of reserve left
    counts = alarms.games_sweep_alarms()
    assert counts["low_time"] == 1
    wall.advance(seconds=27)  # 102 s: past the deadline
    counts = alarms.games_sweep_alarms()
    assert counts["flagged"] == 1
    assert alarms.games_sweep_alarms() == {"flagged": 0, "low_time": 0, "armed": 0}


def test_per_match_reserves_carry_over_to_the_next_game(wall, players):
    _, game = _clocked(players)
    wall.advance(seconds=31)  # 20 s of player 0's reserve
    game = _play_first(game, players)
    outcome = services.resign_offer(
        game_id=game.pk, player=players[1], expected_version=game.version, kind="single"
    )
    wall.advance(seconds=3)
    outcome = services.resign_accept(
        game_id=game.pk,
        player=players[0],
        expected_version=outcome.game.version,
        dice=ScriptedDice([5, 2]),
    )
    second = outcome.next_game
    clock = ClockState.from_dict(second.clock)
    assert clock.reserves == (70_000, 90_000)
    assert clock.running == 0  # the opening roll's winner plays first
    assert second.deadline_at == wall.at + timedelta(seconds=11 + 70)


def test_the_api_shows_the_clock_at_the_servers_time_and_records_a_due_flag(wall, players):
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    _, game = _clocked(players)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=players[1].user)}")
    wall.advance(seconds=15)
    view = client.get(f"/api/v1/games/{game.pk}/").json()
    assert view["clock"]["running"] == 0
    assert view["clock"]["delay_left_ms"] == 0
    assert view["clock"]["reserves_ms"] == [86_000, 90_000]
    assert view["clock"]["flagged"] is None
    wall.advance(seconds=90)
    view = client.get(f"/api/v1/games/{game.pk}/").json()
    assert view["clock"]["flagged"] == 0
    assert view["legal_actions"] == [{"action": "claim_timeout"}]
    claim = client.post(
        f"/api/v1/games/{game.pk}/actions/",
        {"action": "claim_timeout", "version": view["version"]},
        format="json",
    )
    assert claim.status_code == 200, claim.json()
    assert claim.json()["result"]["reason"] == "timeout"
    # Nobody may declare a timeout through the API: the server records them.
    refused = client.post(
        f"/api/v1/games/{claim.json()['next_game']}/actions/",
        {"action": "timeout", "version": 1},
        format="json",
    )
    assert (refused.status_code, refused.json()["code"]) == (400, "invalid")


# ====================================================================== pages
def _logged_in(client, player):
    client.force_login(player.user)
    return client


def test_the_match_page_shows_the_clocks_and_a_due_flag_offers_the_claim(wall, players, client):
    match, game = _clocked(players)
    _logged_in(client, players[1])
    wall.advance(seconds=20)
    page = client.get(f"/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-testid="clock-0"' in page
    assert 'data-ms="81000"' in page  # 90 s less the 9 s past the delay
    assert "1:21" in page
    assert "matchclock.js" in page
    assert 'value="claim_timeout"' not in page
    wall.advance(seconds=90)
    # Reading the page after the deadline records the flag (no worker in this test).
    page = client.get(f"/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "out of time" in page
    assert 'value="claim_timeout"' in page
    game.refresh_from_db()
    response = client.post(
        f"/games/{game.pk}/act/", {"action": "claim_timeout", "version": game.version}
    )
    assert response.status_code == 302
    match.refresh_from_db()
    assert (match.score1, match.score2) == (0, 2)


def test_a_clocked_match_is_started_from_the_lobby_form(wall, players, client):
    _logged_in(client, players[0])
    response = client.post(
        "/matches/new/",
        {
            "opponent": players[1].pk,
            "length": "7",
            "clock": "usbgf",
            "timeout_claim": "auto",
            "timeout_result": "match",
        },
    )
    assert response.status_code == 302
    match = Match.objects.get()
    assert match.clock["reserve_per_point_ms"] == 120_000
    assert match.timeout_claim is False
    assert match.rules["timeout_result"] == "match"
    # The clock runs once the opponent accepts the invitation.
    _logged_in(client, players[1])
    client.post(f"/matches/invitations/{match.invitation.pk}/accept/")
    game = match.games.get()
    assert ClockState.from_dict(game.clock).reserves == (14 * 60_000, 14 * 60_000)


def test_a_money_session_is_ended_from_the_match_page(players, client):
    match = services.match_create(player1=players[0], player2=players[1], length=0)
    services.match_start(match_id=match.pk, dice=ScriptedDice([3, 1]))
    _logged_in(client, players[1])
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert f'action="/matches/{match.pk}/end/"' in page
    assert client.post(f"/matches/{match.pk}/end/").status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert (
        f'action="/matches/{match.pk}/end/"'
        not in client.get(f"/matches/{match.pk}/").content.decode()
    )


def test_a_usbgf_match_is_lost_on_time_when_the_reserve_runs_out(wall, players):
    """USBGF (R12): 12 s delay, 2 min per point (14 min in a 7-point match); running out
    of time loses the match, here scored at once."""
    match, game = _clocked(
        players, clock="usbgf", length=7, timeout_claim=False, rules={"timeout_result": "match"}
    )
    clock = ClockState.from_dict(game.clock)
    assert clock.reserves == (14 * 60_000, 14 * 60_000)
    assert game.deadline_at == T0 + timedelta(seconds=12 + 14 * 60)
    wall.advance(seconds=12 + 14 * 60 - 1)
    assert alarms.game_clock_alarm(game_id=game.pk) in ("not_due", "low_time")
    wall.advance(seconds=1)
    assert alarms.game_clock_alarm(game_id=game.pk) == "flagged"
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert (match.score1, match.score2, match.winner_id) == (0, 7, players[1].pk)
    game.refresh_from_db()
    assert (game.result_kind, game.points) == ("match", 7)


def test_the_directors_clock_page_lists_online_games_with_a_running_clock(
    wall, players, client, django_assert_max_num_queries
):
    _clocked(players)
    services.match_create(player1=players[0], player2=players[1], length=3)  # no clock
    wall.advance(seconds=20)
    with django_assert_max_num_queries(8):
        page = client.get("/clocks/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-testid="online-clocks"' in page
    assert "Anna" in page
    assert "1:21" in page  # Anna's reserve after 9 s past the delay

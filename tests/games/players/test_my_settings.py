"""A player's board settings (seed 000, issue 18): the home board bottom right by
default, changed on the player's own settings page or through the API, and switched to
the other side after each match when the player asks for it."""

from __future__ import annotations

import re
import threading

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Match, Player
from games.play import services
from games.play.dice import ScriptedDice
from games.players import services as player_services
from tests.factories import (
    PlayerFactory,
    UserFactory,
    UserPlayerFactory,
    api_client,
    finish_by_resignation,
)
from tests.svgtools import find_one, parse_svg

pytestmark = pytest.mark.django_db

URL = "/players/me/settings/"
API = "/api/v1/me/settings/"


def _home_side(svg: str) -> str:
    """Where the drawing puts the viewer's home board: the borne-off tray is beside it."""
    root = parse_svg(svg)
    width = float(root.get("viewBox", "").split()[2])
    tray = find_one(root, "tray", "rect")
    return "left" if float(tray.get("x", "0")) < width / 2 else "right"


def _page_board(html: str) -> str:
    found = re.search(r"<svg\b[^>]*\bclass=\"board\b.*?</svg>", html, re.S)
    assert found, "no board on the page"
    return found.group(0)


def _english(client):  # type: ignore[no-untyped-def]
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


# ====================================================================== the default
def test_a_new_player_has_the_home_board_bottom_right_everywhere(client) -> None:
    a, b = UserPlayerFactory(), UserPlayerFactory()
    plain = PlayerFactory()  # made without a login, as directors do
    assert (a.board_orientation, plain.board_orientation) == ("right", "right")
    assert a.switch_sides_after_match is False
    match = services.match_create(player1=a, player2=b, length=3)
    game = services.match_start(match_id=match.pk, dice=ScriptedDice([3, 1]))
    client.force_login(a.user)
    page = client.get(f"/matches/{match.pk}/")
    assert _home_side(_page_board(page.content.decode())) == "right"
    board = client.get(f"/games/{game.pk}/board.svg", {"position": _pid(game)})
    assert board.status_code == 200 and _home_side(board.content.decode()) == "right"
    # The API's own settings say so too.
    assert api_client(a.user).get(API).json() == {
        "board_orientation": "right",
        "switch_sides_after_match": False,
        "auto_roll": False,
        "auto_confirm_forced": False,
        "turn_sound": False,
        "version": 0,
    }


def _pid(game) -> str:  # type: ignore[no-untyped-def]
    from games.engine.actions import state_from_dict
    from games.engine.position import position_id

    return position_id(state_from_dict(game.state).position)


def test_the_match_page_and_the_board_image_follow_a_left_preference(client) -> None:
    a, b = UserPlayerFactory(board_orientation="left"), UserPlayerFactory()
    match = services.match_create(player1=a, player2=b, length=3)
    game = services.match_start(match_id=match.pk, dice=ScriptedDice([3, 1]))
    client.force_login(a.user)
    html = client.get(f"/matches/{match.pk}/").content.decode()
    assert _home_side(_page_board(html)) == "left"
    # The board image the arranging script fetches is drawn the same way.
    board = client.get(f"/games/{game.pk}/board.svg", {"position": _pid(game)})
    assert _home_side(board.content.decode()) == "left"
    # The link under the board turns it round for one look, not for good.
    once = client.get(f"/matches/{match.pk}/", {"home": "right"}).content.decode()
    assert _home_side(_page_board(once)) == "right"
    assert Player.objects.get(pk=a.pk).board_orientation == "left"
    # The opponent's preference is their own.
    client.force_login(b.user)
    assert _home_side(_page_board(client.get(f"/matches/{match.pk}/").content.decode())) == "right"


# ====================================================================== the page
def test_the_settings_page_changes_the_orientation_and_the_switch(client) -> None:
    me = UserPlayerFactory()
    _english(client).force_login(me.user)
    page = client.get(URL)
    assert page.status_code == 200
    html = page.content.decode()
    assert "Where is your home board?" in html
    assert re.search(r'value="right"[^>]*checked', html)
    assert 'href="/notifications/settings/"' in html
    assert 'name="version" value="0"' in html
    saved = client.post(
        URL, {"board_orientation": "left", "switch_sides_after_match": "on", "version": "0"}
    )
    assert saved.status_code == 302 and saved["Location"] == URL
    me.refresh_from_db()
    assert (me.board_orientation, me.switch_sides_after_match, me.settings_version) == (
        "left",
        True,
        1,
    )
    assert "Your settings were saved." in client.get(URL).content.decode()


def test_the_header_links_to_the_settings_of_a_logged_in_user(client) -> None:
    me = UserPlayerFactory()
    assert 'href="/players/me/settings/"' not in client.get("/").content.decode()
    client.force_login(me.user)
    assert 'href="/players/me/settings/"' in client.get("/").content.decode()


def test_a_wrong_choice_is_refused_at_its_field_and_nothing_changes(client) -> None:
    me = UserPlayerFactory()
    _english(client).force_login(me.user)
    refused = client.post(
        URL, {"board_orientation": "middle", "switch_sides_after_match": "on", "version": "0"}
    )
    assert refused.status_code == 400
    html = refused.content.decode()
    assert "Select a valid choice" in html
    # What was ticked stays ticked.
    assert re.search(r'name="switch_sides_after_match"[^>]*checked', html)
    me.refresh_from_db()
    assert (me.board_orientation, me.switch_sides_after_match, me.settings_version) == (
        "right",
        False,
        0,
    )


def test_a_form_opened_before_a_match_switched_sides_is_refused_then_saved(client) -> None:
    """The form was opened, then a match ended and switched the board: saving the old
    form would undo the switch unseen. It is refused with what is stored now, keeps what
    was chosen, and saves when sent again."""
    me = UserPlayerFactory(switch_sides_after_match=True)
    _english(client).force_login(me.user)
    opened = client.get(URL).content.decode()
    assert 'name="version" value="0"' in opened
    match = services.match_create(player1=me, player2=UserPlayerFactory(), length=1)
    finish_by_resignation(match)
    assert Player.objects.get(pk=me.pk).board_orientation == "left"
    form = {"board_orientation": "right", "version": "0"}  # the switch unticked
    refused = client.post(URL, form)
    assert refused.status_code == 400
    html = refused.content.decode()
    assert "Your settings changed since you opened them" in html
    assert "Stored now: home board bottom left." in html
    assert 'name="version" value="1"' in html
    assert re.search(r'value="right"[^>]*checked', html)
    stored = Player.objects.get(pk=me.pk)
    assert (stored.board_orientation, stored.switch_sides_after_match) == ("left", True)
    again = client.post(URL, {**form, "version": "1"})
    assert again.status_code == 302
    stored.refresh_from_db()
    assert (stored.board_orientation, stored.switch_sides_after_match) == ("right", False)


def test_an_account_without_a_player_is_told_so(client) -> None:
    _english(client).force_login(UserFactory())
    page = client.get(URL)
    assert page.status_code == 403
    assert "not linked to a player" in page.content.decode()
    assert client.post(URL, {"board_orientation": "left", "version": "0"}).status_code == 403


def test_the_settings_page_needs_a_login(client) -> None:
    response = client.get(URL)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


# ====================================================================== the switch
def test_a_finished_match_switches_the_sides_of_the_players_who_asked(client) -> None:
    a = UserPlayerFactory(switch_sides_after_match=True)
    b = UserPlayerFactory(switch_sides_after_match=False, board_orientation="left")
    match = services.match_create(player1=a, player2=b, length=1)
    finish_by_resignation(match)
    assert match.status == Match.Status.FINISHED
    a.refresh_from_db()
    b.refresh_from_db()
    assert (a.board_orientation, a.settings_version) == ("left", 1)
    assert (b.board_orientation, b.settings_version) == ("left", 0)  # not asked: unchanged
    # The next match is drawn the other way round for the one who asked.
    nxt = services.match_create(player1=a, player2=b, length=1)
    services.match_start(match_id=nxt.pk, dice=ScriptedDice([3, 1]))
    client.force_login(a.user)
    assert _home_side(_page_board(client.get(f"/matches/{nxt.pk}/").content.decode())) == "left"
    # And back after that one.
    nxt.refresh_from_db()
    _resign_current(nxt)
    a.refresh_from_db()
    assert (a.board_orientation, a.settings_version) == ("right", 2)


def _resign_current(match: Match) -> None:
    from games.engine.actions import state_from_dict

    game = match.games.order_by("-number").first()
    mover = state_from_dict(game.state).player_to_act
    players = (match.player1, match.player2)
    offered = services.resign_offer(
        game_id=game.pk, player=players[mover], expected_version=game.version, kind="single"
    )
    services.resign_accept(
        game_id=game.pk, player=players[1 - mover], expected_version=offered.game.version
    )


def test_a_game_that_does_not_end_the_match_switches_nothing() -> None:
    a = UserPlayerFactory(switch_sides_after_match=True)
    match = services.match_create(player1=a, player2=UserPlayerFactory(), length=5)
    finish_by_resignation(match)  # one single game of a 5-point match
    assert match.status == Match.Status.PLAYING
    assert Player.objects.get(pk=a.pk).board_orientation == "right"


def test_ending_a_money_session_switches_sides_once_games_were_played() -> None:
    a = UserPlayerFactory(switch_sides_after_match=True)
    b = UserPlayerFactory(switch_sides_after_match=True)
    session = services.match_create(player1=a, player2=b, length=0)
    _resign_first_game(session)  # a game won; the next one waits at its opening roll
    services.match_end_session(match_id=session.pk, by=a)
    assert [p.board_orientation for p in Player.objects.filter(pk__in=[a.pk, b.pk])] == [
        "left",
        "left",
    ]
    # A session ended before any game was played is no match played: no switch.
    empty = services.match_create(player1=a, player2=b, length=0)
    services.match_start(match_id=empty.pk, dice=ScriptedDice([3, 1]))
    services.match_end_session(match_id=empty.pk, by=b)
    assert Player.objects.get(pk=a.pk).board_orientation == "left"


def _resign_first_game(match: Match) -> None:
    services.match_start(match_id=match.pk, dice=ScriptedDice([3, 1]))
    match.refresh_from_db()
    _resign_current(match)


def test_the_switch_and_the_finished_match_commit_together() -> None:
    """The switch is made in the transaction that finishes the match: when that
    transaction fails after it (here: the rating write refused), neither stays."""
    a = UserPlayerFactory(switch_sides_after_match=True)
    match = services.match_create(player1=a, player2=UserPlayerFactory(), length=1)
    calls: list[int] = []

    def fail(**kwargs: object) -> None:
        calls.append(1)
        raise RuntimeError("the match_finished receiver failed")

    from games.signals import match_finished

    match_finished.connect(fail, weak=False, dispatch_uid="test-switch-atomic")
    try:
        with pytest.raises(RuntimeError):
            finish_by_resignation(match)
    finally:
        match_finished.disconnect(dispatch_uid="test-switch-atomic")
    assert calls == [1]
    assert Player.objects.get(pk=a.pk).board_orientation == "right"
    assert Match.objects.get(pk=match.pk).status != Match.Status.FINISHED


def test_the_switch_is_one_locked_read_and_one_update() -> None:
    a, b = UserPlayerFactory(switch_sides_after_match=True), UserPlayerFactory()
    with CaptureQueriesContext(connection) as queries:
        switched = player_services.players_switch_sides(player_ids=[b.pk, a.pk])
    assert switched == [a.pk]
    assert len(queries) == 2
    locked = queries[0]["sql"]
    assert "ORDER BY" in locked and locked.endswith("FOR UPDATE")  # in id order: no deadlock


# ====================================================================== the API
def test_the_api_reads_and_patches_the_settings() -> None:
    me = UserPlayerFactory()
    api = api_client(me.user)
    changed = api.patch(API, {"switch_sides_after_match": True}, format="json")
    assert changed.status_code == 200
    assert changed.json() == {
        "board_orientation": "right",
        "switch_sides_after_match": True,
        "auto_roll": False,
        "auto_confirm_forced": False,
        "turn_sound": False,
        "version": 1,
    }
    changed = api.patch(API, {"board_orientation": "left", "version": 1}, format="json")
    assert changed.json()["board_orientation"] == "left" and changed.json()["version"] == 2
    assert api.get(API).json()["board_orientation"] == "left"


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"board_orientation": "middle"}, 400, "invalid_board_orientation"),
        ({"board_orientation": ""}, 400, "invalid"),
        ({"switch_sides_after_match": "perhaps"}, 400, "invalid"),
        ({"auto_roll": "perhaps"}, 400, "invalid"),
        ({"version": -1}, 400, "invalid"),
        ({"board_orientation": "left", "version": 7}, 409, "stale_settings"),
    ],
)
def test_the_api_refuses_bad_settings_and_changes_nothing(body, status, code) -> None:
    me = UserPlayerFactory()
    answer = api_client(me.user).patch(API, body, format="json")
    assert answer.status_code == status, answer.content
    assert answer.json()["code"] == code
    if code == "stale_settings":
        assert answer.json()["version"] == 0 and answer.json()["board_orientation"] == "right"
    me.refresh_from_db()
    assert (me.board_orientation, me.switch_sides_after_match, me.settings_version) == (
        "right",
        False,
        0,
    )


def test_the_api_settings_need_a_player() -> None:
    assert api_client().get(API).status_code == 401
    without = api_client(UserFactory())
    assert without.get(API).json()["code"] == "no_player"
    answer = without.patch(API, {"board_orientation": "left"}, format="json")
    assert answer.status_code == 403 and answer.json()["code"] == "no_player"


def test_the_api_takes_json_only() -> None:
    me = UserPlayerFactory()
    answer = api_client(me.user).patch(API, {"board_orientation": "left"})  # a form post
    assert answer.status_code == 415
    assert Player.objects.get(pk=me.pk).board_orientation == "right"


def test_the_settings_are_in_the_schema() -> None:
    schema = api_client().get("/api/schema/", {"format": "json"}).json()
    operations = schema["paths"]["/api/v1/me/settings/"]
    assert set(operations) >= {"get", "patch"}
    assert {"200", "400", "401", "403", "409"} <= set(operations["patch"]["responses"])


SESSIONS_AT_ONCE = 8


@pytest.mark.django_db(transaction=True)
def test_sessions_ending_at_once_each_switch_the_sides() -> None:
    """Eight money sessions between the same two players (each the first player of half
    of them; unrated, so no rating write locks the players first) are ended at the same
    moment, in eight threads with a connection each: every one switches both boards,
    none deadlocks (rows locked in id order) and none is lost (the version counts
    eight)."""
    a = UserPlayerFactory(switch_sides_after_match=True)
    b = UserPlayerFactory(switch_sides_after_match=True)
    sessions = []
    for i in range(SESSIONS_AT_ONCE):
        first, second = (a, b) if i % 2 == 0 else (b, a)
        session = services.match_create(player1=first, player2=second, length=0)
        _resign_first_game(session)
        sessions.append((session.pk, second))

    barrier = threading.Barrier(SESSIONS_AT_ONCE)
    errors: list[BaseException] = []

    def end(session_id: int, by: Player) -> None:
        try:
            barrier.wait(timeout=30)
            services.match_end_session(match_id=session_id, by=by)
        except BaseException as exc:  # reported by the assertion below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=end, args=session) for session in sessions]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert errors == []
    assert Match.objects.filter(status=Match.Status.FINISHED).count() == SESSIONS_AT_ONCE
    for player in Player.objects.filter(pk__in=[a.pk, b.pk]):
        assert (player.board_orientation, player.settings_version) == ("right", SESSIONS_AT_ONCE)


def test_the_api_game_says_where_the_requester_draws_the_home_board() -> None:
    a, b = UserPlayerFactory(board_orientation="left"), UserPlayerFactory()
    match = services.match_create(player1=a, player2=b, length=3)
    game = services.match_start(match_id=match.pk, dice=ScriptedDice([3, 1]))
    url = f"/api/v1/games/{game.pk}/"
    assert api_client(a.user).get(url).json()["home"] == "left"
    assert api_client(b.user).get(url).json()["home"] == "right"
    assert api_client().get(url).json()["home"] == "right"  # a visitor: seed 000's default
    mover = (a, b)[api_client(a.user).get(url).json()["player_to_act"]]
    played = api_client(mover.user).post(
        f"{url}actions/",
        {"action": "play", "play": "8/5 6/5", "version": game.version},
        format="json",
    )
    assert played.status_code == 200, played.content
    assert played.json()["home"] == mover.board_orientation


# ====================================================================== the board's two
def test_auto_roll_and_forced_plays_are_set_on_the_page_and_the_api_and_reach_the_board(
    client,
) -> None:
    """Issue 27: the two settings the board script acts on, stored by the page and the
    API, rendered on the match page's board as data attributes (off: none)."""
    me, other = UserPlayerFactory(), UserPlayerFactory()
    match = services.match_create(player1=me, player2=other, length=3)
    services.match_start(match_id=match.pk, dice=ScriptedDice([3, 1]))
    _english(client).force_login(me.user)
    html = client.get(f"/matches/{match.pk}/").content.decode()
    assert "data-auto-roll" not in html and "data-auto-confirm" not in html
    assert "Roll automatically" in client.get(URL).content.decode()
    saved = client.post(
        URL,
        {"board_orientation": "right", "auto_roll": "on", "auto_confirm_forced": "on"},
    )
    assert saved.status_code == 302
    me.refresh_from_db()
    assert (me.auto_roll, me.auto_confirm_forced, me.settings_version) == (True, True, 1)
    html = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'data-auto-roll="1"' in html and 'data-auto-confirm="1"' in html
    answer = api_client(me.user).patch(API, {"auto_roll": False}, format="json")
    assert answer.status_code == 200
    assert (answer.json()["auto_roll"], answer.json()["auto_confirm_forced"]) == (False, True)
    html = client.get(f"/matches/{match.pk}/").content.decode()
    assert "data-auto-roll" not in html and 'data-auto-confirm="1"' in html

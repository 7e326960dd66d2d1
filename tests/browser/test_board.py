"""The one board (issue 27; static/games/board.js, games/play/boardsvg.py) in a real
browser: a checker picked shows every point it reaches, with one die or more (the 6-5
that ran 24 to 13 picked up the checker on 13 instead); taps and drags; the opponent's
last move marked; the tap areas on a phone; the laptop layout at 1366x900; the two
settings (auto-roll, forced plays played by themselves); the online chouette's team
playing on the same board with its suggestions drawn."""

from __future__ import annotations

import dataclasses

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import WebDriverWait

from chouette.models import ChouetteOnlineGame
from chouette.online import services as online_services
from chouette.online.table import Table
from games.engine.actions import state_from_dict, state_to_dict
from games.engine.position import Position, position_id
from games.models import Game
from games.play import services
from games.play.dice import ScriptedDice
from tests.browser.conftest import WAIT_SECONDS, sign_in
from tests.browser.test_arrange import _checkers, _role, tap
from tests.browser.test_games_phone import _club, _laptop_chromium, _to_play
from tests.chouette.factories import players, session_with
from tests.factories import UserPlayerFactory

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def six_five():
    """Anna won the opening roll with 6-5 and is to play it."""
    anna, bence = UserPlayerFactory(name="Anna"), UserPlayerFactory(name="Bence")
    match = services.match_create(player1=anna, player2=bence, length=3)
    game = services.match_start(match_id=match.pk, dice=ScriptedDice([6, 5]))
    assert state_from_dict(game.state).player_to_act == 0
    return anna, bence, match, game


def _marked(driver, mark: str) -> list[str]:
    """The points whose tap area carries ``mark`` (arrange-target, arrange-source...)."""
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('.board rect.hit.' + arguments[0]))"
        ".map(e => e.getAttribute('data-point'));",
        mark,
    )


def _submit_and_wait(driver, wait, game: Game) -> Game:
    submit = _role(driver, "submit")
    wait.until(lambda d: submit.is_enabled())
    submit.click()
    wait.until(lambda d: Game.objects.get(pk=game.pk).version > game.version)
    return Game.objects.get(pk=game.pk)


def test_a_six_five_runs_from_24_to_13_in_two_taps(browser, live_server, log_in, wait, six_five):
    anna, bence, match, game = six_five
    log_in(anna.user)
    browser.get(f"{live_server.url}/matches/{match.pk}/")
    wait.until(ec.visibility_of_element_located((By.ID, "arrange")))
    tap(browser, 24)
    # Picked: every point the checker reaches, 13 with both dice included (19 is held).
    wait.until(lambda d: set(_marked(d, "arrange-target")) == {"18", "13"})
    assert _marked(browser, "arrange-selected") == ["24"]
    tap(browser, 13)  # the checker on 24 goes there: the one on 13 is not picked up
    wait.until(lambda d: _checkers(d, 24) == 1 and _checkers(d, 13) == 6)
    assert _role(browser, "played").text == "24/13"
    # Undo takes back the whole move of the checker.
    _role(browser, "undo").click()
    wait.until(lambda d: _checkers(d, 24) == 2 and _checkers(d, 13) == 5)
    tap(browser, 24)
    wait.until(lambda d: "13" in _marked(d, "arrange-target"))
    tap(browser, 13)
    wait.until(lambda d: _checkers(d, 13) == 6)
    game = _submit_and_wait(browser, wait, game)
    moved = state_from_dict(game.state).board_of(0).mover
    assert (moved[23], moved[12]) == (1, 6)  # 24/13 played

    # Bence's board marks Anna's move: her 24 is his 1, her 13 his 12.
    log_in(bence.user)
    browser.get(f"{live_server.url}/matches/{match.pk}/")
    wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, ".board svg")))
    point = '.board polygon.point[data-point="{}"]'
    assert "last-move-from" in browser.find_element(By.CSS_SELECTOR, point.format(1)).get_attribute(
        "class"
    )
    assert "last-move-to" in browser.find_element(By.CSS_SELECTOR, point.format(12)).get_attribute(
        "class"
    )
    stack = browser.find_element(By.CSS_SELECTOR, '.board g.checkers-top[data-point="12"]')
    assert "last-move" in stack.get_attribute("class")
    assert not browser.find_elements(By.CSS_SELECTOR, ".board g.checkers-bottom.last-move")


def test_24_18_then_13_8_four_taps(browser, live_server, log_in, wait, six_five):
    """A checker just moved onto 18 is not what the tap on 13 picks up, and the tap on
    13 does not move anything by itself: 13 is picked, then 8."""
    anna, _, match, game = six_five
    log_in(anna.user)
    browser.get(f"{live_server.url}/matches/{match.pk}/")
    wait.until(ec.visibility_of_element_located((By.ID, "arrange")))
    tap(browser, 24)
    wait.until(lambda d: "18" in _marked(d, "arrange-target"))
    tap(browser, 18)
    wait.until(lambda d: _checkers(d, 18) == 1)
    tap(browser, 13)
    wait.until(lambda d: _marked(d, "arrange-selected") == ["13"])
    assert _checkers(browser, 13) == 5  # picked, not moved
    assert set(_marked(browser, "arrange-target")) == {"8"}
    tap(browser, 8)
    wait.until(lambda d: _checkers(d, 8) == 4)
    assert _role(browser, "played").text == "24/18 13/8"
    game = _submit_and_wait(browser, wait, game)
    moved = state_from_dict(game.state).board_of(0).mover
    assert (moved[23], moved[17], moved[12], moved[7]) == (1, 1, 4, 4)


def test_a_checker_is_dragged_to_its_point(browser, live_server, log_in, wait, six_five):
    anna, _, match, _ = six_five
    log_in(anna.user)
    browser.get(f"{live_server.url}/matches/{match.pk}/")
    wait.until(ec.visibility_of_element_located((By.ID, "arrange")))
    hit = '.board rect.hit[data-point="{}"]'
    source = browser.find_element(By.CSS_SELECTOR, hit.format(24))
    target = browser.find_element(By.CSS_SELECTOR, hit.format(13))
    ActionChains(browser).click_and_hold(source).move_by_offset(0, 30).move_to_element(
        target
    ).release().perform()
    wait.until(lambda d: _checkers(d, 13) == 6)
    assert _role(browser, "played").text == "24/13"
    # A drop where the checker cannot go moves nothing.
    source = browser.find_element(By.CSS_SELECTOR, hit.format(8))
    target = browser.find_element(By.CSS_SELECTOR, hit.format(20))
    ActionChains(browser).click_and_hold(source).move_by_offset(0, 30).move_to_element(
        target
    ).release().perform()
    assert _checkers(browser, 8) == 3 and _role(browser, "played").text == "24/13"


def test_on_a_phone_the_tap_areas_are_a_finger_wide(phone, live_server, six_five):
    anna, _, match, _ = six_five
    sign_in(phone, live_server.url, anna.user)
    phone.get(f"{live_server.url}/matches/{match.pk}/")
    _to_play(phone)
    sizes = phone.execute_script(
        """
        const box = s => document.querySelector(s).getBoundingClientRect();
        const svg = document.querySelector('.board svg');
        const view = svg.viewBox.baseVal;
        const board = {width: svg.getBoundingClientRect().width,
                       height: svg.getBoundingClientRect().width * view.height / view.width};
        const points = Array.from(document.querySelectorAll('.board rect.hit'))
          .filter(e => /^\\d+$/.test(e.dataset.point)).map(e => e.getBoundingClientRect());
        return {board: [board.width, board.height], bar: box('.board rect.hit-bar').width,
                off: box('.board rect.hit-off').width,
                pointWidth: Math.min(...points.map(r => r.width)),
                pointHeight: Math.min(...points.map(r => r.height)),
                page: document.documentElement.scrollWidth, screen: innerWidth,
                left: svg.getBoundingClientRect().left, right: svg.getBoundingClientRect().right};
        """
    )
    assert sizes["page"] <= sizes["screen"], sizes  # edge to edge, never wider
    assert sizes["left"] >= 0 and sizes["right"] <= sizes["screen"], sizes  # all of it shown
    assert sizes["bar"] >= 44 and sizes["off"] >= 44, sizes
    assert sizes["pointWidth"] >= 21, sizes
    assert sizes["pointHeight"] >= sizes["board"][1] / 2 - 1, sizes  # the whole column


def test_on_a_laptop_the_panel_does_not_wrap_and_the_board_is_above_the_fold(live_server):
    club = _club()
    driver = _laptop_chromium(1366, 900)
    try:
        sign_in(driver, live_server.url, club["mover"].user)
        driver.get(f"{live_server.url}/matches/{club['match'].pk}/")
        _to_play(driver)
        found = driver.execute_script(
            """
            const board = document.querySelector('.board svg').getBoundingClientRect();
            const panel = document.querySelector('.panel').getBoundingClientRect();
            const facts = document.querySelectorAll('.panel > dl.facts > *');
            const rows = Array.from(facts).map(e => [e.textContent.trim(),
              e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).fontSize)]);
            return {bottom: board.bottom, width: board.width, panel: panel.width,
                    rows: rows, height: innerHeight};
            """
        )
    finally:
        driver.quit()
    assert found["height"] == 900
    assert found["bottom"] <= 900, found  # the bottom row above the fold
    assert found["panel"] >= 380, found
    assert len(found["rows"]) >= 8, found  # pips, cube, dice, Position ID, Match ID...
    tall = [(text, h) for text, h in found["rows"] if h > 1.9]  # two lines or more
    assert tall == [], found


def _cube_with_bence(anna, bence, match, game) -> Game:
    """Anna and Bence play on until Anna is on roll with the cube Bence's (she cannot
    double)."""
    dice = ScriptedDice([6, 5, 4, 2, 3, 1, 5, 3, 4, 4])
    services.game_play(game_id=game.pk, player=anna, expected_version=1, play="24/13")
    services.game_roll(game_id=game.pk, player=bence, expected_version=2, dice=dice)
    services.game_play(game_id=game.pk, player=bence, expected_version=3, play="24/13")
    services.cube_offer(game_id=game.pk, player=anna, expected_version=4)
    services.cube_take(game_id=game.pk, player=bence, expected_version=5)
    services.game_roll(game_id=game.pk, player=anna, expected_version=6, dice=dice)
    services.game_play(game_id=game.pk, player=anna, expected_version=7, play="13/9 13/11")
    services.game_roll(game_id=game.pk, player=bence, expected_version=8, dice=dice)
    services.game_play(game_id=game.pk, player=bence, expected_version=9, play="8/5 6/5")
    return Game.objects.get(pk=game.pk)


def test_auto_roll_rolls_when_no_double_is_possible(browser, live_server, log_in, wait, six_five):
    anna, bence, match, game = six_five
    for player in (anna, bence):
        player.auto_roll = True
        player.save(update_fields=["auto_roll"])
    game = _cube_with_bence(anna, bence, match, game)
    state = state_from_dict(game.state)
    assert (state.phase, state.player_to_act, state.cube_owner) == ("roll", 0, 1)
    log_in(anna.user)
    browser.get(f"{live_server.url}/matches/{match.pk}/")
    # Anna cannot double: the page rolls for her.
    wait.until(lambda d: Game.objects.get(pk=game.pk).version > game.version)
    assert Game.objects.get(pk=game.pk).actions.order_by("-seq").first().kind in ("roll", "play")
    wait.until(ec.visibility_of_element_located((By.ID, "arrange")))


def test_auto_roll_waits_while_a_double_is_possible(browser, live_server, log_in, six_five):
    anna, bence, match, game = six_five
    services.game_play(game_id=game.pk, player=anna, expected_version=1, play="24/13")
    bence.auto_roll = True
    bence.save(update_fields=["auto_roll"])
    log_in(bence.user)
    browser.get(f"{live_server.url}/matches/{match.pk}/")
    WebDriverWait(browser, WAIT_SECONDS).until(
        ec.presence_of_element_located((By.CSS_SELECTOR, 'button[name="do"][value="double"]'))
    )
    # Bence may double: the choice is his, nothing is rolled.
    browser.execute_script("return new Promise(r => setTimeout(r, 1500));")
    assert Game.objects.get(pk=game.pk).version == 2


def test_a_forced_play_is_played_by_itself(browser, live_server, log_in, wait, six_five):
    """With the setting on, a roll with one legal play is submitted without a tap; with
    it off, the player submits it."""
    anna, _, match, game = six_five
    # Anna's last checker on her 6 point: 6-5 can be played one way only (6/off).
    state = state_from_dict(game.state)
    mover = (0,) * 5 + (1,) + (0,) * 19
    state = dataclasses.replace(state, position=Position(mover, state.position.opponent, 0, 0))
    Game.objects.filter(pk=game.pk).update(state=state_to_dict(state))
    log_in(anna.user)
    browser.get(f"{live_server.url}/matches/{match.pk}/")
    wait.until(ec.visibility_of_element_located((By.ID, "arrange")))
    browser.execute_script("return new Promise(r => setTimeout(r, 1000));")
    assert Game.objects.get(pk=game.pk).version == 1  # the setting is off: waits for her
    anna.auto_confirm_forced = True
    anna.save(update_fields=["auto_confirm_forced"])
    browser.refresh()
    wait.until(lambda d: Game.objects.get(pk=game.pk).version == 2)
    played = Game.objects.get(pk=game.pk).actions.filter(kind="play").get()
    assert played.data["play"] == "6/off"


def test_the_chouette_team_plays_on_the_board_with_its_suggestions(
    browser, live_server, log_in, wait, monkeypatch
):
    cast = players(("Ann", "Bob", "Cy", "Dee"))
    session = session_with(cast, rolls={"Bob": 6, "Ann": 5, "Cy": 4, "Dee": 3})
    # The box's die 5, the team's 6: the team opens with 6-5 (Ann the captain moves).
    monkeypatch.setattr(online_services, "SYSTEM_DICE", ScriptedDice((5, 6, 3, 1, 4, 2)))
    game = online_services.online_game_start(session_id=session.pk, by=cast["Ann"].user)
    table = Table.from_dict(game.table)
    assert (table.board.turn, table.board.dice) == (1, (6, 5))
    plays = {p: position_id(p.result) for p in table.board.legal_plays()}
    run = next(pid for p, pid in plays.items() if _notation(p) == "24/13")
    online_services.online_team_message_post(game_id=game.pk, by=cast["Cy"].user, play=run)
    log_in(cast["Ann"].user)
    browser.get(f"{live_server.url}/chouette/{session.pk}/play/")
    wait.until(ec.visibility_of_element_located((By.ID, "arrange")))
    legend = browser.find_element(By.CSS_SELECTOR, "[data-testid=suggestions]").text
    assert "Cy" in legend and "24/13" in legend
    assert browser.find_elements(By.CSS_SELECTOR, ".board svg g.suggestions line.suggestion")
    # The list of plays is kept, folded away; the board is the way to play.
    assert not browser.find_element(By.ID, "play").is_displayed()
    tap(browser, 13)
    wait.until(lambda d: _marked(d, "arrange-selected") == ["13"])
    tap(browser, 8)
    wait.until(lambda d: _checkers(d, 8) == 4)
    tap(browser, 13)
    wait.until(lambda d: "7" in _marked(d, "arrange-target"))
    tap(browser, 7)
    wait.until(lambda d: _checkers(d, 7) == 1)
    assert _role(browser, "played").text == "13/8 13/7"
    version = ChouetteOnlineGame.objects.get(pk=game.pk).version
    _role(browser, "submit").click()
    wait.until(lambda d: ChouetteOnlineGame.objects.get(pk=game.pk).version > version)
    last = ChouetteOnlineGame.objects.get(pk=game.pk).actions.order_by("-seq").first()
    assert last.data["play"] == "13/8 13/7"
    # The box sees the team's move marked: the team's 13 and 8, 7 are the box's 12, 17, 18.
    log_in(cast["Bob"].user)
    browser.get(f"{live_server.url}/chouette/{session.pk}/play/")
    froms = _last(browser, "last-move-from")
    tos = _last(browser, "last-move-to")
    assert froms == ["12"] and set(tos) == {"17", "18"}


def _notation(play) -> str:
    from games.engine.notation import format_play

    return format_play(play)


def _last(driver, mark: str) -> list[str]:
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('.board polygon.point.' + arguments[0]))"
        ".map(e => e.getAttribute('data-point'));",
        mark,
    )

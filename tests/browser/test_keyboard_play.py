"""A match played with the keyboard alone (issue 27: accessibility). One player's browser
gets nothing but keys (Tab, Enter, Space) sent to whatever has the focus, never a click;
the opponent acts through the services, so each of their actions reaches the page as a
live update (static/games/live.js over the real ASGI server and Redis). Checked: the
skip link is the first Tab stop and goes straight to the move; a roll, a play built
step by step, a double offered and taken, a double received and taken; the focus
survives the opponent's live updates (it never falls to <body>, an open "position as
text" stays open and focused) and goes to the first control when the turn comes; the
live region says the opponent's move and whose turn it is; axe-core finds nothing
serious on the page in each of those states."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from games.engine.actions import state_from_dict
from games.engine.position import position_id
from games.models import Game
from games.play import services
from games.play.dice import ScriptedDice
from tests.browser.axe import assert_accessible
from tests.browser.conftest import WAIT_SECONDS
from tests.factories import UserPlayerFactory

pytestmark = pytest.mark.django_db(transaction=True)

WAIT = WAIT_SECONDS

# The focused element, described in one script (a live swap may replace it between two
# WebDriver calls): tag, id, text, value, data-role, and the ids of its ancestors.
ACTIVE = """
const e = document.activeElement;
if (!e) { return null; }
const up = [];
for (let p = e.parentElement; p; p = p.parentElement) { if (p.id) { up.push(p.id); } }
return {tag: e.tagName.toLowerCase(), id: e.id, text: (e.textContent || '').trim(),
        value: e.value || '', role: e.getAttribute('data-role') || '',
        cls: e.getAttribute('class') || '', inside: up,
        open: e.parentElement && e.parentElement.tagName === 'DETAILS'
          ? e.parentElement.open : null};
"""


def press(driver, *keys: str) -> None:
    """Keys sent to the focused element (no element is looked up or clicked)."""
    ActionChains(driver).send_keys(*keys).perform()


def active(driver) -> dict:
    return driver.execute_script(ACTIVE) or {}


def announced(driver) -> str:
    return driver.execute_script("return document.getElementById('live-announcer').textContent;")


def game_of(match) -> Game:
    return Game.objects.filter(match=match).order_by("-number").first()


def opponent_plays(match, player) -> None:
    """The opponent rolls (when to roll) and plays the first legal play, by the services."""
    game = game_of(match)
    state = state_from_dict(game.state)
    if state.phase == "roll":
        services.game_roll(
            game_id=game.pk, player=player, expected_version=game.version, dice=ScriptedDice([5, 2])
        )
        game = game_of(match)
        state = state_from_dict(game.state)
    services.game_play(
        game_id=game.pk,
        player=player,
        expected_version=game.version,
        result_position_id=position_id(state.legal_plays()[0].result),
    )


def focus_lands(driver, check, what: str) -> None:
    """Wait for the focus to be where ``check`` says; fail naming where it is."""
    try:
        WebDriverWait(driver, WAIT).until(lambda d: check(active(d)))
    except Exception:
        pytest.fail(f"the focus is not on {what}: {active(driver)}", pytrace=False)


def play_by_keyboard(driver) -> None:
    """With the focus on the first step button: Enter on each step button the page puts
    the focus on next (static/games/board.js), then Enter on Submit."""
    for _ in range(6):
        now = active(driver)
        if now.get("role") == "submit":
            break
        assert "step" in now.get("cls", ""), now
        driver.execute_script("document.activeElement.dataset.pressed = '1';")
        press(driver, Keys.ENTER)
        WebDriverWait(driver, WAIT).until(
            lambda d: d.execute_script("return !document.activeElement.dataset.pressed;")
        )
    assert active(driver).get("role") == "submit", active(driver)
    press(driver, Keys.ENTER)


def test_a_match_played_with_the_keyboard_alone(browser, asgi_server, log_in_at) -> None:
    anna, bence = UserPlayerFactory(name="Anna"), UserPlayerFactory(name="Bence")
    match = services.match_create(player1=anna, player2=bence, length=5)
    game = services.match_start(match_id=match.pk, dice=ScriptedDice([3, 1]))
    me = state_from_dict(game.state).player_to_act  # the opening's winner plays 3-1
    player, other = (anna, bence) if me == 0 else (bence, anna)
    log_in_at(asgi_server, player.user)
    browser.get(f"{asgi_server.url}/matches/{match.pk}/")
    WebDriverWait(browser, WAIT).until(
        lambda d: d.execute_script("return document.body.dataset.liveState === 'up';")
    )

    # 1. The first Tab reaches "Skip to your move"; Enter puts the focus on the first
    # move of the 3-1 (a step button): two key presses from the top of the page.
    press(browser, Keys.TAB)
    assert active(browser)["text"] == "Skip to your move"
    press(browser, Keys.ENTER)
    assert "step" in active(browser)["cls"], active(browser)
    assert_accessible(browser, "the match page, arranging a play")
    play_by_keyboard(browser)

    # 2. After the play the focus is on the game's panel (the buttons went), not <body>.
    focus_lands(browser, lambda a: a.get("id") == "match-panel", "the game's panel")
    assert announced(browser) == f"Waiting for {other.name}."

    # 3. The reader opens the position as text (Tab to it, Enter) and stays there while
    # the opponent rolls: the live update keeps it focused and open.
    for _ in range(40):
        now = active(browser)
        if now.get("tag") == "summary" and "position-text" in now["inside"]:
            break
        press(browser, Keys.TAB)
    assert "position-text" in active(browser)["inside"], active(browser)
    press(browser, Keys.ENTER)
    assert active(browser)["open"] is True
    version = game_of(match).version
    services.game_roll(
        game_id=game.pk, player=other, expected_version=version, dice=ScriptedDice([5, 2])
    )
    WebDriverWait(browser, WAIT).until(
        lambda d: (
            d.execute_script(
                "return document.querySelector('[data-live-version]').dataset.liveVersion;"
            )
            != str(version)
        )
    )
    now = active(browser)
    assert now["tag"] == "summary" and "position-text" in now["inside"] and now["open"], now
    assert "Dice: 5-2." in browser.execute_script(
        "return document.getElementById('position-text').textContent;"
    )

    # 4. The opponent plays: the live region says so and that it is my turn, and the
    # focus goes to Roll (my first control).
    opponent_plays(match, other)
    WebDriverWait(browser, WAIT).until(lambda d: "Your turn." in announced(d))
    assert f"{other.name} played 52:" in announced(browser)
    focus_lands(browser, lambda a: a.get("value") == "roll", "Roll")
    assert_accessible(browser, "the match page, my turn to roll or double")

    # 5. Tab to Double, Enter: the opponent takes (by the service) and the focus comes
    # back to Roll when the turn does.
    press(browser, Keys.TAB)
    assert active(browser).get("value") == "double", active(browser)
    press(browser, Keys.ENTER)
    focus_lands(browser, lambda a: a.get("id") == "match-panel", "the game's panel")
    game = game_of(match)
    services.cube_take(game_id=game.pk, player=other, expected_version=game.version)
    focus_lands(browser, lambda a: a.get("value") == "roll", "Roll")
    assert "takes" in announced(browser)

    # 6. Enter rolls; the focus lands on the first step of the roll; the play by keys.
    press(browser, Keys.ENTER)
    WebDriverWait(browser, WAIT).until(lambda d: "step" in active(d).get("cls", ""))
    play_by_keyboard(browser)
    focus_lands(browser, lambda a: a.get("id") == "match-panel", "the game's panel")

    # 7. The opponent, who owns the cube, redoubles: my Take gets the focus; Enter takes.
    game = game_of(match)
    services.cube_offer(game_id=game.pk, player=other, expected_version=game.version)
    WebDriverWait(browser, WAIT).until(lambda d: active(d).get("value") == "take")
    assert "doubles" in announced(browser) and "Your turn: answer the double." in announced(browser)
    assert_accessible(browser, "the match page, a double to answer")
    press(browser, Keys.ENTER)
    WebDriverWait(browser, WAIT).until(lambda d: game_of(match).state["cube"] == 4)
    WebDriverWait(browser, WAIT).until(lambda d: active(d).get("tag") not in ("body", None))

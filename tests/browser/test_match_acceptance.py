"""Issue 27's acceptance: a match to 3 between two players on two 390 px phones, over the
real ASGI server (pages and live updates), played by tapping only: the opening plays
by tapping checkers and points on the board, the cube, the confirmations and the
resignations by tapping buttons. No API call, no form post by hand; the server's dice
are scripted (the services roll ``games.play.dice.SYSTEM_DICE``).

Game 1: Anna plays 3-1; Bence doubles, Anna takes (said on both screens); Bence rolls
6-5 and plays it; Anna redoubles to 4, Bence drops after the confirmation: 2-0, the
next game is the Crawford game (both screens). Game 2, the Crawford game: Bence plays
3-1; Anna has no Double; Anna offers to resign a single game and Bence accepts: 2-1.
Game 3: Anna plays 3-1; Bence resigns, Anna accepts: Anna wins the match 3-1, which
both screens say. Anna has the turn sound on: her page beeps when it becomes her turn.
Then the same match's replay, on Bence's phone by tapping only: every game stepped from
its first position to its last, every move of its log shown.
"""

from __future__ import annotations

import time

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from games.play import dice as server_dice
from games.play import services
from games.play.dice import ScriptedDice
from tests.browser.conftest import CSP_WATCH, WAIT_SECONDS, csp_violations, sign_in
from tests.browser.tapping import played, tap
from tests.factories import UserPlayerFactory

pytestmark = pytest.mark.django_db(transaction=True)

#: How long a live update may take to show on the other phone.
LIVE = WAIT_SECONDS


def _tap(driver, css: str) -> None:
    tap(driver, css, wait=LIVE)


_played = played


@pytest.fixture
def second_phone():
    """The other player's phone: a second Chromium at 390 px, with its own cookies."""
    from tests.browser.phone import phone_chromium

    driver = phone_chromium()
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": CSP_WATCH})
    try:
        yield driver
        assert not csp_violations(driver)
    finally:
        driver.get("about:blank")
        driver.quit()


def _page_text(driver) -> str:
    """The live region's words, read in one script (the region may be swapped between
    two WebDriver calls)."""
    return driver.execute_script(
        "const e = document.getElementById('match-live'); return e ? e.innerText : '';"
    )


def _says(driver, *texts: str) -> None:
    """Wait until the page says every one of ``texts``."""
    try:
        WebDriverWait(driver, LIVE).until(lambda d: all(t in _page_text(d) for t in texts))
    except Exception:
        raise AssertionError(f"{texts!r} not all in:\n{_page_text(driver)}") from None


def _tap_move(driver, source: int, dest: int) -> None:
    """One checker moved on the board: tap the checker's point, then (unless that one
    tap already moved it: a checker with one place to go) the point it goes to."""
    board = ".play .board"
    before = _played(driver)
    _tap(driver, f'{board} polygon.point[data-point="{source}"]')
    time.sleep(0.3)
    if _played(driver) == before:
        _tap(driver, f'{board} polygon.point[data-point="{dest}"]')
    WebDriverWait(driver, LIVE).until(lambda d: _played(d) != before)


def _tap_play(driver, moves: list[tuple[int, int]]) -> None:
    WebDriverWait(driver, LIVE).until(
        lambda d: d.execute_script(
            "const a = document.getElementById('arrange'); return a && !a.hidden;"
        )
    )
    for source, dest in moves:
        _tap_move(driver, source, dest)
    _tap(driver, "#arrange [data-role=submit]")


def test_a_match_to_3_played_by_tapping_on_two_phones(
    phone, second_phone, asgi_server, monkeypatch
):
    anna, bence = UserPlayerFactory(name="Anna"), UserPlayerFactory(name="Bence")
    anna.turn_sound = True  # her setting: a beep when it becomes her turn
    anna.save(update_fields=["turn_sound"])
    match = services.match_create(player1=anna, player2=bence, length=3, clock="seed002")
    # The server's dice after the first opening roll: Bence's 6-5, game 2's opening roll
    # (Bence 3, Anna 1), game 3's (Anna 3, Bence 1).
    scripted = ScriptedDice([6, 5, 1, 3, 3, 1])
    monkeypatch.setattr(server_dice.SYSTEM_DICE, "randint", scripted.randint)
    services.match_start(match_id=match.pk, dice=ScriptedDice([3, 1]))  # Anna opens 3-1
    a, b = phone, second_phone
    for driver, player in ((a, anna), (b, bence)):
        sign_in(driver, asgi_server.url, player.user)
        driver.get(f"{asgi_server.url}/matches/{match.pk}/")
        WebDriverWait(driver, LIVE).until(
            lambda d: d.execute_script("return document.body.dataset.liveState === 'up';")
        )
    _says(a, "Your turn.", "You: white (bottom)", "Bence: black (top)")
    _says(b, "Waiting for Anna.", "You: white (bottom)", "Anna: black (top)")

    # ---------------------------------------------------------------- game 1
    _tap_play(a, [(8, 5), (6, 5)])
    _says(b, "Your turn.", "Anna played 3-1: 8/5 6/5")
    _tap(b, "button[value=double]")
    _says(
        a, "Bence doubles to 2", "Take: the game is played for 2 points", "Drop: you lose 1 point"
    )
    _says(b, "1, doubled to 2: Anna answers", "Waiting for Anna.")
    _tap(a, "button[value=take]")
    _says(a, "2, owned by you", "Waiting for Bence.")
    _says(b, "2, owned by Anna", "Your turn.")
    _tap(b, "button[value=roll]")
    _tap_play(b, [(13, 7), (13, 8)])
    _says(a, "Your turn.", "Bence played 6-5: 13/8 13/7")
    # Her turn came by a live update: the page beeped (static/games/matchwords.js) each
    # time so far: after the double and after this play; Bence's page never does.
    assert a.execute_script("return document.body.dataset.turnBeeps") == "2"
    assert b.execute_script("return document.body.dataset.turnBeeps || '0'") == "0"
    _tap(a, "button[value=double]")
    drop = "Drop: you lose 2 points, the score becomes Anna 2 \u2013 Bence 0 (Crawford game next)."
    _says(b, "Anna doubles to 4", "Take: the game is played for 4 points", drop)
    _says(a, "2, doubled to 4: Bence answers")
    _tap(b, "[data-testid=drop-confirm] summary")  # Drop… asks first
    _says(b, "Confirm drop")
    _tap(b, "button[data-action=confirm-drop]")

    # ---------------------------------------------------------------- game 2: Crawford
    for driver in (a, b):
        _says(
            driver,
            "Game 1 is over.",
            "Bence dropped the double: Anna won 2 points.",
            "Match score: Anna 2 \u2013 Bence 0.",
            "The next game is the Crawford game: no doubling in it.",
            "Crawford game: nobody may double in this game.",
        )
    _says(b, "Your turn.")
    _tap_play(b, [(8, 5), (6, 5)])
    _says(a, "Your turn.", "Bence played 3-1: 8/5 6/5", "Crawford game: nobody may double")
    assert not a.find_elements(By.CSS_SELECTOR, "button[value=double]")
    assert a.find_elements(By.CSS_SELECTOR, "button[value=roll]")
    _tap(a, "[data-testid=resign-confirm] summary")
    _tap(a, "button[data-action=confirm-resign]")  # a single game, the first choice
    _says(a, "You offered to resign a single game, 1 point; waiting for Bence.")
    _says(b, "Anna offers to resign: a single game, 1 point.")
    _tap(b, "button[value=accept_resignation]")
    for driver in (a, b):
        _says(
            driver,
            "Game 2 is over.",
            "Anna resigned a single game: Bence won 1 point.",
            "Match score: Anna 2 \u2013 Bence 1.",
        )

    # ---------------------------------------------------------------- game 3
    _says(a, "Your turn.")
    _tap_play(a, [(8, 5), (6, 5)])
    _says(b, "Your turn.", "Anna played 3-1: 8/5 6/5")
    _tap(b, "[data-testid=resign-confirm] summary")
    _tap(b, "button[data-action=confirm-resign]")
    _says(b, "You offered to resign a single game, 1 point; waiting for Anna.")
    _says(a, "Bence offers to resign: a single game, 1 point.")
    _tap(a, "button[value=accept_resignation]")
    _says(a, "You won the match, Anna 3 \u2013 Bence 1.", "Rematch")
    _says(b, "Anna won the match, Anna 3 \u2013 Bence 1.", "Rematch")
    _says(b, "Bence resigned a single game: Anna won 1 point.")
    match.refresh_from_db()
    assert (match.status, match.score1, match.score2) == ("finished", 3, 1)

    # ---------------------------------------------------------------- the replay
    # Every game of the same match, replayed on Bence's phone by tapping only: from the
    # match page's games table to each game's replay, then Next until the last step. Every
    # move of the game's log is shown, in notation, and each cube action and resignation
    # is said in words.
    for game in match.games.order_by("number"):
        plays = [a.data["play"] for a in game.actions.filter(kind="play").order_by("seq")]
        kinds = set(game.actions.values_list("kind", flat=True))
        b.get(f"{asgi_server.url}/matches/{match.pk}/")
        _tap(b, f"[data-testid=replay-game-{game.number}]")
        WebDriverWait(b, LIVE).until(
            lambda d: d.find_elements(By.CSS_SELECTOR, "[data-replay-region]")
        )
        region = b.find_element(By.CSS_SELECTOR, "[data-replay-region]")
        count = int(region.get_attribute("data-count"))
        said = [_replay_text(b)]
        for step in range(1, count + 1):
            _tap(b, "a[data-role=next]")
            WebDriverWait(b, LIVE).until(lambda d, s=step: _replay_step(d) == s)
            said.append(_replay_text(b))
        assert not b.find_elements(By.CSS_SELECTOR, "a[data-role=next]")  # the last step
        moves = b.find_element(By.CSS_SELECTOR, "[data-testid=replay-moves]").text
        stepped = "\n".join(said)
        for play in plays:
            assert play in moves and play in stepped, (game.number, play, stepped)
        for kind, word in (("double", "double"), ("take", "take"), ("drop", "drop")):
            if kind in kinds:
                assert word in stepped.lower(), (game.number, kind, stepped)
        if "resign" in kinds:
            assert "resign" in stepped.lower(), (game.number, stepped)


def _replay_step(driver) -> int:
    return int(
        driver.execute_script(
            "const r = document.querySelector('[data-replay-region]');"
            " return r ? r.dataset.step : -1;"
        )
    )


def _replay_text(driver) -> str:
    return driver.execute_script(
        "const e = document.querySelector('[data-testid=replay-text]');"
        " return e ? e.textContent.trim() : '';"
    )

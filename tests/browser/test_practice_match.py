"""Issue 28's acceptance for the practice opponent: a whole match against GNU Backgammon
on a 390 px phone, played by tapping only, over the real ASGI server (pages and live
updates) with the real gnubg in its child process.

Anna invites "GNU Backgammon" from the lobby (opponent, 1 point, level), which accepts at
once: the match page says it is a practice match, not rated. Then every turn of hers is
taps: Roll, the board's step buttons (each a legal checker move of the roll) until the
play is whole, Submit; a double of the bot is taken by tapping Take. The bot's turns are
played by the practice opponent's thread (games.practice.turns, as in the one-command
local run: no Celery worker) and reach her page live. The server's dice are seeded. The
match is played to its end; its end queued GNU Backgammon's analysis, which a real
analysis worker runs, and both players' pages then show the match's PR.
"""

from __future__ import annotations

import random
import time

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from games.models import Match, MatchAnalysis, PlayerAnalysis, RatedResult
from games.play import dice as server_dice
from games.practice import services as practice
from games.practice.turns import BotRunner
from tests.browser.conftest import sign_in
from tests.browser.tapping import latest, played, steps, tap, tap_a_whole_play, wait_for_a_change
from tests.factories import UserPlayerFactory
from tests.games.analysis.test_worker import _stop as stop_worker
from tests.games.analysis.test_worker import _worker as analysis_worker

pytestmark = pytest.mark.django_db(transaction=True)

#: How long the bot's answer (gnubg, a pause, the live update) may take to show: generous,
#: the machine running the tests is shared.
LIVE = 30
#: A 1-point game lasts about 20-30 turns of each player; a bound well above that.
MAX_TURNS = 150


def _tap(driver, css: str) -> None:
    tap(driver, css, wait=LIVE)


_played = played


_steps = steps


def _tap_a_whole_play(driver) -> None:
    tap_a_whole_play(driver, wait=LIVE)


_latest = latest


def _wait_for_version_change(match: Match, version: int, number: int) -> None:
    wait_for_a_change(match, version, number, wait=LIVE)


def _page_text(driver) -> str:
    return driver.execute_script(
        "const e = document.getElementById('match-live'); return e ? e.innerText : '';"
    )


def test_a_whole_match_against_the_bot_on_a_phone_by_tapping(
    phone, asgi_server, monkeypatch, settings
):
    settings.PRACTICE_BOT_INPROCESS = True  # the local run's way: a thread, no worker
    # Seed 8 gives a short game (11 plays of hers; seed 28 gave 27) when every play of
    # hers taps the first step button offered: found by playing seeds 0-39 so through the
    # services against the bot.
    seeded = random.Random(8)
    monkeypatch.setattr(server_dice.SYSTEM_DICE, "randint", seeded.randint)
    anna = UserPlayerFactory(name="Anna")
    bot = practice.bot_player_get_or_create()
    runner = BotRunner(period=0.5, pause=0.3).start()
    try:
        sign_in(phone, asgi_server.url, anna.user)
        phone.get(f"{asgi_server.url}/matches/")
        Select(phone.find_element(By.NAME, "opponent")).select_by_value(str(bot.pk))
        Select(phone.find_element(By.NAME, "length")).select_by_value("1")
        Select(phone.find_element(By.NAME, "bot_level")).select_by_value("expert")
        _tap(phone, "#new-match button[type=submit]")
        WebDriverWait(phone, LIVE).until(
            lambda d: d.find_elements(By.CSS_SELECTOR, "[data-testid=practice]")
        )
        said = phone.find_element(By.CSS_SELECTOR, "[data-testid=practice]").text
        assert said == "Practice match against GNU Backgammon (expert), not rated."
        match = Match.objects.get(player1=anna, player2=bot)
        WebDriverWait(phone, LIVE).until(
            lambda d: d.execute_script("return document.body.dataset.liveState === 'up';")
        )
        turns = 0
        seen: set[str] = set()  # what her page said at her turns
        while turns < MAX_TURNS:
            match.refresh_from_db()
            if match.status == Match.Status.FINISHED:
                break
            game, state = _latest(match)
            if state.player_to_act != 0:  # the bot's: its thread plays, the page follows
                _wait_for_version_change(match, game.version, game.number)
                continue
            # Her turn: the buttons show once the bot's last action arrived live.
            seen.add(_page_text(phone))
            if state.phase == "doubled":
                _tap(phone, "button[value=take]")
            elif state.phase == "roll":
                _tap(phone, "button[value=roll]")
            elif state.phase == "move":
                _tap_a_whole_play(phone)
                turns += 1
            _wait_for_version_change(match, game.version, game.number)
        match.refresh_from_db()
        assert match.status == Match.Status.FINISHED, f"not over after {turns} turns"
        winner = "You won the match" if match.winner_id == anna.pk else "GNU Backgammon won"
        WebDriverWait(phone, LIVE).until(lambda d: winner in _page_text(d))
        assert not RatedResult.objects.filter(match=match).exists()
        # The bot's moves reached her page live, and it said whose turn it was.
        said = "\n".join(seen)
        assert "GNU Backgammon played" in said and "Your turn." in said, said
        # The bot made its moves through the services, as a person: its actions are its.
        assert match.games.get().actions.filter(actor=bot, kind="play").exists()
    finally:
        runner.stop()
    players_pages_after_the_match(phone, asgi_server.url, match)


def players_pages_after_the_match(driver, base_url: str, match: Match) -> None:
    """After the match, both players' pages open (and, once the analysis is merged, show
    the match's PR)."""
    for player in (match.player1, match.player2):
        driver.get(f"{base_url}/players/{player.pk}/")
        WebDriverWait(driver, LIVE).until(
            lambda d, name=player.name: name in d.find_element(By.TAG_NAME, "h1").text
        )
    pr_shows_on_both_player_pages(driver, base_url, match)


def pr_shows_on_both_player_pages(driver, base_url: str, match: Match) -> None:
    """The match's end queued its analysis (games.analysis, on the queue "analysis"): a
    real analysis worker runs it with gnubg, and each player's page then lists the match
    with its PR."""
    worker = analysis_worker()
    try:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            analysis = MatchAnalysis.objects.filter(match=match).first()
            if analysis and analysis.status in {"done", "failed"}:
                break
            time.sleep(0.5)
    finally:
        stop_worker(worker)
    assert analysis is not None and analysis.status == "done", analysis and analysis.status
    figures = {p.player_id: p.pr for p in PlayerAnalysis.objects.filter(match=match)}
    assert set(figures) == {match.player1_id, match.player2_id}
    for player in (match.player1, match.player2):
        driver.get(f"{base_url}/players/{player.pk}/")
        row = WebDriverWait(driver, LIVE).until(
            lambda d: d.find_elements(
                By.CSS_SELECTOR, f"[data-match='{match.pk}'] [data-testid=pr-match]"
            )
        )[0]
        assert float(row.get_attribute("data-value")) == pytest.approx(
            figures[player.pk], abs=0.005
        )
        assert row.is_displayed()

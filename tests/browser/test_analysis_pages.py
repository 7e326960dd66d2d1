"""GNU Backgammon's analysis in a real browser (issue 28), on a phone (390 px) and a
laptop (1366 px), each page checked with axe-core: the match page shows both players'
PR; the replay marks an error with the best move and the equity lost, also after
stepping to it without a reload; the player page shows the PR chart, the averages and
the class. The figures are made directly (the job's tests make real ones)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from games.play import services
from games.play.dice import ScriptedDice
from tests.browser.axe import assert_accessible
from tests.browser.conftest import WAIT_SECONDS
from tests.browser.phone import page_fit
from tests.factories import (
    DecisionAnalysisFactory,
    MatchAnalysisFactory,
    PlayerAnalysisFactory,
    PlayerFactory,
    analysed_match,
)

pytestmark = pytest.mark.django_db(transaction=True)


def _wait(driver, condition):  # type: ignore[no-untyped-def]
    """Wait for ``condition`` on a page whose regions the live updates swap: an element
    found just before its region was replaced is stale, not a failure."""
    return WebDriverWait(
        driver, WAIT_SECONDS, ignored_exceptions=(StaleElementReferenceException,)
    ).until(condition)


LAPTOP = (1366, 900)


def _world():
    """Anna and Bence's game: Anna opens 3-1 with 8/5 6/5 (a bad move, gnubg says), Bence
    doubles (a very bad double), Anna takes; the match analysed, Anna with a history of
    twelve analysed matches."""
    anna, bence = PlayerFactory(name="Anna"), PlayerFactory(name="Bence")
    match = services.match_create(player1=anna, player2=bence, length=5)
    game = services.match_start(match_id=match.pk, dice=ScriptedDice([3, 1]))
    services.game_play(game_id=game.pk, player=anna, expected_version=1, play="8/5 6/5")
    services.cube_offer(game_id=game.pk, player=bence, expected_version=2)
    services.cube_take(game_id=game.pk, player=anna, expected_version=3)
    analysis = analysed_match(match, prs=(4.2, 12.5))
    DecisionAnalysisFactory(
        analysis=analysis,
        action_seq=2,
        ordinal=1,
        player_index=0,
        played="8/5 6/5",
        best="24/23 13/10",
        equity_lost=0.083,
        mark="bad",
    )
    DecisionAnalysisFactory(
        analysis=analysis,
        action_seq=3,
        ordinal=2,
        player_index=1,
        kind="cube",
        dice="",
        played="double",
        best="no_double",
        equity_lost=0.215,
        mark="very_bad",
    )
    other = PlayerFactory(name="Cili")
    start = timezone.now() - timedelta(days=40)
    for i, pr in enumerate([9.0, 7.5, 6.0, 5.5, 5.0, 4.0, 3.5, 4.5, 3.0, 2.8, 3.2]):
        past = services.match_create(player1=anna, player2=other, length=7)
        PlayerAnalysisFactory(
            analysis=MatchAnalysisFactory(match=past),
            player=anna,
            pr=pr,
            played_at=start + timedelta(days=i),
        )
    return match, anna


def _english(driver, base: str) -> None:
    driver.get(f"{base}/healthz")
    driver.add_cookie({"name": "django_language", "value": "en", "path": "/"})


def _visible_text(driver, selector: str) -> str:
    element = driver.find_element(By.CSS_SELECTOR, selector)
    assert element.is_displayed(), selector
    return element.text.strip()


def _check_pages(driver, base: str, match, anna, *, phone: bool) -> None:
    _english(driver, base)
    # The match page: both players' PR, gnubg's words.
    driver.get(f"{base}/matches/{match.pk}/")
    section = driver.find_element(By.CSS_SELECTOR, "[data-testid=match-analysis]")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", section)
    assert _visible_text(driver, "[data-testid=pr-0]") == "4.20"
    assert _visible_text(driver, "[data-testid=pr-1]") == "12.50"
    assert _visible_text(driver, "[data-testid=rating-words-0]") == "Advanced"
    if phone:
        assert page_fit(driver).fits, page_fit(driver)
    assert_accessible(driver, "match page with its analysis")

    # The replay: the move's error in words, the cube error after a step (no reload).
    driver.get(f"{base}/matches/{match.pk}/replay/1/?move=1")
    driver.execute_script("window.__noReload = 1;")
    error = _visible_text(driver, "[data-testid=replay-error]")
    assert error == "? Bad move (\u22120.083): best was 24/23 13/10", error
    marks = driver.find_elements(By.CSS_SELECTOR, "[data-testid=move-mark]")
    assert [m.get_attribute("data-mark") for m in marks] == ["bad", "very_bad"]
    if phone:
        assert page_fit(driver).fits, page_fit(driver)
    assert_accessible(driver, "replay with an analysed error")
    driver.find_element(By.CSS_SELECTOR, "[data-role=next]").click()
    WebDriverWait(driver, WAIT_SECONDS).until(
        lambda d: (
            d.find_element(By.CSS_SELECTOR, "[data-replay-region]").get_attribute("data-step")
            == "2"
        )
    )
    cube = _visible_text(driver, "[data-testid=replay-error]")
    assert cube == "?? Very bad cube decision (\u22120.215): double; best was no double", cube
    assert driver.execute_script("return window.__noReload") == 1

    # The player page: the chart drawn with a dot per counted match, averages, class.
    driver.get(f"{base}/players/{anna.pk}/")
    chart = driver.find_element(By.CSS_SELECTOR, "[data-testid=pr-chart] svg")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", chart)
    assert chart.get_attribute("role") == "img"
    dots = chart.find_elements(By.CSS_SELECTOR, ".pr-dot")
    assert len(dots) == 12
    line = chart.find_element(By.CSS_SELECTOR, ".pr-line")
    width = driver.execute_script("return arguments[0].getBoundingClientRect().width;", line)
    assert width > (250 if phone else 500), width
    # In the order played: the history, then this match (played now).
    prs = [9.0, 7.5, 6.0, 5.5, 5.0, 4.0, 3.5, 4.5, 3.0, 2.8, 3.2, 4.2]
    assert _visible_text(driver, "[data-testid=pr-recent]") == f"{sum(prs[-10:]) / 10:.2f}"
    assert _visible_text(driver, "[data-testid=pr-all]") == f"{sum(prs) / 12:.2f}"
    assert _visible_text(driver, "[data-testid=pr-class]") == "PR class 3 (≤ 6.5)"
    assert _visible_text(driver, "[data-testid=pr-analysed]") == "12"
    if phone:
        assert page_fit(driver).fits, page_fit(driver)
    assert_accessible(driver, "player page with PR")


def test_analysis_on_a_phone(phone, live_server):
    match, anna = _world()
    _check_pages(phone, live_server.url, match, anna, phone=True)


def test_analysis_on_a_laptop(browser, live_server):
    match, anna = _world()
    browser.set_window_size(*LAPTOP)
    try:
        _check_pages(browser, live_server.url, match, anna, phone=False)
    finally:
        browser.set_window_size(1280, 1024)


def test_a_player_asks_for_the_analysis_and_the_page_follows_it(phone, live_server):
    """Anna taps "Analyse" on her finished match: queued. The job moves (here: the row
    changed as the worker changes it): the page shows it without being reloaded by
    hand, up to the figures when it is done."""
    from django.db.models import F

    from games.models import MatchAnalysis
    from tests.browser.conftest import sign_in
    from tests.factories import UserPlayerFactory, finish_by_resignation

    anna, bence = UserPlayerFactory(name="Anna"), PlayerFactory(name="Bence")
    match = services.match_create(player1=anna, player2=bence, length=1)
    finish_by_resignation(match)
    sign_in(phone, live_server.url, anna.user)
    phone.get(f"{live_server.url}/matches/{match.pk}/")
    state = "[data-testid=analysis-state]"
    assert "not been analysed" in _visible_text(phone, state)
    button = phone.find_element(By.CSS_SELECTOR, "[data-action=analyse]")
    phone.execute_script("arguments[0].scrollIntoView({block: 'center'});", button)
    button.click()
    _wait(phone, lambda d: "Queued for analysis" in d.find_element(By.CSS_SELECTOR, state).text)
    analysis = MatchAnalysis.objects.get(match=match)
    assert (analysis.status, analysis.requested_by_id) == ("queued", anna.user.pk)
    assert_accessible(phone, "match page, analysis queued")
    MatchAnalysis.objects.filter(pk=analysis.pk).update(
        status="running", progress=40, version=F("version") + 1
    )
    _wait(phone, lambda d: "Being analysed: 40%" in d.find_element(By.CSS_SELECTOR, state).text)
    PlayerAnalysisFactory(analysis=analysis, player=anna, pr=3.5)
    PlayerAnalysisFactory(analysis=analysis, player=bence, pr=6.5)
    MatchAnalysis.objects.filter(pk=analysis.pk).update(
        status="done", progress=100, version=F("version") + 1
    )
    _wait(
        phone,
        lambda d: (
            d.find_elements(By.CSS_SELECTOR, "[data-testid=pr-1]")
            and d.find_element(By.CSS_SELECTOR, "[data-testid=pr-1]").text == "6.50"
        ),
    )
    assert_accessible(phone, "match page, analysis done")

"""The table clock's tablet page in a real browser (static/games/tableclock.js): both
halves tapped in turn, the times switching and counting down locally, a stale tap
re-synced from the server's refusal, and the flag shown."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from games.clocks import selectors as clock_selectors
from games.clocks import services as tableclocks
from games.models import TableClock
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def owner():
    return UserFactory(username="anna")


def _half(browser, player: int):
    return browser.find_element(By.CSS_SELECTOR, f'#tableclock .half[data-player="{player}"]')


def _classes(browser, player: int) -> set[str]:
    return set(_half(browser, player).get_attribute("class").split())


def _text(browser, player: int, role: str) -> str:
    return browser.execute_script(
        "return document.querySelector("
        "'#tableclock .half[data-player=\"' + arguments[0] + '\"] [data-role=\"' + arguments[1]"
        " + '\"]').textContent;",
        player,
        role,
    )


def _seconds(text: str) -> float:
    """A clock reading (m:ss or s.t) in seconds."""
    if ":" in text:
        minutes, seconds = text.split(":")[-2:]
        return int(minutes) * 60 + int(seconds)
    return float(text)


def _version_shown(browser) -> str:
    """The version the page's forms (and its next tap) carry."""
    return browser.find_element(By.CSS_SELECTOR, 'input[name="version"]').get_attribute("value")


def _server(clock_id: int) -> tuple[int, int | None]:
    clock = TableClock.objects.get(pk=clock_id)
    return clock.version, clock.state["running"]


def test_tapping_each_half_switches_the_running_clock(browser, live_server, log_in, wait, owner):
    clock = tableclocks.table_clock_create(
        label="Table 7",
        player1_name="Anna",
        player2_name="Bence",
        clock={"delay_ms": 5_000, "reserve_ms": 60_000},
        created_by=owner,
    )
    log_in(owner)
    clock = tableclocks.table_clock_start(clock_id=clock.pk, player=0)
    browser.get(f"{live_server.url}/clocks/{clock.pk}/")
    wait.until(lambda b: "is-live" in b.find_element(By.ID, "tableclock").get_attribute("class"))
    # Anna's half (the bottom one) runs: her delay counts down on the page itself.
    assert "half-bottom" in _classes(browser, 0) and "half-top" in _classes(browser, 1)
    assert "is-running" in _classes(browser, 0)
    assert "is-running" not in _classes(browser, 1)
    wait.until(lambda b: 0 < _seconds(_text(b, 0, "delay")) < 4.5)
    assert _text(browser, 0, "reserve") == "1:00"
    assert not _half(browser, 1).find_element(By.TAG_NAME, "button").is_enabled()

    # Anna taps her half: Bence's clock runs, on the page at once and on the server.
    _half(browser, 0).find_element(By.TAG_NAME, "button").click()
    wait.until(lambda b: "is-running" in _classes(b, 1))
    assert "is-running" not in _classes(browser, 0)
    wait.until(lambda b: _server(clock.pk) == (2, 1))
    wait.until(lambda b: 0 < _seconds(_text(b, 1, "delay")) < 5)
    assert _text(browser, 1, "hint") == "Tap to end your turn"
    assert _text(browser, 0, "hint") == "Waiting"

    # Bence taps his (turned) half: Anna's clock runs again.
    _half(browser, 1).find_element(By.TAG_NAME, "button").click()
    wait.until(lambda b: "is-running" in _classes(b, 0))
    assert "is-running" not in _classes(browser, 1)
    wait.until(lambda b: _server(clock.pk) == (3, 0))
    view = clock_selectors.table_clock_view(TableClock.objects.get(pk=clock.pk))
    assert view["running"] == 0 and view["reserves_ms"][1] == 60_000  # inside the delay

    # Another tablet ends Anna's turn behind this page's back; a tap on her half made
    # with the old version is refused, and the page takes the server's clock from the
    # refusal: Bence's clock runs, and the server changed nothing for the stale tap.
    tableclocks.table_clock_tap(clock_id=clock.pk, player=0, expected_version=3)
    _half(browser, 0).find_element(By.TAG_NAME, "button").click()
    wait.until(lambda b: _version_shown(b) == "4")
    assert "is-running" in _classes(browser, 1) and "is-running" not in _classes(browser, 0)
    assert _server(clock.pk) == (4, 1)


def test_the_tablet_shows_the_flag(browser, live_server, log_in, wait, owner):
    clock = tableclocks.table_clock_create(
        label="Table 8",
        player1_name="Anna",
        player2_name="Bence",
        clock={"delay_ms": 500, "reserve_ms": 1_000},
        created_by=owner,
    )
    clock = tableclocks.table_clock_start(clock_id=clock.pk, player=1)
    log_in(owner)
    browser.get(f"{live_server.url}/clocks/{clock.pk}/")
    wait.until(lambda b: "is-flagged" in _classes(b, 1))
    assert _text(browser, 1, "reserve") == "0.0"
    wait.until(lambda b: "Bence ran out of time" in b.find_element(By.ID, "tableclock").text)
    # The page's read recorded the flag on the server (or the timer/sweeper did).
    wait.until(lambda b: TableClock.objects.get(pk=clock.pk).status == "flagged")
    assert TableClock.objects.get(pk=clock.pk).flagged_index == 1

"""The wall display (``?wall=1``; static/tournaments/wall.js) on a 1920x1080 screen, in a
real, headless Chromium: an 11-player main + consolation shows its parts in turn with
names at least 27 px high (issue 29), every part's box inside the window and nothing to
scroll (issue 17, defect 6); a Swiss wall
shows the current round's pairings with their tables beside the standings; a wall with
more than fits legibly turns through its parts (the arrow keys turn it too); the flight
page printed by the browser (``@media print``) leaves out the site's header and forms and
draws each part of the bracket within the paper's width."""

from __future__ import annotations

from decimal import Decimal

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from tests.factories import PlayerFactory
from tests.tournaments.factories import DirectorFactory, EventFactory, flight_with
from tournaments.models import TournamentMatch
from tournaments.services.draw import flight_draw, round_publish
from tournaments.services.results import result_enter

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = [
    "Fekete Ádám",
    "Kovács Éva",
    "Szabó Őrs",
    "Tóth Zsófia",
    "Nagy Ünige",
    "Horváth Béla",
    "Varga Ilona",
    "Kiss Gergő",
    "Molnár Réka",
    "Németh Ákos",
    "Farkas Júlia",
]

#: Every box of the wall, with the window and the document's scroll extent, in one read.
BOXES = """
const rect = (e) => { const r = e.getBoundingClientRect();
  return [r.left, r.top, r.right, r.bottom]; };
const shown = (e) => e.getClientRects().length > 0;
return {
  parts: [...document.querySelectorAll('.wall-part')].filter(shown).map(
    (e) => [e.dataset.part, rect(e), rect(e.querySelector('.wall-fit')),
            rect(e.querySelector('.wall-fit').firstElementChild)]),
  hidden: [...document.querySelectorAll('.wall-part')].filter((e) => !shown(e)).length,
  qr: rect(document.querySelector('.wall-qr svg.qr')),
  turning: document.getElementById('flight-wall').classList.contains('is-turning'),
  turn: document.querySelector('.wall-turn').textContent,
  inner: [window.innerWidth, window.innerHeight],
  scroll: [document.documentElement.scrollWidth, document.documentElement.scrollHeight,
           document.body.scrollWidth, document.body.scrollHeight],
  names: [...document.querySelectorAll('svg.bracket text.name, .wall-part .name')]
    .filter(shown).map((e) => e.getBoundingClientRect().height),
};
"""


@pytest.fixture
def screen(browser):
    """The browser as a 1920x1080 wall screen (restored after the test)."""
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": 1920, "height": 1080, "deviceScaleFactor": 1, "mobile": False},
    )
    yield browser
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def _inside(box, inner) -> bool:
    left, top, right, bottom = box
    return -0.5 <= left < right <= inner[0] + 0.5 and -0.5 <= top < bottom <= inner[1] + 0.5


def _wall(browser, wait, url):
    browser.get(url)
    wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, ".wall-parts.is-laid-out"))
    return browser.execute_script(BOXES)


def _assert_one_screen(seen) -> None:
    inner = seen["inner"]
    assert inner == [1920, 1080], inner
    for part, box, fit, content in seen["parts"]:
        assert _inside(box, inner) and _inside(fit, inner), (part, box, fit, inner)
        if not seen["turning"]:  # all of it (turning: a page of it, clipped by .wall-fit)
            assert _inside(content, inner), (part, content, inner)
    assert _inside(seen["qr"], inner), seen["qr"]
    width, height, body_width, body_height = seen["scroll"]
    assert width <= inner[0] and height <= inner[1], seen["scroll"]  # no scrolling
    assert body_width <= inner[0] and body_height <= inner[1], seen["scroll"]


def _knockout_of_11(slug: str):
    director = DirectorFactory()
    event = EventFactory(director=director, name="Klubest", slug=slug)
    players = [PlayerFactory(name=n, rating=Decimal(2000 - 10 * i)) for i, n in enumerate(NAMES)]
    flight = flight_with(
        event, players, format="consolation", options={"entry_rounds": 1}, match_length=3
    )
    flight_draw(flight_id=flight.pk, by=director)
    for m in TournamentMatch.objects.filter(flight=flight, part="main", round=1, status="ready"):
        result_enter(match_id=m.pk, by=director, score_a=3, score_b=1)
    return flight


def test_the_11_player_main_and_consolation_wall_fits_a_1920x1080_screen(screen, live_server, wait):
    """Issue 29: names at least 2.5 % of the screen's height (27 px at 1080p), so the two
    parts take turns (each as large as the screen allows) rather than shrinking."""
    flight = _knockout_of_11("klubest")
    seen = _wall(screen, wait, f"{live_server.url}/events/klubest/flights/{flight.pk}/?wall=1")
    assert seen["turning"] and len(seen["parts"]) == 1 and seen["hidden"] == 1, seen
    total = int(seen["turn"].split(" / ")[1])
    shown_parts, text = [], ""
    for _ in range(total):
        _assert_one_screen(seen)
        # Legible from across the room: the names at least 27 px high.
        assert seen["names"] and min(seen["names"]) >= 27, min(seen["names"])
        shown_parts.append(seen["parts"][0][0])
        text += screen.find_element(By.ID, "flight-wall").text
        screen.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
        seen = screen.execute_script(BOXES)
    assert shown_parts[0] == "main" and shown_parts[-1] == "consolation", shown_parts
    for name in NAMES:
        assert name in text


def test_the_swiss_wall_shows_the_current_rounds_pairings_and_tables(screen, live_server, wait):
    director = DirectorFactory()
    event = EventFactory(director=director, name="Svájci est", slug="svajci-est")
    players = [PlayerFactory(name=n, rating=Decimal(2000 - 10 * i)) for i, n in enumerate(NAMES)]
    flight = flight_with(event, players[:8], format="swiss", options={"rounds": 3})
    flight_draw(flight_id=flight.pk, by=director)
    for m in TournamentMatch.objects.filter(flight=flight, round=1, status="ready"):
        result_enter(match_id=m.pk, by=director, score_a=m.match_length, score_b=0)
    round_publish(flight_id=flight.pk, by=director)

    seen = _wall(screen, wait, f"{live_server.url}/events/svajci-est/flights/{flight.pk}/?wall=1")
    assert [p[0] for p in seen["parts"]] == ["standings", "pairings"], seen
    assert not seen["turning"]
    _assert_one_screen(seen)
    assert seen["names"] and min(seen["names"]) >= 27, seen["names"]  # issue 29
    pairings = screen.find_element(By.CSS_SELECTOR, '.wall-part[data-part="pairings"]')
    assert pairings.get_attribute("data-round") == "2"
    assert "Round 2" in pairings.text or "2. forduló" in pairings.text
    rows = pairings.find_elements(By.CSS_SELECTOR, "tbody tr")
    second = TournamentMatch.objects.filter(flight=flight, round=2).order_by("table")
    assert len(rows) == second.count() == 4
    for row, m in zip(rows, second, strict=True):
        cells = [c.text for c in row.find_elements(By.CSS_SELECTOR, "td")]
        assert cells[0] == str(m.table) and m.table
        assert cells[1] == m.entry_a.player.name and cells[3] == m.entry_b.player.name
    standings = screen.find_element(By.CSS_SELECTOR, '.wall-part[data-part="standings"]').text
    for player in players[:8]:
        assert player.name in standings


def test_a_wall_that_cannot_fit_legibly_turns_through_its_parts(screen, live_server, wait):
    """64 players in a main + consolation: too many boxes for one legible screen."""
    director = DirectorFactory()
    event = EventFactory(director=director, name="Nagy est", slug="nagy-est")
    players = [PlayerFactory(name=f"Játékos {i:02d}", rating=Decimal(2000 - i)) for i in range(64)]
    flight = flight_with(
        event, players, format="consolation", options={"entry_rounds": 1}, match_length=1
    )
    flight_draw(flight_id=flight.pk, by=director)

    seen = _wall(screen, wait, f"{live_server.url}/events/nagy-est/flights/{flight.pk}/?wall=1")
    assert seen["turning"] and len(seen["parts"]) == 1 and seen["hidden"] == 1, seen
    _assert_one_screen(seen)
    assert min(seen["names"]) >= 27  # issue 29: 2.5 % of 1080 px
    first, total = seen["turn"].split(" / ")
    assert first == "1" and int(total) >= 3, seen["turn"]  # the main draw takes pages
    parts = []
    for _ in range(int(total)):
        parts.append(seen["parts"][0][0])
        screen.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
        seen = screen.execute_script(BOXES)
        _assert_one_screen(seen)
    assert parts[0] == "main" and parts[-1] == "consolation", parts
    assert seen["turn"] == f"1 / {total}"  # round again


def test_the_flight_page_prints_without_the_sites_header_and_forms(browser, live_server, wait):
    flight = _knockout_of_11("nyomtatas")
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": 794, "height": 1123, "deviceScaleFactor": 1, "mobile": False},  # A4
    )
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        browser.get(f"{live_server.url}/events/nyomtatas/flights/{flight.pk}/")
        wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "svg.bracket"))
        for hidden in (".site-header", ".site-footer", "form", "p.actions"):
            for element in browser.find_elements(By.CSS_SELECTOR, hidden):
                assert not element.is_displayed(), hidden
        inner = browser.execute_script("return document.documentElement.clientWidth;")
        for svg in browser.find_elements(By.CSS_SELECTOR, "svg.bracket"):
            box = browser.execute_script(
                "return arguments[0].getBoundingClientRect().toJSON();", svg
            )
            assert box["left"] >= 0 and box["right"] <= inner + 0.5, (box, inner)
        width = browser.execute_script("return document.documentElement.scrollWidth;")
        assert width <= inner, (width, inner)
        text = browser.find_element(By.TAG_NAME, "main").text
        for name in NAMES:
            assert name in text
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})

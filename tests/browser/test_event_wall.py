"""The event wall (issue 29: /events/<slug>/wall/, tournaments.pages.eventwall,
static/tournaments/wall.js) in a real, headless Chromium on the real ASGI server: a night
of three running flights (a 16-player main + consolation, a Swiss of 12, a round robin of
6) and one still registering. At 1920x1080 the wall shows every running flight in turn
(``?every=1``), never the registering one, each filling the screen with names at least
2.5 % of its height (27 px: the text boxes measured, the bracket's SVG text included);
at 3840x2160 the names are at least 54 px; axe finds nothing serious; and when the fourth
flight is drawn the open wall takes it into the rotation without a reload."""

from __future__ import annotations

from decimal import Decimal

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.browser.axe import assert_accessible
from tests.browser.conftest import WAIT_SECONDS
from tests.factories import PlayerFactory
from tests.tournaments.factories import DirectorFactory, EventFactory, flight_with
from tournaments.services.draw import flight_draw

pytestmark = pytest.mark.django_db(transaction=True)

#: Long enough for the rotation through every page of every flight at ?every=1 on a
#: busy machine (a wait, not a timed assertion: it ends as soon as all were seen).
ROUND_SECONDS = 90

#: What the wall shows now, in one read (the region may be swapped between two calls).
SEEN = """
const shown = (e) => e.getClientRects().length > 0;
const rect = (e) => e.getBoundingClientRect();
const display = [...document.querySelectorAll('.wall-display')].filter(shown);
const fits = [...document.querySelectorAll('.wall-fit')].filter(shown).map(rect);
const main = rect(document.querySelector('main'));
return {
  flights: display.map((d) => d.dataset.flight),
  turn: display.map((d) => d.querySelector('.wall-turn').textContent).join(''),
  names: [...document.querySelectorAll('.wall-part svg text.name, .wall-part .name')]
    .filter(shown).map((e) => rect(e).height),
  text: display.map((d) => d.innerText).join(' '),
  inner: [window.innerWidth, window.innerHeight],
  main: [main.width, main.height],
  filled: fits.reduce((sum, r) => sum + r.width * r.height, 0),
  fits: fits.map((r) => [r.left, r.top, r.right, r.bottom]),
  scroll: [document.documentElement.scrollWidth, document.documentElement.scrollHeight],
};
"""


def _players(prefix: str, count: int):
    return [
        PlayerFactory(name=f"{prefix} {i + 1:02d}", rating=Decimal(1900 - 7 * i))
        for i in range(count)
    ]


def _night():
    director = DirectorFactory()
    event = EventFactory(director=director, name="Csütörtöki est", slug="csutortok")
    main = flight_with(
        event,
        _players("Főági Játékos", 16),
        name="Főág",
        format="consolation",
        options={"entry_rounds": 1},
        match_length=5,
    )
    swiss = flight_with(
        event, _players("Svájci Játékos", 12), name="Svájci", format="swiss", options={"rounds": 5}
    )
    robin = flight_with(event, _players("Körmérkőzés", 6), name="Körmérkőzés", format="round_robin")
    later = flight_with(event, _players("Késői", 4), name="Késői")
    for flight in (main, swiss, robin):
        flight_draw(flight_id=flight.pk, by=director)
    return director, event, [main, swiss, robin], later


@pytest.fixture
def screen(browser):
    yield browser
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def _size(browser, width: int, height: int) -> None:
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
    )


def _assert_readable_and_full(seen, least: float) -> None:
    width, height = seen["inner"]
    assert seen["names"], seen
    assert min(seen["names"]) >= least, (min(seen["names"]), least, seen["flights"], seen["turn"])
    # The page is the screen, with nothing to scroll, and the flight takes most of it.
    assert seen["main"][0] >= 0.99 * width and seen["main"][1] >= 0.99 * height, seen["main"]
    assert seen["scroll"][0] <= width and seen["scroll"][1] <= height, seen["scroll"]
    assert seen["filled"] >= 0.3 * width * height, (seen["filled"], seen["fits"], seen["turn"])
    for left, top, right, bottom in seen["fits"]:
        assert -0.5 <= left < right <= width + 0.5 and -0.5 <= top < bottom <= height + 0.5


def test_the_event_wall_turns_through_every_running_flight_readably(screen, asgi_server):
    director, event, running, later = _night()
    _size(screen, 1920, 1080)
    screen.get(f"{asgi_server.url}/events/{event.slug}/wall/?every=1")
    WebDriverWait(screen, WAIT_SECONDS).until(
        lambda b: b.find_elements(By.CSS_SELECTOR, ".wall-display .wall-parts.is-laid-out")
    )
    screen.execute_script("window.__noReload = 1;")

    seen_by_flight: dict[str, list[dict]] = {}

    def every_flight_seen(browser) -> bool:
        seen = browser.execute_script(SEEN)
        assert len(seen["flights"]) == 1, seen["flights"]  # one flight at a time
        seen_by_flight.setdefault(seen["flights"][0], []).append(seen)
        return {str(f.pk) for f in running} <= set(seen_by_flight)

    WebDriverWait(screen, ROUND_SECONDS, poll_frequency=0.2).until(every_flight_seen)
    assert str(later.pk) not in seen_by_flight  # still registering: not on the wall
    for flight in running:
        views = seen_by_flight[str(flight.pk)]
        assert flight.name in views[0]["text"]
        for seen in views:
            _assert_readable_and_full(seen, 27)
    names = " ".join(s["text"] for views in seen_by_flight.values() for s in views)
    assert "Svájci Játékos 01" in names and "Körmérkőzés 01" in names
    assert_accessible(screen, "the event wall at 1920x1080")

    # The fourth flight is drawn: the open wall takes it into its rotation, live.
    flight_draw(flight_id=later.pk, by=director)
    WebDriverWait(screen, ROUND_SECONDS, poll_frequency=0.2).until(
        lambda b: b.execute_script(SEEN)["flights"] == [str(later.pk)]
    )
    assert screen.execute_script("return window.__noReload;") == 1  # swapped, not reloaded


def test_the_event_wall_at_4k_draws_names_at_least_54_px(screen, live_server):
    _director, event, running, _later = _night()
    _size(screen, 3840, 2160)
    screen.get(f"{live_server.url}/events/{event.slug}/wall/?every=600")
    WebDriverWait(screen, WAIT_SECONDS).until(
        lambda b: b.find_elements(By.CSS_SELECTOR, ".wall-display .wall-parts.is-laid-out")
    )
    seen = screen.execute_script(SEEN)
    assert seen["inner"] == [3840, 2160]
    assert seen["flights"] == [str(running[0].pk)]
    _assert_readable_and_full(seen, 54)
    # The arrow keys turn to the next pages: the Swiss' standings and pairings.
    body = screen.find_element(By.TAG_NAME, "body")
    for _ in range(12):
        if screen.execute_script(SEEN)["flights"] == [str(running[1].pk)]:
            break
        body.send_keys("\ue014")  # the right arrow
    seen = screen.execute_script(SEEN)
    assert seen["flights"] == [str(running[1].pk)], seen["flights"]
    _assert_readable_and_full(seen, 54)

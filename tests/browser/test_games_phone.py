"""The games pages on a phone and a laptop (issue 18), measured in Chromium: at 390x844
no page scrolls sideways (the ratings were 678 px wide, a player's tournaments 435),
what a player taps at the board is at least 44 px high, the board stays in view while a
play is chosen (the controls come right under it and it sticks to the top), and on a
1366x768 laptop the whole board is in the first screen (what is at stake comes after).

Headless Chromium will not make a window narrower than 500 px: the phone is Chrome's
device emulation (``mobileEmulation``), which lays the page out as a phone would.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from decimal import Decimal
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from games import wallclock
from games.engine.actions import state_from_dict
from games.play import invitations, services
from games.play.dice import ScriptedDice
from games.ratings import services as ratings
from tests.browser.conftest import (
    CHROMEDRIVER,
    CHROMIUM,
    CSP_WATCH,
    WAIT_SECONDS,
    csp_violations,
    sign_in,
)
from tests.browser.phone import PHONE_HEIGHT, PHONE_WIDTH, page_fit
from tests.factories import PlayerFactory, UserPlayerFactory
from tests.tournaments.factories import EventFactory, flight_with
from tournaments.models import TournamentMatch
from tournaments.services.draw import flight_draw
from tournaments.services.results import result_enter

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = (PHONE_WIDTH, PHONE_HEIGHT)
LAPTOP = (1366, 768)

#: Every control a player taps in the page's content that is shorter than 44 px.
SMALL = """
const found = [];
for (const el of document.querySelectorAll(
    'main button, main select:not([size]), main input:not([type=hidden]), main .pager a')) {
  const r = el.getBoundingClientRect();
  if (r.width && r.height && r.height < 43.5) {
    found.push(el.tagName.toLowerCase() + '[' + (el.name || el.textContent.trim()) + '] '
               + Math.round(r.height));
  }
}
return found;
"""

BOX = """
const r = document.querySelector(arguments[0]).getBoundingClientRect();
return [r.top, r.bottom, innerHeight];
"""


def _laptop_chromium(width: int, height: int) -> Any:
    """A headless Chromium whose viewport is exactly ``width`` x ``height``."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--lang=en-US",
        "--hide-scrollbars",
        f"--window-size={width},{height + 200}",
    ):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)
    # exactly the laptop's viewport, whatever the window around it
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
    )
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": CSP_WATCH})
    return driver


@pytest.fixture
def laptop() -> Iterator[Any]:
    driver = _laptop_chromium(*LAPTOP)
    try:
        yield driver
        assert csp_violations(driver) == []
    finally:
        driver.quit()


LONG = "Szentgyörgyvölgyi-Kovács Annamária"
CLUB = "Budapesti Backgammon és Ostábla Baráti Kör"


def _club() -> dict[str, Any]:
    """A club with long names: rated players, a finished tournament, a match under way
    (clocked, rated, with its stakes shown), invitations sent and received."""
    anna = UserPlayerFactory(name=LONG, club=CLUB, rating=Decimal("1612.40"), experience=420)
    bence = UserPlayerFactory(name="Bence Brunszvik-Lázárovics", club=CLUB, experience=300)
    others = [
        PlayerFactory(name=f"Játékos Hosszúnevű {i}", club=CLUB, experience=100 + i)
        for i in range(10)
    ]
    for i, other in enumerate(others[:6]):
        ratings.rating_record(
            source="club",
            source_key=f"club:phone-{i}",
            player1=anna,
            player2=other,
            length=7,
            winner=anna if i % 2 else other,
            at=wallclock.now() - timedelta(days=10 - i),
        )
    event = EventFactory(name="Budapesti Tavaszi Nyílt Bajnokság és Kupa 2025")
    director = event.directors.first()
    flight = flight_with(event, [anna, *others[:3]], name="Főtábla (nyílt, hendikep nélkül)")
    flight_draw(flight_id=flight.pk, by=director)
    for row in TournamentMatch.objects.filter(flight=flight, status="ready").order_by("pk"):
        result_enter(match_id=row.pk, by=director, score_a=flight.match_length, score_b=0)
    match = services.match_create(player1=anna, player2=bence, length=7, clock="usbgf")
    game = services.match_start(match_id=match.pk, dice=ScriptedDice([3, 1]))
    mover = (anna, bence)[state_from_dict(game.state).player_to_act]
    sender = UserPlayerFactory(name=f"{LONG} II.")
    invitations.invitation_send(inviter=sender, invitee=anna, length=11)
    invitee = UserPlayerFactory(name="Cecília Czeglédi-Nagy")
    waiting = invitations.invitation_send(inviter=anna, invitee=invitee, length=0)
    return {
        "anna": anna,
        "bence": bence,
        "mover": mover,
        "match": match,
        "waiting": waiting.match,
        "pages": [
            "/ratings/",
            f"/players/{anna.pk}/",
            f"/players/{anna.pk}/vs/{bence.pk}/",
            f"/matches/{match.pk}/",
            f"/matches/{waiting.match_id}/",
            "/matches/",
            "/matches/import/",
        ],
    }


def test_the_games_pages_fit_a_phone_and_their_controls_are_44px(phone, asgi_server):
    club = _club()
    widths = {}
    for who in (club["mover"], club["anna"]):
        sign_in(phone, asgi_server.url, who.user)
        for path in club["pages"]:
            phone.get(asgi_server.url + path)
            fit = page_fit(phone)
            widths[(who.name, path)] = fit.scroll_width
            assert fit.fits, str(fit)
            assert phone.execute_script(SMALL) == [], path
    # A refused import keeps its form on the page, and fits too.
    phone.get(asgi_server.url + "/matches/import/")
    phone.find_element(By.ID, "text").send_keys("; not a match file " * 30)
    phone.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
    WebDriverWait(phone, WAIT_SECONDS).until(lambda d: d.find_elements(By.ID, "import-error"))
    fit = page_fit(phone)
    assert fit.fits, str(fit)
    assert set(widths.values()) == {PHONE[0]}


def _to_play(driver) -> None:
    """Wait for the arranging panel of the player to move (static/games/board.js)."""
    WebDriverWait(driver, WAIT_SECONDS).until(
        lambda d: d.execute_script(
            "const p = document.getElementById('arrange'); return p && !p.hidden;"
        )
    )


def test_on_a_phone_the_board_stays_in_view_while_a_play_is_chosen(phone, asgi_server):
    club = _club()
    sign_in(phone, asgi_server.url, club["mover"].user)
    phone.get(f"{asgi_server.url}/matches/{club['match'].pk}/")
    _to_play(phone)
    top, bottom, height = phone.execute_script(BOX, ".board")
    assert top >= 0 and bottom <= height, (top, bottom, height)
    # The controls come right under the board, before the game's facts and the stakes.
    order = phone.execute_script(
        "return ['.board', '#arrange', '.panel .facts', '[data-testid=stakes]']"
        ".map(s => document.querySelector(s).getBoundingClientRect().top + scrollY);"
    )
    assert order == sorted(order), order
    board_bottom = phone.execute_script(BOX, ".board")[1] + phone.execute_script("return scrollY")
    assert order[1] - board_bottom < 200, order  # only the game's line, clocks, whose turn
    # Scrolled down to the list of plays and the button that submits it: the board is
    # still on the screen, at its top.
    for target in ("#play", "[data-role=submit]", ".panel .facts"):
        phone.execute_script(
            "document.querySelector(arguments[0]).scrollIntoView({block: 'end'});", target
        )
        top, bottom, height = phone.execute_script(BOX, ".board")
        assert top >= -1 and bottom <= height, (target, top, bottom, height)
        shown = phone.execute_script(BOX, target)
        assert shown[0] >= bottom - 1, (target, shown, bottom)  # not under the board
    # Scrolled further than the board's own place: it has stuck to the top of the screen
    # (the plays go on under it).
    phone.execute_script(
        "window.scrollTo(0, document.querySelector('.board').getBoundingClientRect().top"
        " + scrollY + 200);"
    )
    top, bottom, height = phone.execute_script(BOX, ".board")
    assert -1 <= top <= 1 and bottom <= height, (top, bottom)


def test_on_a_laptop_the_whole_board_is_in_the_first_screen(laptop, asgi_server):
    club = _club()
    sign_in(laptop, asgi_server.url, club["mover"].user)
    laptop.get(f"{asgi_server.url}/matches/{club['match'].pk}/")
    _to_play(laptop)
    top, bottom, height = laptop.execute_script(BOX, ".board")
    assert height == LAPTOP[1]
    assert top > 0 and bottom <= height, (top, bottom)
    stakes = laptop.execute_script(BOX, "[data-testid=stakes]")
    assert stakes[0] > bottom  # what is at stake comes after the board

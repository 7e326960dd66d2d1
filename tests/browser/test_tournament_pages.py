"""The bracket page in a real, headless Chromium: a 128-player double-elimination flight
played to the end through the services, its champion's name found as displayed text of
the bracket SVG and seen in a screenshot (the crop at the text's rectangle holds dark
text pixels); the ``?wall=1`` view, too big for one legible screen, turns through the parts to
the champion.

Pillow is not a dependency of the project, so the screenshot (a PNG) is decoded here
with ``zlib`` (8-bit RGB or RGBA, not interlaced: what Chromium writes)."""

from __future__ import annotations

import struct
import zlib

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from tests.tournaments.factories import DirectorFactory, EventFactory, flight_with, rated_players
from tournaments.models import Flight, TournamentMatch
from tournaments.services.draw import flight_draw
from tournaments.services.results import result_enter

pytestmark = pytest.mark.django_db(transaction=True)


def _play_to_the_end(flight: Flight, director) -> None:
    """The better seed wins every match (length 1: 1-0)."""
    while True:
        ready = list(
            TournamentMatch.objects.filter(flight=flight, status="ready")
            .select_related("entry_a", "entry_b")
            .order_by("pk")
        )
        if not ready:
            return
        for m in ready:
            a_wins = m.entry_a.seed < m.entry_b.seed
            result_enter(match_id=m.pk, by=director, score_a=int(a_wins), score_b=int(not a_wins))


def _png_pixels(data: bytes, *, rows: int) -> tuple[int, int, list[bytes]]:
    """Width, height and the first ``rows`` unfiltered scanlines (RGB(A) bytes) of a PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat = 8, b""
    width = height = channels = 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind = data[pos + 4 : pos + 8]
        body = data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour in (2, 6) and interlace == 0, (depth, colour)
            channels = 4 if colour == 6 else 3
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    out: list[bytes] = []
    previous = bytearray(stride)
    for y in range(min(rows, height)):
        start = y * (stride + 1)
        filter_type = raw[start]
        line = bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            if filter_type == 1:
                line[i] = (line[i] + left) & 0xFF
            elif filter_type == 2:
                line[i] = (line[i] + up) & 0xFF
            elif filter_type == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif filter_type == 4:
                corner = previous[i - channels] if i >= channels else 0
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                pred = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                line[i] = (line[i] + pred) & 0xFF
        out.append(bytes(line))
        previous = line
    return width, height, out


def _dark_pixels(png: bytes, box: tuple[int, int, int, int]) -> tuple[int, int]:
    """(dark pixels, all pixels) of the crop ``box`` (left, top, right, bottom)."""
    left, top, right, bottom = box
    width, height, lines = _png_pixels(png, rows=bottom)
    channels = len(lines[0]) // width
    dark = total = 0
    for y in range(max(top, 0), min(bottom, height)):
        line = lines[y]
        for x in range(max(left, 0), min(right, width)):
            r, g, b = line[x * channels : x * channels + 3]
            total += 1
            dark += r + g + b < 3 * 110
    return dark, total


@pytest.fixture
def finished_double_elimination():
    director = DirectorFactory()
    event = EventFactory(director=director, name="Budapest Open", slug="budapest-open")
    players = rated_players(128)
    flight = flight_with(
        event,
        players,
        format="double_elimination",
        match_length=1,
        name="Main",
        options={"bracket_reset": True},
    )
    flight_draw(flight_id=flight.pk, by=director, publish="all")
    _play_to_the_end(flight, director)
    flight.refresh_from_db()
    assert flight.status == "finished"
    return event, flight, players[0]  # the top seed wins every match


def test_the_champion_of_128_players_shows_in_the_bracket_and_on_the_wall(
    browser, live_server, wait, finished_double_elimination
):
    event, flight, champion = finished_double_elimination
    url = f"{live_server.url}/events/{event.slug}/flights/{flight.pk}/"
    browser.get(url)
    wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "svg.bracket"))
    parts = browser.find_elements(By.CSS_SELECTOR, "svg.bracket")
    assert [p.get_attribute("data-flight") for p in parts] == ["winners", "losers", "final"]
    slots = browser.find_elements(By.CSS_SELECTOR, "svg.bracket g.slot")
    assert len(slots) == TournamentMatch.objects.filter(flight=flight).count()

    name = browser.find_element(By.CSS_SELECTOR, "svg.bracket-final g.champion text.champion-name")
    browser.execute_script(
        "arguments[0].scrollIntoView({block: 'center', inline: 'center'});", name
    )
    wait.until(lambda b: name.is_displayed())
    assert name.text == champion.name
    rect = browser.execute_script(
        "const r = arguments[0].getBoundingClientRect();"
        "return [r.left, r.top, r.right, r.bottom, window.devicePixelRatio,"
        " window.innerWidth, window.innerHeight];",
        name,
    )
    left, top, right, bottom, ratio, inner_w, inner_h = rect
    assert 0 <= left < right <= inner_w and 0 <= top < bottom <= inner_h, rect
    assert right - left > 40 and bottom - top > 8  # a readable name, not a speck
    png = browser.get_screenshot_as_png()
    box = (
        int(left * ratio),
        int(top * ratio),
        int(right * ratio + 0.999),
        int(bottom * ratio + 0.999),
    )
    dark, total = _dark_pixels(png, box)
    assert total > 0
    # Glyphs, not an empty box: a share of the crop is dark ink on the light bracket.
    assert 0.03 < dark / total < 0.8, (dark, total, box)

    # The accessible text version lists the final with the champion.
    last = TournamentMatch.objects.filter(flight=flight, part="final").order_by("round").last()
    table = browser.find_element(By.ID, f"round-final-{last.round}")
    assert champion.name in table.text

    # The wall display: no header, one screen and no scrolling. 128 players are too many
    # boxes for one legible screen: it turns through the parts (static/tournaments/wall.js)
    # and the last page, a turn back from the first, is the grand final with the champion.
    browser.get(f"{url}?wall=1")
    wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, ".wall-parts.is-laid-out"))
    assert not browser.find_elements(By.CSS_SELECTOR, ".site-header")
    wall = browser.find_element(By.ID, "flight-wall")
    assert "is-turning" in wall.get_attribute("class")
    inner_w, inner_h = browser.execute_script(
        "return [document.documentElement.clientWidth, document.documentElement.clientHeight];"
    )
    shown = [s for s in browser.find_elements(By.CSS_SELECTOR, "svg.bracket") if s.is_displayed()]
    assert [s.get_attribute("data-part") for s in shown] == ["winners"]
    # Issue 29: names at least 2.5 % of the screen's height, so a part wider than the
    # screen is shown in windows (.wall-fit clips the drawing): the window fills the width.
    width = browser.execute_script(
        "return arguments[0].closest('.wall-fit').getBoundingClientRect().width;", shown[0]
    )
    assert 0.5 * inner_w < width <= inner_w, (width, inner_w)
    scroll = browser.execute_script(
        "return [document.documentElement.scrollWidth, document.documentElement.scrollHeight];"
    )
    assert scroll[0] <= inner_w + 1 and scroll[1] <= inner_h + 1  # nothing to scroll
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_LEFT)
    name = browser.find_element(By.CSS_SELECTOR, "g.champion text.champion-name")
    wait.until(lambda b: name.is_displayed())
    assert name.text == champion.name

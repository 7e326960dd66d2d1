"""The chouette at the table, on a 390 x 844 phone (issue 18), in a real headless Chromium:

* the tap-size test: on the scoreboard and the game entry of a six-player session (the
  individual profile with beavers, raccoons and a box partner: the widest entry form; a
  member away with a proxy; splitting from six, so the split form shows), every button,
  select, input and link-button of the table's controls, the undo, split and end
  confirmations opened, is at least 44 px high, and neither page is wider than the
  screen;
* every other chouette page a writer sees (the list with the new session's form, the
  summary, the big screen, an ended session, the guest page) fits 390 px too, and the
  new session's check and radio rows are 44 px tap targets;
* the big screen's "Last games" caption reads light on the dark wall (contrast >= 4.5);
* the new session's form shows the individual options only when that profile is chosen
  (static/chouette/session-form.js, under the CSP).

Headless Chromium's window is at least 500 px wide, so the phone is Chrome's device
emulation (``mobileEmulation`` ``deviceMetrics``): the layout viewport is 390 px and the
mobile viewport meta tag is honoured as on a phone.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from chouette import rules
from chouette.services.games import game_record
from chouette.services.proxies import participant_proxy_set
from chouette.services.sessions import session_end
from tests.browser.conftest import WAIT_SECONDS, sign_in
from tests.browser.phone import PHONE_WIDTH
from tests.chouette.factories import players, scorekeeper, session_with, simple_entry
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": PHONE_WIDTH}
TAP = 44  # px: the smallest control at the table
#: Six players with long names: the last games' widest table and the widest seating.
NAMES = (
    "Kovács Anna",
    "Fekete Ádám",
    "Szabó Benedek",
    "Tóth Csilla",
    "Nagy Dániel",
    "Horváth Eszter",
)

#: The document's width (what scrolls sideways) and every control of the table, with
#: its height: buttons, selects, inputs, links styled as buttons, a confirmation's
#: <summary>; check boxes and radios by the label that holds them (the tap target).
MEASURE = """
const out = {width: document.documentElement.scrollWidth, controls: []};
const pick = 'main button, main select, main textarea, main a.button, main summary,'
  + ' main input:not([type=hidden]):not([type=checkbox]):not([type=radio]),'
  + ' main label.check';
for (const el of document.querySelectorAll(pick)) {
  const box = el.getBoundingClientRect();
  if (box.width === 0 && box.height === 0) continue;  // not shown (a closed confirmation)
  out.controls.push({tag: el.tagName.toLowerCase(), id: el.id || el.name || '',
                     text: (el.innerText || el.value || '').trim().slice(0, 40),
                     height: Math.round(box.height * 10) / 10});
}
return out;
"""


def _six_at_the_table() -> tuple[Any, Any, Any]:
    """A six-player session in the individual profile (beavers, raccoons, a box partner),
    three games played, kept by the club's scorekeeper."""
    cast = players(NAMES)
    keeper = scorekeeper()
    # Splitting from six (issue 19): the split form, with its six check rows, shows too.
    profile = rules.Profile(
        kind="individual", beavers=True, raccoons=True, box_partner=True, split_min_players=6
    )
    session = session_with(
        cast,
        by=keeper,
        rolls={name: 6 - i for i, name in enumerate(NAMES)},
        profile=profile.to_dict(),
        stake_per_point=None,
    )
    for _ in range(3):
        session.refresh_from_db()
        entry = simple_entry(session)
        partner = session.seating["line"][-1]
        entry["members"] = [m for m in entry["members"] if m["player"] != partner]
        entry["partner"] = partner
        game_record(session_id=session.pk, by=keeper, entry=entry)
    # A member away from the table: "Name (proxy: Other)" with two long names.
    participant_proxy_set(
        session_id=session.pk, by=keeper, player_id=cast[NAMES[2]].pk, proxy_id=cast[NAMES[5]].pk
    )
    session.refresh_from_db()
    return cast, keeper, session


def _measure(driver: Any) -> dict[str, Any]:
    return driver.execute_script(MEASURE)


def _small(measured: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for c in measured["controls"] if c["height"] < TAP]


def test_scoreboard_and_game_entry_tap_sizes_at_390(phone, asgi_server) -> None:
    _cast, keeper, session = _six_at_the_table()
    sign_in(phone, asgi_server.url, keeper)
    phone.get(f"{asgi_server.url}/chouette/{session.pk}/")
    # The confirmations opened: their real submits count too.
    for summary in phone.find_elements(By.CSS_SELECTOR, "details.confirm > summary"):
        summary.click()
    board = _measure(phone)
    ids = {c["id"] for c in board["controls"]}
    assert {"enter-game", "undo-button", "end-button", "sit-out-player", "guest-name"} <= ids
    assert {"proxy-player", "proxy-proxy", "split-name", "split-button"} <= ids
    assert len(board["controls"]) >= 10
    assert _small(board) == [], board
    assert board["width"] <= PHONE["width"], board["width"]

    phone.find_element(By.ID, "enter-game").click()
    phone.find_element(By.ID, "preview-button")
    entry = _measure(phone)
    # Box, captain, partner, five members' cube/fate/beavers/raccoons, winner, result,
    # Preview and Save.
    assert len([c for c in entry["controls"] if c["tag"] in ("select", "input")]) >= 25
    assert _small(entry) == [], entry
    assert entry["width"] <= PHONE["width"], entry["width"]


def test_every_chouette_page_fits_390(phone, asgi_server) -> None:
    _cast, keeper, session = _six_at_the_table()
    sign_in(phone, asgi_server.url, keeper)
    pages = {
        "list": "/chouette/",
        "summary": f"/chouette/{session.pk}/summary/",
        "wall": f"/chouette/{session.pk}/?wall=1",
    }
    widths = {}
    for name, path in pages.items():
        phone.get(asgi_server.url + path)
        measured = _measure(phone)
        widths[name] = measured["width"]
        if name == "list":  # the new session's form: every row a 44 px tap target
            assert _small(measured) == [], measured
            assert len([c for c in measured["controls"] if c["tag"] == "label"]) >= 9
    # The guest page, answered to a name that is a player's (the offer).
    phone.get(f"{asgi_server.url}/chouette/{session.pk}/")
    PlayerFactory(name="Kiss Réka")
    phone.find_element(By.ID, "guest-name").send_keys("kiss reka")
    phone.find_element(By.CSS_SELECTOR, "#guest-form button").click()
    WebDriverWait(phone, WAIT_SECONDS).until(lambda d: d.find_elements(By.ID, "guest-offers"))
    guest = _measure(phone)
    assert "Join Kiss Réka" in {c["text"] for c in guest["controls"]}
    widths["guest"] = guest["width"]
    assert _small(guest) == [], guest
    # An ended session, with its Reopen button.
    session_end(session_id=session.pk, by=keeper)
    phone.get(f"{asgi_server.url}/chouette/{session.pk}/")
    ended = _measure(phone)
    widths["ended"] = ended["width"]
    assert "reopen-session" in {c["id"] for c in ended["controls"]}
    assert _small(ended) == [], ended
    assert all(width <= PHONE["width"] for width in widths.values()), widths


#: The right edge of the player page's chouette section's table (the rest of the player
#: page is the games app's).
PLAYER_SECTION = """
const table = document.querySelector('section.chouette-player table');
return table ? Math.round(table.getBoundingClientRect().right) : null;
"""


def test_the_player_pages_chouette_section_fits_390(phone, asgi_server) -> None:
    cast, keeper, _session = _six_at_the_table()
    anna = cast[NAMES[0]]
    played = session_with(
        {n: cast[n] for n in NAMES[:3]},
        by=keeper,
        rolls={NAMES[0]: 6, NAMES[1]: 5, NAMES[2]: 4},
        name="Csütörtöki nagy chouette a klubban",
        stake_per_point=Decimal("1000.00"),
        currency="HUF",
    )
    game_record(session_id=played.pk, by=keeper, entry=simple_entry(played))
    phone.get(f"{asgi_server.url}/players/{anna.pk}/")
    right = phone.execute_script(PLAYER_SECTION)
    assert right is not None and right <= PHONE["width"], right


def _luminance(rgb: list[float]) -> float:
    def channel(c: float) -> float:
        c = c / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


#: A text's colour (``arguments[0]``, a selector) and the colour it is drawn on: the
#: first ancestor with a background, a table skipped (its background does not paint its
#: caption).
CAPTION_COLOURS = """
const caption = document.querySelector(arguments[0]);
const rgb = (text) => text.match(/[\\d.]+/g).map(Number);
let el = caption.parentElement;
while (el) {
  const bg = getComputedStyle(el).backgroundColor;
  if (el.tagName !== 'TABLE' && !/rgba\\(.*, 0\\)$/.test(bg) && bg !== 'transparent') {
    return {text: rgb(getComputedStyle(caption).color), background: rgb(bg)};
  }
  el = el.parentElement;
}
return null;
"""


def test_the_big_screens_caption_reads_on_the_dark_wall(phone, asgi_server) -> None:
    session = _six_at_the_table()[2]
    phone.get(f"{asgi_server.url}/chouette/{session.pk}/?wall=1")
    # WCAG AA; it was 1.2 (dark ink on dark green)
    assert _contrast(phone, "table.chouette-games caption") >= 4.5


def _contrast(driver, selector: str) -> float:
    colours = driver.execute_script(CAPTION_COLOURS, selector)
    light, dark = sorted(
        (_luminance(colours["text"]), _luminance(colours["background"])), reverse=True
    )
    return (light + 0.05) / (dark + 0.05)


def test_the_big_screens_join_code_reads_in_its_white_box(phone, asgi_server) -> None:
    session = _six_at_the_table()[2]
    sign_in(phone, asgi_server.url, scorekeeper())  # the code is shown to the writers
    phone.get(f"{asgi_server.url}/chouette/{session.pk}/?wall=1")
    # It was white on white: the wall's light text inherited into the code's white box.
    for selector in (".wall-join .join-code", ".wall-join p"):
        assert _contrast(phone, selector) >= 4.5, selector


def test_new_session_form_shows_the_chosen_profiles_options(phone, asgi_server) -> None:
    players(("Kovács Anna", "Fekete Ádám", "Szabó Béla"))
    sign_in(phone, asgi_server.url, scorekeeper())
    phone.get(f"{asgi_server.url}/chouette/")
    individual = phone.find_element(By.CSS_SELECTOR, '[data-profile-only="individual"]')
    beavers = phone.find_element(By.ID, "id_beavers")
    assert not individual.is_displayed() and not beavers.is_enabled()  # classic chosen
    phone.find_element(By.CSS_SELECTOR, 'label[for="id_kind_1"]').click()
    assert individual.is_displayed() and beavers.is_enabled()
    phone.find_element(By.CSS_SELECTOR, 'label[for="id_beavers"]').click()
    assert beavers.is_selected()
    phone.find_element(By.CSS_SELECTOR, 'label[for="id_kind_0"]').click()
    assert not individual.is_displayed()


def _user_of(cast: dict[str, Any], player_id: int) -> Any:
    return next(p.user for p in cast.values() if p.pk == player_id)


def _online_at_the_box_roll(session: Any, cast: dict[str, Any]) -> Any:
    """A game of the six played online (individual cubes, a box partner): the box won
    the opening 6-1 and played it, the team rolled 3-2 and played it; the box to roll,
    so it may double any of the members."""
    from chouette.online import services as online
    from chouette.online.table import Table
    from games.engine.position import position_id
    from games.play.dice import ScriptedDice

    box = _user_of(cast, session.seating["box"])
    game = online.online_game_start(session_id=session.pk, by=box, dice=ScriptedDice((6, 1)))
    for _ in range(3):
        game.refresh_from_db()
        table = Table.from_dict(game.table)
        if table.board.turn == 0 and table.board.phase == "roll":
            break
        mover = _user_of(cast, table.mover)
        if table.board.phase == "roll":
            online.online_game_act(
                game_id=game.pk,
                by=mover,
                action="roll",
                expected_version=game.version,
                dice=ScriptedDice((3, 2)),
            )
        else:
            online.online_game_act(
                game_id=game.pk,
                by=mover,
                action="play",
                expected_version=game.version,
                position_id=position_id(table.board.legal_plays()[0].result),
            )
    game.refresh_from_db()
    captain = Table.from_dict(game.table).members[0]
    online.online_team_message_post(
        game_id=game.pk, by=_user_of(cast, captain), text="Szerintem most ne kontrázzunk, várjunk."
    )
    return game


def test_the_online_play_page_fits_390_with_44px_taps(phone, asgi_server) -> None:
    """The play page (chouette:play) of a game played online: the box at its roll (the
    members to double, Roll, the abandon confirmation opened), then a member asked to
    take (the answers, the team's chat), then a visitor: 390 px, 44 px taps."""
    from chouette.online import services as online
    from chouette.online.table import Table

    cast, _keeper, session = _six_at_the_table()
    game = _online_at_the_box_roll(session, cast)
    table = Table.from_dict(game.table)
    box, captain = _user_of(cast, table.box), _user_of(cast, table.members[0])
    url = f"{asgi_server.url}/chouette/{session.pk}/play/"
    widths = {}

    sign_in(phone, asgi_server.url, box)
    phone.get(url)
    for summary in phone.find_elements(By.CSS_SELECTOR, "details.confirm > summary"):
        summary.click()
    boxed = _measure(phone)
    actions = {c["text"] for c in boxed["controls"]}
    assert len([c for c in boxed["controls"] if c["tag"] == "label"]) >= 4, boxed  # members
    assert "Roll" in actions and "Double" in actions, boxed
    assert "team-text" not in {c["id"] for c in boxed["controls"]}  # the box never sees it
    assert _small(boxed) == [], boxed
    widths["box"] = boxed["width"]

    # Off the live page and signed out before the double: with the box's page still open,
    # the double's push made it fetch itself again, and that answer, landing after the
    # cookies were cleared, could set the box's CSRF cookie under the next login's form
    # (403 "CSRF token from POST incorrect", seen with four test processes on two cores).
    phone.get(f"{asgi_server.url}/healthz")
    phone.delete_all_cookies()
    game.refresh_from_db()
    online.online_game_act(
        game_id=game.pk, by=box, action="box_double", expected_version=game.version
    )
    sign_in(phone, asgi_server.url, captain)
    phone.get(url)
    member = _measure(phone)
    ids = {c["id"] for c in member["controls"]}
    texts = {c["text"] for c in member["controls"]}
    assert "team-text" in ids and {"Take", "Drop"} <= texts, member
    assert _small(member) == [], member
    widths["member"] = member["width"]

    phone.get(f"{asgi_server.url}/healthz")
    phone.delete_all_cookies()
    phone.get(url)
    widths["visitor"] = _measure(phone)["width"]
    assert all(width <= PHONE["width"] for width in widths.values()), widths

"""Issue 27's acceptance for the online chouette: a table that never stalls.

Five players on phones (390 px) over the real ASGI server and the real Redis channel
layer: Bob has the box, Ann is the captain, then Cy, Dee and Eve. Cy has left the table
(he named Dee his proxy) and has no browser. The box doubles before its first roll; Ann
(the captain) drops, Dee takes for himself and, as Cy's proxy, for Cy; Eve does not
answer, and the session's short decision window (12 s) runs out on every phone: her
default (take) is applied and the log names it. The captain is out and the next member
(Cy) is away, so Dee, the next at the table, moves for the team: every roll and play of
the game is a click in Bob's and Dee's phones, until the game ends and the ledger has
it. Every timeout of the game is named in the log, on a page.

The dice are scripted as in tests/browser/test_chouette_online.py (the services read
``SYSTEM_DICE`` when called; the sequence comes from playing the game with the pure
table, the first legal play each time).
"""

from __future__ import annotations

import pytest

from chouette import rules
from chouette.models import ChouetteLine, ChouetteOnlineAction
from chouette.services.proxies import participant_proxy_set
from chouette.services.sessions import session_create
from tests.browser.conftest import CSP_WATCH, csp_violations, sign_in
from tests.browser.phone import phone_chromium
from tests.browser.test_chouette_online import (
    WAIT,
    WebDriverWait,
    _act,
    _all_show,
    _click,
    _current,
    _js,
    _play_until,
    _start,
    _text_of,
    script_dice,
)
from tests.chouette.factories import players

pytestmark = pytest.mark.django_db(transaction=True)

WINDOW = 12  # seconds: the session's decision window, short so one runs out here


def _moves(driver) -> list[str]:
    return _js(
        driver,
        "return Array.from(document.querySelectorAll('[data-testid=moves] li'))"
        ".map(function (li) { return li.textContent.replace(/\\s+/g, ' ').trim(); });",
    )


def test_the_captain_drops_the_next_is_away_and_the_members_present_finish_the_game(
    phone, asgi_server, monkeypatch
):
    extra = [phone_chromium() for _ in range(3)]
    for driver in extra:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": CSP_WATCH})
    try:
        _game(phone, *extra, server=asgi_server, monkeypatch=monkeypatch)
        for driver in (phone, *extra):
            assert not csp_violations(driver)
    finally:
        for driver in extra:
            driver.quit()


def _game(bob_d, ann_d, dee_d, eve_d, *, server, monkeypatch) -> None:
    cast = players(("Bob", "Ann", "Cy", "Dee", "Eve"))
    ids = {name: p.pk for name, p in cast.items()}
    names = {pk: name for name, pk in ids.items()}
    order = [ids[n] for n in ("Bob", "Ann", "Cy", "Dee", "Eve")]  # Bob box, Ann captain
    session = session_create(
        by=cast["Ann"].user, name="Chouette that never stalls", player_ids=order, order=order
    )
    session.decision_seconds = WINDOW
    session.decision_default = "take"
    session.save()
    # Cy leaves the table before the game: Dee answers his cube decisions.
    participant_proxy_set(
        session_id=session.pk, by=cast["Cy"].user, player_id=ids["Cy"], proxy_id=ids["Dee"]
    )
    drivers = {"Bob": bob_d, "Ann": ann_d, "Dee": dee_d, "Eve": eve_d}
    for name, driver in drivers.items():
        sign_in(driver, server.url, cast[name].user)
        driver.get(f"{server.url}/chouette/{session.pk}/play/")
        WebDriverWait(driver, WAIT).until(
            lambda d: _js(d, "return document.body.dataset.liveState === 'up';")
        )
        assert _js(driver, "return document.documentElement.clientWidth;") == 390, name

    faces = script_dice((2, 6), ((6, 6),), ((6, 6), (5, 5)), members=4)  # the box wins
    game_id = _start(drivers, session.pk, "Ann", faces, monkeypatch)
    # The team's chat sits right under the board's panel, closed on a phone, with a badge
    # counting the lines not seen yet: Ann writes, Dee's badge says 1 until he opens it.
    _js(ann_d, "document.getElementById('team-text').value = 'Double him next turn';")
    _click(ann_d, "button[data-action=say]")
    WebDriverWait(dee_d, WAIT).until(
        lambda d: _text_of(d, "[data-chat-badge]:not([hidden]) [data-count]") == "1",
        "no badge of one new line on Dee's phone",
    )
    chat_top = _js(
        dee_d,
        "return document.getElementById('team-chat').getBoundingClientRect().top"
        " - document.querySelector('.play').getBoundingClientRect().bottom;",
    )
    assert 0 <= chat_top < 100, chat_top  # right under the board and its panel
    _click(dee_d, "#team-chat summary")
    WebDriverWait(dee_d, WAIT).until(
        lambda d: _js(d, "return document.querySelector('[data-chat-badge]').hidden;")
    )
    assert "Double him next turn" in _text_of(dee_d, "#team-chat")
    assert not _js(bob_d, "return !!document.getElementById('team-chat');")
    _play_until(drivers, names, game_id, lambda t: t.board.turn == 0 and t.board.phase == "roll")
    _act(drivers, names, game_id, "button[data-action=box_double]", ids["Bob"])
    _all_show(drivers, game_id)
    # The away member is said on every phone; Dee answers for Cy, on his own phone.
    assert "away" in _text_of(bob_d, f"[data-testid=away-{ids['Cy']}]")
    assert _js(
        dee_d, f"return !!document.querySelector('form.decision[data-member=\"{ids['Cy']}\"]');"
    )
    countdown = _text_of(eve_d, "[data-testid=countdown]")
    assert "then by default" in countdown and "Eve: take" in countdown, countdown
    _act(drivers, names, game_id, "form.decision button[data-answer=drop]", ids["Ann"])
    _act(
        drivers,
        names,
        game_id,
        f'form.decision[data-member="{ids["Dee"]}"] button[data-answer=take]',
        ids["Dee"],
    )
    _act(
        drivers,
        names,
        game_id,
        f'form.decision[data-member="{ids["Cy"]}"] button[data-answer=take]',
        ids["Dee"],
    )
    # Eve does not answer: the window runs out on the phones' countdowns, the page asks
    # again, and the server applies her default, named in the log.
    WebDriverWait(eve_d, WINDOW + WAIT).until(
        lambda d: any("The time to answer ran out" in line for line in _moves(d)),
        "the decision window's timeout is not in the log",
    )
    _, table = _current(game_id)
    assert not table.waiting
    assert table.in_members == (ids["Cy"], ids["Dee"], ids["Eve"])
    # The captain dropped and Cy is away: Dee moves for the team, by clicks.
    _play_until(drivers, names, game_id, lambda t: t.board.turn == 1)
    _, table = _current(game_id)
    assert table.mover == ids["Dee"]
    _all_show(drivers, game_id)
    assert _js(dee_d, "return !!document.querySelector('button[data-action=roll]');")
    assert not _js(ann_d, "return !!document.querySelector('button[data-action=roll]');")
    _play_until(drivers, names, game_id, lambda t: False)
    _all_show(drivers, game_id)
    for driver in drivers.values():
        WebDriverWait(driver, WAIT).until(
            lambda d: _js(d, "return !!document.querySelector('[data-testid=result]');")
        )

    game, table = _current(game_id)
    assert game.status == "finished"
    entry = rules.GameEntry.from_dict(game.event.data)
    assert (entry.winner, entry.acting_captain) == ("box", ids["Dee"])
    assert sum(ChouetteLine.objects.filter(event=game.event).values_list("points", flat=True)) == 0
    # Every timeout of the game is named in the log, on a page: here the one decision
    # window that ran out, with what it decided.
    timeouts = ChouetteOnlineAction.objects.filter(
        game_id=game_id, kind__in=("defaults", "flag", "forfeit")
    )
    assert [row.kind for row in timeouts] == ["defaults"]
    said = f"The time to answer ran out ({WINDOW} s); by default: Eve: take."
    assert any(said in line for line in _moves(ann_d)), _moves(ann_d)
    # Nobody acted for the team but the members at the table.
    actors = set(
        ChouetteOnlineAction.objects.filter(game_id=game_id, kind__in=("roll", "play"))
        .exclude(actor=ids["Bob"])
        .values_list("actor", flat=True)
    )
    assert actors == {ids["Ann"], ids["Dee"]}

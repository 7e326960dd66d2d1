"""Issue 19's acceptance: four players on four browsers play an online chouette of three
games over the real ASGI server and the real Redis channel layer.

* Game 1: the box doubles; the captain drops (on a phone), the others take; the next
  member moves as acting captain; the box wins.
* Game 2: a member proposes the team double; it waits for every other member's consent,
  each pressed in their own browser; the box takes; one member's socket drops mid-game and
  comes back, and that page then shows everything that happened meanwhile, without a
  reload; the team wins.
* Game 3: the team wins a gammon.

The ledger is then what a scorekeeper typing the same three games gets (a second session
fed the same entries through the game entry's service), every game sums to zero, and the
seating for the next game is the one R13's rotation gives.

The server's dice are scripted (the services read ``SYSTEM_DICE`` when called) so that
each game ends as planned: the sequences come from playing the same game with the pure
table, choosing the first legal play as the page's list preselects.
"""

from __future__ import annotations

import pytest
from selenium.webdriver.support.ui import WebDriverWait as _Wait

from chouette import rules
from chouette.models import ChouetteLine, ChouetteOnlineGame, ChouetteSession
from chouette.online import services as online_services
from chouette.online.table import BOX, Table, table_new
from chouette.services.games import game_record
from chouette.services.sessions import session_create
from chouette.services.summary import session_totals
from games.engine.position import position_id
from games.play.dice import ScriptedDice
from tests.browser.conftest import CSP_WATCH, WAIT_SECONDS, csp_violations, new_chromium, sign_in
from tests.chouette.factories import players, scorekeeper

pytestmark = pytest.mark.django_db(transaction=True)


def WebDriverWait(driver, timeout):
    """Selenium's wait, looking every 50 ms instead of every 500 ms: a game is a few
    hundred waits."""
    return _Wait(driver, timeout, poll_frequency=0.05)


WAIT = WAIT_SECONDS

#: Installed in Dee's browser before any page script: the page's WebSockets can be cut
#: (and refused while ``__offline``), as when a phone loses its network for a while.
SOCKET_CUTTER = """
(function () {
  var Real = window.WebSocket;
  window.__sockets = [];
  window.__offline = false;
  function Cut(url, protocols) {
    if (window.__offline) throw new Error("offline");
    var s = protocols ? new Real(url, protocols) : new Real(url);
    window.__sockets.push(s);
    return s;
  }
  Cut.prototype = Real.prototype;
  Cut.CONNECTING = 0; Cut.OPEN = 1; Cut.CLOSING = 2; Cut.CLOSED = 3;
  window.WebSocket = Cut;
})();
"""


def script_dice(opening, box_cycle, team_cycle, *, members=3) -> list[int]:
    """The faces that make a game go as planned: the opening roll, then each side's
    cycle of rolls, with the first legal play each time, until the board ends."""
    table = table_new(profile=rules.Profile(), box="B", members=tuple(range(members)))
    table = table.opening_roll(*opening)
    faces = list(opening)
    turns = {BOX: 0, 1: 0}
    while not table.board.is_over:
        if table.board.phase == "roll":
            side = table.board.turn
            cycle = box_cycle if side == BOX else team_cycle
            roll = cycle[turns[side] % len(cycle)]
            turns[side] += 1
            faces.extend(roll)
            table = table.roll(table.mover, *roll)
        else:
            table = table.play(table.mover, position_id(table.board.legal_plays()[0].result))
        assert len(faces) < 1000
    return faces


def _text_of(driver, css: str) -> str:
    return driver.execute_script(
        "const e = document.querySelector(arguments[0]); return e ? e.textContent : '';", css
    )


def _js(driver, script: str, *args):
    return driver.execute_script(script, *args)


def _version_shown(driver) -> int | None:
    return _js(
        driver,
        "const e = document.querySelector('[data-live-topic^=\"chouette_game:\"]');"
        " return e ? Number(e.dataset.liveVersion) : null;",
    )


def _game_number_shown(driver) -> str:
    return _js(
        driver,
        "const e = document.querySelector('[data-live-topic^=\"chouette_game:\"]');"
        " return e ? e.dataset.liveTopic : '';",
    )


def _click(driver, css: str) -> None:
    WebDriverWait(driver, WAIT).until(
        lambda d: _js(
            d,
            "const e = document.querySelector(arguments[0]);"
            " if (e && !e.disabled) { e.click(); return true; } return false;",
            css,
        ),
        f"no {css} to click",
    )


def _current(game_id: int) -> tuple[ChouetteOnlineGame, Table]:
    game = ChouetteOnlineGame.objects.get(pk=game_id)
    return game, Table.from_dict(game.table)


def _act(drivers, names, game_id: int, css: str, who: int) -> None:
    """``who`` clicks ``css`` once their page shows the game's present version (the live
    update reached it), then the server has the next version."""
    game, _ = _current(game_id)
    driver = drivers[names[who]]
    WebDriverWait(driver, WAIT).until(
        lambda d: _version_shown(d) == game.version,
        f"{names[who]}'s page did not reach version {game.version}",
    )
    _click(driver, css)
    WebDriverWait(driver, WAIT).until(
        lambda d: ChouetteOnlineGame.objects.get(pk=game_id).version > game.version,
        f"{names[who]}'s {css} did not act",
    )


def _play_until(drivers, names, game_id: int, stop) -> None:
    """The movers roll and play (the preselected first play) until ``stop(table)``."""
    for _ in range(400):
        game, table = _current(game_id)
        if not game.is_playing or stop(table):
            return
        css = (
            "button[data-action=roll]"
            if table.board.phase == "roll"
            else ("button[data-action=play]")
        )
        _act(drivers, names, game_id, css, table.mover)
    raise AssertionError("the game went on too long")


def _all_show(drivers, game_id: int) -> None:
    version = ChouetteOnlineGame.objects.get(pk=game_id).version
    for name, driver in drivers.items():
        WebDriverWait(driver, WAIT).until(
            lambda d: _version_shown(d) == version, f"{name}'s page is behind"
        )


def _start(drivers, session_pk: int, by: str, faces: list[int], monkeypatch) -> int:
    monkeypatch.setattr(online_services, "SYSTEM_DICE", ScriptedDice(faces))
    before = set(ChouetteOnlineGame.objects.values_list("pk", flat=True))
    _click(drivers[by], "#start-online-game")
    game_id = (
        WebDriverWait(drivers[by], WAIT)
        .until(lambda d: set(ChouetteOnlineGame.objects.values_list("pk", flat=True)) - before)
        .pop()
    )
    for name, driver in drivers.items():  # every page brings the new game by itself
        WebDriverWait(driver, WAIT).until(
            lambda d: _game_number_shown(d) == f"chouette_game:{game_id}",
            f"{name}'s page did not show the new game",
        )
    return game_id


def _not_reloaded(driver) -> bool:
    return _js(driver, "return window.__noReload === 1;")


def test_four_browsers_play_an_online_chouette_of_three_games(
    browser, phone, second_browser, asgi_server, monkeypatch
):
    dee_driver = new_chromium()
    for script in (CSP_WATCH, SOCKET_CUTTER):
        dee_driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": script})
    try:
        _three_games(browser, phone, second_browser, dee_driver, asgi_server, monkeypatch)
        assert not csp_violations(dee_driver)
    finally:
        dee_driver.get("about:blank")
        dee_driver.quit()


def _three_games(bob_d, ann_d, cy_d, dee_d, server, monkeypatch) -> None:
    cast = players(("Ann", "Bob", "Cy", "Dee"))
    ids = {name: p.pk for name, p in cast.items()}
    names = {pk: name for name, pk in ids.items()}
    order = [ids["Bob"], ids["Ann"], ids["Cy"], ids["Dee"]]  # Bob box, Ann captain
    session = session_create(
        by=cast["Ann"].user, name="Online chouette", player_ids=order, order=order
    )
    session.decision_seconds = 0  # no time window: the browsers answer as they like
    session.save()
    drivers = {"Bob": bob_d, "Ann": ann_d, "Cy": cy_d, "Dee": dee_d}
    for name, driver in drivers.items():
        sign_in(driver, server.url, cast[name].user)
        driver.get(f"{server.url}/chouette/{session.pk}/play/")
        WebDriverWait(driver, WAIT).until(
            lambda d: _js(d, "return document.body.dataset.liveState === 'up';")
        )
        _js(driver, "window.__noReload = 1;")

    # ------------------------------------------------------------------ game 1
    faces = script_dice((2, 6), ((6, 6),), ((6, 6), (5, 5)))  # the box wins a single
    g1 = _start(drivers, session.pk, "Ann", faces, monkeypatch)
    _play_until(drivers, names, g1, lambda t: t.board.turn == BOX and t.board.phase == "roll")
    _act(drivers, names, g1, "button[data-action=box_double]", ids["Bob"])
    # Every member is asked on their own screen; the box waits.
    _all_show(drivers, g1)
    for name in ("Ann", "Cy", "Dee"):
        assert _js(drivers[name], "return !!document.querySelector('form.decision');"), name
    assert not _js(bob_d, "return !!document.querySelector('form.decision');")
    assert not _js(bob_d, "return !!document.querySelector('button[data-action=roll]');")
    _act(drivers, names, g1, "form.decision button[data-answer=drop]", ids["Ann"])
    _act(drivers, names, g1, "form.decision button[data-answer=take]", ids["Cy"])
    _act(drivers, names, g1, "form.decision button[data-answer=take]", ids["Dee"])
    _all_show(drivers, g1)
    # The captain dropped: Cy moves for the team; Ann watches.
    cy_cube = _js(
        bob_d, f"return document.querySelector('[data-testid=cube-{ids['Cy']}]').textContent;"
    )
    assert "cube 2" in cy_cube
    assert "dropped" in _js(ann_d, "return document.querySelector('.online-cubes').textContent;")
    _play_until(drivers, names, g1, lambda t: False)
    _all_show(drivers, g1)
    for driver in drivers.values():
        WebDriverWait(driver, WAIT).until(
            lambda d: _js(d, "return !!document.querySelector('[data-testid=result]');")
        )
    assert "won" in _js(ann_d, "return document.querySelector('[data-testid=result]').textContent;")

    # ------------------------------------------------------------------ game 2
    session.refresh_from_db()
    assert session.seating["box"] == ids["Bob"]  # the captain dropped: lost (R13)
    assert session.seating["line"][0] == ids["Cy"]
    faces = script_dice((6, 2), ((6, 6), (5, 5)), ((6, 6),))  # the team wins a single
    g2 = _start(drivers, session.pk, "Cy", faces, monkeypatch)
    _play_until(drivers, names, g2, lambda t: t.board.turn == 1 and t.board.phase == "roll")
    _act(drivers, names, g2, "button[data-action=propose_double]", ids["Dee"])
    _all_show(drivers, g2)
    # Nothing happens until every member has consented, each on their own screen.
    assert not _js(bob_d, "return !!document.querySelector('form.decision');")
    _act(drivers, names, g2, "form.decision button[data-answer=yes]", ids["Cy"])
    game, table = _current(g2)
    assert [d.decider for d in table.decisions] == [ids["Ann"]]
    _act(drivers, names, g2, "form.decision button[data-answer=yes]", ids["Ann"])
    _act(drivers, names, g2, "form.decision button[data-answer=take]", ids["Bob"])
    game, table = _current(g2)
    assert {c.value for c in table.cubes} == {2} and {c.owner for c in table.cubes} == {"box"}

    # Dee's network goes: the socket is cut and refused while the others play on.
    _all_show(drivers, g2)
    _js(dee_d, "window.__offline = true; window.__sockets.forEach(function (s) { s.close(); });")
    WebDriverWait(dee_d, WAIT).until(
        lambda d: _js(d, "return document.body.dataset.liveState === 'down';")
    )
    others = {k: v for k, v in drivers.items() if k != "Dee"}
    played = 0
    while played < 6:
        game, table = _current(g2)
        if names[table.mover] == "Dee":
            break  # Dee moves for nobody here (Cy is the captain); kept as a guard
        css = (
            "button[data-action=roll]"
            if table.board.phase == "roll"
            else ("button[data-action=play]")
        )
        _act(others, names, g2, css, table.mover)
        played += 1
    assert played == 6
    behind = _version_shown(dee_d)
    game, _ = _current(g2)
    _js(dee_d, "window.__offline = false;")  # back: live.js reconnects by itself
    WebDriverWait(dee_d, 30).until(
        lambda d: _js(d, "return document.body.dataset.liveState === 'up';")
    )
    WebDriverWait(dee_d, WAIT).until(lambda d: _version_shown(d) == game.version)
    assert behind is not None and behind < game.version
    moves_seen = _js(
        dee_d,
        "return Array.from(document.querySelectorAll('[data-testid=moves] li'))"
        ".map(function (li) { return Number(li.dataset.seq); });",
    )
    assert moves_seen[-1] == game.version  # the newest move is there, and none is missing
    assert moves_seen == list(range(moves_seen[0], game.version + 1))
    assert _not_reloaded(dee_d)

    _play_until(drivers, names, g2, lambda t: False)
    _all_show(drivers, g2)

    # ------------------------------------------------------------------ game 3
    session.refresh_from_db()
    assert session.seating["box"] == ids["Cy"]  # the captain won: takes the box (R13)
    assert session.seating["line"] == [ids["Dee"], ids["Ann"], ids["Bob"]]
    faces = script_dice((6, 2), ((2, 1),), ((6, 6),))  # the team wins a gammon
    g3 = _start(drivers, session.pk, "Dee", faces, monkeypatch)
    # The team consults: Ann writes to the team; the box does not see it.
    _js(ann_d, "document.getElementById('team-text').value = 'Run, we are far ahead';")
    _click(ann_d, "button[data-action=say]")
    for name in ("Dee", "Bob"):
        WebDriverWait(drivers[name], WAIT).until(lambda d: "far ahead" in _text_of(d, "#team-chat"))
    assert "far ahead" not in _js(cy_d, "return document.body.textContent;")
    _play_until(drivers, names, g3, lambda t: False)
    _all_show(drivers, g3)
    for driver in drivers.values():
        WebDriverWait(driver, WAIT).until(lambda d: "gammon" in _text_of(d, "[data-testid=result]"))
    assert all(_not_reloaded(d) for d in drivers.values())

    # ------------------------------------------------------------------ the ledger
    session.refresh_from_db()
    finished = list(ChouetteOnlineGame.objects.filter(session=session).order_by("number"))
    assert [g.status for g in finished] == ["finished"] * 3
    entries = [rules.GameEntry.from_dict(g.event.data) for g in finished]
    bob, ann, cy, dee = ids["Bob"], ids["Ann"], ids["Cy"], ids["Dee"]
    typed = [  # what the scorekeeper types for the same three games
        {
            "box": bob,
            "captain": ann,
            "members": [
                {"player": ann, "cube": 2, "fate": "dropped"},
                {"player": cy, "cube": 2, "fate": "took"},
                {"player": dee, "cube": 2, "fate": "took"},
            ],
            "winner": entries[0].winner,
            "kind": entries[0].kind,
            "acting_captain": cy,
        },
        {
            "box": bob,
            "captain": cy,
            "members": [
                {"player": cy, "cube": 2},
                {"player": dee, "cube": 2},
                {"player": ann, "cube": 2},
            ],
            "winner": "team",
            "kind": entries[1].kind,
        },
        {
            "box": cy,
            "captain": dee,
            "members": [{"player": dee}, {"player": ann}, {"player": bob}],
            "winner": "team",
            "kind": "gammon",
        },
    ]
    assert [e.winner for e in entries] == ["box", "team", "team"]
    assert [e.kind for e in entries] == ["single", "single", "gammon"]
    keeper = scorekeeper()
    paper = session_create(by=keeper, name="The same on paper", player_ids=order, order=order)
    for entry in typed:
        game_record(session_id=paper.pk, by=keeper, entry=entry)
    paper.refresh_from_db()
    online_totals = session_totals(session)
    assert online_totals == session_totals(paper)
    assert sum(online_totals.values()) == 0
    for g in finished:
        assert sum(ChouetteLine.objects.filter(event=g.event).values_list("points", flat=True)) == 0
    # The next line: R13's rotation of the same games.
    assert session.seating == paper.seating
    assert session.seating["box"] == dee  # the captain (Dee) won the gammon
    assert ChouetteSession.objects.get(pk=session.pk).seating["line"] == [ann, bob, cy]

"""Table clock pages: the director's list of live clocks (times from the stored state at
the server's time, flagged ones highlighted, followed live), the form that sets a
clock up, and the tablet page, which works without JavaScript through plain forms."""

from __future__ import annotations

import json
import re

import pytest

from games.clocks import selectors as clock_selectors
from games.clocks import services as tableclocks
from games.clocks.pages import format_clock_ms
from games.models import TableClock
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner():
    return UserFactory(username="anna")


def _clock(owner, label="Table 7", clock="seed002", names=("Anna", "Bence")):
    return tableclocks.table_clock_create(
        label=label,
        player1_name=names[0],
        player2_name=names[1],
        clock=clock,
        created_by=owner,
    )


def _get(client, url, **extra):
    return client.get(url, HTTP_ACCEPT_LANGUAGE="en", **extra)


@pytest.mark.parametrize(
    ("ms", "text"),
    [
        (0, "0.0"),
        (1, "0.1"),
        (9_401, "9.5"),
        (9_999, "10.0"),
        (10_000, "0:10"),
        (90_000, "1:30"),
        (89_001, "1:30"),
        (3_600_000, "1:00:00"),
        (5_025_000, "1:23:45"),
    ],
)
def test_times_read_as_a_clock_shows_them(ms, text):
    assert format_clock_ms(ms) == text


def test_the_directors_list_shows_every_live_clock_with_bounded_queries(
    client, wall, owner, django_assert_max_num_queries
):
    running = _clock(owner, "Table 2")
    tableclocks.table_clock_start(clock_id=running.pk, player=1)
    flagged = _clock(owner, "Table 10", clock={"delay_ms": 1_000, "reserve_ms": 2_000})
    tableclocks.table_clock_start(clock_id=flagged.pk, player=0)
    ready = _clock(owner, "Table 1", names=("Csilla", "Dénes"))
    done = _clock(owner, "Table 3", names=("Erik", "Flóra"))
    tableclocks.table_clock_finish(clock_id=done.pk)
    wall.advance(seconds=25)  # Table 2: 11 s delay, 14 s of Bence's reserve; Table 10 flags
    with django_assert_max_num_queries(12):
        response = _get(client, "/clocks/")
    html = response.content.decode()
    assert response.status_code == 200
    assert 'http-equiv="refresh"' not in html
    assert ' clocks:all"' in html  # followed live
    assert html.index("Table 1") < html.index("Table 2") < html.index("Table 10")
    assert "Erik" not in html  # finished
    assert "1:16" in html and "1:30" in html  # Bence's 76 s, Anna's full reserve
    row = re.search(rf'<tr class="([^"]*)" data-clock="{flagged.pk}">', html)
    assert "is-flagged" in row.group(1)
    assert "out of time" in html
    # Reading the list recorded the flag that was due.
    flagged.refresh_from_db()
    assert (flagged.status, flagged.flagged_index) == ("flagged", 0)
    assert f'data-clock="{ready.pk}"' in html
    # Twenty clocks: still a bounded number of queries.
    for n in range(20):
        _clock(owner, f"Table {20 + n}")
    with django_assert_max_num_queries(12):
        _get(client, "/clocks/")


def test_setting_up_a_clock_needs_a_login_and_goes_to_the_tablet(client, wall, owner):
    response = _get(client, "/clocks/new/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.force_login(owner)
    html = _get(client, "/clocks/new/").content.decode()
    for value in ("seed002", "usbgf", "galaxy-casual", "wbgf-speed", "custom"):
        assert f'value="{value}"' in html
    form = {
        "label": "Table 4",
        "player1_name": "Anna",
        "player2_name": "Bence",
        "preset": "usbgf",
        "match_length": "5",
    }
    response = client.post("/clocks/new/", form)
    clock = TableClock.objects.get(label="Table 4")
    assert response.status_code == 302
    assert response["Location"] == f"/clocks/{clock.pk}/"
    assert (clock.preset, clock.match_length, clock.created_by) == ("usbgf", 5, owner)
    assert clock_selectors.table_clock_view(clock)["reserves_ms"] == [600_000, 600_000]
    # Custom: the delay and reserve are required.
    response = client.post("/clocks/new/", {**form, "label": "Table 5", "preset": "custom"})
    assert response.status_code == 200
    assert not TableClock.objects.filter(label="Table 5").exists()
    custom = {**form, "label": "Table 5", "preset": "custom"}
    client.post("/clocks/new/", {**custom, "delay_seconds": "8", "reserve_seconds": "120"})
    clock = TableClock.objects.get(label="Table 5")
    assert clock.clock_settings["delay_ms"] == 8_000
    assert clock_selectors.table_clock_view(clock)["reserves_ms"] == [120_000, 120_000]


def test_the_tablet_page_shows_the_servers_times_and_taps_without_javascript(client, wall, owner):
    clock = _clock(owner)
    client.force_login(owner)
    html = _get(client, f"/clocks/{clock.pk}/").content.decode()
    # Two halves: player 2 on top (turned for the player across the table).
    assert re.search(r'class="half half-top[^"]*" data-player="1"', html)
    assert re.search(r'class="half half-bottom[^"]*" data-player="0"', html)
    assert html.count('class="half-button"') == 2
    assert "Tap if you play first" in html
    assert 'src="/static/games/tableclock.js"' in html
    state = json.loads(re.search(r'id="tableclock-state"[^>]*>(.*?)</script>', html).group(1))
    assert (state["status"], state["version"], state["reserves_ms"]) == ("ready", 0, [90_000] * 2)
    texts = re.search(r'id="tableclock-texts"[^>]*>(.*?)</script>', html).group(1)
    assert json.loads(texts)["hints"]["tap"] == "Tap to end your turn"
    # Anna plays first: her half's button starts her clock.
    response = client.post(f"/clocks/{clock.pk}/start/", {"player": "0", "version": "0"})
    assert response["Location"] == f"/clocks/{clock.pk}/"
    wall.advance(seconds=5)
    html = _get(client, f"/clocks/{clock.pk}/").content.decode()
    assert re.search(r'class="half half-bottom is-running is-turn" data-player="0"', html)
    assert "Tap to end your turn" in html and "Waiting" in html
    assert ">6.0<" in html  # the delay left
    assert 'http-equiv="refresh"' not in html
    assert f'data-live-topics="tableclock:{clock.pk}"' in html  # tableclock.js re-reads it
    # Only the running half's button works.
    assert re.search(
        r'name="player" value="1" class="half-button" data-role="button" disabled', html
    )
    wall.advance(seconds=20)
    client.post(f"/clocks/{clock.pk}/tap/", {"player": "0", "version": "1"})
    clock.refresh_from_db()
    view = clock_selectors.table_clock_view(clock)
    assert (view["running"], view["reserves_ms"]) == (1, [76_000, 90_000])
    # A stale form: refused, said so, nothing changed.
    response = client.post(
        f"/clocks/{clock.pk}/tap/",
        {"player": "1", "version": "1"},
        follow=True,
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert "The clock has moved on" in response.content.decode()
    clock.refresh_from_db()
    assert clock.version == 2
    # ?swap=1 turns player 1's half the other way; the forms keep it.
    html = _get(client, f"/clocks/{clock.pk}/?swap=1").content.decode()
    assert re.search(r'class="half half-top[^"]*" data-player="0"', html)
    response = client.post(
        f"/clocks/{clock.pk}/pause/", {"version": "2", "swap": "1"}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response["Location"] == f"/clocks/{clock.pk}/?swap=1"
    clock.refresh_from_db()
    assert clock.status == "paused"
    client.post(f"/clocks/{clock.pk}/resume/", {"version": "3"})
    client.post(f"/clocks/{clock.pk}/finish/", {"version": "4"})
    clock.refresh_from_db()
    assert clock.status == "finished"


def test_visitors_read_the_tablet_page_but_cannot_operate_it(client, wall, owner):
    clock = _clock(owner)
    tableclocks.table_clock_start(clock_id=clock.pk, player=0)
    html = _get(client, f"/clocks/{clock.pk}/").content.decode()
    assert "1:30" in html
    assert 'class="half-form"' not in html  # no tap forms
    assert "Only the director and whoever set up this clock can operate it." in html
    response = client.post(f"/clocks/{clock.pk}/tap/", {"player": "0", "version": "1"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.force_login(UserFactory(username="bence"))
    response = client.post(
        f"/clocks/{clock.pk}/tap/",
        {"player": "0", "version": "1"},
        follow=True,
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert "Only the director" in response.content.decode()
    clock.refresh_from_db()
    assert clock.version == 1
    assert _get(client, f"/clocks/{clock.pk + 100}/").status_code == 404


def test_the_pages_speak_hungarian(client, wall, owner):
    clock = _clock(owner)
    html = client.get("/clocks/", HTTP_ACCEPT_LANGUAGE="hu").content.decode()
    assert "Asztali órák" in html
    html = client.get(f"/clocks/{clock.pk}/", HTTP_ACCEPT_LANGUAGE="hu").content.decode()
    assert "Asztali óra" in html
    assert "Koppints, ha te kezdesz" in html

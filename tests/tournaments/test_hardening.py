"""Issue 16, found by a probe of the server: formulas in the finishing order's CSV
(defect 9), a walk-in's name made of invisible or direction characters (defect 13), and
concurrent reports by one side each telling the opponent again (defect 13)."""

from __future__ import annotations

import threading
from decimal import Decimal

import pytest
from django.db import connection
from django.urls import reverse

from games.errors import ValidationFailed
from games.models import Notification, Player
from games.text.csvfile import csv_cell, csv_text
from tests.factories import PlayerFactory, UserPlayerFactory, api_client
from tests.tournaments.factories import DirectorFactory, EventFactory, flight_with
from tournaments.models import Entry, TournamentMatch
from tournaments.services.draw import flight_draw
from tournaments.services.entries import entry_register
from tournaments.services.results import result_enter, result_report

HYPERLINK = '=HYPERLINK("https://evil.example","click")'


# ====================================================================== defect 9
def test_csv_cells_neutralise_text_formulas_and_keep_numbers() -> None:
    row = [-3, "-3", 2.5, Decimal("-1.50"), "=1+1", "+1+1", "@SUM(A1)", "\tx", "\rx", "3-4"]
    assert [csv_cell(v) for v in row] == [
        -3,
        "'-3",
        2.5,
        Decimal("-1.50"),
        "'=1+1",
        "'+1+1",
        "'@SUM(A1)",
        "'\tx",
        "'\rx",
        "3-4",
    ]
    assert csv_cell(None) == "" and csv_cell(float("-inf")) == "'-inf"
    assert csv_text([["diff", "name"], [-3, "Kiss Anna"], [4, "+1+1"]]) == (
        "diff,name\n-3,Kiss Anna\n4,'+1+1\n"
    )


@pytest.mark.django_db
def test_the_finishing_order_csv_writes_no_formula(client) -> None:
    director = DirectorFactory()
    event = EventFactory(director=director)
    evil = [PlayerFactory(name=HYPERLINK, rating=2000), PlayerFactory(name="+1+1", rating=1990)]
    flight = flight_with(event, evil)
    flight_draw(flight_id=flight.pk, by=director)
    final = TournamentMatch.objects.get(flight=flight, slot_key="M1-1")
    result_enter(match_id=final.pk, by=director, score_a=5, score_b=1)
    page = client.get(
        reverse(
            "tournaments:flight-finishing-order-csv",
            kwargs={"slug": event.slug, "flight_id": flight.pk},
        )
    )
    api = api_client().get(f"/api/v1/flights/{flight.pk}/finishing-order/?as=csv")
    for response in (page, api):
        assert response.status_code == 200
        lines = response.content.decode().splitlines()
        club = "Budapest Backgammon Kör,HU"
        # (the part's name is in the reader's language)
        assert lines[1].startswith(
            f'1,{evil[0].pk},"\'=HYPERLINK(""https://evil.example"",""click"")",{club},'
        )
        assert lines[2].startswith(f"2,{evil[1].pk},'+1+1,{club},")
    # The page's file names the part in words, the API's gives the ranking's code.
    page_lines, api_lines = (r.content.decode().splitlines() for r in (page, api))
    assert not page_lines[1].endswith(",main")
    assert api_lines[1].endswith(",main") and api_lines[2].endswith(",main")


# ====================================================================== defect 13: names
@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "api_code"),
    [
        ("\u200b", "invalid_name"),
        (" \u200b\u200b ", "invalid_name"),
        ("Anna\u202egnal", "invalid_name"),
        ("\u2066Béla\u2069", "invalid_name"),
        ("Cili\u200f", "invalid_name"),
        ("Anna\u200b", "invalid_name"),
        ("...", "invalid_name"),
        ("A\tB", "invalid_name"),
        ("A\x00B", "invalid"),  # DRF's CharField refuses a NUL before the service sees it
    ],
)
def test_a_walk_in_with_an_invisible_or_direction_name_is_refused(name, api_code) -> None:
    director = DirectorFactory()
    event = EventFactory(director=director)
    flight = flight_with(event, [])
    players_before = Player.objects.count()
    with pytest.raises(ValidationFailed) as refused:
        entry_register(flight_id=flight.pk, by=director, name=name)
    assert refused.value.code == "invalid_name"
    response = api_client(director).post(
        f"/api/v1/flights/{flight.pk}/entries/", {"name": name}, format="json"
    )
    assert response.status_code == 400, response.content
    assert response.json()["code"] == api_code
    assert Player.objects.count() == players_before and Entry.objects.count() == 0


@pytest.mark.django_db
def test_a_walk_in_name_is_normalised_and_stored_clean() -> None:
    director = DirectorFactory()
    event = EventFactory(director=director)
    flight = flight_with(event, [])
    entry = entry_register(flight_id=flight.pk, by=director, name="  Bence\u0301 Kiss ")
    assert entry.player.name == "Bencé Kiss"  # NFC: one code point for é


# ====================================================================== defect 13: notices
THREADS = 8


@pytest.mark.django_db(transaction=True)
def test_concurrent_reports_by_one_side_tell_the_opponent_once() -> None:
    director = DirectorFactory()
    event = EventFactory(director=director)
    a, b = UserPlayerFactory(rating=2000), UserPlayerFactory(rating=1990)
    flight = flight_with(event, [a, b])
    flight_draw(flight_id=flight.pk, by=director)
    row = TournamentMatch.objects.get(flight=flight, slot_key="M1-1")
    start = row.version
    reporter = a if row.entry_a.player_id == a.pk else b
    opponent = b if reporter is a else a
    score = {"score_a": 5, "score_b": 2}
    barrier = threading.Barrier(THREADS)
    statuses: list[int] = []
    lock = threading.Lock()

    def worker() -> None:
        try:
            client = api_client(reporter.user)
            barrier.wait(timeout=30)
            response = client.post(
                f"/api/v1/tournament-matches/{row.pk}/report/", score, format="json"
            )
            with lock:
                statuses.append(response.status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)

    assert statuses == [200] * THREADS
    assert Notification.objects.filter(recipient=opponent, kind="result_to_confirm").count() == 1
    row.refresh_from_db()
    assert row.status == "reported" and row.version == start + 1  # one report, stored once
    # Later, the same report again: nothing changes, no notice. A changed report is a
    # new thing to confirm: the opponent hears of it (once).
    result_report(match_id=row.pk, by=reporter.user, **score)
    assert TournamentMatch.objects.get(pk=row.pk).version == start + 1
    result_report(match_id=row.pk, by=reporter.user, score_a=5, score_b=3)
    result_report(match_id=row.pk, by=reporter.user, score_a=5, score_b=3)
    notices = Notification.objects.filter(recipient=opponent, kind="result_to_confirm")
    assert notices.count() == 2
    assert TournamentMatch.objects.get(pk=row.pk).version == start + 2

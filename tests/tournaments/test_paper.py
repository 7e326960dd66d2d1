"""Paper (tournaments.pages.paper): the PDFs of a flight open in a PDF reader and list
every player (``pdftotext``, Debian's poppler-utils, reads them), the draw sheet holds
each part of an 11-player main + consolation on one page each, A4 or A3; a Swiss round's
score sheets name the table, the match length and the clock; the QR code on the sheets
and the wall encodes the flight's absolute URL; without WeasyPrint (no Pango) the views
answer 503, not 500; a visitor gets no PDF of a draft event."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from decimal import Decimal

import pytest
from django.urls import reverse

from games import codes
from tests.factories import PlayerFactory
from tests.tournaments.factories import EventFactory, flight_with
from tournaments.models import Event, TournamentMatch
from tournaments.services.draw import flight_draw, round_publish
from tournaments.services.results import result_enter

pytestmark = pytest.mark.django_db

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


@pytest.fixture
def en(client):
    client.cookies["django_language"] = "en"
    return client


def _players(n: int) -> list:
    return [PlayerFactory(name=NAMES[i], rating=Decimal(2000 - 10 * i)) for i in range(n)]


def pdf_text(data: bytes, tmp_path, *, layout: bool = False) -> str:
    """``pdftotext`` of a PDF: it must open (poppler parses it) and hold text."""
    assert data.startswith(b"%PDF-"), data[:40]
    tool = shutil.which("pdftotext")
    assert tool, "pdftotext is missing: apt-get install poppler-utils (./dev services does)"
    path = tmp_path / "sheet.pdf"
    path.write_bytes(data)
    args = [tool, *(["-layout"] if layout else []), str(path), "-"]
    done = subprocess.run(args, capture_output=True, check=True, timeout=60)
    return done.stdout.decode()


def pdf_pages(text: str) -> list[str]:
    return text.split("\f")[:-1] if text.endswith("\f") else text.split("\f")


@pytest.fixture
def knockout(event, director):
    """11 players, main + consolation for the losers of round 1, round 1 played."""
    players = _players(11)
    flight = flight_with(
        event, players, format="consolation", options={"entry_rounds": 1}, match_length=3
    )
    flight_draw(flight_id=flight.pk, by=director)
    for m in TournamentMatch.objects.filter(flight=flight, part="main", round=1, status="ready"):
        result_enter(match_id=m.pk, by=director, score_a=3, score_b=1)
    return flight, players


def _url(name: str, flight, **kwargs) -> str:
    return reverse(
        f"tournaments:{name}", kwargs={"slug": flight.event.slug, "flight_id": flight.pk, **kwargs}
    )


@pytest.mark.parametrize("size", ["a4", "a3"])
def test_the_draw_sheet_has_each_part_whole_on_one_page(en, knockout, tmp_path, size):
    flight, players = knockout
    response = en.get(_url("flight-draw-pdf", flight), {"size": size})
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    text = pdf_text(response.content, tmp_path)
    pages = pdf_pages(text)
    assert len(pages) == 2, pages  # the main draw, the consolation: one page each
    assert "Main draw" in pages[0] and "Consolation" in pages[1]
    for player in players:
        assert player.name in pages[0], player.name  # every entrant is in the main draw
    losers = TournamentMatch.objects.filter(flight=flight, part="main", round=1, status="confirmed")
    for m in losers:
        assert m.entry_b.player.name in pages[1]  # ... and the losers of round 1 here
    wanted = {"a4": (842, 595), "a3": (1191, 842)}[size]  # landscape, in points
    info = subprocess.run(
        ["pdfinfo", str(tmp_path / "sheet.pdf")], capture_output=True, check=True, text=True
    ).stdout
    (line,) = [x for x in info.splitlines() if x.startswith("Page size:")]
    width, height = (round(float(v)) for v in line.split()[2:5:2])
    assert (width, height) == wanted, line
    assert flight.event.slug in text and "Live results" in text  # the QR's caption


def test_a_32_player_bracket_is_one_a4_page(en, event, director, tmp_path):
    players = [PlayerFactory(name=f"Player {i:02d}", rating=Decimal(2000 - i)) for i in range(32)]
    flight = flight_with(event, players, match_length=5)
    flight_draw(flight_id=flight.pk, by=director)
    response = en.get(_url("flight-draw-pdf", flight))
    assert response.status_code == 200
    pages = pdf_pages(pdf_text(response.content, tmp_path))
    assert len(pages) == 1
    for player in players:
        assert player.name in pages[0]


@pytest.fixture
def swiss(event, director):
    players = _players(6)
    flight = flight_with(
        event,
        players,
        format="swiss",
        options={"rounds": 3},
        match_length=5,
        clock_preset="seed002",
        clock_policy="allowed",
    )
    flight_draw(flight_id=flight.pk, by=director)
    return flight, players


def test_round_sheets_list_the_pairings_and_a_score_sheet_per_match(en, swiss, tmp_path):
    flight, players = swiss
    response = en.get(_url("flight-round-pdf", flight, number=1))
    assert response.status_code == 200
    text = pdf_text(response.content, tmp_path, layout=True)
    pages = pdf_pages(text)
    # The pairings, then three score sheets, two to a page.
    assert len(pages) == 3, len(pages)
    assert "Pairings" in pages[0]
    for player in players:
        assert player.name in pages[0]
    assert text.count("Score sheet") == 3
    assert re.search(r"5\s+points", pages[1]) and "club (11 s + 1:30)" in pages[1]  # length, clock
    matches = TournamentMatch.objects.filter(flight=flight, round=1).order_by("index")
    for m in matches:
        assert f"{m.slot_key}" in text
        assert f"{m.entry_a.player.name}" in text and f"{m.entry_b.player.name}" in text
    assert "Table" in pages[1] and "Signature" in pages[1] and re.search(r"Final\s+score", pages[1])
    # A round that is not there is a 404, not an empty sheet.
    assert en.get(_url("flight-round-pdf", flight, number=2)).status_code == 404
    assert en.get(_url("flight-round-pdf", flight, number=1), {"part": "main"}).status_code == 404


def test_the_standings_sheet_lists_every_player(en, swiss, director, tmp_path):
    flight, players = swiss
    for m in TournamentMatch.objects.filter(flight=flight, round=1, status="ready"):
        result_enter(match_id=m.pk, by=director, score_a=5, score_b=2)
    round_publish(flight_id=flight.pk, by=director)
    text = pdf_text(en.get(_url("flight-standings-pdf", flight)).content, tmp_path)
    assert "Standings" in text and "Buchholz" in text
    for player in players:
        assert player.name in text
    # The Swiss draw sheet: the pairings and results of every round so far.
    text = pdf_text(en.get(_url("flight-draw-pdf", flight)).content, tmp_path)
    assert "Round 1" in text and "Round 2" in text
    for player in players:
        assert player.name in text


def test_the_knockouts_standings_sheet_is_its_finishing_order(en, knockout, tmp_path):
    flight, players = knockout
    text = pdf_text(en.get(_url("flight-standings-pdf", flight)).content, tmp_path)
    assert "Main draw" in text and "Consolation" in text
    for player in players:
        assert player.name in text


def test_the_qr_code_encodes_the_flights_absolute_url(en, knockout):
    flight, _players = knockout
    url = f"http://testserver/events/{flight.event.slug}/flights/{flight.pk}/"
    code = codes.qr_code(url)
    # segno does not decode: compare the symbol with the one of the URL we expect.
    assert code == codes.qr_code(url) and code != codes.qr_code(url + "x")
    markup = str(codes.qr_svg(url))
    assert markup.startswith("<svg") and "style" not in markup and "<script" not in markup
    page = en.get(_url("flight", flight), {"wall": "1"}).content.decode()
    assert markup in page  # the wall carries the same code, for http://testserver


def test_without_weasyprint_the_pdfs_answer_503(en, knockout, monkeypatch):
    """A machine without Pango: importing WeasyPrint fails; the page says why."""
    flight, _players = knockout
    monkeypatch.setitem(sys.modules, "weasyprint", None)  # import raises ImportError
    for name in ("flight-draw-pdf", "flight-standings-pdf"):
        response = en.get(_url(name, flight))
        assert response.status_code == 503
        assert "Printing is not available" in response.content.decode()
    response = en.get(_url("flight-round-pdf", flight, number=1), {"part": "main"})
    assert response.status_code == 503


def test_a_visitor_gets_no_pdf_of_a_draft_event(client, director):
    event = EventFactory(director=director, status=Event.Status.DRAFT)
    flight = flight_with(event, _players(4), match_length=3)
    assert Event.objects.get(pk=event.pk).status == Event.Status.DRAFT
    for name in ("flight-draw-pdf", "flight-standings-pdf"):
        assert client.get(_url(name, flight)).status_code == 404
    client.force_login(director)
    assert client.get(_url("flight-standings-pdf", flight)).status_code == 200


def test_the_director_and_public_pages_link_the_pdfs(en, knockout, director):
    flight, _players = knockout
    page = en.get(_url("flight", flight)).content.decode()
    assert f'href="{_url("flight-draw-pdf", flight)}"' in page
    assert f'href="{_url("flight-standings-pdf", flight)}"' in page
    assert _url("flight-round-pdf", flight, number=1) not in page  # the director's sheets
    en.force_login(director)
    manage = en.get(
        reverse(
            "tournaments:flight-manage", kwargs={"slug": flight.event.slug, "flight_id": flight.pk}
        )
    ).content.decode()
    links = re.findall(r'href="([^"]+\.pdf[^"]*)"', manage)
    assert f"{_url('flight-draw-pdf', flight)}?size=a3" in links
    assert f"{_url('flight-round-pdf', flight, number=1)}?part=main" in links
    assert f"{_url('flight-round-pdf', flight, number=1)}?part=consolation" in links
    for link in links:
        response = en.get(link.replace("&amp;", "&"))
        assert response.status_code == 200, link
        assert response.content.startswith(b"%PDF-"), link


def _word_boxes(data: bytes, tmp_path) -> list[tuple[str, float, float, float, float]]:
    """Every word of a PDF with its box (``pdftotext -bbox``): text, xMin, yMin, xMax, yMax."""
    tool = shutil.which("pdftotext")
    assert tool, "pdftotext is missing: apt-get install poppler-utils (./dev services does)"
    path = tmp_path / "boxes.pdf"
    path.write_bytes(data)
    done = subprocess.run(
        [tool, "-bbox", str(path), "-"], capture_output=True, check=True, timeout=60
    )
    words = re.findall(
        r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>',
        done.stdout.decode(),
    )
    return [(w, float(a), float(b), float(c), float(d)) for a, b, c, d, w in words]


def test_the_hungarian_score_sheets_headers_stay_in_their_columns(client, swiss, tmp_path):
    """Issue 29: "Játszma" overflowed the 12 mm game column into the player's. Each of the
    game column's words ("Játszma" at the top, "Végeredmény" at the bottom) ends 2 mm (the
    cell's padding) before its column does, and the player's header begins 2 mm after
    it; the last header ("Megjegyzés") ends inside the page's 10 mm margin."""
    flight, _ = swiss
    client.cookies["django_language"] = "hu"
    response = client.get(_url("flight-round-pdf", flight, number=1))
    assert response.status_code == 200
    words = _word_boxes(response.content, tmp_path)
    two_mm = 2 / 25.4 * 72
    games = [w for w in words if w[0] == "Játszma"]
    assert len(games) == 3, [w[0] for w in words][:80]  # a sheet per match
    # The first player's header: the next word on the line of each "Játszma".
    players = [
        min((w for w in words if abs(w[2] - g[2]) < 1 and w[1] > g[1]), key=lambda w: w[1])
        for g in games
    ]
    column_end = min(w[1] for w in players) - two_mm  # the game column's right border
    for word in ("Játszma", "Végeredmény"):
        boxes = [w for w in words if w[0] == word]
        assert len(boxes) == 3, word
        for _word, _x_min, _y_min, x_max, _y_max in boxes:
            assert x_max + two_mm <= column_end + 0.5, (word, x_max, column_end)
    right = 595.28 - 10 / 25.4 * 72  # A4's width less the page's margin
    for _word, _x_min, _y_min, x_max, _y_max in [w for w in words if w[0] == "Megjegyzés"]:
        assert x_max + two_mm <= right + 0.5, (x_max, right)

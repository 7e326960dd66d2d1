"""Main + consolation + last chance as one flight (issue 29, item 12), end to end: a
16-player flight drawn, every match entered through ``result_enter`` until all three
parts have a winner; the places, the payouts and the pages (flight page, draw PDF, the
director's page, the round settings and the new-flight form) follow."""

from __future__ import annotations

from collections import Counter
from decimal import Decimal as D

import pytest
from django.urls import reverse

from games.errors import ValidationFailed
from tests.tournaments.factories import flight_with, rated_players
from tests.tournaments.test_paper import pdf_pages, pdf_text
from tournaments import bridge, prizes, selectors
from tournaments.models import Entry, Flight, TournamentMatch
from tournaments.services.draw import flight_draw
from tournaments.services.flights import flight_create
from tournaments.services.money import flight_money_set
from tournaments.services.results import result_enter

pytestmark = pytest.mark.django_db

FORMAT = "consolation_last_chance"


@pytest.fixture
def en(client):
    client.cookies["django_language"] = "en"
    return client


def _flight(event, director, n=16, **options):
    flight = flight_with(event, rated_players(n), format=FORMAT, options=options)
    flight_draw(flight_id=flight.pk, by=director)
    flight.refresh_from_db()
    return flight


def _play_out(flight, director) -> list[str]:
    """Every ready match entered, the better seed winning, until none is ready; returns
    the parts in the order their matches were entered (one per match)."""
    order = []
    while True:
        ready = list(
            TournamentMatch.objects.filter(flight=flight, status="ready")
            .select_related("entry_a", "entry_b")
            .order_by("part", "round", "index")
        )
        if not ready:
            return order
        for m in ready:
            a = m.entry_a.seed < m.entry_b.seed
            result_enter(
                match_id=m.pk,
                by=director,
                score_a=m.match_length if a else 0,
                score_b=0 if a else m.match_length,
            )
            order.append(m.part)


def test_sixteen_players_play_all_three_parts(event, director):
    flight = _flight(event, director)
    assert flight.bracket["format"] == FORMAT
    rows = TournamentMatch.objects.filter(flight=flight)
    assert Counter(rows.values_list("part", flat=True)) == {
        "main": 15,
        "consolation": 7,
        "last_chance": 3,
    }
    assert bridge.round_plan(flight, 16).keys() == {"main", "consolation", "last_chance"}
    flight_money_set(
        flight_id=flight.pk,
        by=director,
        fee="1000",
        house_percent="0",
        split={"main": [35, 20], "consolation": [20, 10], "last_chance": [10, 5]},
    )
    Entry.objects.filter(flight=flight).update(paid_at="2025-03-01T18:00:00Z")
    parts = _play_out(flight, director)
    assert Counter(parts) == {"main": 15, "consolation": 7, "last_chance": 3}
    flight.refresh_from_db()
    assert flight.status == Flight.Status.FINISHED
    assert not TournamentMatch.objects.filter(flight=flight).exclude(
        status__in=("confirmed", "bye", "walkover")
    )

    # Places: the better seed always won. Main: 1, 2, 3-4, 5-8, 9-16. The consolation
    # (the 8 round-1 losers, seeds 9-16): seed 9 wins it. The last chance (the 4
    # consolation round-1 losers, seeds 13-16): seed 13 wins it.
    seeds = {e.seed: e for e in Entry.objects.filter(flight=flight)}
    assert [(seeds[s].place_label) for s in (1, 2, 3, 5, 9)] == ["1", "2", "3-4", "5-8", "9-16"]
    assert (seeds[9].side_part, seeds[9].side_place_label) == ("consolation", "1")
    assert (seeds[10].side_part, seeds[10].side_place_label) == ("consolation", "2")
    assert (seeds[13].side_part, seeds[13].side_place_label) == ("last_chance", "1")
    assert (seeds[14].side_part, seeds[14].side_place_label) == ("last_chance", "2")
    orders = selectors.flight_finishing_order(flight=flight)
    assert list(orders) == ["main", "consolation", "last_chance"]
    champions = {r: places[0].entries[0].seed for r, places in orders.items()}
    assert champions == {"main": 1, "consolation": 9, "last_chance": 13}
    # Nobody in two parts at once: a last chance player lost in the consolation's round 1
    # and the main's round 1, and the later match came after.
    lc_players = {
        e
        for m in rows.filter(part="last_chance")
        for e in (m.entry_a_id, m.entry_b_id)
        if e is not None
    }
    assert {seeds[s].pk for s in (13, 14, 15, 16)} == lc_players

    # Payouts: 16 000 in the pool, paid per part.
    found = prizes.flight_payouts(flight=flight)
    assert found.final
    got = {(line.payout.ranking, line.entry.seed): line.payout.amount for line in found.main.lines}
    assert got == {
        ("main", 1): D(5600),
        ("main", 2): D(3200),
        ("consolation", 9): D(3200),
        ("consolation", 10): D(1600),
        ("last_chance", 13): D(1600),
        ("last_chance", 14): D(800),
    }
    assert found.main.result.prize_pool == D(16000)


def test_the_pages_and_the_pdf_show_three_parts(en, event, director, tmp_path):
    flight = _flight(event, director)
    _play_out(flight, director)
    url = reverse("tournaments:flight", kwargs={"slug": event.slug, "flight_id": flight.pk})
    page = en.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    for title in ("Main draw", "Consolation", "Last chance"):
        assert title in html
    assert 'data-part="last_chance"' in html
    pdf = en.get(
        reverse("tournaments:flight-draw-pdf", kwargs={"slug": event.slug, "flight_id": flight.pk})
    )
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    pages = pdf_pages(pdf_text(pdf.content, tmp_path))
    assert [p for p in pages if "Last chance" in p], pages
    # The last chance's round 1 on paper: its pairings and score sheets.
    sheets = en.get(
        reverse(
            "tournaments:flight-round-pdf",
            kwargs={"slug": event.slug, "flight_id": flight.pk, "number": 1},
        ),
        {"part": "last_chance"},
    )
    assert sheets.status_code == 200 and sheets["Content-Type"] == "application/pdf"
    # The finishing order (every part) on paper, and the wall.
    order = en.get(
        reverse(
            "tournaments:flight-standings-pdf", kwargs={"slug": event.slug, "flight_id": flight.pk}
        )
    )
    text = pdf_text(order.content, tmp_path)
    assert "Last chance" in text and "Consolation" in text
    wall = en.get(url, {"wall": "1"})
    assert wall.status_code == 200 and 'data-part="last_chance"' in wall.content.decode()
    en.force_login(director)
    manage = en.get(
        reverse("tournaments:flight-manage", kwargs={"slug": event.slug, "flight_id": flight.pk})
    )
    assert manage.status_code == 200
    assert "Last chance" in manage.content.decode()


def test_last_chance_rounds_two_and_the_form(en, event, director):
    flight = _flight(event, director, entry_rounds=2, last_chance_rounds=2)
    assert flight.bracket["options"] == {"entry_rounds": 2, "last_chance_rounds": 2}
    _play_out(flight, director)
    flight.refresh_from_db()
    assert flight.status == Flight.Status.FINISHED
    with pytest.raises(ValidationFailed) as refused:
        flight_create(
            event_id=event.pk,
            by=director,
            name="Bad",
            format=FORMAT,
            options={"last_chance_rounds": 3},
        )
    assert refused.value.code == "invalid_option"
    # The new-flight form offers the option and keeps it.
    en.force_login(director)
    create = reverse("tournaments:flight-create", kwargs={"slug": event.slug})
    response = en.post(
        create,
        {
            "name": "Friday",
            "format": FORMAT,
            "seeding": "rating",
            "match_length": 5,
            "clock_policy": "off",
            "entry_rounds": 1,
            "last_chance_rounds": 2,
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    made = Flight.objects.get(event=event, name="Friday")
    assert made.options == {"entry_rounds": 1, "last_chance_rounds": 2}

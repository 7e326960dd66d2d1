"""Issue 29, item 8: a flight's player count, the same on every page. Once drawn: the
players in the draw ("15 players drawn": those withdrawn before the draw are not, one
withdrawn after it still is). Before the draw: the active entries, the registrations
to confirm or on the waitlist apart ("+2 waiting")."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.tournaments.factories import flight_with, rated_players
from tournaments import selectors
from tournaments.models import Entry, Flight
from tournaments.services.draw import flight_draw
from tournaments.services.entries import entry_withdraw
from tournaments.services.registration import entry_self_register, flight_set_registration

pytestmark = pytest.mark.django_db


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def _pages(client, event, flight) -> tuple[str, str, str]:
    public = client.get(
        reverse("tournaments:flight", kwargs={"slug": event.slug, "flight_id": flight.pk})
    ).content.decode()
    event_page = client.get(reverse("tournaments:event", kwargs={"slug": event.slug}))
    manage = client.get(reverse("tournaments:event-manage", kwargs={"slug": event.slug}))
    return _text(public), event_page.content.decode(), manage.content.decode()


def _players_cell(html: str, flight) -> str:
    """The "Players" cell of the flight's line in an event page's flights table."""
    rows = [
        row
        for row in re.findall(r"<tr.*?</tr>", html, re.S)
        if f"flights/{flight.pk}/" in row and 'data-label="Players"' in row
    ]
    assert len(rows) == 1, rows
    cell = re.search(r'data-label="Players">(.*?)</td>', rows[0], re.S)
    assert cell
    return _text(cell.group(1)).strip()


def test_seventeen_entries_two_withdrawn_is_fifteen_players_drawn(client, event, director):
    flight = flight_with(event, rated_players(17), match_length=1)
    for entry in list(flight.entries.order_by("-pk"))[:2]:
        entry_withdraw(entry_id=entry.pk, by=director)
    waiting = rated_players(2, with_login=True, top=1500)
    flight_set_registration(flight_id=flight.pk, by=director, open=True, capacity=16)
    for p in waiting:  # one to confirm (the 16th place), one on the waitlist
        entry_self_register(flight_id=flight.pk, by=p.user)
    assert sorted(flight.entries.values_list("status", flat=True)).count("pending") == 1
    client.force_login(director)
    client.cookies["django_language"] = "en"
    public, event_page, manage = _pages(client, event, flight)
    assert "15 players (+2 waiting)" in public
    assert "17 players" not in public
    assert _players_cell(event_page, flight) == "15 (+2 waiting)"
    assert _players_cell(manage, flight) == "15 (+2 waiting)"
    # The draw: the pending registration and the waitlist are left out.
    Entry.objects.filter(flight=flight, status__in=("pending", "waitlisted")).update(
        status="refused"
    )
    flight_draw(flight_id=flight.pk, by=director)
    # One of the drawn withdraws after the draw: still one of the 15 drawn.
    entry_withdraw(entry_id=flight.entries.filter(seed=15).get().pk, by=director)
    public, event_page, manage = _pages(client, event, flight)
    assert "15 players drawn" in public
    assert "17 players" not in public and "14 players" not in public
    assert _players_cell(event_page, flight) == "15"
    assert _players_cell(manage, flight) == "15"
    counted = selectors.with_player_counts(Flight.objects.filter(pk=flight.pk)).get()
    assert (counted.entry_count, counted.drawn_count, counted.active_count) == (15, 15, 14)


def test_one_player_in_hungarian(client, event, director):
    flight = flight_with(event, rated_players(1))
    client.cookies["django_language"] = "hu"
    page = client.get(
        reverse("tournaments:flight", kwargs={"slug": event.slug, "flight_id": flight.pk})
    ).content.decode()
    assert "1 játékos" in _text(page)

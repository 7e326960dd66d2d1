"""A player's own way in (issue 18): after logging in, the header links to the player's
own page, and the ratings mark their row and say where it is when it is on another page."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.ratings import pages as ratings_pages
from tests.factories import PlayerFactory, UserFactory, UserPlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def en(client):
    client.cookies["django_language"] = "en"
    return client


def _my_page_link(html: str) -> str | None:
    found = re.search(r'<a href="([^"]+)" class="my-page-link"[^>]*>My page</a>', html)
    return found.group(1) if found else None


def test_the_header_links_a_player_to_their_own_page(en):
    anna = UserPlayerFactory(name="Anna")
    en.force_login(anna.user)
    html = en.get(reverse("games:lobby")).content.decode()
    assert _my_page_link(html) == reverse("games:player", args=[anna.pk])
    # On that page the link says it is the current one.
    own = en.get(reverse("games:player", args=[anna.pk])).content.decode()
    assert re.search(r'class="my-page-link" aria-current="page"', own)
    other = PlayerFactory(name="Bence")
    theirs = en.get(reverse("games:player", args=[other.pk])).content.decode()
    assert _my_page_link(theirs) and 'aria-current="page"' not in theirs


def test_the_link_costs_no_query_of_its_own(en):
    """The header's unread count and the link read the same row in one query."""
    anna = UserPlayerFactory(name="Anna")
    en.force_login(anna.user)
    with CaptureQueriesContext(connection) as ctx:
        html = en.get(reverse("home")).content.decode()
    assert _my_page_link(html)
    header = [q["sql"] for q in ctx.captured_queries if "games_notification" in q["sql"]]
    assert len(header) == 1, header


def test_no_link_without_a_player_or_a_login(en):
    assert _my_page_link(en.get(reverse("home")).content.decode()) is None
    en.force_login(UserFactory(username="staffer"))
    assert _my_page_link(en.get(reverse("home")).content.decode()) is None


def _rows(html: str) -> list[tuple[str, str]]:
    """(player id, the row's attributes after it) of every leaderboard row."""
    return re.findall(r'<tr data-player="(\d+)"([^>]*)>', html)


def test_my_row_is_marked_on_the_ratings(en):
    for i in range(3):
        PlayerFactory(name=f"P{i}", rating=Decimal(1600 + i), experience=100)
    anna = UserPlayerFactory(name="Anna", rating=Decimal("1601.50"), experience=100)
    en.force_login(anna.user)
    html = en.get(reverse("games:leaderboard")).content.decode()
    marked = [pk for pk, attrs in _rows(html) if 'aria-current="true"' in attrs]
    assert marked == [str(anna.pk)]
    assert f'id="player-{anna.pk}" class="is-me" aria-current="true"' in html
    # Second place, on this page: a jump to the row.
    assert re.search(rf'<a href="#player-{anna.pk}">Your place: 2\.</a>', html)
    # Anybody else sees no marked row.
    en.logout()
    html = en.get(reverse("games:leaderboard")).content.decode()
    assert "aria-current" not in "".join(attrs for _, attrs in _rows(html))
    assert "Your place" not in html


def test_my_place_on_a_later_page_is_linked(en, settings):
    for i in range(7):
        PlayerFactory(name=f"P{i}", rating=Decimal(1700 + i), experience=100)
    anna = UserPlayerFactory(name="Anna", rating=Decimal(1500), experience=100)
    settings.RATING_LEADERBOARD_MIN_EXPERIENCE = 0
    en.force_login(anna.user)
    original = ratings_pages.LEADERBOARD_PER_PAGE
    ratings_pages.LEADERBOARD_PER_PAGE = 3
    try:
        first = en.get(reverse("games:leaderboard") + "?club=").content.decode()
        # Eighth of eight: page 3. The link keeps the filters and jumps to the row.
        link = re.search(r'<a href="([^"]+)">Your place: 8\. \(page 3\)</a>', first)
        assert link, first
        href = link.group(1).replace("&amp;", "&")
        assert href.endswith(f"#player-{anna.pk}") and "page=3" in href and "club=" in href
        third = en.get(reverse("games:leaderboard") + href.split("#")[0]).content.decode()
        assert [pk for pk, attrs in _rows(third) if "is-me" in attrs] == [str(anna.pk)]
    finally:
        ratings_pages.LEADERBOARD_PER_PAGE = original


def test_a_player_left_out_by_the_filters_is_told(en, settings):
    settings.RATING_LEADERBOARD_MIN_EXPERIENCE = 50
    PlayerFactory(name="Old hand", experience=400)
    anna = UserPlayerFactory(name="Anna", experience=7)
    en.force_login(anna.user)
    html = en.get(reverse("games:leaderboard")).content.decode()
    assert "You are not on this list with these filters (your experience: 7)." in html

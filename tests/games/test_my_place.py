"""A player's own way in (issue 18): after logging in, the header links to the player's
own page, and the ratings mark their row and say where it is when it is on another page."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

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

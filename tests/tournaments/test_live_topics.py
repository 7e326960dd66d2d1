"""Which live topics the tournament pages follow (tournaments.live): the public pages
their flight's or event's, the director's pages the event's desk and the online matches
they show; each with the regions that are redrawn (static/games/live.js)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.tournaments.factories import EventFactory, flight_with, rated_players
from tournaments.models import TournamentMatch
from tournaments.services.draw import flight_draw
from tournaments.services.online import match_start_online

pytestmark = pytest.mark.django_db


def _topics(html: str) -> set[str]:
    start = html.index('data-live-topics="') + len('data-live-topics="')
    return set(html[start : html.index('"', start)].split())


def test_the_pages_follow_their_topics(client) -> None:
    event = EventFactory()
    director = event.directors.first()
    flight = flight_with(event, rated_players(4))
    flight_draw(flight_id=flight.pk, by=director)
    ready = TournamentMatch.objects.filter(flight=flight, status="ready").order_by("pk").first()
    online = match_start_online(match_id=ready.pk, by=director, clock=False)
    kwargs = {"slug": event.slug}

    html = client.get(reverse("tournaments:event", kwargs=kwargs)).content.decode()
    assert _topics(html) == {f"event:{event.pk}"} and 'id="event-board" data-live-region' in html
    flight_url = reverse("tournaments:flight", kwargs={**kwargs, "flight_id": flight.pk})
    html = client.get(flight_url).content.decode()
    assert _topics(html) == {f"flight:{flight.pk}"}
    for region in ("flight-facts", "flight-mine", "flight-board"):
        assert f'id="{region}" data-live-region' in html

    client.force_login(director)
    me = f"user:{director.pk}"
    html = client.get(reverse("tournaments:event-manage", kwargs=kwargs)).content.decode()
    assert _topics(html) == {me, f"desk:{event.pk}", f"match:{online.pk}"}
    assert 'id="event-unfinished" data-live-region' in html
    html = client.get(
        reverse("tournaments:flight-manage", kwargs={**kwargs, "flight_id": flight.pk})
    ).content.decode()
    assert _topics(html) == {me, f"desk:{event.pk}"} and 'id="flight-matches"' in html
    html = client.get(
        reverse("tournaments:match-manage", kwargs={**kwargs, "match_id": ready.pk})
    ).content.decode()
    assert _topics(html) == {me, f"desk:{event.pk}", f"match:{online.pk}"}

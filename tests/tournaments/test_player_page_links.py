"""Tournament results on the player pages (issue 8): a tournament result links to its
flight page at the match's row, and a tournament match played online shows its stakes
only when its event is rated."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import finish_by_resignation
from tests.tournaments.factories import EventFactory, flight_with, rated_players
from tournaments.models import TournamentMatch
from tournaments.services.draw import flight_draw
from tournaments.services.online import match_start_online
from tournaments.services.results import result_enter

pytestmark = pytest.mark.django_db


@pytest.fixture
def en(client):
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


def test_a_tournament_result_links_to_its_flight_page(en, event, director):
    players = rated_players(2)
    flight = flight_with(event, players, match_length=3)
    flight_draw(flight_id=flight.pk, by=director)
    final = TournamentMatch.objects.get(flight=flight, slot_key="M1-1")
    result_enter(match_id=final.pk, by=director, score_a=3, score_b=1)
    html = en.get(reverse("games:player", args=[players[0].pk])).content.decode()
    link = reverse("tournaments:flight", args=[event.slug, flight.pk]) + f"#match-{final.pk}"
    assert f'href="{link}"' in html
    # The flight page has the row the link points at.
    page = en.get(reverse("tournaments:flight", args=[event.slug, flight.pk])).content.decode()
    assert f'id="match-{final.pk}"' in page


def test_a_tournament_result_names_its_event_and_links_it(en, director):
    """Issue 18: a tournament row of the player's results says which event it was."""
    event = EventFactory(director=director, name="Tavaszi Kupa")
    players = rated_players(2)
    flight = flight_with(event, players, match_length=3)
    flight_draw(flight_id=flight.pk, by=director)
    final = TournamentMatch.objects.get(flight=flight, slot_key="M1-1")
    result_enter(match_id=final.pk, by=director, score_a=3, score_b=1)
    html = en.get(reverse("games:player", args=[players[1].pk])).content.decode()
    event_url = reverse("tournaments:event", args=[event.slug])
    assert (
        f'<span class="played-in" data-testid="played-in"><a href="{event_url}">'
        f"Tavaszi Kupa · {flight.name}</a></span>"
    ) in html


@pytest.mark.parametrize("rated", [True, False])
def test_an_online_tournament_match_shows_stakes_only_when_rated(en, director, rated):
    event = EventFactory(director=director, rated=rated)
    players = rated_players(2, with_login=True)
    flight = flight_with(event, players, match_length=3)
    flight_draw(flight_id=flight.pk, by=director)
    final = TournamentMatch.objects.get(flight=flight, slot_key="M1-1")
    online = match_start_online(match_id=final.pk, by=players[0].user)
    text = en.get(reverse("games:match", args=[online.pk])).content.decode()
    assert ("At stake" in text) is rated
    assert ("This match is not rated." in text) is not rated
    # Finished: the change (rated) or the note (not rated).
    finish_by_resignation(online, kind="backgammon")
    text = en.get(reverse("games:match", args=[online.pk])).content.decode()
    assert ("Rating change" in text) is rated
    assert ("This match is not rated." in text) is not rated
    # The player page: the date links to the match played here, the row names the event.
    page = en.get(reverse("games:player", args=[players[0].pk])).content.decode()
    assert f'href="{reverse("games:match", args=[online.pk])}"' in page
    assert f"{event.name} · {flight.name}</a></span>" in page

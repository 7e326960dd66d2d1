"""Issue 29, item 10: the wording a director or player reads at the wrong moment.

* The money preview before any result says the prize money is still to be won (paid to
  the places once known), not "kept by the house"; the house's words stay for a
  finished flight.
* "Not paid" lists only the players who play (active entries), not the withdrawn or
  waitlisted ones.
* A correction refused because later matches depend on it names the checkbox beside it
  ("Reset the later results") and links each later match's director page.
* A player's link to a draft event (or one of its flights) is still a 404, but a page
  saying the event is not published yet; its directors see it as before.
* Self-registration on a draft event: the desk and the saved message say players cannot
  reach it until the event is published."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.factories import PlayerFactory
from tests.tournaments.factories import EventFactory, flight_with, rated_players
from tournaments.models import Entry, TournamentMatch
from tournaments.services.draw import flight_draw
from tournaments.services.entries import entry_register
from tournaments.services.money import flight_money_set
from tournaments.services.results import result_enter

pytestmark = pytest.mark.django_db


def _en(client):
    client.cookies["django_language"] = "en"
    return client


def _payouts_page(client, flight) -> str:
    """The payout page as its director sees it (the public only once it is finished)."""
    client.force_login(flight.event.directors.first())
    url = reverse(
        "tournaments:flight-payouts", kwargs={"slug": flight.event.slug, "flight_id": flight.pk}
    )
    response = _en(client).get(url)
    assert response.status_code == 200
    return response.content.decode()


def _play_out(flight, director) -> None:
    while ready := list(TournamentMatch.objects.filter(flight=flight, status="ready")):
        for m in ready:
            result_enter(match_id=m.pk, by=director, score_a=m.match_length, score_b=0)


# ------------------------------------------------------------------------ the money
def test_before_any_result_the_prize_money_is_still_to_be_won(client, event, director):
    flight = flight_with(event, rated_players(4), format="single_elimination")
    flight_money_set(flight_id=flight.pk, by=director, fee="1000", split={"main": [70, 30]})
    Entry.objects.filter(flight=flight).update(paid_at=timezone.now())

    text = _payouts_page(client, flight)  # before the draw: no place is known
    assert "kept by the house" not in text
    assert re.search(r"Still to be won: HUF\s4,000,", text), text
    assert "to be paid to the places once they are known" in text


def test_a_finished_flights_unclaimed_places_are_kept_by_the_house(client, event, director):
    """Fewer paid players than paid places: once final, the house keeps that share."""
    flight = flight_with(event, rated_players(4), format="single_elimination")
    flight_money_set(flight_id=flight.pk, by=director, fee="1000", split={"main": [50, 30, 20]})
    Entry.objects.filter(flight=flight, seed__isnull=True).update(paid_at=timezone.now())
    flight_draw(flight_id=flight.pk, by=director)
    Entry.objects.filter(flight=flight, seed__gte=2).update(paid_at=None)  # only 1 paid
    _play_out(flight, director)

    text = _payouts_page(client, flight)
    assert "Unclaimed (places no paid player holds), kept by the house" in text
    assert "Still to be won" not in text


def test_not_paid_lists_only_the_players_who_play(client, event, director):
    flight = flight_with(event, rated_players(4), format="single_elimination")
    gone = PlayerFactory(name="Visszalépett Vilmos")
    waiting = PlayerFactory(name="Várólistás Vera")
    unpaid = PlayerFactory(name="Fizetetlen Frigyes")
    for player in (gone, waiting, unpaid):
        entry_register(flight_id=flight.pk, by=director, player_id=player.pk)
    flight_money_set(flight_id=flight.pk, by=director, fee="1000", split={"main": [100]})
    Entry.objects.filter(flight=flight).exclude(player=unpaid).update(paid_at=timezone.now())
    Entry.objects.filter(flight=flight, player__in=[gone, waiting]).update(paid_at=None)
    Entry.objects.filter(player=gone).update(status=Entry.Status.WITHDRAWN)
    Entry.objects.filter(player=waiting).update(status=Entry.Status.WAITLISTED)

    text = _payouts_page(client, flight)
    assert "Not paid (not in this pool):" in text
    assert unpaid.name in text
    assert gone.name not in text and waiting.name not in text


# ------------------------------------------------------------------- the correction
def test_the_correction_refusal_names_the_checkbox_and_links_the_later_matches(
    client, event, director
):
    flight = flight_with(event, rated_players(4), format="single_elimination", match_length=1)
    flight_draw(flight_id=flight.pk, by=director)
    _play_out(flight, director)
    first = TournamentMatch.objects.get(flight=flight, slot_key="M1-1")
    final = TournamentMatch.objects.get(flight=flight, slot_key="M2-1")
    assert final.decided_at is not None

    _en(client).force_login(director)
    url = reverse("tournaments:match-correct", kwargs={"slug": event.slug, "match_id": first.pk})
    flipped = {"score_a": int(first.winner == "b"), "score_b": int(first.winner == "a")}
    response = client.post(url, {"reason": "sheet", **flipped})
    assert response.status_code == 409
    text = response.content.decode()
    assert "correct them first" not in text
    assert "tick “Reset the later results” (the box beside it)" in text, text
    assert "Reset the later results: if later matches were played" in text
    final_page = reverse(
        "tournaments:match-manage", kwargs={"slug": event.slug, "match_id": final.pk}
    )
    assert f'href="{final_page}"' in text
    assert final.entry_a.player.name in text and final.entry_b.player.name in text
    first.refresh_from_db()
    assert first.winner != ("a" if flipped["score_a"] else "b")  # nothing changed


# ---------------------------------------------------------------------- draft events
def test_a_players_link_to_a_draft_event_says_it_is_not_published(client, director):
    draft = EventFactory(director=director, status="draft", slug="tervezet")
    flight = flight_with(draft, rated_players(2))
    _en(client)
    for url in (
        reverse("tournaments:event", kwargs={"slug": draft.slug}),
        reverse("tournaments:flight", kwargs={"slug": draft.slug, "flight_id": flight.pk}),
        reverse("tournaments:event-wall", kwargs={"slug": draft.slug}),
    ):
        response = client.get(url)
        assert response.status_code == 404, url
        assert "This event is not published yet" in response.content.decode(), url
        assert draft.name not in response.content.decode()
    # A page that is not there at all stays the plain "not found".
    missing = client.get(reverse("tournaments:event", kwargs={"slug": "nincs-ilyen"}))
    assert missing.status_code == 404
    assert "This event is not published yet" not in missing.content.decode()
    # Its directors see it.
    client.force_login(director)
    assert client.get(reverse("tournaments:event", kwargs={"slug": draft.slug})).status_code == 200


def test_self_registration_on_a_draft_event_warns_the_director(client, director):
    draft = EventFactory(director=director, status="draft", slug="tervezet")
    flight = flight_with(draft, rated_players(2))
    _en(client).force_login(director)
    desk = reverse("tournaments:desk", kwargs={"slug": draft.slug})
    assert "players can register only once it is published" in client.get(desk).content.decode()
    url = reverse(
        "tournaments:flight-registration", kwargs={"slug": draft.slug, "flight_id": flight.pk}
    )
    response = client.post(url, {"open": "on", "capacity": ""}, follow=True)
    text = response.content.decode()
    assert "players cannot reach it to register until it is published" in text
    flight.refresh_from_db()
    assert flight.self_registration

    published = EventFactory(director=director, slug="kozzetett")
    other = flight_with(published, rated_players(2))
    page = client.get(reverse("tournaments:desk", kwargs={"slug": published.slug}))
    assert "until it is published" not in page.content.decode()
    assert "only once it is published" not in page.content.decode()
    url = reverse(
        "tournaments:flight-registration", kwargs={"slug": published.slug, "flight_id": other.pk}
    )
    done = client.post(url, {"open": "on", "capacity": ""}, follow=True).content.decode()
    assert "until it is published" not in done

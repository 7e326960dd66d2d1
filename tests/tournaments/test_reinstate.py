"""Reinstating a withdrawn player (issue 29, item 2): before the draw while a place is
free; after it where their place is untouched (a bracket: the walkover not used; Swiss:
from the next round, or their walkover of the latest round played after all; round
robin: their walkovers played after all); refusals say why and change nothing; the API,
the flight's page, the desk and the desk's confirmation of a no-show."""

from __future__ import annotations

import pytest
from django.db.models import Q
from django.urls import reverse
from django.utils import translation

from games.errors import Conflict, PermissionDenied
from tests.factories import UserFactory, api_client
from tests.tournaments.factories import flight_with, rated_players
from tournaments.models import Entry, Flight, TournamentMatch
from tournaments.services.draw import flight_draw, round_publish
from tournaments.services.entries import entry_reinstate, entry_withdraw
from tournaments.services.registration import flight_set_registration
from tournaments.services.results import result_enter, result_report

pytestmark = pytest.mark.django_db


def _entry(flight, seed):
    return flight.entries.select_related("player").get(seed=seed)


def _match_of(entry):
    mine = Q(entry_a=entry) | Q(entry_b=entry)
    return TournamentMatch.objects.filter(mine, flight=entry.flight).order_by("round").first()


def _snapshot(flight):
    return (
        list(flight.entries.order_by("pk").values_list("pk", "status", "seed")),
        list(flight.matches.order_by("pk").values_list("pk", "status", "entry_a", "entry_b")),
        Flight.objects.get(pk=flight.pk).version,
    )


def test_before_the_draw_a_withdrawn_entry_is_active_again(event, director):
    flight = flight_with(event, rated_players(3))
    entry = flight.entries.first()
    entry_withdraw(entry_id=entry.pk, by=director)
    entry_reinstate(entry_id=entry.pk, by=director)
    assert Entry.objects.get(pk=entry.pk).status == Entry.Status.ACTIVE
    with pytest.raises(Conflict) as caught:
        entry_reinstate(entry_id=entry.pk, by=director)
    assert caught.value.code == "not_withdrawn"


def test_before_the_draw_a_full_flight_refuses(event, director):
    flight = flight_with(event, rated_players(3))
    entry = flight.entries.first()
    entry_withdraw(entry_id=entry.pk, by=director)
    flight_set_registration(flight_id=flight.pk, by=director, open=True, capacity=2)
    before = _snapshot(flight)
    with pytest.raises(Conflict) as caught:
        entry_reinstate(entry_id=entry.pk, by=director)
    assert caught.value.code == "flight_full"
    assert _snapshot(flight) == before


def test_a_bracket_walkover_not_used_is_undone(event, director):
    flight = flight_with(event, rated_players(4))
    flight_draw(flight_id=flight.pk, by=director)
    four = _entry(flight, 4)
    entry_withdraw(entry_id=four.pk, by=director)
    row = _match_of(four)
    assert TournamentMatch.objects.get(pk=row.pk).status == TournamentMatch.Status.WALKOVER
    entry_reinstate(entry_id=four.pk, by=director)
    row = TournamentMatch.objects.get(pk=row.pk)
    assert row.status == TournamentMatch.Status.READY and four.pk in (
        row.entry_a_id,
        row.entry_b_id,
    )
    assert row.table is not None
    final = flight.matches.get(round=2)
    assert final.status == TournamentMatch.Status.PENDING
    assert Entry.objects.get(pk=four.pk).status == Entry.Status.ACTIVE


def test_a_bracket_walkover_used_refuses_naming_the_match(event, director):
    flight = flight_with(event, rated_players(8))
    flight_draw(flight_id=flight.pk, by=director, publish="all")
    eight = _entry(flight, 8)  # meets seed 1, whose next opponent is seed 4 or 5
    entry_withdraw(entry_id=eight.pk, by=director)
    for m in flight.matches.filter(round=1, status=TournamentMatch.Status.READY):
        result_enter(match_id=m.pk, by=director, score_a=5, score_b=1)
    semi = flight.matches.filter(round=2, entry_a=_entry(flight, 1)).first()
    assert semi is not None and semi.status == TournamentMatch.Status.READY
    entry_reinstate(entry_id=eight.pk, by=director)  # the semi-final not played: allowed
    assert TournamentMatch.objects.get(pk=semi.pk).status == TournamentMatch.Status.PENDING
    entry_withdraw(entry_id=eight.pk, by=director)
    semi = TournamentMatch.objects.get(pk=semi.pk)
    result_enter(match_id=semi.pk, by=director, score_a=5, score_b=2)
    before = _snapshot(flight)
    with pytest.raises(Conflict) as caught:
        entry_reinstate(entry_id=eight.pk, by=director)
    assert caught.value.code == "reinstate_too_late"
    assert caught.value.extra["match"] == semi.pk
    assert eight.player.name in str(caught.value.detail)
    assert _snapshot(flight) == before


def test_a_report_on_the_next_match_refuses(event, director):
    flight = flight_with(event, rated_players(4, with_login=True))
    flight_draw(flight_id=flight.pk, by=director, publish="all")
    four = _entry(flight, 4)
    entry_withdraw(entry_id=four.pk, by=director)
    other = flight.matches.get(round=1, status=TournamentMatch.Status.READY)
    result_enter(match_id=other.pk, by=director, score_a=5, score_b=0)
    final = flight.matches.get(round=2)
    result_report(match_id=final.pk, by=final.entry_a.player.user, score_a=5, score_b=3)
    with pytest.raises(Conflict) as caught:
        entry_reinstate(entry_id=four.pk, by=director)
    assert caught.value.code == "reinstate_too_late"


def test_swiss_rejoins_from_the_next_round(event, director):
    flight = flight_with(event, rated_players(6), format="swiss", options={"rounds": 3})
    flight_draw(flight_id=flight.pk, by=director)
    six = _entry(flight, 6)
    entry_withdraw(entry_id=six.pk, by=director)
    walked = _match_of(six)
    for m in flight.matches.filter(round=1, status=TournamentMatch.Status.READY):
        result_enter(match_id=m.pk, by=director, score_a=5, score_b=1)
    round_publish(flight_id=flight.pk, by=director)  # round 2 without them
    assert not flight.matches.filter(round=2, entry_a=six).exists()
    assert not flight.matches.filter(round=2, entry_b=six).exists()
    entry_reinstate(entry_id=six.pk, by=director)
    # Their round 1 walkover stands (round 2 was paired from it).
    assert TournamentMatch.objects.get(pk=walked.pk).status == TournamentMatch.Status.WALKOVER
    for m in flight.matches.filter(round=2, status=TournamentMatch.Status.READY):
        result_enter(match_id=m.pk, by=director, score_a=5, score_b=1)
    round_publish(flight_id=flight.pk, by=director)
    three = flight.matches.filter(round=3)
    assert three.filter(entry_a=six).exists() or three.filter(entry_b=six).exists()


def test_swiss_reopens_their_walkover_of_the_latest_round(event, director):
    flight = flight_with(event, rated_players(4), format="swiss", options={"rounds": 1})
    flight_draw(flight_id=flight.pk, by=director)
    four = _entry(flight, 4)
    entry_withdraw(entry_id=four.pk, by=director)
    walked = _match_of(four)
    assert TournamentMatch.objects.get(pk=walked.pk).status == TournamentMatch.Status.WALKOVER
    entry_reinstate(entry_id=four.pk, by=director)
    walked = TournamentMatch.objects.get(pk=walked.pk)
    assert walked.status == TournamentMatch.Status.READY and walked.decided_at is None


def test_swiss_every_round_paired_and_played_refuses(event, director):
    flight = flight_with(event, rated_players(4), format="swiss", options={"rounds": 2})
    flight_draw(flight_id=flight.pk, by=director)
    four = _entry(flight, 4)
    for m in flight.matches.filter(round=1, status=TournamentMatch.Status.READY):
        result_enter(match_id=m.pk, by=director, score_a=5, score_b=1)
    round_publish(flight_id=flight.pk, by=director)
    mine = flight.matches.filter(round=2, entry_a=four) | flight.matches.filter(
        round=2, entry_b=four
    )
    others = flight.matches.filter(round=2).exclude(pk=mine.get().pk)
    for m in others:
        result_enter(match_id=m.pk, by=director, score_a=5, score_b=1)
    entry_withdraw(entry_id=four.pk, by=director)
    assert Flight.objects.get(pk=flight.pk).status == Flight.Status.FINISHED
    with pytest.raises(Conflict) as caught:
        entry_reinstate(entry_id=four.pk, by=director)
    assert caught.value.code == "flight_finished"


def test_round_robin_plays_their_walkovers_after_all(event, director):
    flight = flight_with(event, rated_players(4), format="round_robin")
    flight_draw(flight_id=flight.pk, by=director, publish="all")
    four = _entry(flight, 4)
    entry_withdraw(entry_id=four.pk, by=director)
    mine = [m.pk for m in flight.matches.filter(entry_a=four)] + [
        m.pk for m in flight.matches.filter(entry_b=four)
    ]
    assert len(mine) == 3
    statuses = set(TournamentMatch.objects.filter(pk__in=mine).values_list("status", flat=True))
    assert statuses == {TournamentMatch.Status.WALKOVER}
    entry_reinstate(entry_id=four.pk, by=director)
    statuses = set(TournamentMatch.objects.filter(pk__in=mine).values_list("status", flat=True))
    assert statuses == {TournamentMatch.Status.READY}


def test_withdrawn_before_the_draw_is_not_reinstated_after_it(event, director):
    flight = flight_with(event, rated_players(4))
    entry = flight.entries.first()
    entry_withdraw(entry_id=entry.pk, by=director)
    flight_draw(flight_id=flight.pk, by=director)
    with translation.override("en"), pytest.raises(Conflict) as caught:
        entry_reinstate(entry_id=entry.pk, by=director)
    assert caught.value.code == "reinstate_too_late"
    assert "late entry" in str(caught.value.detail)
    with pytest.raises(PermissionDenied):
        entry_reinstate(entry_id=entry.pk, by=UserFactory())


def test_the_api_reinstates(event, director):
    flight = flight_with(event, rated_players(4))
    flight_draw(flight_id=flight.pk, by=director)
    four = _entry(flight, 4)
    entry_withdraw(entry_id=four.pk, by=director)
    client = api_client(director)
    answer = client.post(f"/api/v1/entries/{four.pk}/reinstate/", {}, format="json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["status"] == "active"
    again = client.post(f"/api/v1/entries/{four.pk}/reinstate/", {}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "not_withdrawn"


def test_the_pages_reinstate_from_the_flight_page_and_the_desk(client, event, director):
    flight = flight_with(event, rated_players(4))
    flight_draw(flight_id=flight.pk, by=director)
    four = _entry(flight, 4)
    client.force_login(director)
    client.cookies["django_language"] = "en"
    desk = reverse("tournaments:desk", args=[event.slug])
    withdraw = reverse("tournaments:desk-withdraw", args=[event.slug, four.pk])
    asked = client.post(withdraw, {"next": desk})
    page = asked.content.decode()
    assert asked.status_code == 200 and four.player.name in page and "walkover" in page
    assert Entry.objects.get(pk=four.pk).status == Entry.Status.ACTIVE
    done = client.post(withdraw, {"next": desk, "confirm": "1"}, follow=True)
    assert done.redirect_chain[-1][0] == desk
    assert Entry.objects.get(pk=four.pk).status == Entry.Status.WITHDRAWN
    reinstate = reverse("tournaments:entry-reinstate", args=[event.slug, four.pk])
    assert reinstate in client.get(desk).content.decode()
    manage = reverse("tournaments:flight-manage", args=[event.slug, flight.pk])
    assert reinstate in client.get(manage).content.decode()
    done = client.post(reinstate, {"next": desk}, follow=True)
    assert f"{four.player.name} is reinstated." in done.content.decode()
    assert Entry.objects.get(pk=four.pk).status == Entry.Status.ACTIVE
    refused = client.post(reinstate, follow=True)
    assert "This entry is not withdrawn." in refused.content.decode()

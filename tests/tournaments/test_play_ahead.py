"""Issue 29, item 4: play ahead. With ``Flight.play_ahead`` (on by default) a knockout's
next-round match is published - visible, its players told, a table, results from the
players and the directors, an online start - as soon as both its players are known,
while other matches of the round before are still being played. Off: as before, a
round is published when the round before is complete. Swiss (paired from the whole
round's standings) and round robin keep their round by round publication."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.errors import Conflict
from games.models import Notification
from tests.factories import api_client
from tests.tournaments.factories import flight_with, rated_players
from tournaments import selectors
from tournaments.models import Flight, ResultCorrection, TournamentMatch
from tournaments.services.draw import flight_draw
from tournaments.services.online import match_start_online
from tournaments.services.results import (
    result_confirm,
    result_correct,
    result_enter,
    result_report,
)

pytestmark = pytest.mark.django_db


def _match(flight, slot) -> TournamentMatch:
    return TournamentMatch.objects.select_related("entry_a__player", "entry_b__player").get(
        flight=flight, slot_key=slot
    )


def _win(director, m, side="a") -> None:
    n = m.match_length
    result_enter(
        match_id=m.pk, by=director, score_a=n if side == "a" else 0, score_b=0 if side == "a" else n
    )


def _early_pair(
    event, director, *, play_ahead=True, fmt="single_elimination", options=None, name="Main"
):
    """An 8-player knockout drawn (round 1 published); the two first-round matches that
    feed the first semi-final played, side a winning; the other two still open."""
    players = rated_players(8, with_login=True)
    flight = flight_with(
        event,
        players,
        format=fmt,
        options=options or {},
        match_length=3,
        play_ahead=play_ahead,
        name=name,
    )
    flight_draw(flight_id=flight.pk, by=director)
    for slot in ("M1-1", "M1-2"):
        _win(director, _match(flight, slot))
    semi = next(
        m
        for m in TournamentMatch.objects.filter(flight=flight, part="main", round=2)
        if m.entry_a_id and m.entry_b_id
    )
    return flight, semi


def test_the_early_pairs_semi_final_is_published_and_takes_a_result(event, director):
    flight, semi = _early_pair(event, director)
    semi = _match(flight, semi.slot_key)
    assert semi.status == "ready" and semi.table is not None
    assert ("main", 2) in selectors.published_rounds(flight)
    still_open = [_match(flight, s) for s in ("M1-3", "M1-4")]
    assert all(m.status == "ready" for m in still_open)
    # Both semi-finalists hear of it, with its table.
    for entry in (semi.entry_a, semi.entry_b):
        note = Notification.objects.get(
            recipient=entry.player, kind="match_ready", subject__startswith=f"tmatch:{semi.pk}:"
        )
        assert note.context["table"] == semi.table
    # The public sees it (the round is published).
    data = api_client().get(f"/api/v1/flights/{flight.pk}/").json()
    assert semi.pk in [m["id"] for m in data["matches"]]
    # A player reports, the opponent confirms: the result stands.
    result_report(match_id=semi.pk, by=semi.entry_a.player.user, score_a=3, score_b=1)
    done = result_confirm(match_id=semi.pk, by=semi.entry_b.player.user)
    assert done.status == "confirmed" and done.winner == "a"
    assert [_match(flight, s).status for s in ("M1-3", "M1-4")] == ["ready", "ready"]
    # The other half finishes later; the final follows.
    for slot in ("M1-3", "M1-4"):
        _win(director, _match(flight, slot))
    other = _match(flight, "M2-2" if semi.slot_key == "M2-1" else "M2-1")
    _win(director, other)
    final = _match(flight, "M3-1")
    _win(director, final)
    assert Flight.objects.get(pk=flight.pk).status == Flight.Status.FINISHED


def test_a_director_enters_it_and_it_can_start_online(event, director):
    flight, semi = _early_pair(event, director)
    online = match_start_online(match_id=semi.pk, by=director)
    assert _match(flight, semi.slot_key).online_match_id == online.pk
    flight2, semi2 = _early_pair(event, director, name="Second")
    assert flight2.pk != flight.pk
    _win(director, _match(flight2, semi2.slot_key), side="b")
    assert _match(flight2, semi2.slot_key).winner == "b"


def test_with_play_ahead_off_it_waits_for_the_round(client, event, director):
    flight, semi = _early_pair(event, director, play_ahead=False)
    assert ("main", 2) not in selectors.published_rounds(flight)
    with pytest.raises(Conflict) as refused:
        _win(director, semi)
    assert refused.value.code == "round_not_published"
    with pytest.raises(Conflict):
        result_report(match_id=semi.pk, by=semi.entry_a.player.user, score_a=3, score_b=0)
    assert not Notification.objects.filter(
        kind="match_ready", subject__startswith=f"tmatch:{semi.pk}:"
    ).exists()
    # The director's page does not show it ready at a table, nor a result form.
    client.force_login(director)
    client.cookies["django_language"] = "en"
    page = client.get(
        reverse("tournaments:flight-manage", kwargs={"slug": event.slug, "flight_id": flight.pk})
    ).content.decode()
    row = page[page.index(f'data-match="{semi.pk}"') :]
    row = row[: row.index("</tr>")]
    assert "waiting: its round is not published yet" in row
    assert "quick-result" not in row and '"Status">ready<' not in row
    assert f'"Table">{semi.table}<' not in row
    # The event's list of unfinished matches says the same.
    page = client.get(
        reverse("tournaments:event-manage", kwargs={"slug": event.slug})
    ).content.decode()
    row = page[page.index(f'data-match="{semi.pk}"') :]
    row = row[: row.index("</tr>")]
    assert "waiting: its round is not published yet" in row
    assert f'"Table">{semi.table}<' not in row
    first = _match(flight, "M1-3")
    row = page[page.index(f'data-match="{first.pk}"') :]
    assert f'"Table">{first.table}<' in row[: row.index("</tr>")]
    # The round complete: published, the players told, playable.
    for slot in ("M1-3", "M1-4"):
        _win(director, _match(flight, slot))
    assert ("main", 2) in selectors.published_rounds(flight)
    assert (
        Notification.objects.filter(
            kind="match_ready", subject__startswith=f"tmatch:{semi.pk}:"
        ).count()
        == 2
    )
    _win(director, _match(flight, semi.slot_key))


def test_play_ahead_in_the_consolation(event, director):
    """A side part's first round is played ahead too: the two losers of the first
    round-1 matches that feed one consolation match meet while round 1 goes on."""
    flight, _semi = _early_pair(event, director, fmt="consolation", options={"entry_rounds": 1})
    side = [
        m
        for m in TournamentMatch.objects.filter(flight=flight, part="consolation")
        if m.status == "ready"
    ]
    assert len(side) == 1
    assert (
        TournamentMatch.objects.filter(flight=flight, part="main", round=1, status="ready").count()
        == 2
    )
    _win(director, side[0])
    assert _match(flight, side[0].slot_key).status == "confirmed"


def test_round_robin_and_swiss_keep_their_rounds(event, director):
    rr = flight_with(event, rated_players(4), format="round_robin", name="RR", match_length=1)
    assert rr.play_ahead
    flight_draw(flight_id=rr.pk, by=director)
    first = TournamentMatch.objects.filter(flight=rr, round=1, status="ready").first()
    _win(director, first)
    assert ("", 2) not in selectors.published_rounds(rr)
    later = TournamentMatch.objects.filter(flight=rr, round=2).first()
    with pytest.raises(Conflict) as refused:
        _win(director, later)
    assert refused.value.code == "round_not_published"


def test_a_correction_that_moves_a_played_ahead_semi_final(event, director):
    """The correction of a round-1 result changes who plays the semi-final played
    ahead: refused while the semi-final has a result (``later_results_depend``), then
    reset with it (audited), and the semi-final is played again by the right players."""
    flight, semi = _early_pair(event, director)
    m11 = _match(flight, "M1-1")
    _win(director, _match(flight, semi.slot_key))
    assert _match(flight, "M1-3").status == "ready"
    with pytest.raises(Conflict) as refused:
        result_correct(match_id=m11.pk, by=director, reason="wrong sheet", score_a=0, score_b=3)
    assert refused.value.code == "later_results_depend"
    assert refused.value.extra["slots"] == [semi.slot_key]
    result_correct(
        match_id=m11.pk,
        by=director,
        reason="wrong sheet",
        score_a=0,
        score_b=3,
        reset_later=True,
    )
    again = _match(flight, semi.slot_key)
    assert again.decided_at is None and again.status == "ready"
    assert m11.entry_b_id in (again.entry_a_id, again.entry_b_id)
    assert m11.entry_a_id not in (again.entry_a_id, again.entry_b_id)
    assert ResultCorrection.objects.filter(match=again).count() == 1
    # The new semi-finalist hears of it; the match is still published and playable.
    assert Notification.objects.filter(
        recipient=m11.entry_b.player, kind="match_ready", subject__startswith=f"tmatch:{semi.pk}:"
    ).exists()
    _win(director, again, side="b")
    assert _match(flight, semi.slot_key).status == "confirmed"


def test_a_correction_before_the_semi_final_is_played_moves_its_report(event, director):
    """Only a report on the played-ahead semi-final: the correction is refused as
    well (its players change), then the report goes with the reset."""
    flight, semi = _early_pair(event, director)
    m12 = _match(flight, "M1-2")
    result_report(match_id=semi.pk, by=semi.entry_a.player.user, score_a=3, score_b=0)
    with pytest.raises(Conflict) as refused:
        result_correct(match_id=m12.pk, by=director, reason="x", score_a=1, score_b=3)
    assert refused.value.code == "later_results_depend"
    result_correct(match_id=m12.pk, by=director, reason="x", score_a=1, score_b=3, reset_later=True)
    again = _match(flight, semi.slot_key)
    assert again.report_a is None and again.report_b is None and again.status == "ready"
    assert m12.entry_b_id in (again.entry_a_id, again.entry_b_id)


def test_the_setting_on_the_form_and_in_the_api(client, event, director):
    client.force_login(director)
    client.cookies["django_language"] = "en"
    manage = reverse("tournaments:event-manage", kwargs={"slug": event.slug})
    page = client.get(manage).content.decode()
    assert 'name="play_ahead"' in page and "Play ahead" in page
    client.post(
        reverse("tournaments:flight-create", kwargs={"slug": event.slug}),
        {
            "name": "Off",
            "format": "single_elimination",
            "seeding": "rating",
            "match_length": 5,
            "clock_policy": "off",
            "entry_rounds": 1,
        },
    )
    client.post(
        reverse("tournaments:flight-create", kwargs={"slug": event.slug}),
        {
            "name": "On",
            "format": "single_elimination",
            "seeding": "rating",
            "match_length": 5,
            "clock_policy": "off",
            "entry_rounds": 1,
            "play_ahead": "on",
        },
    )
    assert dict(Flight.objects.filter(event=event).values_list("name", "play_ahead")) == {
        "Off": False,
        "On": True,
    }
    api = api_client(director)
    made = api.post(
        f"/api/v1/events/{event.pk}/flights/",
        {"name": "Api", "format": "single_elimination", "play_ahead": False},
        format="json",
    )
    assert made.status_code == 201, made.content
    assert made.json()["play_ahead"] is False
    default = api.post(
        f"/api/v1/events/{event.pk}/flights/",
        {"name": "Api2", "format": "single_elimination"},
        format="json",
    )
    assert default.json()["play_ahead"] is True


def test_switching_it_on_during_the_night_publishes_the_waiting_match(client, event, director):
    flight, semi = _early_pair(event, director, play_ahead=False)
    client.force_login(director)
    client.cookies["django_language"] = "en"
    manage = reverse(
        "tournaments:flight-manage", kwargs={"slug": event.slug, "flight_id": flight.pk}
    )
    assert "flight-play-ahead-form" in client.get(manage).content.decode()
    done = client.post(
        reverse(
            "tournaments:flight-play-ahead", kwargs={"slug": event.slug, "flight_id": flight.pk}
        ),
        {"play_ahead": "on"},
        follow=True,
    ).content.decode()
    assert "Play ahead is on." in done
    assert Flight.objects.get(pk=flight.pk).play_ahead
    assert ("main", 2) in selectors.published_rounds(flight)
    assert (
        Notification.objects.filter(
            kind="match_ready", subject__startswith=f"tmatch:{semi.pk}:"
        ).count()
        == 2
    )
    _win(director, _match(flight, semi.slot_key))
    # Off again through the API: what was published stays so; a stranger may not.
    url = f"/api/v1/flights/{flight.pk}/play-ahead/"
    assert (
        api_client(rated_players(1, with_login=True)[0].user)
        .post(url, {"play_ahead": False}, format="json")
        .status_code
        == 403
    )
    answer = api_client(director).post(url, {"play_ahead": False}, format="json")
    assert answer.status_code == 200 and answer.json()["play_ahead"] is False
    assert ("main", 2) in selectors.published_rounds(flight)
    assert api_client(director).post(url, {"play_ahead": "maybe"}, format="json").status_code == 400

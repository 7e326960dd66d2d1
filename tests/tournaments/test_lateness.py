"""Lateness (docs/rules.md R15) on PostgreSQL: the flight's rule, a director's record of a
late player (the opponent's starting score, or a forfeit walked over), the result checks
counting from the starting score, the online refusal, the API and the pages."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from games.errors import Conflict, PermissionDenied, ValidationFailed
from tests.factories import UserFactory, api_client
from tests.tournaments.factories import EventFactory, flight_with, rated_players
from tournaments.models import Flight, FlightRound, TournamentMatch
from tournaments.services.draw import flight_draw
from tournaments.services.entries import entry_register
from tournaments.services.flights import flight_create, flight_round_set
from tournaments.services.lateness import flight_set_lateness, match_set_lateness
from tournaments.services.online import match_start_online
from tournaments.services.results import result_correct, result_enter, result_report

pytestmark = pytest.mark.django_db


def _match(flight, key):
    return TournamentMatch.objects.select_related("entry_a__player", "entry_b__player").get(
        flight=flight, slot_key=key
    )


@pytest.fixture
def drawn(event, director):
    """A drawn 4-player knockout to 5 points with the club's lateness rule (5', 5'):
    M1-1 = seed 1 v 4, M1-2 = seed 2 v 3."""
    players = rated_players(4, with_login=True)
    flight = flight_with(event, players, match_length=5, lateness=True)
    flight_draw(flight_id=flight.pk, by=director)
    return flight, players


def _state(flight):
    return (
        list(TournamentMatch.objects.filter(flight=flight).order_by("pk").values()),
        list(Flight.objects.filter(pk=flight.pk).values()),
    )


# ====================================================================== the service
def test_a_late_player_gives_the_opponent_a_starting_score(drawn, director):
    flight, _ = drawn
    m = _match(flight, "M1-1")
    row = match_set_lateness(match_id=m.pk, by=director, side="a", minutes=12)
    assert (row.late_side, row.late_minutes, row.late_points, row.late_forfeit) == (
        "a",
        12,
        2,
        False,
    )
    assert row.start_score == (0, 2) and row.status == "ready"
    assert row.late_entry == m.entry_a and row.late_opponent == m.entry_b
    # Corrected before the result: 7 minutes is 1 point; then within the grace; cleared.
    assert match_set_lateness(match_id=m.pk, by=director, side="a", minutes=7).late_points == 1
    assert match_set_lateness(match_id=m.pk, by=director, side="b", minutes=3).start_score == (
        0,
        0,
    )
    row = match_set_lateness(match_id=m.pk, by=director, side="")
    assert (row.late_side, row.late_minutes, row.late_points) == ("", None, 0)
    assert Flight.objects.get(pk=flight.pk).version > flight.version


@pytest.mark.parametrize(
    ("who", "kwargs", "error", "code"),
    [
        ("player", {"side": "a", "minutes": 12}, PermissionDenied, "not_a_director"),
        ("other_director", {"side": "a", "minutes": 12}, PermissionDenied, "not_a_director"),
        ("director", {"side": "a", "minutes": -1}, ValidationFailed, "invalid_minutes"),
        ("director", {"side": "a", "minutes": 601}, ValidationFailed, "invalid_minutes"),
        ("director", {"side": "a", "minutes": 10**6}, ValidationFailed, "invalid_minutes"),
        ("director", {"side": "c", "minutes": 12}, ValidationFailed, "invalid_side"),
        ("director", {"side": "a"}, ValidationFailed, "minutes_required"),
        ("director", {"side": "a", "arrived_at": timezone.now()}, Conflict, "round_start_unknown"),
        (
            "director",
            {"side": "a", "minutes": 1, "expected_version": 99},
            Conflict,
            "stale_version",
        ),
    ],
)
def test_refusals_change_nothing(drawn, director, who, kwargs, error, code):
    flight, players = drawn
    m = _match(flight, "M1-1")
    by = {
        "player": players[0].user,
        "other_director": EventFactory().directors.get(),
        "director": director,
    }[who]
    before = _state(flight)
    with pytest.raises(error) as refused:
        match_set_lateness(match_id=m.pk, by=by, **kwargs)
    assert refused.value.code == code
    assert _state(flight) == before


def test_no_lateness_after_the_result_a_report_or_without_the_rule(event, drawn, director):
    flight, players = drawn
    m11, m12 = _match(flight, "M1-1"), _match(flight, "M1-2")
    result_enter(match_id=m11.pk, by=director, score_a=5, score_b=1)
    result_report(match_id=m12.pk, by=players[1].user, score_a=5, score_b=0)
    final = _match(flight, "M2-1")  # not ready: one semi-final to go
    for match, code in (
        (m11, "result_exists"),
        (m12, "match_reported"),
        (final, "match_not_ready"),
    ):
        with pytest.raises(Conflict) as refused:
            match_set_lateness(match_id=match.pk, by=director, side="a", minutes=12)
        assert refused.value.code == code
    plain = flight_with(event, rated_players(2), name="No rule")
    flight_draw(flight_id=plain.pk, by=director)
    with pytest.raises(Conflict) as off:
        match_set_lateness(match_id=_match(plain, "M1-1").pk, by=director, side="a", minutes=12)
    assert off.value.code == "lateness_off"


def test_a_forfeit_walks_over_and_advances_the_opponent(drawn, director):
    flight, _ = drawn
    m = _match(flight, "M1-1")
    row = match_set_lateness(match_id=m.pk, by=director, side="b", minutes=16)  # 3 > 5/2
    assert row.status == "walkover" and row.winner == "a" and row.decided_at is not None
    assert (row.late_forfeit, row.late_points, row.late_minutes) == (True, 0, 16)
    assert row.start_score == (0, 0)
    final = _match(flight, "M2-1")
    assert m.entry_a_id in (final.entry_a_id, final.entry_b_id)
    # It stands as every walkover: refused again, corrected through the audited path.
    with pytest.raises(Conflict):
        match_set_lateness(match_id=m.pk, by=director, side="", minutes=None)
    corrected = result_correct(
        match_id=m.pk, by=director, reason="he was on time", score_a=5, score_b=3
    )
    assert corrected.status == "confirmed"


def test_fifteen_minutes_late_in_a_five_point_match_is_two_points_not_a_forfeit(drawn, director):
    flight, _ = drawn
    row = match_set_lateness(match_id=_match(flight, "M1-2").pk, by=director, side="a", minutes=15)
    assert (row.start_score, row.status) == ((0, 2), "ready")


def test_minutes_from_the_rounds_start_and_the_arrival(drawn, director):
    flight, _ = drawn
    start = timezone.now().replace(microsecond=0)
    flight_round_set(flight_id=flight.pk, by=director, part="main", number=1, starts_at=start)
    m = _match(flight, "M1-1")
    row = match_set_lateness(
        match_id=m.pk, by=director, side="a", arrived_at=start + datetime.timedelta(seconds=301)
    )
    assert (row.late_minutes, row.late_points) == (6, 1)
    with pytest.raises(ValidationFailed) as both:
        match_set_lateness(match_id=m.pk, by=director, side="a", minutes=3, arrived_at=start)
    assert both.value.code == "minutes_or_arrival"


# ====================================================================== the result checks
def test_results_count_from_the_starting_score(drawn, director):
    flight, players = drawn
    m11, m12 = _match(flight, "M1-1"), _match(flight, "M1-2")
    match_set_lateness(match_id=m11.pk, by=director, side="a", minutes=12)  # B starts at 2
    with pytest.raises(ValidationFailed) as below:
        result_enter(match_id=m11.pk, by=director, score_a=5, score_b=1)
    assert below.value.code == "score_below_start"
    # Three single games for B: 0-5 from 0-2.
    three = [{"winner": 2, "points": 1, "cube": 1}] * 3
    row = result_enter(match_id=m11.pk, by=director, games=three)
    assert (row.score_a, row.score_b, row.winner) == (0, 5, "b")
    # A player's report counts from the start too; the Crawford game from the real score.
    match_set_lateness(match_id=m12.pk, by=director, side="b", minutes=11)  # A starts at 2
    crawford_cube = [
        {"winner": 1, "points": 1, "cube": 1},
        {"winner": 1, "points": 1, "cube": 1},  # 4-0: the next game is the Crawford game
        {"winner": 2, "points": 2, "cube": 2},
    ]
    with pytest.raises(ValidationFailed) as cube:
        result_report(match_id=m12.pk, by=players[1].user, games=crawford_cube)
    assert (cube.value.code, cube.value.extra["game"]) == ("crawford_cube", 3)
    report = result_report(match_id=m12.pk, by=players[1].user, score_a=5, score_b=2)
    assert report.status == "reported"


def test_a_penalised_match_is_not_played_online_but_one_within_the_grace_is(drawn, director):
    flight, players = drawn
    m11, m12 = _match(flight, "M1-1"), _match(flight, "M1-2")
    match_set_lateness(match_id=m11.pk, by=director, side="a", minutes=12)
    with pytest.raises(Conflict) as refused:
        match_start_online(match_id=m11.pk, by=players[0].user)
    assert refused.value.code == "penalty_not_online"
    match_set_lateness(match_id=m12.pk, by=director, side="a", minutes=5)
    assert match_start_online(match_id=m12.pk, by=players[1].user).score2 == 0
    with pytest.raises(Conflict) as online:
        match_set_lateness(match_id=m12.pk, by=director, side="a", minutes=12)
    assert online.value.code == "already_online"


def test_a_lateness_goes_with_the_player_when_a_correction_changes_the_sides(drawn, director):
    flight, _ = drawn
    m11, m12 = _match(flight, "M1-1"), _match(flight, "M1-2")
    result_enter(match_id=m11.pk, by=director, score_a=5, score_b=1)
    result_enter(match_id=m12.pk, by=director, score_a=5, score_b=1)
    final = _match(flight, "M2-1")
    match_set_lateness(match_id=final.pk, by=director, side="b", minutes=8)
    result_correct(match_id=m12.pk, by=director, reason="misread", score_a=2, score_b=5)
    final.refresh_from_db()
    assert final.entry_b_id == m12.entry_b_id
    assert (final.late_side, final.late_points, final.start_score) == ("", 0, (0, 0))


def test_a_new_round_length_leaves_a_penalised_match_alone(drawn, director):
    flight, _ = drawn
    m11 = _match(flight, "M1-1")
    match_set_lateness(match_id=m11.pk, by=director, side="a", minutes=12)
    flight_round_set(flight_id=flight.pk, by=director, part="main", number=1, match_length=3)
    assert _match(flight, "M1-1").match_length == 5
    assert _match(flight, "M1-2").match_length == 3


# ====================================================================== the flight's rule
def test_the_flight_rule_is_set_at_creation_and_changes_until_a_match_starts(event, director):
    flight = flight_create(
        event_id=event.pk,
        by=director,
        name="Late",
        format="single_elimination",
        lateness=True,
        lateness_grace=10,
        lateness_per_point=3,
    )
    assert (flight.lateness, flight.lateness_grace, flight.lateness_per_point) == (True, 10, 3)
    default = flight_create(
        event_id=event.pk, by=director, name="Plain", format="swiss", options={"rounds": 2}
    )
    assert (default.lateness, default.lateness_grace, default.lateness_per_point) == (False, 5, 5)
    for kwargs, code in (
        ({"lateness_grace": -1}, "invalid_grace"),
        ({"lateness_per_point": 0}, "invalid_minutes_per_point"),
    ):
        with pytest.raises(ValidationFailed) as bad:
            flight_create(
                event_id=event.pk,
                by=director,
                name="Bad",
                format="swiss",
                options={"rounds": 2},
                **kwargs,
            )
        assert bad.value.code == code
        with pytest.raises(ValidationFailed):
            flight_set_lateness(flight_id=flight.pk, by=director, lateness=True, **kwargs)
    with pytest.raises(PermissionDenied):
        flight_set_lateness(flight_id=flight.pk, by=UserFactory(), lateness=False)

    for p in rated_players(2):
        entry_register(flight_id=flight.pk, by=director, player_id=p.pk)
    flight_draw(flight_id=flight.pk, by=director)
    changed = flight_set_lateness(flight_id=flight.pk, by=director, lateness=True, lateness_grace=5)
    assert (changed.lateness_grace, changed.lateness_per_point) == (5, 3)
    m = _match(flight, "M1-1")
    match_set_lateness(match_id=m.pk, by=director, side="a", minutes=9)
    assert _match(flight, "M1-1").late_points == 2  # ceil(4 / 3)
    with pytest.raises(Conflict) as started:
        flight_set_lateness(flight_id=flight.pk, by=director, lateness=False)
    assert started.value.code == "matches_started"
    # The same settings again are no change.
    flight_set_lateness(flight_id=flight.pk, by=director, lateness=True)


# ====================================================================== the API
def test_the_api_records_lateness_and_shows_the_starting_score(drawn, director):
    flight, players = drawn
    m = _match(flight, "M1-1")
    url = f"/api/v1/tournament-matches/{m.pk}/lateness/"
    assert api_client().post(url, {"side": "a", "minutes": 12}, format="json").status_code == 401
    refused = api_client(players[0].user).post(url, {"side": "a", "minutes": 12}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (403, "not_a_director")
    api = api_client(director)
    assert api.post(url, {"side": "x", "minutes": 12}, format="json").status_code == 400
    assert api.post(url, {"side": "a", "minutes": -3}, format="json").status_code == 400
    body = api.post(url, {"side": "a", "minutes": 12}, format="json").json()
    assert (body["late_side"], body["late_minutes"], body["late_points"]) == ("a", 12, 2)
    assert (body["start_score_a"], body["start_score_b"], body["late_forfeit"]) == (0, 2, False)
    detail = api_client().get(f"/api/v1/flights/{flight.pk}/").json()
    assert detail["lateness"] is True and detail["lateness_grace"] == 5
    assert next(x for x in detail["matches"] if x["id"] == m.pk)["start_score_b"] == 2
    # The flight's rule: refused once a match has its lateness.
    rule = api.post(f"/api/v1/flights/{flight.pk}/lateness/", {"lateness": False}, format="json")
    assert (rule.status_code, rule.json()["code"]) == (409, "matches_started")


def test_the_api_creates_a_flight_with_the_rule_and_changes_it(event, director):
    api = api_client(director)
    created = api.post(
        f"/api/v1/events/{event.pk}/flights/",
        {"name": "Late", "format": "single_elimination", "lateness": True, "lateness_grace": 3},
        format="json",
    )
    assert created.status_code == 201, created.json()
    data = created.json()
    assert (data["lateness"], data["lateness_grace"], data["lateness_per_point"]) == (True, 3, 5)
    url = f"/api/v1/flights/{data['id']}/lateness/"
    changed = api.post(url, {"lateness": True, "lateness_per_point": 10}, format="json")
    assert changed.status_code == 200 and changed.json()["lateness_per_point"] == 10
    assert api.post(url, {"lateness": True, "lateness_grace": 61}, format="json").status_code == 400


def test_the_schema_lists_the_lateness_operations(client):
    schema = client.get("/api/schema/").content
    assert b"/api/v1/tournament-matches/{match_id}/lateness/" in schema
    assert b"/api/v1/flights/{flight_id}/lateness/" in schema
    assert b"start_score_b" in schema and b"lateness_per_point" in schema


# ====================================================================== the pages
@pytest.fixture
def en(client):
    client.cookies["django_language"] = "en"
    return client


def _url(name, **kwargs):
    return reverse(f"tournaments:{name}", kwargs=kwargs)


def test_the_director_records_lateness_on_the_match_page_and_everyone_sees_it(
    en, event, drawn, director
):
    flight, players = drawn
    m = _match(flight, "M1-1")
    post = _url("match-lateness", slug=event.slug, match_id=m.pk)
    assert en.post(post, {"side": "a", "minutes": "12"}).status_code == 302  # to log in
    en.force_login(players[0].user)
    assert en.post(post, {"side": "a", "minutes": "12"}).status_code == 403
    en.force_login(director)
    page = en.get(_url("match-manage", slug=event.slug, match_id=m.pk)).content.decode()
    assert 'class="row lateness-form"' in page
    done = en.post(post, {"side": "a", "minutes": "12", "version": str(m.version)}, follow=True)
    html = done.content.decode()
    assert "The lateness was saved." in html
    a, b = m.entry_a.player.name, m.entry_b.player.name
    note = f"{b} starts at 2 ({a} 12 min late)"
    assert note in html
    assert (
        note in en.get(_url("flight-manage", slug=event.slug, flight_id=flight.pk)).content.decode()
    )
    en.logout()
    en.cookies["django_language"] = "en"  # logout() empties the cookie jar
    public = en.get(_url("flight", slug=event.slug, flight_id=flight.pk)).content.decode()
    assert note in public
    # A refusal shows the service's words and changes nothing.
    en.force_login(director)
    refused = en.post(post, {"side": "a", "minutes": "-4"}, follow=True).content.decode()
    assert "Minutes late are a whole number from 0 to 600." in refused
    assert _match(flight, "M1-1").late_minutes == 12
    # The arrival time, counted from the round's start.
    start = datetime.datetime(2025, 3, 1, 19, 0, tzinfo=timezone.get_current_timezone())
    FlightRound.objects.update_or_create(  # round 1's row: the draw published it
        flight=flight, part="main", number=1, defaults={"match_length": 5, "starts_at": start}
    )
    en.post(post, {"side": "b", "minutes": "", "arrived": "19:16"})
    assert (_match(flight, "M1-1").status, _match(flight, "M1-1").late_forfeit) == (
        "walkover",
        True,
    )
    page = en.get(_url("match-manage", slug=event.slug, match_id=m.pk)).content.decode()
    assert f"{b} 16 min late: forfeited" in page and "lateness-form" not in page


def test_the_flight_page_sets_the_rule(en, event, director):
    en.force_login(director)
    created = en.post(
        _url("flight-create", slug=event.slug),
        {
            "name": "Late",
            "format": "single_elimination",
            "seeding": "rating",
            "match_length": "5",
            "clock_policy": "off",
            "entry_rounds": "1",
            "lateness": "on",
            "lateness_grace": "4",
            "lateness_per_point": "6",
        },
    )
    assert created.status_code == 302
    flight = Flight.objects.get(event=event, name="Late")
    assert (flight.lateness, flight.lateness_grace, flight.lateness_per_point) == (True, 4, 6)
    page = en.get(_url("flight-manage", slug=event.slug, flight_id=flight.pk)).content.decode()
    assert 'class="row flight-lateness-form"' in page
    url = _url("flight-lateness", slug=event.slug, flight_id=flight.pk)
    done = en.post(url, {"lateness_grace": "5", "lateness_per_point": "5"}, follow=True)
    assert "The lateness rule was saved." in done.content.decode()
    flight.refresh_from_db()
    assert (flight.lateness, flight.lateness_grace, flight.lateness_per_point) == (False, 5, 5)
    bad = en.post(
        url, {"lateness": "on", "lateness_grace": "99", "lateness_per_point": "5"}, follow=True
    )
    assert "The grace period is a whole number of minutes from 0 to 60." in bad.content.decode()
    en.force_login(EventFactory().directors.get())
    assert en.post(url, {"lateness": "on"}).status_code == 403

"""Disputes (issue 29) on PostgreSQL: a second report that differs is stored and the
match is disputed (both players and the directors told); the same second report makes
the result stand; a director decides a dispute by choosing a report or typing the score,
audited, and the bracket advances; refusals change nothing; only directors decide; nobody
confirms a disputed match and a plain result is refused; a stale version is refused; the
pages (the director's match, flight and desk pages, the player's) and the API."""

from __future__ import annotations

import threading

import pytest
from django.db import close_old_connections
from django.urls import reverse
from django.utils import translation

from games.errors import Conflict, PermissionDenied, ValidationFailed
from games.models import Notification
from games.notifications.services import notification_text
from tests.factories import UserPlayerFactory, api_client
from tests.tournaments.factories import EventFactory, flight_with, rated_players, sheet
from tournaments.models import Entry, Flight, FlightRound, ResultCorrection, TournamentMatch
from tournaments.pages.common import status_text
from tournaments.services.disputes import match_dispute_resolve
from tournaments.services.draw import flight_draw
from tournaments.services.results import result_confirm, result_enter, result_report

pytestmark = pytest.mark.django_db

DASH = "\u2013"


def _match(flight, key):
    return TournamentMatch.objects.select_related("entry_a__player", "entry_b__player").get(
        flight=flight, slot_key=key
    )


def _snapshot(flight):
    return (
        list(TournamentMatch.objects.filter(flight=flight).order_by("pk").values()),
        list(Entry.objects.filter(flight=flight).order_by("pk").values()),
        list(FlightRound.objects.filter(flight=flight).order_by("pk").values()),
        Flight.objects.filter(pk=flight.pk).values().get(),
        ResultCorrection.objects.count(),
    )


@pytest.fixture
def drawn(event, director):
    """A drawn 4-player knockout with logins (M1-1 = seed 1 v 4, M1-2 = seed 2 v 3), the
    director a player too (so told of disputes)."""
    UserPlayerFactory(user=director)
    players = rated_players(4, with_login=True)
    flight = flight_with(event, players, match_length=5)
    flight_draw(flight_id=flight.pk, by=director)
    return flight, players


@pytest.fixture
def disputed(drawn):
    """M1-1 disputed: side a reported 5-1 game by game, side b 1-5."""
    flight, _ = drawn
    match = _match(flight, "M1-1")
    result_report(match_id=match.pk, by=match.entry_a.player.user, games=sheet(1, 5))
    result_report(match_id=match.pk, by=match.entry_b.player.user, score_a=1, score_b=5)
    return flight, _match(flight, "M1-1")


# ====================================================================== the second report
def test_a_differing_second_report_is_stored_and_the_match_disputed(disputed, director):
    flight, match = disputed
    assert match.status == "disputed" and match.decided_at is None
    assert (match.report_a["score_a"], match.report_a["score_b"]) == (5, 1)
    assert (match.report_b["score_a"], match.report_b["score_b"]) == (1, 5)
    assert len(match.report_a["games"]) == 6
    with translation.override("en"):
        assert status_text(match) == "disputed"
    told = Notification.objects.filter(kind="result_disputed")
    recipients = set(told.values_list("recipient__user", flat=True))
    assert recipients == {match.entry_a.player.user_id, match.entry_b.player.user_id, director.pk}
    note = told.get(recipient=match.entry_a.player)
    # Stored in the club's language (Hungarian): "the director decides".
    assert match.entry_b.player.name in note.title and "versenyigazgató dönt" in note.body
    # The players' notice links to the flight page, the director's to the match's page.
    assert notification_text(note).url == reverse(
        "tournaments:flight", kwargs={"slug": flight.event.slug, "flight_id": flight.pk}
    )
    boss = told.get(recipient__user=director)
    assert notification_text(boss).url == reverse(
        "tournaments:match-manage", kwargs={"slug": flight.event.slug, "match_id": match.pk}
    )
    # The next round waits: nobody advanced.
    final = _match(flight, "M2-1")
    assert final.entry_a_id is None and final.status == "pending"


def test_the_same_second_report_confirms(drawn):
    flight, _ = drawn
    match = _match(flight, "M1-2")
    result_report(match_id=match.pk, by=match.entry_a.player.user, score_a=5, score_b=3)
    done = result_report(match_id=match.pk, by=match.entry_b.player.user, score_a=5, score_b=3)
    assert done.status == "confirmed" and done.decided_at is not None
    assert not Notification.objects.filter(kind="result_disputed").exists()
    assert _match(flight, "M2-1").entry_b_id == match.entry_a_id


def test_a_repeated_disputed_report_changes_nothing_and_tells_nobody_again(disputed):
    flight, match = disputed
    before = _snapshot(flight)
    told = Notification.objects.filter(kind="result_disputed").count()
    result_report(match_id=match.pk, by=match.entry_b.player.user, score_a=1, score_b=5)
    assert _snapshot(flight) == before
    assert Notification.objects.filter(kind="result_disputed").count() == told


def test_another_result_on_a_match_the_director_has_not_decided_stays_open(disputed):
    """Advancing after another match's result keeps the dispute (not turned ready)."""
    flight, match = disputed
    other = _match(flight, "M1-2")
    result_enter(match_id=other.pk, by=flight.event.directors.get(), score_a=5, score_b=0)
    match.refresh_from_db()
    assert match.status == "disputed" and match.report_a and match.report_b


# ====================================================================== the resolution
@pytest.mark.parametrize("choice", ["a", "b"])
def test_the_director_accepts_one_report(disputed, director, choice):
    flight, match = disputed
    reports = {"a": match.report_a, "b": match.report_b}
    done = match_dispute_resolve(
        match_id=match.pk,
        by=director,
        choice=choice,
        reason="Scoresheet checked",
        expected_version=match.version,
    )
    chosen = reports[choice]
    assert done.status == "confirmed" and done.decided_by == director
    assert (done.score_a, done.score_b) == (chosen["score_a"], chosen["score_b"])
    assert done.winner == chosen["winner"] and len(done.games) == len(chosen["games"])
    audit = ResultCorrection.objects.get(match=match)
    assert audit.kind == ResultCorrection.Kind.DISPUTE and audit.reason == "Scoresheet checked"
    assert audit.old["report_a"]["score_a"] == 5 and audit.old["report_b"]["score_b"] == 5
    assert audit.new["score_a"] == chosen["score_a"] and audit.new["status"] == "confirmed"
    final = _match(flight, "M2-1")
    winner = match.entry_a_id if chosen["winner"] == "a" else match.entry_b_id
    assert final.entry_a_id == winner
    told = Notification.objects.filter(kind="dispute_resolved")
    assert told.count() == 2 and "Scoresheet checked" in told.first().body


def test_the_director_types_the_score(disputed, director):
    _flight, match = disputed
    done = match_dispute_resolve(
        match_id=match.pk, by=director, score_a=5, score_b=3, reason="Both wrong"
    )
    assert (done.winner, done.score_a, done.score_b) == ("a", 5, 3)
    audit = ResultCorrection.objects.get(match=match, kind="dispute")
    assert audit.new["score_b"] == 3 and audit.old["report_b"]["score_a"] == 1
    # Then it is a result that stands: a director corrects it like any other.
    with pytest.raises(Conflict) as again:
        match_dispute_resolve(match_id=match.pk, by=director, choice="a", reason="x")
    assert again.value.code == "not_disputed"


def test_the_director_types_the_games(disputed, director):
    _flight, match = disputed
    done = match_dispute_resolve(
        match_id=match.pk, by=director, games=sheet(2, 5), reason="From the scoresheet"
    )
    assert (done.winner, done.score_a, done.score_b) == ("b", 1, 5) and len(done.games) == 6


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"choice": "a", "reason": "  "}, "reason_required"),
        ({"choice": "c", "reason": "x"}, "invalid_choice"),
        ({"choice": "a", "score_a": 5, "score_b": 0, "reason": "x"}, "choice_and_score"),
        ({"reason": "x"}, "score_required"),
        ({"score_a": 5, "score_b": 5, "reason": "x"}, "both_reached"),
        ({"score_a": 4, "score_b": 2, "reason": "x"}, "no_winner"),
    ],
)
def test_bad_resolutions_are_refused_and_change_nothing(disputed, director, kwargs, code):
    flight, match = disputed
    before = _snapshot(flight)
    with pytest.raises(ValidationFailed) as refused:
        match_dispute_resolve(match_id=match.pk, by=director, **kwargs)
    assert refused.value.code == code
    assert _snapshot(flight) == before


def test_only_directors_resolve(disputed, director):
    flight, match = disputed
    before = _snapshot(flight)
    for user in (
        match.entry_a.player.user,
        match.entry_b.player.user,
        EventFactory().directors.get(),
    ):
        with pytest.raises(PermissionDenied) as refused:
            match_dispute_resolve(match_id=match.pk, by=user, choice="a", reason="mine")
        assert refused.value.code == "not_a_director"
    assert _snapshot(flight) == before


def test_a_stale_version_is_refused(disputed, director):
    flight, match = disputed
    before = _snapshot(flight)
    with pytest.raises(Conflict) as stale:
        match_dispute_resolve(
            match_id=match.pk,
            by=director,
            choice="a",
            reason="x",
            expected_version=match.version - 1,
        )
    assert stale.value.code == "stale_version"
    assert _snapshot(flight) == before


def test_a_match_that_is_not_disputed_is_refused(drawn, director):
    flight, _ = drawn
    match = _match(flight, "M1-2")
    result_report(match_id=match.pk, by=match.entry_a.player.user, score_a=5, score_b=3)
    with pytest.raises(Conflict) as refused:
        match_dispute_resolve(match_id=match.pk, by=director, choice="a", reason="x")
    assert refused.value.code == "not_disputed"


def test_nobody_confirms_a_disputed_match_and_a_plain_result_is_refused(disputed, director):
    flight, match = disputed
    before = _snapshot(flight)
    for user in (match.entry_a.player.user, match.entry_b.player.user, director):
        with pytest.raises(Conflict) as refused:
            result_confirm(match_id=match.pk, by=user)
        assert refused.value.code == "match_disputed"
    with pytest.raises(Conflict) as plain:
        result_enter(match_id=match.pk, by=director, score_a=5, score_b=0)
    assert plain.value.code == "match_disputed"
    assert _snapshot(flight) == before


@pytest.mark.django_db(transaction=True)
def test_two_directors_resolving_at_once_decide_it_once():
    """Two directors decide the same dispute at the same time: the flight's lock makes
    one wait; it then finds the dispute decided (409 not_disputed). One audit row."""
    event = EventFactory()
    director = event.directors.get()
    second = EventFactory().directors.get()
    event.directors.add(second)
    players = rated_players(2, with_login=True)
    flight = flight_with(event, players, match_length=5)
    flight_draw(flight_id=flight.pk, by=director)
    match = _match(flight, "M1-1")
    result_report(match_id=match.pk, by=match.entry_a.player.user, score_a=5, score_b=2)
    result_report(match_id=match.pk, by=match.entry_b.player.user, score_a=2, score_b=5)
    outcomes: list[str] = []
    start = threading.Barrier(2)

    def decide(user, choice):
        try:
            start.wait()
            match_dispute_resolve(match_id=match.pk, by=user, choice=choice, reason="race")
            outcomes.append("done")
        except Conflict as exc:
            outcomes.append(exc.code)
        finally:
            close_old_connections()

    threads = [
        threading.Thread(target=decide, args=(director, "a")),
        threading.Thread(target=decide, args=(second, "b")),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["done", "not_disputed"]
    assert ResultCorrection.objects.filter(match=match, kind="dispute").count() == 1


# ====================================================================== the pages
def test_the_pages_flag_the_dispute_and_the_director_decides_it(client, disputed, director):
    flight, match = disputed
    client.cookies["django_language"] = "en"
    event = flight.event
    client.force_login(director)
    flag = f'data-dispute="{match.pk}"'
    manage = reverse("tournaments:match-manage", kwargs={"slug": event.slug, "match_id": match.pk})
    for name, kwargs in (
        ("flight-manage", {"flight_id": flight.pk}),
        ("desk", {}),
        ("event-manage", {}),
    ):
        page = client.get(reverse(f"tournaments:{name}", kwargs={"slug": event.slug, **kwargs}))
        text = page.content.decode()
        assert flag in text and "Disputed" in text and f'href="{manage}"' in text, name
    page = client.get(manage).content.decode()
    a, b = match.entry_a.player.name, match.entry_b.player.name
    assert f"Accept {a}'s report" in page and f"Accept {b}'s report" in page
    assert "Confirm the report" not in page and "Enter the result</button>" not in page
    url = reverse("tournaments:match-dispute", kwargs={"slug": event.slug, "match_id": match.pk})
    # Refused (no reason): the page again, the choice not taken.
    refused = client.post(url, {"choice": "b", "version": match.version})
    assert refused.status_code == 400 and "Say why" in refused.content.decode()
    # Refused (a report chosen and a score typed): the reason kept as typed.
    refused = client.post(
        url, {"choice": "b", "score_a": "5", "score_b": "0", "reason": "Sheet seen"}
    )
    assert refused.status_code == 400 and "Sheet seen</textarea>" in refused.content.decode()
    done = client.post(
        url, {"choice": "b", "reason": "Sheet seen", "version": match.version}, follow=True
    )
    text = done.content.decode()
    assert "The dispute is decided" in text
    assert f"{a} reported 5{DASH}1, {b} reported 1{DASH}5" in text  # the audit list
    assert f"{b} won 5{DASH}1" in text and "Sheet seen" in text
    match.refresh_from_db()
    assert match.status == "confirmed" and match.winner == "b"
    desk = client.get(reverse("tournaments:desk", kwargs={"slug": event.slug}))
    assert flag not in desk.content.decode()


def test_the_player_reads_that_the_director_decides(client, disputed):
    flight, match = disputed
    client.cookies["django_language"] = "en"
    client.force_login(match.entry_a.player.user)
    url = reverse("tournaments:flight", kwargs={"slug": flight.event.slug, "flight_id": flight.pk})
    text = client.get(url).content.decode()
    name = match.entry_b.player.name
    assert f"You reported 5{DASH}1, {name} reported 1{DASH}5" in text
    assert "the director decides the result" in text and "Report the result" not in text
    assert (
        'action="'
        + reverse(
            "tournaments:match-confirm", kwargs={"slug": flight.event.slug, "match_id": match.pk}
        )
        not in text
    )


# ====================================================================== the API
def test_the_api_stores_the_dispute_and_a_director_decides_it(drawn, director):
    flight, _ = drawn
    match = _match(flight, "M1-2")
    a = api_client(match.entry_a.player.user)
    b = api_client(match.entry_b.player.user)
    report = f"/api/v1/tournament-matches/{match.pk}/report/"
    assert a.post(report, {"score_a": 5, "score_b": 2}, format="json").status_code == 200
    second = b.post(report, {"score_a": 2, "score_b": 5}, format="json")
    assert second.status_code == 200
    body = second.json()
    assert body["status"] == "disputed"
    assert (body["report_a"]["score_a"], body["report_b"]["score_a"]) == (5, 2)
    confirm = a.post(f"/api/v1/tournament-matches/{match.pk}/confirm/", {}, format="json")
    assert confirm.status_code == 409 and confirm.json()["code"] == "match_disputed"
    url = f"/api/v1/tournament-matches/{match.pk}/dispute/"
    player = a.post(url, {"choice": "a", "reason": "mine"}, format="json")
    assert player.status_code == 403 and player.json()["code"] == "not_a_director"
    boss = api_client(director)
    bad = boss.post(url, {"choice": "a"}, format="json")
    assert bad.status_code == 400
    stale = boss.post(
        url, {"choice": "a", "reason": "x", "expected_version": body["version"] - 1}, format="json"
    )
    assert stale.status_code == 409 and stale.json()["code"] == "stale_version"
    done = boss.post(
        url,
        {
            "score_a": 5,
            "score_b": 4,
            "reason": "Watched the end",
            "expected_version": body["version"],
        },
        format="json",
    )
    assert done.status_code == 200, done.content
    result = done.json()
    assert result["status"] == "confirmed" and (result["score_a"], result["score_b"]) == (5, 4)
    assert result["has_result"] is True
    again = boss.post(url, {"choice": "a", "reason": "x"}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "not_disputed"
    audit = ResultCorrection.objects.get(match=match)
    assert audit.kind == "dispute" and audit.reason == "Watched the end"

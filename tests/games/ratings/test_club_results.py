"""Club match results typed in (issue 8): the services (who may, the rules with their
codes, nothing written by a refusal), the ratings they move (the FIBS formula, and a
ledger a full replay agrees with after every record, correction and void), the API's
authorization matrix and codes, and the page with its preview that writes nothing.

Time is injected through ``games.wallclock.now`` (the ``wall`` fixture: ``tests.wall.T0``)."""

from __future__ import annotations

import datetime
import re
from decimal import Decimal

import pytest
from django.contrib.auth.models import AnonymousUser, Permission
from django.test import override_settings
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.engine import rating as formula
from games.errors import Conflict, NotFound, PermissionDenied, ValidationFailed
from games.models import ClubResult, Player, RatedResult
from games.ratings import club_results
from games.ratings import services as ratings
from tests.factories import PlayerFactory, UserFactory
from tests.wall import T0

pytestmark = pytest.mark.django_db

HOUR = datetime.timedelta(hours=1)


# ====================================================================== fixtures
@pytest.fixture
def director():
    return UserFactory(username="director", is_staff=True)


@pytest.fixture
def typist():
    """Not staff, but holds the permission to add rated results."""
    user = UserFactory(username="typist")
    user.user_permissions.add(Permission.objects.get(codename="add_ratedresult"))
    return user


@pytest.fixture
def member():
    return UserFactory(username="member")


@pytest.fixture
def players():
    return PlayerFactory.create_batch(4)


def _record(by, p1, p2, *, length=7, winner=1, at=T0 - HOUR):
    return club_results.club_result_record(
        by=by,
        player1=p1,
        player2=p2,
        length=length,
        winner=p1 if winner == 1 else p2,
        played_at=at,
    )


def _state() -> tuple:
    """Everything a write could change: ledger rows, audits, players' ratings."""
    return (
        list(
            RatedResult.objects.order_by("id").values_list("id", "source_key", *ratings.CALC_FIELDS)
        ),
        list(ClubResult.objects.order_by("id").values()),
        list(Player.objects.order_by("pk").values_list("pk", "rating", "experience", "is_active")),
    )


def _consistent() -> bool:
    """A full replay finds nothing to write: the ledger and the players agree."""
    report = ratings.ratings_replay()
    return (report.rows_written, report.players_written) == (0, 0)


def _rating(player: Player) -> tuple[Decimal, int]:
    player.refresh_from_db()
    return player.rating, player.experience


# ====================================================================== services
def test_a_typed_in_result_moves_both_ratings_by_the_fibs_formula(wall, director, players):
    a, b = players[:2]
    row = _record(director, a, b, length=7, winner=2)
    expected = formula.rate(Decimal(1500), 0, Decimal(1500), 0, length=7, winner=2)
    assert (row.source, row.rated, row.at, row.length) == ("club", True, T0 - HOUR, 7)
    assert re.fullmatch(r"club:[0-9a-f]{32}", row.source_key)
    assert (row.change1, row.change2) == (expected.player1.change, expected.player2.change)
    assert _rating(a) == (Decimal("1473.54"), 7) == (expected.player1.rating_after, 7)
    assert _rating(b) == (Decimal("1526.46"), 7)
    audit = ClubResult.objects.get(source_key=row.source_key)
    assert (audit.entered_by, audit.entered_at) == (director, T0)
    assert (audit.player1, audit.player2, audit.winner, audit.length) == (a, b, b, 7)
    assert (audit.corrected_at, audit.voided_at) == (None, None)
    assert _consistent()


def test_the_permission_to_add_rated_results_is_enough(wall, typist, players):
    row = _record(typist, players[0], players[1])
    assert ClubResult.objects.get(source_key=row.source_key).entered_by == typist


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"at": T0 + datetime.timedelta(minutes=6)}, "played_in_future"),
        ({"at": T0.replace(tzinfo=None)}, "invalid_date"),  # no time zone
        ({"length": 0}, "invalid_length"),
        ({"length": 65}, "invalid_length"),
        ({"length": True}, "invalid_length"),
        ({"same": True}, "same_player"),
        ({"outsider_wins": True}, "invalid_winner"),
        ({"inactive": True}, "inactive_player"),
    ],
)
def test_each_refusal_has_its_code_and_changes_nothing(wall, director, players, change, code):
    a, b, c = players[:3]
    _record(director, a, c)  # something in the ledger already
    if change.pop("inactive", False):
        Player.objects.filter(pk=b.pk).update(is_active=False)
    before = _state()
    kwargs = {"length": 5, "at": T0 - HOUR, **change}
    p2 = a if kwargs.pop("same", False) else b
    winner = c if kwargs.pop("outsider_wins", False) else a
    with pytest.raises(ValidationFailed) as refused:
        club_results.club_result_record(
            by=director,
            player1=a,
            player2=p2,
            length=kwargs["length"],
            winner=winner,
            played_at=kwargs["at"],
        )
    assert refused.value.code == code
    assert _state() == before


def test_a_few_minutes_ahead_of_the_servers_clock_is_accepted(wall, director, players):
    row = _record(director, *players[:2], at=T0 + datetime.timedelta(minutes=4))
    assert row.at == T0 + datetime.timedelta(minutes=4)


@pytest.mark.parametrize("who", ["anonymous", "member"])
def test_only_directors_may_write_and_a_refusal_changes_nothing(
    wall, director, member, players, who
):
    user = AnonymousUser() if who == "anonymous" else member
    row = _record(director, *players[:2])
    before = _state()
    with pytest.raises(PermissionDenied) as refused:
        _record(user, *players[:2])
    assert refused.value.code == "cannot_enter_club_results"
    with pytest.raises(PermissionDenied):
        club_results.club_result_correct(by=user, result_id=row.pk, length=3)
    with pytest.raises(PermissionDenied):
        club_results.club_result_void(by=user, result_id=row.pk)
    assert _state() == before


def test_a_result_dated_before_later_ones_is_replayed_into_place(wall, director, players):
    a, b, c = players[:3]
    _record(director, a, b, winner=1, at=T0 - 3 * HOUR)
    _record(director, b, c, winner=1, at=T0 - HOUR)
    _record(director, a, c, length=11, winner=2, at=T0 - 2 * HOUR)  # typed in last
    assert _consistent()
    order = list(RatedResult.objects.order_by("at", "id").values_list("length", flat=True))
    assert order == [7, 11, 7]


def test_a_correction_replays_and_the_ledger_stays_consistent(wall, director, typist, players):
    a, b, c, d = players
    first = _record(director, a, b, winner=1, at=T0 - 3 * HOUR)
    _record(director, b, c, winner=1, at=T0 - 2 * HOUR)
    _record(director, a, c, winner=2, at=T0 - HOUR)
    wall.advance(minutes=30)
    fixed = club_results.club_result_correct(by=typist, result_id=first.pk, winner=b, length=5)
    assert (fixed.pk, fixed.winner_id, fixed.length) == (first.pk, b.pk, 5)
    expected = formula.rate(Decimal(1500), 0, Decimal(1500), 0, length=5, winner=2)
    assert fixed.change2 == expected.player2.change
    assert _consistent()
    audit = ClubResult.objects.get(source_key=first.source_key)
    assert (audit.winner, audit.length, audit.entered_by) == (b, 5, director)
    assert (audit.corrected_by, audit.corrected_at) == (typist, T0 + datetime.timedelta(minutes=30))
    # New players and a new date; the winner is given again with them.
    moved = club_results.club_result_correct(
        by=director,
        result_id=first.pk,
        player2=d,
        winner=d,
        played_at=T0 - datetime.timedelta(minutes=30),
    )
    assert (moved.player1_id, moved.player2_id, moved.winner_id) == (a.pk, d.pk, d.pk)
    assert RatedResult.objects.order_by("at", "id").last().pk == first.pk
    assert _consistent()
    assert _rating(b)[1] == 7  # the match with b is gone from b's experience


def test_a_correction_that_changes_nothing_leaves_the_audit(wall, director, players):
    row = _record(director, *players[:2])
    before = _state()
    same = club_results.club_result_correct(
        by=director, result_id=row.pk, length=7, winner=players[0], played_at=T0 - HOUR
    )
    assert same.pk == row.pk
    assert _state() == before


def test_a_correction_is_checked_like_a_record_and_refusals_change_nothing(wall, director, players):
    a, b, c, _d = players
    row = _record(director, a, b)
    before = _state()
    for kwargs, code in [
        ({"length": 100}, "invalid_length"),
        ({"played_at": T0 + HOUR}, "played_in_future"),
        ({"player2": a}, "same_player"),
        ({"player1": c}, "invalid_winner"),  # the winner a no longer plays
        ({"winner": c}, "invalid_winner"),
    ]:
        with pytest.raises(ValidationFailed) as refused:
            club_results.club_result_correct(by=director, result_id=row.pk, **kwargs)
        assert refused.value.code == code, kwargs
    Player.objects.filter(pk=c.pk).update(is_active=False)
    with pytest.raises(ValidationFailed) as refused:
        club_results.club_result_correct(by=director, result_id=row.pk, player2=c, winner=c)
    assert refused.value.code == "inactive_player"
    Player.objects.filter(pk=c.pk).update(is_active=True)
    assert _state() == before
    # A member who left since can still have their old result corrected.
    Player.objects.filter(pk=b.pk).update(is_active=False)
    assert club_results.club_result_correct(by=director, result_id=row.pk, length=3).length == 3


def test_a_void_replays_without_the_result_and_keeps_its_audit(wall, director, typist, players):
    a, b, c = players[:3]
    _record(director, a, b, winner=1, at=T0 - 3 * HOUR)
    middle = _record(director, a, c, winner=2, length=9, at=T0 - 2 * HOUR)
    _record(director, b, c, winner=1, at=T0 - HOUR)
    wall.advance(hours=1)
    audit = club_results.club_result_void(by=typist, result_id=middle.pk)
    assert not RatedResult.objects.filter(pk=middle.pk).exists()
    assert _consistent()
    assert _rating(a)[1] == 7 and _rating(c)[1] == 7
    audit.refresh_from_db()
    assert (audit.voided_by, audit.voided_at) == (typist, T0 + HOUR)
    assert (audit.player1, audit.player2, audit.winner, audit.length) == (a, c, c, 9)
    before = _state()
    with pytest.raises(NotFound) as again:
        club_results.club_result_void(by=director, result_id=middle.pk)
    assert again.value.code == "result_not_found"
    assert _state() == before


def test_other_sources_are_not_changed_here(wall, director, players):
    a, b = players[:2]
    tournament = ratings.rating_record(
        source=RatedResult.Source.TOURNAMENT,
        source_key="tmatch:1",
        player1=a,
        player2=b,
        length=5,
        winner=a,
        at=T0 - HOUR,
    )
    before = _state()
    with pytest.raises(Conflict) as refused:
        club_results.club_result_correct(by=director, result_id=tournament.pk, length=3)
    assert refused.value.code == "not_a_club_result"
    with pytest.raises(Conflict):
        club_results.club_result_void(by=director, result_id=tournament.pk)
    with pytest.raises(NotFound) as missing:
        club_results.club_result_correct(by=director, result_id=tournament.pk + 99, length=3)
    assert missing.value.code == "result_not_found"
    assert _state() == before


def test_a_club_row_recorded_elsewhere_gets_its_audit_when_corrected(wall, director, players):
    a, b = players[:2]
    row = ratings.rating_record(
        source=RatedResult.Source.CLUB,
        source_key="club:imported-1",
        player1=a,
        player2=b,
        length=3,
        winner=a,
        at=T0 - HOUR,
    )
    club_results.club_result_correct(by=director, result_id=row.pk, length=5)
    audit = ClubResult.objects.get(source_key="club:imported-1")
    assert (audit.entered_by, audit.length, audit.corrected_by) == (None, 5, director)
    assert _consistent()


@override_settings(RATING_SOURCES={"online": True, "tournament": True, "club": False})
def test_when_club_results_are_not_rated_they_are_kept_without_numbers(wall, director, players):
    a, b = players[:2]
    row = _record(director, a, b)
    assert (row.rated, row.change1) == (False, None)
    assert _rating(a) == (Decimal("1500.00"), 0)
    assert (
        club_results.club_result_preview(player1=a, player2=b, length=7, played_at=T0).rated
        is False
    )


def test_the_preview_is_what_the_record_gives_at_that_date_and_writes_nothing(
    wall, director, players
):
    a, b, c = players[:3]
    _record(director, a, c, length=5, winner=1, at=T0 - 3 * HOUR)
    _record(director, a, b, length=3, winner=2, at=T0 - HOUR)  # later than the preview's date
    before = _state()
    at = T0 - 2 * HOUR
    found = club_results.club_result_preview(player1=a, player2=b, length=9, played_at=at)
    assert _state() == before
    first = RatedResult.objects.order_by("at").first()
    assert (found.rating1, found.experience1) == (first.rating1_after, 5)
    assert (found.rating2, found.experience2) == (Decimal("1500.00"), 0)
    assert found.outcomes == formula.preview(first.rating1_after, 5, Decimal(1500), 0, 9)
    row = _record(director, a, b, length=9, winner=2, at=at)
    assert (row.change1, row.change2) == (-found.outcomes.player1_loss, found.outcomes.player2_gain)
    assert _consistent()
    with pytest.raises(ValidationFailed) as refused:
        club_results.club_result_preview(player1=a, player2=a, length=9, played_at=at)
    assert refused.value.code == "same_player"


# ====================================================================== API
def _api(user=None) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_ACCEPT_LANGUAGE="en")
    if user is not None:
        token, _ = Token.objects.get_or_create(user=user)
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}", HTTP_ACCEPT_LANGUAGE="en")
    return client


def _body(p1, p2, *, winner=None, length=7, at=T0 - HOUR):
    return {
        "player1": p1.pk,
        "player2": p2.pk,
        "length": length,
        "winner": (winner or p1).pk,
        "played_at": at.isoformat(),
    }


URL = "/api/v1/club-results/"


def test_api_authorization_matrix(wall, director, typist, member, players):
    a, b = players[:2]
    row = _record(director, a, b)
    detail = f"{URL}{row.pk}/"
    calls = [
        ("get", URL, None),
        ("post", URL, _body(a, b)),
        ("get", detail, None),
        ("patch", detail, {"length": 3}),
        ("delete", detail, None),
    ]
    before = _state()
    for method, url, body in calls:
        anonymous = getattr(_api(), method)(url, body, format="json")
        assert anonymous.status_code == 401, (method, url)
        refused = getattr(_api(member), method)(url, body, format="json")
        assert (refused.status_code, refused.json()["code"]) == (
            403,
            "cannot_enter_club_results",
        ), (method, url)
    assert _state() == before
    for user in (director, typist):
        created = _api(user).post(URL, _body(a, b, winner=b), format="json")
        assert created.status_code == 201, created.json()
        assert created.json()["entered_by"] == user.username
    assert _api(typist).patch(detail, {"length": 3}, format="json").status_code == 200
    assert _api(typist).delete(detail).status_code == 204


def test_api_creates_and_shows_the_rating_change(wall, director, players):
    a, b = players[:2]
    created = _api(director).post(URL, _body(a, b, winner=b, length=7), format="json")
    assert created.status_code == 201
    body = created.json()
    assert body["player1"] == {"id": a.pk, "name": a.name}
    assert (body["winner"], body["length"], body["rated"]) == (b.pk, 7, True)
    assert (body["change1"], body["change2"]) == ("-26.46", "26.46")
    assert (body["rating1_before"], body["rating2_after"]) == ("1500.00", "1526.46")
    assert datetime.datetime.fromisoformat(body["played_at"]) == T0 - HOUR
    assert datetime.datetime.fromisoformat(body["entered_at"]) == T0
    assert body["source_key"].startswith("club:")
    assert body["corrected_by"] is None
    assert _api(director).get(f"{URL}{body['id']}/").json() == body


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"length": 0}, "invalid_length"),
        ({"length": 65}, "invalid_length"),
        ({"played_at": (T0 + HOUR).isoformat()}, "played_in_future"),
        ({"player2": "same"}, "same_player"),
        ({"winner": "outsider"}, "invalid_winner"),
        ({"player2": "inactive"}, "inactive_player"),
        ({"player1": 999_999}, "invalid"),
        ({"length": "seven"}, "invalid"),
        ({"played_at": None}, "invalid"),
    ],
)
def test_api_refusals_have_codes_and_change_nothing(wall, director, players, change, code):
    a, b, c, d = players
    Player.objects.filter(pk=d.pk).update(is_active=False)
    body = _body(a, b)
    names = {"same": a.pk, "outsider": c.pk, "inactive": d.pk}
    body.update({k: names.get(v, v) if isinstance(v, str) else v for k, v in change.items()})
    if body["played_at"] is None:
        del body["played_at"]
    before = _state()
    refused = _api(director).post(URL, body, format="json")
    assert (refused.status_code, refused.json()["code"]) == (400, code), refused.json()
    assert refused.json()["detail"]
    assert _state() == before


def test_api_corrects_and_voids_club_results_only(wall, director, players):
    a, b, c = players[:3]
    row = _record(director, a, b, winner=1)
    other = ratings.rating_record(
        source=RatedResult.Source.ONLINE,
        source_key="match:1",
        player1=a,
        player2=c,
        length=3,
        winner=c,
        at=T0 - 2 * HOUR,
    )
    client = _api(director)
    before = _state()
    for method, body in (("patch", {"length": 3}), ("delete", None)):
        conflict = getattr(client, method)(f"{URL}{other.pk}/", body, format="json")
        assert (conflict.status_code, conflict.json()["code"]) == (409, "not_a_club_result")
        missing = getattr(client, method)(f"{URL}{row.pk + 99}/", body, format="json")
        assert (missing.status_code, missing.json()["code"]) == (404, "result_not_found")
    bad = client.patch(f"{URL}{row.pk}/", {"winner": c.pk}, format="json")
    assert (bad.status_code, bad.json()["code"]) == (400, "invalid_winner")
    assert _state() == before
    fixed = client.patch(f"{URL}{row.pk}/", {"winner": b.pk, "length": 5}, format="json")
    assert fixed.status_code == 200
    assert (fixed.json()["winner"], fixed.json()["length"]) == (b.pk, 5)
    assert fixed.json()["corrected_by"] == director.username
    assert _consistent()
    assert client.delete(f"{URL}{row.pk}/").status_code == 204
    assert _consistent()
    assert client.delete(f"{URL}{row.pk}/").json()["code"] == "result_not_found"
    assert client.get(f"{URL}{other.pk}/").json()["code"] == "result_not_found"


def test_api_lists_newest_played_first_a_page_at_a_time(wall, director, players):
    a, b, c = players[:3]
    old = _record(director, a, b, at=T0 - 3 * HOUR)
    new = _record(director, b, c, at=T0 - HOUR)
    middle = _record(director, a, c, at=T0 - 2 * HOUR)
    ratings.rating_record(
        source=RatedResult.Source.TOURNAMENT,
        source_key="tmatch:9",
        player1=a,
        player2=b,
        length=5,
        winner=a,
        at=T0,
    )
    listed = _api(director).get(URL).json()
    assert listed["count"] == 3
    assert [r["id"] for r in listed["results"]] == [new.pk, middle.pk, old.pk]
    assert listed["results"][0]["entered_by"] == director.username
    paged = _api(director).get(URL, {"limit": 1, "offset": 1}).json()
    assert ([r["id"] for r in paged["results"]], paged["count"]) == ([middle.pk], 3)
    assert paged["next"] and paged["previous"]


# ====================================================================== page
PAGE = "/ratings/club-results/"


def _form(p1, p2, *, action, winner="1", length=7, at="2026-11-29T19:30"):
    return {
        "player1": p1.pk,
        "player2": p2.pk,
        "length": length,
        "winner": winner,
        "played_at": at,
        "action": action,
    }


def test_the_page_is_for_directors(client, wall, member, typist, director):
    response = client.get(PAGE)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.force_login(member)
    assert client.get(PAGE).status_code == 403
    assert client.post(PAGE, {}).status_code == 403
    assert client.post(f"{PAGE}1/void/", {"confirm": "yes"}).status_code == 403
    for user in (typist, director):
        client.force_login(user)
        page = client.get(PAGE, HTTP_ACCEPT_LANGUAGE="en")
        assert page.status_code == 200
        html = page.content.decode()
        assert "Type in a club match" in html
        assert 'type="radio" name="winner" value="1"' in html
        assert 'type="datetime-local"' in html


def test_preview_shows_gains_and_losses_and_writes_nothing(client, wall, director, players):
    a, b = players[:2]
    _record(director, a, players[2], length=5, winner=1, at=T0 - 3 * HOUR)
    a.refresh_from_db()
    client.force_login(director)
    before = _state()
    # Europe/Budapest: 19:30 local is 18:30 UTC, after the result above.
    response = client.post(
        PAGE, _form(a, b, action="preview", winner=""), HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 200
    assert _state() == before
    expected = formula.preview(a.rating, a.experience, Decimal(1500), 0, 7)
    html = response.content.decode()
    assert 'id="preview"' in html
    assert f"+{expected.player1_gain} → {expected.if_player1_wins.player1.rating_after}" in html
    loss = f"\u2212{expected.player2_loss} → {expected.if_player1_wins.player2.rating_after}"
    assert loss in html
    assert "Nothing is saved yet" in html
    # The form keeps what was typed, ready to save.
    assert f'<option value="{b.pk}" selected>' in html


def test_save_records_the_result_and_refusals_show_on_the_form(client, wall, director, players):
    a, b = players[:2]
    client.force_login(director)
    before = _state()
    same = client.post(PAGE, _form(a, a, action="save"), HTTP_ACCEPT_LANGUAGE="en")
    assert same.status_code == 400
    assert 'role="alert"' in same.content.decode()
    future = client.post(PAGE, _form(a, b, action="save", at="2026-11-29T21:00"))
    assert future.status_code == 400
    no_winner = client.post(PAGE, _form(a, b, action="save", winner=""), HTTP_ACCEPT_LANGUAGE="en")
    assert no_winner.status_code == 400
    assert "Choose who won the match." in no_winner.content.decode()
    assert _state() == before
    saved = client.post(PAGE, _form(a, b, action="save", winner="2"), HTTP_ACCEPT_LANGUAGE="en")
    assert (saved.status_code, saved["Location"]) == (302, PAGE)
    row = RatedResult.objects.get()
    assert (row.player1_id, row.player2_id, row.winner_id, row.length) == (a.pk, b.pk, b.pk, 7)
    assert row.at == datetime.datetime(2026, 11, 29, 18, 30, tzinfo=datetime.UTC)
    assert ClubResult.objects.get().entered_by == director
    listed = client.get(PAGE, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "was saved" in listed
    assert f'data-result="{row.pk}"' in listed
    assert "+26.46" in listed and "-26.46" in listed


def test_void_asks_first_then_voids(client, wall, director, players):
    a, b = players[:2]
    row = _record(director, a, b)
    client.force_login(director)
    before = _state()
    asked = client.post(f"{PAGE}{row.pk}/void/", HTTP_ACCEPT_LANGUAGE="en")
    assert asked.status_code == 200
    assert "Void this result?" in asked.content.decode()
    assert 'name="confirm" value="yes"' in asked.content.decode()
    assert _state() == before
    assert client.get(f"{PAGE}{row.pk}/void/").status_code == 405
    done = client.post(f"{PAGE}{row.pk}/void/", {"confirm": "yes"})
    assert (done.status_code, done["Location"]) == (302, PAGE)
    assert not RatedResult.objects.exists()
    assert _rating(a) == (Decimal("1500.00"), 0)
    assert ClubResult.objects.get().voided_by == director
    again = client.post(
        f"{PAGE}{row.pk}/void/", {"confirm": "yes"}, follow=True, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert "There is no such result." in again.content.decode()


def test_the_list_costs_a_bounded_number_of_queries(
    client, wall, director, players, django_assert_max_num_queries
):
    for i in range(30):
        a, b = players[i % 4], players[(i + 1) % 4]
        _record(director, a, b, at=T0 - datetime.timedelta(minutes=300 - i))
    client.force_login(director)
    with django_assert_max_num_queries(10):
        response = client.get(PAGE)
    assert response.content.decode().count('class="club-result"') == 30

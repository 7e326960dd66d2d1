"""The tournament web pages (tournaments/pages/): who may see and post what, each
director form doing what its service says (and a refused post showing the service's
message and changing nothing), a player's own report, and the bracket page's query count
not growing with the field (8 vs 128 entrants, double elimination)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import Match, Player
from games.play import services as game_services
from games.play.dice import ScriptedDice
from tests.factories import PlayerFactory, UserFactory, UserPlayerFactory
from tests.tournaments.factories import (
    EventFactory,
    crawford_cube_sheet,
    flight_with,
    rated_players,
    sheet,
)
from tournaments.models import (
    Entry,
    Event,
    Flight,
    FlightRound,
    ResultCorrection,
    TournamentMatch,
)
from tournaments.services.draw import flight_draw
from tournaments.services.results import result_enter, result_report

pytestmark = pytest.mark.django_db

DASH = "\u2013"  # the pages write scores with an en dash


# ---------------------------------------------------------------------- helpers
@pytest.fixture
def en(client):
    """The test client, reading the pages in English."""
    client.cookies["django_language"] = "en"
    return client


def _url(name: str, **kwargs) -> str:
    return reverse(f"tournaments:{name}", kwargs=kwargs)


def _games(lines) -> dict[str, str]:
    """Game-by-game form fields from a sheet."""
    post = {}
    for n, g in enumerate(lines, start=1):
        post[f"game-{n}-winner"] = str(g["winner"])
        post[f"game-{n}-points"] = str(g["points"])
        post[f"game-{n}-cube"] = str(g["cube"])
    return post


def _play_ready(flight, director, *, limit: int | None = None) -> int:
    """Enter results for the ready matches (the better seed wins, length-0), again and
    again until none is ready (or ``limit`` results were entered)."""
    entered = 0
    while limit is None or entered < limit:
        ready = list(
            TournamentMatch.objects.filter(flight=flight, status="ready")
            .select_related("entry_a", "entry_b")
            .order_by("pk")
        )
        if not ready:
            break
        for m in ready:
            a_wins = m.entry_a.seed < m.entry_b.seed
            result_enter(
                match_id=m.pk,
                by=director,
                score_a=m.match_length if a_wins else 0,
                score_b=0 if a_wins else m.match_length,
            )
            entered += 1
            if limit is not None and entered >= limit:
                break
    return entered


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
    """A drawn 4-player single elimination (length 3) of ``event``: players with logins."""
    players = rated_players(4, with_login=True)
    flight = flight_with(event, players, match_length=3)
    flight_draw(flight_id=flight.pk, by=director)
    return flight, players


def _first(flight) -> TournamentMatch:
    return (
        TournamentMatch.objects.select_related("entry_a__player", "entry_b__player")
        .filter(flight=flight, status="ready")
        .order_by("pk")
        .first()
    )


# ---------------------------------------------------------------------- public pages
def test_public_pages_render_for_anyone(en, event, director):
    players = rated_players(6)
    flight = flight_with(event, players, format="consolation", match_length=1)
    flight_draw(flight_id=flight.pk, by=director)
    _play_ready(flight, director)
    flight.refresh_from_db()
    assert flight.status == "finished"

    listing = en.get(_url("event-list"))
    assert listing.status_code == 200
    assert event.name in listing.content.decode()
    page = en.get(_url("event", slug=event.slug)).content.decode()
    assert flight.name in page and "Run this event" not in page

    response = en.get(_url("flight", slug=event.slug, flight_id=flight.pk))
    assert response.status_code == 200
    html = response.content.decode()
    # Both parts drawn as SVG (role=group: their boxes are links), the champion shown,
    # the tables for people who do not see the drawing, the finishing order and its CSV.
    assert html.count('<svg xmlns="http://www.w3.org/2000/svg" class="bracket') == 2
    assert 'role="group"' in html and "Bracket: Main draw" in html
    assert "Bracket: Consolation" in html
    assert f'class="champion-name" font-weight="bold" fill="#1d1f23">{players[0].name}<' in html
    assert "Pairings and results by round" in html and 'id="round-main-1"' in html
    assert "Finishing order" in html and "Semi-final" in html
    assert "Report the result" not in html
    assert 'class="bracket-scroll"' in html

    csv = en.get(_url("flight-finishing-order-csv", slug=event.slug, flight_id=flight.pk))
    assert csv.status_code == 200
    assert csv["Content-Type"].startswith("text/csv")
    assert csv["Content-Disposition"].startswith("attachment;")
    lines = csv.content.decode().splitlines()
    assert lines[0] == "\ufeffPlace,Player id,Name,Club,Country,Part"
    assert lines[1] == f"1,{players[0].pk},{players[0].name},{players[0].club},HU,Main draw"

    wall = en.get(_url("flight", slug=event.slug, flight_id=flight.pk), {"wall": "1"})
    assert wall.status_code == 200
    text = wall.content.decode()
    assert '<body class="wall"' in text and "site-header" not in text
    assert "min-width" not in text  # the drawing fills the screen's width
    # No reload: the wall follows the flight live, and says so when the socket is down.
    assert 'http-equiv="refresh"' not in text
    assert f'data-live-topics="flight:{flight.pk}"' in text
    assert 'id="flight-wall" class="wall-display" data-live-region' in text
    assert 'id="live-status"' in text and 'src="/static/games/live.js"' in text

    # Another event's address does not show this flight.
    other = EventFactory()
    assert en.get(_url("flight", slug=other.slug, flight_id=flight.pk)).status_code == 404
    assert en.get(_url("event", slug="no-such-event")).status_code == 404


def test_swiss_standings_show_the_tiebreak_columns(en, event, director):
    players = rated_players(4)
    flight = flight_with(
        event,
        players,
        format="swiss",
        options={"rounds": 2, "tiebreaks": ["wins", "point_difference", "buchholz"]},
        match_length=1,
    )
    flight_draw(flight_id=flight.pk, by=director)
    _play_ready(flight, director)
    html = en.get(_url("flight", slug=event.slug, flight_id=flight.pk)).content.decode()
    assert "Standings" in html
    for column in ("Wins", "Losses", "Buchholz", "Point difference", "Head-to-head"):
        assert f">{column}</th>" in html
    assert "Tie-breaks, in order: Wins, Point difference, Buchholz" in html
    assert "<svg" not in html
    # Round 1 only so far: the director publishes round 2 from the flight's page.
    assert 'id="round-r-1"' in html and 'id="round-r-2"' not in html
    en.force_login(director)
    manage = en.get(_url("flight-manage", slug=event.slug, flight_id=flight.pk))
    assert "Pair and publish round 2" in manage.content.decode()
    done = en.post(
        _url("round-publish", slug=event.slug, flight_id=flight.pk), {"number": "2"}, follow=True
    )
    assert "Round 2 is published." in done.content.decode()
    assert TournamentMatch.objects.filter(flight=flight, round=2).count() == 2
    # Publishing round 2 again is refused with the service's words.
    again = en.post(
        _url("round-publish", slug=event.slug, flight_id=flight.pk), {"number": "2"}, follow=True
    )
    assert "The next round is round 3." in again.content.decode()


# ---------------------------------------------------------------------- who may do what
def _director_gets(event, flight, match):
    return [
        _url("event-manage", slug=event.slug),
        _url("flight-manage", slug=event.slug, flight_id=flight.pk),
        _url("match-manage", slug=event.slug, match_id=match.pk),
    ]


def _director_posts(event, flight, match, entry):
    return [
        _url("flight-create", slug=event.slug),
        _url("event-update", slug=event.slug),
        _url("event-add-director", slug=event.slug),
        _url("flight-round-set", slug=event.slug, flight_id=flight.pk),
        _url("entry-register", slug=event.slug, flight_id=flight.pk),
        _url("entry-withdraw", slug=event.slug, entry_id=entry.pk),
        _url("flight-draw", slug=event.slug, flight_id=flight.pk),
        _url("round-publish", slug=event.slug, flight_id=flight.pk),
        _url("match-enter", slug=event.slug, match_id=match.pk),
        _url("match-correct", slug=event.slug, match_id=match.pk),
        _url("match-table", slug=event.slug, match_id=match.pk),
    ]


def test_director_pages_only_for_the_events_directors(client, event, director, drawn):
    flight, players = drawn
    match = _first(flight)
    entry = match.entry_a
    gets = _director_gets(event, flight, match)
    posts = _director_posts(event, flight, match, entry)
    post_data = {
        "score_a": "3",
        "score_b": "0",
        "name": "Walk In",
        "table": "9",
        "number": "1",
        "starts_on": "2025-03-02",
    }
    before = _snapshot(flight)
    event_before = Event.objects.filter(pk=event.pk).values().get()

    for url in gets + posts:  # anonymous: to the login page
        response = client.get(url) if url in gets else client.post(url, post_data)
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("login")), url
    for user in (players[0].user, UserPlayerFactory().user, EventFactory().directors.get()):
        client.force_login(user)
        for url in gets + posts:
            response = client.get(url) if url in gets else client.post(url, post_data)
            assert response.status_code == 403, (user, url)
    assert _snapshot(flight) == before
    assert Event.objects.filter(pk=event.pk).values().get() == event_before
    assert Player.objects.filter(name="Walk In").count() == 0

    client.force_login(director)
    for url in gets:
        assert client.get(url).status_code == 200, url
    superuser = UserFactory(is_superuser=True, is_staff=True)
    client.force_login(superuser)
    assert client.get(gets[0]).status_code == 200


def test_creating_an_event_needs_the_permission(en, director):
    url = _url("event-create")
    assert en.get(url).status_code == 302
    en.force_login(UserFactory())
    assert en.get(url).status_code == 403
    assert en.post(url, {"name": "X", "starts_on": "2025-05-01"}).status_code == 403
    en.force_login(director)
    assert en.get(url).status_code == 200
    response = en.post(
        url, {"name": "Tavaszi Kupa", "starts_on": "2025-05-01", "location": "Pécs"}, follow=True
    )
    event = Event.objects.get(slug="tavaszi-kupa")
    assert response.redirect_chain[-1][0] == _url("event-manage", slug=event.slug)
    assert list(event.directors.all()) == [director]
    assert "The event was created." in response.content.decode()
    # The same address again: refused with the service's message, nothing created.
    again = en.post(url, {"name": "Tavaszi Kupa", "starts_on": "2025-05-02"})
    assert again.status_code == 400
    assert "Another event already uses this web address." in again.content.decode()
    assert Event.objects.filter(name="Tavaszi Kupa").count() == 1
    # The event list offers the link to those who may create events.
    assert url in en.get(_url("event-list")).content.decode()


# ---------------------------------------------------------------------- director posts
def test_creating_flights_with_format_options(en, event, director):
    en.force_login(director)
    url = _url("flight-create", slug=event.slug)
    base = {
        "seeding": "rating",
        "match_length": "7",
        "clock_preset": "usbgf",
        "clock_policy": "allowed",
        "entry_rounds": "2",
    }
    done = en.post(url, {**base, "name": "Open", "format": "consolation"}, follow=True)
    flight = Flight.objects.get(event=event, name="Open")
    assert done.redirect_chain[-1][0] == _url("flight-manage", slug=event.slug, flight_id=flight.pk)
    assert flight.options == {"entry_rounds": 2}
    assert (flight.match_length, flight.clock_preset, flight.clock_policy) == (
        7,
        "usbgf",
        "allowed",
    )
    en.post(url, {**base, "name": "Double", "format": "double_elimination", "bracket_reset": "on"})
    assert Flight.objects.get(name="Double").options == {"bracket_reset": True}
    en.post(url, {**base, "name": "Swiss", "format": "swiss", "rounds": "5"})
    assert Flight.objects.get(name="Swiss").options == {"rounds": 5}

    # Refused by the service (a Swiss flight needs its rounds): the message, no flight.
    refused = en.post(url, {**base, "name": "Bad", "format": "swiss"}, follow=True)
    assert "A Swiss flight needs its number of rounds" in refused.content.decode()
    # Refused by the form (no such format): the field's error, no flight.
    wrong = en.post(url, {**base, "name": "Bad", "format": "chess"}, follow=True)
    assert "Select a valid choice." in wrong.content.decode()
    clockless = en.post(
        url,
        {**base, "name": "Bad", "format": "swiss", "rounds": "3", "clock_preset": ""},
        follow=True,
    )
    assert "Choose a clock preset to allow or require clocks." in clockless.content.decode()
    assert not Flight.objects.filter(name="Bad").exists()


def test_round_settings(en, event, director):
    flight = flight_with(event, rated_players(4), format="single_elimination")
    en.force_login(director)
    url = _url("flight-round-set", slug=event.slug, flight_id=flight.pk)
    done = en.post(
        url,
        {
            "ranking": "main",
            "number": "2",
            "match_length": "9",
            "clock_preset": "seed002",
            "clock_policy": "required",
            "starts_at": "2025-03-01T14:30",
        },
        follow=True,
    )
    assert "The round&#x27;s settings were saved." in done.content.decode()
    row = FlightRound.objects.get(flight=flight, part="main", number=2)
    assert (row.match_length, row.clock_preset, row.clock_policy) == (9, "seed002", "required")
    assert row.starts_at is not None and row.starts_at.hour in (13, 14)
    # Empty fields keep the settings.
    en.post(url, {"ranking": "main", "number": "2", "match_length": "11", "clock_preset": "-"})
    row.refresh_from_db()
    assert (row.match_length, row.clock_preset, row.clock_policy) == (11, "seed002", "required")
    before = _snapshot(flight)
    refused = en.post(
        url,
        {"ranking": "main", "number": "2", "clock_preset": "", "clock_policy": ""},
        follow=True,
    )
    assert "Choose a clock preset to allow or require clocks." in refused.content.decode()
    assert _snapshot(flight) == before


def test_the_round_forms_post_part_and_still_take_ranking_its_former_name(en, event, director):
    flight = flight_with(event, rated_players(4), format="single_elimination")
    en.force_login(director)
    # The round settings are a grid of their own (issue 29), posting each row's part.
    manage = en.get(_url("flight-manage", slug=event.slug, flight_id=flight.pk)).content.decode()
    grid_url = _url("flight-rounds", slug=event.slug, flight_id=flight.pk)
    assert grid_url in manage and 'name="ranking"' not in manage
    grid = en.get(grid_url).content.decode()
    assert 'name="r-0-part" value="main"' in grid and "ranking" not in grid
    url = _url("flight-round-set", slug=event.slug, flight_id=flight.pk)
    en.post(url, {"part": "main", "number": "2", "match_length": "9", "clock_preset": "-"})
    assert FlightRound.objects.get(flight=flight, part="main", number=2).match_length == 9
    # Both given: the new name wins (a page of the old form cannot send both).
    en.post(
        url,
        {"part": "main", "ranking": "x", "number": "2", "match_length": "7", "clock_preset": "-"},
    )
    assert FlightRound.objects.get(flight=flight, part="main", number=2).match_length == 7

    draw_flight = flight_with(event, rated_players(4), name="Second")
    en.post(_url("flight-draw", slug=event.slug, flight_id=draw_flight.pk), {"confirm": "1"})
    publish = _url("round-publish", slug=event.slug, flight_id=draw_flight.pk)
    done = en.post(publish, {"part": "main", "number": "1"}, follow=True)
    assert "Round 1 is published." in done.content.decode()
    assert FlightRound.objects.get(flight=draw_flight, part="main", number=1).published_at
    published = en.get(_url("flight-manage", slug=event.slug, flight_id=draw_flight.pk))
    assert '<input type="hidden" name="part" value="main">' in published.content.decode()


def test_registering_players_search_walk_in_and_withdraw(en, event, director):
    flight = flight_with(event, [], format="single_elimination")
    anna = PlayerFactory(name="Kovács Anna", rating=Decimal("1800"))
    PlayerFactory(name="Kovács Béla")
    en.force_login(director)
    manage = _url("flight-manage", slug=event.slug, flight_id=flight.pk)
    found = en.get(manage, {"q": "kovács"}).content.decode()
    assert "Kovács Anna" in found and "Kovács Béla" in found

    url = _url("entry-register", slug=event.slug, flight_id=flight.pk)
    done = en.post(url, {"player": str(anna.pk), "next": f"{manage}?q=kov"}, follow=True)
    assert done.redirect_chain[-1][0] == f"{manage}?q=kov"
    assert "Kovács Anna is entered." in done.content.decode()
    # Entered players are not offered again.
    assert (
        "No player found who is not entered yet." in en.get(manage, {"q": "Anna"}).content.decode()
    )
    en.post(url, {"name": "Szabó Csilla"})
    assert Entry.objects.filter(flight=flight, player__name="Szabó Csilla").exists()

    before = _snapshot(flight)
    refused = en.post(url, {"name": "kovács béla"}, follow=True)
    assert "A player of this name exists already" in refused.content.decode()
    again = en.post(url, {"player": str(anna.pk)}, follow=True)
    assert "This player is already entered." in again.content.decode()
    assert _snapshot(flight) == before
    assert Player.objects.filter(name__iexact="kovács béla").count() == 1

    entry = Entry.objects.get(flight=flight, player=anna)
    withdraw = _url("entry-withdraw", slug=event.slug, entry_id=entry.pk)
    asked = en.post(withdraw)  # issue 29: asked first, nothing done yet
    assert asked.status_code == 200 and 'name="confirm" value="1"' in asked.content.decode()
    assert Entry.objects.get(pk=entry.pk).status == "active"
    done = en.post(withdraw, {"confirm": "1"}, follow=True)
    assert "Kovács Anna is withdrawn." in done.content.decode()
    entry.refresh_from_db()
    assert entry.status == "withdrawn"
    refused = en.post(withdraw, {"confirm": "1"}, follow=True)
    assert "This entry is already withdrawn." in refused.content.decode()


def test_draw_and_publish(en, event, director):
    flight = flight_with(event, rated_players(5), format="single_elimination")
    en.force_login(director)
    draw = _url("flight-draw", slug=event.slug, flight_id=flight.pk)
    asked = en.post(draw)  # issue 29: asked first, nothing done yet
    assert "Draw 5 players of" in asked.content.decode()
    assert Flight.objects.get(pk=flight.pk).status == "registration"
    done = en.post(draw, {"confirm": "1"}, follow=True)
    assert "The draw is made." in done.content.decode()
    flight.refresh_from_db()
    assert flight.status == "drawn" and flight.bracket["size"] == 8
    before = _snapshot(flight)
    again = en.post(draw, {"confirm": "1"}, follow=True)
    assert "This flight has been drawn already." in again.content.decode()
    assert _snapshot(flight) == before

    publish = _url("round-publish", slug=event.slug, flight_id=flight.pk)
    done = en.post(publish, {"ranking": "main", "number": "1"}, follow=True)
    assert "Round 1 is published." in done.content.decode()
    assert FlightRound.objects.get(flight=flight, part="main", number=1).published_at
    refused = en.post(publish, {"ranking": "main", "number": "9"}, follow=True)
    assert "This flight has no such round." in refused.content.decode()


def test_entering_results_score_games_and_refused_crawford_cube(en, event, director, drawn):
    flight, _players = drawn
    en.force_login(director)
    first, second = TournamentMatch.objects.filter(flight=flight, status="ready").order_by("pk")
    # The quick form on the flight page: the final score, back to the flight page.
    manage = _url("flight-manage", slug=event.slug, flight_id=flight.pk)
    url = _url("match-enter", slug=event.slug, match_id=first.pk)
    done = en.post(
        url, {"score_a": "3", "score_b": "1", "version": first.version, "next": manage}, follow=True
    )
    assert done.redirect_chain[-1][0] == manage
    first.refresh_from_db()
    assert (first.status, first.winner, first.score_a, first.score_b) == ("confirmed", "a", 3, 1)

    # Game by game on the match page; a cube in the Crawford game is refused by name.
    url = _url("match-enter", slug=event.slug, match_id=second.pk)
    before = _snapshot(flight)
    refused = en.post(
        url, {"version": second.version, **_games(crawford_cube_sheet(2, 3))}, follow=True
    )
    assert "Game 3 is the Crawford game: no doubling in it." in refused.content.decode()
    assert _snapshot(flight) == before
    done = en.post(url, {"version": second.version, **_games(sheet(2, 3))}, follow=True)
    assert "The result was entered." in done.content.decode()
    second.refresh_from_db()
    assert (second.winner, second.score_a, second.score_b) == ("b", 1, 3)
    assert len(second.games) == 4
    # The final is ready now; a stale version is refused.
    final = TournamentMatch.objects.get(flight=flight, status="ready")
    stale = en.post(
        _url("match-enter", slug=event.slug, match_id=final.pk),
        {"walkover": "a", "version": final.version + 5},
        follow=True,
    )
    assert "The match has changed since you looked" in stale.content.decode()
    en.post(
        _url("match-enter", slug=event.slug, match_id=final.pk),
        {"walkover": "a", "version": final.version},
    )
    final.refresh_from_db()
    assert final.status == "walkover" and final.winner == "a"
    bad = en.post(
        _url("match-enter", slug=event.slug, match_id=final.pk),
        {"score_a": "x"},
        follow=True,
    )
    assert "Scores, points and cubes are whole numbers." in bad.content.decode()


def test_confirming_and_correcting_with_the_audit_list(en, event, director, drawn):
    flight, _players = drawn
    first, second = TournamentMatch.objects.filter(flight=flight, status="ready").order_by("pk")
    reporter = first.entry_a.player.user
    result_report(match_id=first.pk, by=reporter, score_a=3, score_b=0)
    en.force_login(director)
    page = en.get(_url("match-manage", slug=event.slug, match_id=first.pk)).content.decode()
    assert "Confirm the report" in page
    assert f"{first.entry_a.player.name} reported 3{DASH}0." in page
    first.refresh_from_db()
    done = en.post(
        _url("match-confirm", slug=event.slug, match_id=first.pk),
        {"version": first.version},
        follow=True,
    )
    assert "Result confirmed." in done.content.decode()
    first.refresh_from_db()
    assert first.status == "confirmed" and first.decided_by == director

    correct = _url("match-correct", slug=event.slug, match_id=first.pk)
    before = _snapshot(flight)
    refused = en.post(correct, {"score_a": "3", "score_b": "2", "reason": " "}, follow=True)
    assert "Say why the result is corrected." in refused.content.decode()
    assert _snapshot(flight) == before
    done = en.post(
        correct, {"score_a": "3", "score_b": "2", "reason": "Rosszul írták fel"}, follow=True
    )
    assert "The result was corrected." in done.content.decode()
    first.refresh_from_db()
    assert (first.score_a, first.score_b) == (3, 2)
    audit = ResultCorrection.objects.get(match=first)
    assert audit.by == director and audit.old["score_b"] == 0 and audit.new["score_b"] == 2
    page = en.get(_url("match-manage", slug=event.slug, match_id=first.pk)).content.decode()
    assert "Rosszul írták fel" in page and f"3{DASH}0" in page and f"3{DASH}2" in page

    # Changing the winner once the next match is played is refused (with its slot).
    result_enter(match_id=second.pk, by=director, score_a=3, score_b=0)
    final = TournamentMatch.objects.get(flight=flight, status="ready")
    result_enter(match_id=final.pk, by=director, score_a=3, score_b=0)
    refused = en.post(correct, {"score_a": "0", "score_b": "3", "reason": "oops"}, follow=True)
    assert "Later matches were already played" in refused.content.decode()
    assert final.slot_key in refused.content.decode()
    # With the box ticked, the final's result is reset (audited) and it is played again.
    done = en.post(
        correct,
        {"score_a": "0", "score_b": "3", "reason": "oops", "reset_later": "on"},
        follow=True,
    )
    assert "The result was corrected." in done.content.decode()
    final.refresh_from_db()
    assert final.decided_at is None and final.status == "ready"
    assert ResultCorrection.objects.filter(match=final).count() == 1


def test_setting_a_table_and_starting_online(en, event, director):
    players = rated_players(2, with_login=True)
    flight = flight_with(
        event, players, match_length=3, clock_preset="usbgf", clock_policy="required"
    )
    flight_draw(flight_id=flight.pk, by=director)
    match = TournamentMatch.objects.get(flight=flight, slot_key="M1-1")
    en.force_login(director)
    url = _url("match-table", slug=event.slug, match_id=match.pk)
    done = en.post(url, {"table": "7"}, follow=True)
    assert "The table was saved." in done.content.decode()
    match.refresh_from_db()
    assert match.table == 7
    refused = en.post(url, {"table": "1000"}, follow=True)
    assert "Tables are numbered 1 to 999." in refused.content.decode()
    match.refresh_from_db()
    assert match.table == 7

    started = en.post(_url("match-online", slug=event.slug, match_id=match.pk))
    match.refresh_from_db()
    assert match.online_match_id is not None
    assert started["Location"] == reverse("games:match", kwargs={"match_id": match.online_match_id})
    again = en.post(_url("match-online", slug=event.slug, match_id=match.pk), follow=True)
    assert "This match cannot be played now." in again.content.decode() or (
        "already being played online" in again.content.decode()
    )

    # The director's list of unfinished matches shows the running clock of the game.
    game_services.match_start(match_id=match.online_match_id, dice=ScriptedDice((3, 1)))
    page = en.get(_url("event-manage", slug=event.slug)).content.decode()
    assert 'class="clock-time"' in page and "to play" in page
    assert reverse("games:match", kwargs={"match_id": match.online_match_id}) in page
    assert Match.objects.get(pk=match.online_match_id).clock is not None


def test_adding_a_director(en, event, director):
    newcomer = UserFactory(username="zsofi")
    en.force_login(director)
    url = _url("event-add-director", slug=event.slug)
    done = en.post(url, {"username": "zsofi"}, follow=True)
    assert "zsofi directs this event too." in done.content.decode()
    assert newcomer in event.directors.all()
    refused = en.post(url, {"username": "nobody"}, follow=True)
    assert "There is no user of this name." in refused.content.decode()
    en.force_login(newcomer)
    assert en.get(_url("event-manage", slug=event.slug)).status_code == 200


# ---------------------------------------------------------------------- a player's report
def test_a_player_reports_and_the_opponent_confirms_through_the_flight_page(
    en, event, director, drawn
):
    flight, players = drawn
    match = _first(flight)
    me, opponent = match.entry_a.player, match.entry_b.player
    outsider = next(p for p in players if p not in (me, opponent))
    flight_url = _url("flight", slug=event.slug, flight_id=flight.pk)
    report = _url("match-report", slug=event.slug, match_id=match.pk)

    assert "Report the result" not in en.get(flight_url).content.decode()  # anonymous
    en.force_login(outsider.user)
    page = en.get(flight_url).content.decode()
    assert f'action="{report}"' not in page  # their own match, not this one
    before = _snapshot(flight)
    refused = en.post(report, {"score_a": "3", "score_b": "0"}, follow=True)
    assert "You can report only your own matches." in refused.content.decode()
    assert _snapshot(flight) == before

    en.force_login(me.user)
    page = en.get(flight_url).content.decode()
    assert f'action="{report}"' in page and "Report the result" in page
    assert "Confirm</button>" not in page
    done = en.post(report, {"version": match.version, **_games(sheet(1, 3))}, follow=True)
    assert done.redirect_chain[-1][0] == flight_url
    assert "your opponent is asked to confirm it" in done.content.decode()
    match.refresh_from_db()
    assert match.status == "reported" and match.report_a["score_a"] == 3
    assert f"You reported 3{DASH}1" in en.get(flight_url).content.decode()

    en.force_login(opponent.user)
    page = en.get(flight_url).content.decode()
    assert f"{me.name} reported 3{DASH}1." in page and "Confirm</button>" in page
    done = en.post(
        _url("match-confirm", slug=event.slug, match_id=match.pk),
        {"version": match.version},
        follow=True,
    )
    assert "Result confirmed." in done.content.decode()
    match.refresh_from_db()
    assert match.status == "confirmed" and match.winner == "a" and len(match.games) == 4


def test_different_reports_are_kept_and_the_director_decides(en, event, director, drawn):
    flight, _players = drawn
    match = _first(flight)
    result_report(match_id=match.pk, by=match.entry_a.player.user, score_a=3, score_b=0)
    en.force_login(match.entry_b.player.user)
    kept = en.post(
        _url("match-report", slug=event.slug, match_id=match.pk),
        {"score_a": "0", "score_b": "3"},
        follow=True,
    )
    text = kept.content.decode()
    name = match.entry_a.player.name
    assert f"Your report differs from {name}" in text and "the director decides" in text
    match.refresh_from_db()
    assert match.status == "disputed" and match.report_b["score_b"] == 3
    assert f"{name} reported 3{DASH}0" in text and "Report the result" not in text
    # Agreeing reports make the result stand.
    done = en.post(
        _url("match-report", slug=event.slug, match_id=match.pk),
        {"score_a": "3", "score_b": "0"},
        follow=True,
    )
    assert "Both reports agree: the result stands." in done.content.decode()


# ---------------------------------------------------------------------- query counts
def _double(event, director, n: int, name: str) -> Flight:
    flight = flight_with(
        event,
        rated_players(n),
        format="double_elimination",
        name=name,
        match_length=1,
        options={"bracket_reset": True},
    )
    flight_draw(flight_id=flight.pk, by=director)
    _play_ready(flight, director, limit=6)
    return flight


def _count(client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries)


def test_the_bracket_page_queries_do_not_grow_with_the_field(client, event, director):
    small = _double(event, director, 8, "Small")
    large = _double(event, director, 128, "Large")
    assert TournamentMatch.objects.filter(flight=large).count() > 250
    urls = [_url("flight", slug=event.slug, flight_id=f.pk) for f in (small, large)]
    anonymous = [_count(client, url) for url in urls]
    assert anonymous[0] == anonymous[1] <= 5
    walls = [_count(client, f"{url}?wall=1") for url in urls]
    assert walls[0] == walls[1] == anonymous[0]
    client.force_login(director)
    directing = [_count(client, url) for url in urls]
    assert directing[0] == directing[1]
    html = client.get(urls[1]).content.decode()
    assert html.count('class="bracket bracket-') == 3  # winners, losers, final
    assert html.count('<g class="slot ') == TournamentMatch.objects.filter(flight=large).count()

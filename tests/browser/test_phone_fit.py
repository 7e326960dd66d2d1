"""Issue 18: every page fits a phone. Each page of the site, opened at 390 by 844 in
Chrome's phone emulation (tests/browser/phone.py) as a visitor, a player, a director and a player
of a six-player chouette, on a club with a history: a Swiss flight with standings, a
knockout with results by round, a round robin, a flight open for registration, a
finished online match of several games, a match in play, club results, table clocks,
notifications, a chouette session of six. A page fails when the document is wider than
the screen (it would scroll sideways); the failure names the elements that stick out.

The list of pages is checked against the URL patterns (``django.urls.get_resolver()``):
a new page that no visit here covers fails ``test_every_page_is_visited``; what is not
a page (an export, an image, the API, the admin, a form's POST) is excluded by name with
its reason, and each POST-only one is checked to refuse a GET (405).

Issue 27: the same walk checks each page it loads with axe-core (tests/browser/axe.py,
WCAG 2.1 A and AA): a serious or critical violation fails it, named with its elements.
``AXE_REPORT=<file>`` appends every violation of any impact, and the seconds axe took.
"""

from __future__ import annotations

import datetime
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone

from tests.browser.axe import Violation, axe_violations
from tests.browser.conftest import PASSWORD, WAIT_SECONDS, csp_violations, sign_in
from tests.browser.phone import Fit, page_fit

pytestmark = pytest.mark.django_db(transaction=True)

# ----------------------------------------------------------------------------- the pages

ANONYMOUS, PLAYER, DIRECTOR, CHOUETTE = "anonymous", "player", "director", "chouette"
EVERYONE = (ANONYMOUS, PLAYER, DIRECTOR)
LOGGED_IN = (PLAYER, DIRECTOR)


@dataclass(frozen=True)
class Page:
    """A visit: the URL pattern's name, its arguments from the world, a query string,
    and who opens it."""

    name: str
    roles: tuple[str, ...]
    kwargs: Callable[[World], dict[str, Any]] = lambda w: {}
    query: str = ""
    label: str = ""
    path: str = ""  # instead of a name: a page no pattern names (an error page)
    status: int = 200
    # A CSS selector the page draws from script after it loads (the API docs' operations):
    # the walk measures and checks the page once it shows, not the empty frame before.
    ready: str = ""

    def url(self, world: World) -> str:
        if self.path:
            return self.path
        return reverse(self.name, kwargs=self.kwargs(world)) + self.query


def _event(w: World) -> dict[str, Any]:
    return {"slug": w.event.slug}


def _flight(which: str) -> Callable[[World], dict[str, Any]]:
    return lambda w: {"slug": w.event.slug, "flight_id": w.flights[which].pk}


def _tmatch(which: str) -> Callable[[World], dict[str, Any]]:
    return lambda w: {"slug": w.event.slug, "match_id": w.tmatches[which].pk}


PAGES: list[Page] = [
    Page("home", EVERYONE),
    Page("login", (ANONYMOUS,)),
    Page("password_reset", (ANONYMOUS,)),
    Page("password_reset_done", (ANONYMOUS,)),
    Page(
        "password_reset_confirm",
        (ANONYMOUS,),
        lambda w: {"uidb64": "MQ", "token": "a-stale-token"},
        label="a stale link",
    ),
    Page("password_reset_complete", (ANONYMOUS,)),
    Page("password_change", LOGGED_IN),
    Page("password_change_done", LOGGED_IN),
    Page("api-docs", (ANONYMOUS,), ready=".swagger-ui .opblock"),
    # sign-up (issue 30)
    Page("signup", (ANONYMOUS,)),
    Page("signup-sent", (ANONYMOUS,)),
    Page("signup-confirm", (ANONYMOUS,), lambda w: {"token": w.signup_token}, label="a link"),
    Page("signup-list", (DIRECTOR,), label="a claim waiting"),
    # games
    Page("games:lobby", EVERYONE),
    Page("games:match-import", LOGGED_IN),
    Page("games:match", EVERYONE, lambda w: {"match_id": w.finished_match.pk}, label="finished"),
    Page("games:match", LOGGED_IN, lambda w: {"match_id": w.live_match.pk}, label="in play"),
    Page(
        "games:game-replay",
        EVERYONE,
        lambda w: {"match_id": w.finished_match.pk, "number": 1},
        query="?move=last",
        label="a finished game",
    ),
    Page(
        "games:game-replay",
        (PLAYER,),
        lambda w: {"match_id": w.live_match.pk, "number": 1},
        query="?move=1",
        label="the game in play",
    ),
    Page("games:player", EVERYONE, lambda w: {"player_id": w.player.pk}),
    Page(
        "games:head-to-head",
        EVERYONE,
        lambda w: {"player_id": w.player.pk, "opponent_id": w.rival.pk},
    ),
    Page("games:leaderboard", EVERYONE),
    Page("club-results:list", (DIRECTOR,)),
    Page("notifications:list", LOGGED_IN),
    Page("notifications:settings", (PLAYER,)),
    Page("games:my-settings", (PLAYER, CHOUETTE)),
    Page("notifications:failures", (DIRECTOR,)),
    Page("tableclocks:list", EVERYONE),
    Page("tableclocks:create", LOGGED_IN),
    Page("tableclocks:detail", EVERYONE, lambda w: {"clock_id": w.clock.pk}),
    # tournaments: what anyone reads
    Page("tournaments:event-list", EVERYONE),
    Page("tournaments:event", EVERYONE, _event),
    Page("tournaments:flight", EVERYONE, _flight("swiss"), label="Swiss standings"),
    Page("tournaments:flight", EVERYONE, _flight("knockout"), label="knockout by round"),
    Page("tournaments:flight", EVERYONE, _flight("robin"), label="round robin"),
    Page("tournaments:flight", EVERYONE, _flight("open"), label="open for registration"),
    Page("tournaments:flight", EVERYONE, _flight("knockout"), "?wall=1", label="wall"),
    Page("tournaments:flight", EVERYONE, _flight("swiss"), "?wall=1", label="Swiss wall"),
    # Issue 29: the event wall, every running flight in turn.
    Page("tournaments:event-wall", EVERYONE, _event, label="event wall"),
    Page("tournaments:flight-payouts", EVERYONE, _flight("knockout")),
    Page("tournaments:check-in", (PLAYER,), _event),
    # tournaments: the director's
    Page("tournaments:event-create", (DIRECTOR,)),
    Page("tournaments:event-manage", (DIRECTOR,), _event),
    Page("tournaments:flight-manage", (DIRECTOR,), _flight("swiss"), label="Swiss"),
    Page("tournaments:flight-manage", (DIRECTOR,), _flight("knockout"), label="knockout"),
    Page("tournaments:flight-manage", (DIRECTOR,), _flight("open"), label="registration"),
    # issue 29: the seeds by hand of a flight not drawn yet
    Page("tournaments:flight-seeds", (DIRECTOR,), _flight("open")),
    Page("tournaments:match-manage", (DIRECTOR,), _tmatch("decided"), label="decided"),
    Page("tournaments:match-manage", (DIRECTOR,), _tmatch("ready"), label="to play"),
    Page("tournaments:match-mat", (DIRECTOR,), _tmatch("ready"), label=".mat upload"),
    Page("tournaments:desk", (DIRECTOR,), _event),
    Page("tournaments:night", (DIRECTOR,), _event),  # issue 29: the night on a phone
    Page("tournaments:flight-money", (DIRECTOR,), _flight("knockout")),
    # Issue 29: every round's settings in one grid; many players entered at once.
    Page("tournaments:flight-rounds", (DIRECTOR,), _flight("knockout"), label="round grid"),
    Page("tournaments:flight-rounds", (DIRECTOR,), _flight("swiss"), label="Swiss round grid"),
    Page("tournaments:entries-add", (DIRECTOR,), _flight("open"), label="add players"),
    Page("tournaments:flight-tiebreaks", (DIRECTOR,), _flight("robin")),
    # chouette: a player of the six at the table
    Page("chouette:session-list", (ANONYMOUS, CHOUETTE)),
    Page("chouette:session-create", (CHOUETTE,)),
    Page("chouette:scoreboard", (ANONYMOUS, CHOUETTE), lambda w: {"session_id": w.chouette.pk}),
    Page(
        "chouette:scoreboard",
        (CHOUETTE,),
        lambda w: {"session_id": w.chouette.pk},
        "?wall=1",
        label="big screen",
    ),
    Page("chouette:game-entry", (CHOUETTE,), lambda w: {"session_id": w.chouette.pk}),
    Page(
        "chouette:game-edit",
        (CHOUETTE,),
        lambda w: {"session_id": w.chouette.pk, "number": 1},
        label="a typed game corrected",
    ),
    Page("chouette:summary", (ANONYMOUS, CHOUETTE), lambda w: {"session_id": w.chouette.pk}),
    Page("chouette:player", (ANONYMOUS, CHOUETTE), lambda w: {"player_id": w.seated[0].pk}),
    # join from a phone (issue 19): typing the code, the QR code's page (a player of the
    # session is sent on to their total), a player's own running total
    Page("chouette:join", (ANONYMOUS, CHOUETTE)),
    Page(
        "chouette:join-code",
        (ANONYMOUS, PLAYER, CHOUETTE),
        lambda w: {"code": w.chouette.join_code},
    ),
    Page("chouette:me", (ANONYMOUS, CHOUETTE), lambda w: {"session_id": w.chouette.pk}),
    # played online (issue 19): a game in play, the box (the chouette player) to play 6-1
    Page("chouette:play", (ANONYMOUS, CHOUETTE), lambda w: {"session_id": w.chouette.pk}),
    # Django's error pages (templates/404.html, 403.html)
    Page("", EVERYONE, path="/no-such-page/", status=404, label="404"),
    Page("", (PLAYER,), path="/notifications/failed/", status=403, label="403"),
]

#: URL patterns that are not pages to lay out, by name (or name prefix: ``admin:``), and
#: why. A POST-only one is checked to answer a GET with 405.
NOT_PAGES: dict[str, str] = {
    "healthz": "JSON for the load balancer",
    "favicon": "no icon (an empty answer)",
    "set_language": "a POST that redirects (the header's language switch)",
    "api-token": "API",
    "api-password-reset": "API",
    "api-schema": "the OpenAPI schema (YAML)",
    "games:match-export": ".mat file",
    "games:game-board": "SVG image",
    "chouette:play-board": "SVG image",
    "tournaments:flight-finishing-order-csv": "CSV file",
    "tournaments:flight-draw-pdf": "PDF",
    "tournaments:flight-round-pdf": "PDF",
    "tournaments:flight-standings-pdf": "PDF",
}
NOT_PAGE_PREFIXES: dict[str, str] = {
    "admin:": "Django's admin (out of scope)",
    "games-api:": "API",
    "signup-api:": "API",
    "tournaments-api:": "API",
    "chouette-api:": "API",
}
#: Form posts: they redirect, or answer the page they came from (visited above) with
#: what was refused.
POST_ONLY: set[str] = {
    "logout",
    "signup-resend",
    "signup-approve",
    "signup-refuse",
    "club-results:void",
    "games:match-create",
    "games:match-arrange",
    "games:invitation-accept",
    "games:invitation-decline",
    "games:invitation-withdraw",
    "chouette:join-guest",
    "chouette:new-join-code",
    "chouette:reopen",
    "chouette:proxy",
    "chouette:split",
    "games:match-end",
    "games:match-rematch",
    "games:match-analyse",
    "games:game-act",
    "notifications:read",
    "notifications:read-all",
    "notifications:retry",
    "tableclocks:start",
    "tableclocks:tap",
    "tableclocks:pause",
    "tableclocks:resume",
    "tableclocks:finish",
    "tournaments:flight-register",
    "tournaments:registration-withdraw",
    "tournaments:match-report",
    "tournaments:match-confirm",
    "tournaments:match-online",
    "tournaments:event-update",
    "tournaments:flight-create",
    "tournaments:event-publish",
    "tournaments:event-finish",
    "tournaments:event-reopen",
    "tournaments:event-add-director",
    "tournaments:flight-round-set",
    "tournaments:entry-register",
    "tournaments:flight-draw",
    "tournaments:round-publish",
    "tournaments:entry-withdraw",
    "tournaments:desk-new-code",
    "tournaments:desk-check-in",
    "tournaments:desk-paid",
    "tournaments:desk-confirm",
    "tournaments:desk-refuse",
    "tournaments:desk-withdraw",
    "tournaments:flight-registration",
    "tournaments:flight-draw-checked-in",
    "tournaments:flight-undraw",
    "tournaments:entry-reinstate",
    "tournaments:match-enter",
    "tournaments:match-correct",
    "tournaments:match-dispute",
    "tournaments:match-table",
    "tournaments:match-lateness",
    "tournaments:flight-lateness",
    "tournaments:flight-play-ahead",  # issue 29
    "tournaments:side-pool-create",
    "tournaments:side-pool-act",
    "tournaments:side-pool-enter-many",
    "chouette:seat-change",
    "chouette:seating",
    "chouette:undo",
    "chouette:end",
    "chouette:play-start",
    "chouette:play-settings",
    "chouette:play-act",
    "chouette:play-team",
    "chouette:play-abandon",
}


def url_patterns() -> list[tuple[str, URLPattern]]:
    """Every named URL pattern of the site as ``(namespaced name, pattern)``; a nameless
    one as its route (nameless patterns outside the admin fail the coverage test)."""
    found: list[tuple[str, URLPattern]] = []

    def walk(resolver: URLResolver, prefix: str, namespace: str) -> None:
        for entry in resolver.url_patterns:
            if isinstance(entry, URLResolver):
                inner = namespace
                if entry.namespace:
                    inner = f"{namespace}{entry.namespace}:"
                walk(entry, prefix + str(entry.pattern), inner)
            elif entry.name:
                found.append((namespace + entry.name, entry))
            else:
                found.append((namespace + "<" + prefix + str(entry.pattern) + ">", entry))

    walk(get_resolver(), "", "")
    return found


def _excluded(name: str) -> bool:
    return name in NOT_PAGES or name in POST_ONLY or name.startswith(tuple(NOT_PAGE_PREFIXES))


def test_every_page_is_visited() -> None:
    names = {name for name, _ in url_patterns()}
    visited = {page.name for page in PAGES if page.name}
    missing = sorted(n for n in names if n not in visited and not _excluded(n))
    assert not missing, (
        f"pages no phone visit covers: {missing}. Add them to PAGES in {__file__} "
        "(with data that fills them), or to NOT_PAGES / POST_ONLY if they are no page."
    )
    stale = sorted((visited | set(NOT_PAGES) | POST_ONLY) - names)
    assert not stale, f"listed here but no URL pattern any more: {stale}"
    both = sorted(visited & (set(NOT_PAGES) | POST_ONLY))
    assert not both, f"both visited and excluded: {both}"


def test_the_post_only_patterns_refuse_a_get(client) -> None:
    """What POST_ONLY excludes is no page: a GET is refused, even by a superuser who
    directs the event ``x`` (the director's pages look the event up first)."""
    from django.contrib.auth import get_user_model

    from tests.tournaments.factories import EventFactory

    admin = get_user_model().objects.create_superuser("root", password=PASSWORD)
    EventFactory(slug="x", director=admin)
    client.force_login(admin)
    patterns = dict(url_patterns())
    answers = {}
    for name in sorted(POST_ONLY):
        pattern = patterns[name]
        kwargs = {
            key: "x" if key in ("slug", "uidb64", "token") else 999999
            for key in pattern.pattern.converters
        }
        answers[name] = client.get(reverse(name, kwargs=kwargs)).status_code
    assert {n: s for n, s in answers.items() if s != 405} == {}


# ----------------------------------------------------------------------------- the club

NAMES = [
    "Szentgyörgyi-Nagy Krisztina",
    "Kovács Anna",
    "Nagy Péter",
    "Szabó Eszter",
    "Tóth Gábor",
    "Horváth Zsófia",
    "Varga Bence",
    "Kiss Katalin",
    "Molnár Dávid",
    "Farkas Bálint",
    "Balogh Réka",
    "Papp Levente",
]


@dataclass
class World:
    director: Any
    player: Any  # a Player with a login, in every flight and the online matches
    rival: Any
    event: Any
    flights: dict[str, Any] = field(default_factory=dict)
    tmatches: dict[str, Any] = field(default_factory=dict)
    finished_match: Any = None
    live_match: Any = None
    clock: Any = None
    chouette: Any = None
    online_game: Any = None
    seated: list[Any] = field(default_factory=list)
    signup_token: str = ""


def _play_round(flight: Any, director: Any, number: int, *, games: bool = False) -> None:
    """Every open match of a round: the better seed wins (game by game when ``games``)."""
    from tests.tournaments.factories import sheet
    from tournaments.models import TournamentMatch
    from tournaments.services.results import result_enter

    rows = TournamentMatch.objects.filter(flight=flight, round=number, status="ready")
    for m in rows.select_related("entry_a", "entry_b").order_by("index"):
        a_wins = m.entry_a.seed < m.entry_b.seed
        if games:
            result_enter(
                match_id=m.pk, by=director, games=sheet(1 if a_wins else 2, m.match_length)
            )
        else:
            won, lost = m.match_length, max(0, m.match_length - 2)
            a, b = (won, lost) if a_wins else (lost, won)
            result_enter(match_id=m.pk, by=director, score_a=a, score_b=b)


def _online_match(one: Any, two: Any, length: int) -> Any:
    """A casual online match played to the end, each game resigned (gammons and singles)."""
    from games.engine.actions import state_from_dict
    from games.models import Match
    from games.play import services

    match = services.match_create(player1=one, player2=two, length=length)
    game = services.match_start(match_id=match.pk)
    kinds = ["gammon", "single", "single", "backgammon"]
    players = (one, two)
    for n in range(4 * length):  # who resigns is the dice's: it ends, in at most 2L-1 games
        kind = kinds[n % len(kinds)]
        mover = state_from_dict(game.state).player_to_act
        offered = services.resign_offer(
            game_id=game.pk, player=players[mover], expected_version=game.version, kind=kind
        )
        services.resign_accept(
            game_id=game.pk, player=players[1 - mover], expected_version=offered.game.version
        )
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            return match
        game = match.games.order_by("-number").first()
    raise AssertionError("the match did not end")


def build_world() -> World:
    from django.contrib.auth.models import Permission

    from chouette.online import services as chouette_online
    from chouette.services.games import game_record
    from chouette.services.sessions import session_create
    from games.clocks.services import table_clock_create
    from games.models import RatedResult
    from games.notifications.services import notify
    from games.play import services as play
    from games.play.dice import ScriptedDice
    from games.ratings.club_results import club_result_record
    from games.ratings.services import rating_record
    from tests.factories import PlayerFactory, UserFactory, UserPlayerFactory, analysed_match
    from tournaments.models import TournamentMatch
    from tournaments.services.desk import event_new_check_in_code
    from tournaments.services.draw import flight_draw, round_publish
    from tournaments.services.entries import entry_register
    from tournaments.services.events import event_create, event_publish
    from tournaments.services.flights import flight_create, flight_round_set
    from tournaments.services.money import flight_money_set, side_pool_create, side_pool_enter
    from tournaments.services.registration import entry_self_register, flight_set_registration

    director = UserFactory(username="director", is_staff=True, is_superuser=True)
    director.user_permissions.add(Permission.objects.get(codename="add_event"))
    PlayerFactory(name="Klubvezető Kata", user=director)  # the club's director plays too
    people = [
        UserPlayerFactory(name=name, rating=Decimal(1900 - 17 * i), club="Budapesti Backgammon Kör")
        for i, name in enumerate(NAMES)
    ]
    player, rival = people[1], people[2]

    # A year of club matches: ratings, a chart, a head-to-head.
    start = timezone.now() - datetime.timedelta(days=300)
    for n in range(40):
        a, b = people[n % 8], people[(n * 3 + 1) % 8]
        if a == b:
            continue
        rating_record(
            source=RatedResult.Source.CLUB,
            source_key=f"club:phone-{n}",
            player1=a,
            player2=b,
            length=(3, 5, 7, 11)[n % 4],
            winner=a if n % 3 else b,
            at=start + datetime.timedelta(days=7 * n),
        )
    for n in range(3):
        club_result_record(
            by=director,
            player1=people[n],
            player2=people[n + 5],
            length=7,
            winner=people[n],
            played_at=timezone.now() - datetime.timedelta(days=n + 1),
        )

    event = event_create(
        by=director,
        name="Budapest Open Backgammon Championship 2025",
        slug="budapest-open-2025",
        starts_on=timezone.localdate(),
        location="Budapesti Backgammon Kör, Király utca 42.",
    )
    event_publish(event_id=event.pk, by=director)
    world = World(director=director, player=player, rival=rival, event=event)
    # Sign-up (issue 30) on, approved by staff: a claim of a player without a login waits
    # on staff's list; its link opens the confirmation page.
    from games.players.signup import mails as signup_mails
    from games.players.signup import services as signup_services

    signup_services.club_settings_set_signup(mode="approved")
    PlayerFactory(name="Lakatos Noémi")
    made = signup_services.signup_create(
        name="Lakatos Noémi",
        username="noemi",
        email="noemi@example.org",
        password="Backgammon-2025-tavasz",
        claim=True,
        language="hu",
        site_url="http://testserver",
    )
    assert made.signup is not None
    world.signup_token = signup_mails.confirmation_token(made.signup)
    signup_services.signup_confirm(
        signup_id=made.signup.pk, version=made.signup.version, site_url="http://testserver"
    )

    def new_flight(key: str, name: str, fmt: str, entrants: list[Any], **kwargs: Any) -> Any:
        flight = flight_create(event_id=event.pk, by=director, name=name, format=fmt, **kwargs)
        for p in entrants:
            entry_register(flight_id=flight.pk, by=director, player_id=p.pk)
        world.flights[key] = flight
        return flight

    # Swiss, 10 players, 4 rounds: three played, the fourth to play.
    swiss = new_flight("swiss", "Open Swiss", "swiss", people[:10], options={"rounds": 4})
    flight_draw(flight_id=swiss.pk, by=director)
    for number in (1, 2, 3):
        _play_round(swiss, director, number)
        round_publish(flight_id=swiss.pk, by=director)
    world.tmatches["ready"] = TournamentMatch.objects.filter(
        flight=swiss, round=4, status="ready"
    ).order_by("index")[0]

    # Knockout with consolation, 8 players: results by round, game by game.
    knockout = new_flight(
        "knockout",
        "Main knockout",
        "consolation",
        people[:8],
        options={"entry_rounds": 1},
        match_length=5,
    )
    flight_round_set(flight_id=knockout.pk, by=director, part="main", number=2, match_length=7)
    flight_draw(flight_id=knockout.pk, by=director, publish="all")
    flight_money_set(flight_id=knockout.pk, by=director, fee=5000, house_percent=10)
    pool = side_pool_create(flight_id=knockout.pk, by=director, name="Jackpot", fee=2000)
    for entry in knockout.entries.order_by("seed")[:5]:
        side_pool_enter(pool_id=pool.pk, by=director, entry_id=entry.pk, paid=True)
    _play_round(knockout, director, 1, games=True)
    for _ in range(8):  # to the champions of both parts: public payouts, players' places
        ready = TournamentMatch.objects.filter(flight=knockout, status="ready")
        for number in sorted(set(ready.values_list("round", flat=True))):
            _play_round(knockout, director, number)
    world.tmatches["decided"] = TournamentMatch.objects.filter(
        flight=knockout, part="main", round=1
    ).order_by("index")[0]

    robin = new_flight("robin", "Ladies' round robin", "round_robin", people[3:8], match_length=3)
    flight_draw(flight_id=robin.pk, by=director, publish="all")
    _play_round(robin, director, 1)

    # Open for players' own registration: some registered, the player pending.
    opened = new_flight("open", "Sunday jackpot", "single_elimination", people[4:9])
    flight_set_registration(flight_id=opened.pk, by=director, open=True, capacity=16)
    entry_self_register(flight_id=opened.pk, by=player.user)
    event_new_check_in_code(event_id=event.pk, by=director)

    # Online: a finished match of several games, and one in play.
    world.finished_match = _online_match(player, rival, 7)
    # Issue 28: its analysis (both players' PR on its page, the player's PR chart).
    analysed_match(world.finished_match, prs=(4.2, 9.7))
    world.live_match = play.match_create(player1=player, player2=people[3], length=5, clock="usbgf")
    play.match_start(match_id=world.live_match.pk)
    # The lobby's "Your invitations": one the player sent and one the player received.
    from games.play.invitations import invitation_send

    invitation_send(inviter=player, invitee=people[4], length=7, clock="usbgf")
    invitation_send(inviter=people[5], invitee=player, length=0)

    world.clock = table_clock_create(
        label="Table 7",
        clock="usbgf",
        player1=player,
        player2=rival,
        match_length=7,
        created_by=director,
    )
    for n, kind in enumerate(("your_turn", "match_finished", "double_offered")):
        notify(
            recipient=player,
            kind=kind,
            subject=f"phone-{n}",
            context={
                "match_id": world.finished_match.pk,
                "opponent": rival.name,
                "opponent_name": rival.name,
            },
        )

    # A webhook that failed, for the director's list of failed deliveries.
    from games.models import NotificationDelivery, Webhook

    Webhook.objects.create(name="Club chat", url="http://127.0.0.1:9/x", kinds=["time_low"])
    player.notification_channels = {"time_low": ["webhook", "in_app"]}
    player.save()
    low = notify(
        recipient=player,
        kind="time_low",
        subject="phone-low",
        context={
            "match_id": world.live_match.pk,
            "opponent": people[3].name,
            "remaining_ms": 25_000,
        },
    )
    NotificationDelivery.objects.filter(notification=low).update(
        status=NotificationDelivery.Status.FAILED,
        attempts=6,
        last_error="HTTP 404: the club chat's webhook address is gone",
    )

    # Chouette: six at the table, a few games played.
    seated = people[:6]
    world.seated = seated
    rolls = {p.pk: 6 - i for i, p in enumerate(seated)}
    session = session_create(
        by=seated[0].user, name="Friday night chouette", player_ids=list(rolls), rolls=rolls
    )
    for n in range(4):
        session.refresh_from_db()
        seating = session.seating
        game_record(
            session_id=session.pk,
            by=seated[0].user,
            entry={
                "box": seating["box"],
                "captain": seating["line"][0],
                "members": [
                    {"player": p, "cube": 2 if n % 2 else 1, "fate": "took"}
                    for p in seating["line"]
                ],
                "winner": "team" if n % 2 else "box",
                "kind": "gammon" if n == 1 else "single",
            },
        )
    # A game of it played online: the box won the opening roll with 6-1 and is to play
    # it; the team has a line in its chat.
    game = chouette_online.online_game_start(
        session_id=session.pk, by=seated[0].user, dice=ScriptedDice((6, 1))
    )
    chouette_online.online_team_message_post(
        game_id=game.pk, by=seated[1].user, text="Let us wait for a better moment to double."
    )
    world.chouette = session
    world.online_game = game
    return world


# ----------------------------------------------------------------------------- the phone


def _visit_all(phone: Any, live_server: Any, role: str, language: str) -> list[Fit]:
    """Open every page of ``role`` on the phone in ``language`` (the Hungarian words
    are longer); the measures, in order."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    world = build_world()
    phone.delete_all_cookies()
    phone.get(f"{live_server.url}/healthz")
    phone.add_cookie({"name": "django_language", "value": language, "path": "/"})
    user = {
        PLAYER: world.player.user,
        DIRECTOR: world.director,
        CHOUETTE: world.seated[0].user,
    }.get(role)
    if user is not None:
        sign_in(phone, live_server.url, user, language=None)
    fits: list[Fit] = []
    problems: list[str] = []
    audits: list[tuple[str, Violation]] = []
    axe_seconds = 0.0
    try:
        for page in PAGES:
            if role not in page.roles:
                continue
            phone.get(live_server.url + page.url(world))
            if page.ready:
                WebDriverWait(phone, WAIT_SECONDS).until(
                    lambda d, css=page.ready: d.find_elements(By.CSS_SELECTOR, css)
                )
            phone.execute_script("return document.fonts.ready.then(() => true)")
            if "/accounts/login/" in phone.current_url and page.name != "login":
                problems.append(f"{page.name}: sent to the login page")
                continue
            fit = page_fit(phone)
            shots = os.environ.get("PHONE_FIT_SHOTS")
            if shots:  # a folder: a screenshot of each page, for a person looking
                phone.save_screenshot(f"{shots}/{role}-{language}-{len(fits):02d}.png")
            if fit.status != page.status:
                problems.append(f"{page.name}: answered {fit.status} at {phone.current_url}")
            label = f" ({page.label})" if page.label else ""
            fit.url = f"{page.name or page.path}{label}: {fit.url}"
            fits.append(fit)
            violations = csp_violations(phone)
            if violations:
                problems.append(f"{page.name}: CSP {violations}")
            # Issue 27: the same load checked by axe-core (WCAG 2.1 A and AA); a serious
            # or critical violation fails the walk, named with its elements.
            started = time.monotonic()
            found = axe_violations(phone)
            axe_seconds += time.monotonic() - started
            audits.extend((fit.url, v) for v in found)
            problems.extend(f"{fit.url}: axe {v}" for v in found if v.failing)
    finally:
        phone.get("about:blank")
        phone.delete_all_cookies()
    report = os.environ.get("PHONE_FIT_REPORT")
    if report:  # the widths, for a person measuring (issue 18's table)
        with open(report, "a", encoding="utf-8") as out:
            for fit in fits:
                inside = " ".join(
                    f"[{s['element']} {s['scrollWidth']}/{s['clientWidth']}]" for s in fit.scrollers
                )
                out.write(f"{role}\t{language}\t{fit.scroll_width}\t{fit.url}\t{inside}\n")
    audit = os.environ.get("AXE_REPORT")
    if audit:  # every violation, of any impact, one line each, for a person counting
        with open(audit, "a", encoding="utf-8") as out:
            for url, v in audits:
                out.write(f"{role}\t{language}\t{v.rule}\t{v.impact}\t{len(v.nodes)}\t{url}\n")
            out.write(f"# {role} {language}: axe took {axe_seconds:.1f} s over {len(fits)} pages\n")
    too_wide = [str(fit) for fit in fits if not fit.fits]
    heading = f"{len(too_wide)} of {len(fits)} pages too wide for a 390 px phone"
    assert not problems and not too_wide, "\n".join(
        [f"{heading} as {role}, {language}:", *too_wide, *problems]
    )
    return fits


LANGUAGES = pytest.mark.parametrize("language", ["en", "hu"])


@LANGUAGES
def test_every_page_fits_a_phone_as_a_visitor(phone, live_server, language) -> None:
    _visit_all(phone, live_server, ANONYMOUS, language)


@LANGUAGES
def test_every_page_fits_a_phone_as_a_player(phone, live_server, language) -> None:
    _visit_all(phone, live_server, PLAYER, language)


@LANGUAGES
def test_every_page_fits_a_phone_as_a_director(phone, live_server, language) -> None:
    _visit_all(phone, live_server, DIRECTOR, language)


@LANGUAGES
def test_the_chouette_pages_fit_a_phone_with_six_at_the_table(phone, live_server, language) -> None:
    _visit_all(phone, live_server, CHOUETTE, language)


def test_the_menu_folds_away_on_a_phone_and_not_on_a_laptop(phone, browser, live_server) -> None:
    """On the phone the header is one bar (the brand, the notifications, Menu) at most
    56 px high, the menu folded until Menu is tapped, then every link 44 px high; on a
    laptop the links are in the header as always, with no Menu."""
    from selenium.webdriver.common.by import By

    from tests.factories import UserPlayerFactory

    player = UserPlayerFactory(name="Kovács Anna", user__is_staff=True)
    links = ["Home", "Matches", "Ratings", "Events", "Chouette", "Table clocks", "API"]
    links += ["Administration", "Failed notifications", "Log out (" + player.user.username + ")"]
    try:
        phone.delete_all_cookies()
        phone.get(f"{live_server.url}/healthz")
        phone.add_cookie({"name": "django_language", "value": "en", "path": "/"})
        sign_in(phone, live_server.url, player.user, language=None)
        phone.get(f"{live_server.url}/")
        header = phone.find_element(By.CSS_SELECTOR, ".site-header")
        bar = phone.find_element(By.CSS_SELECTOR, ".site-bar")
        assert header.size["height"] <= 56 and bar.size["height"] <= 56, header.size
        menu = phone.find_element(By.CSS_SELECTOR, "label.site-menu-button")
        assert menu.text == "Menu" and menu.size["height"] >= 44
        bell = phone.find_element(By.CSS_SELECTOR, "#live-notifications a.notifications-link")
        assert bell.is_displayed() and bell.size["height"] >= 44
        assert bell.get_attribute("href").endswith("/notifications/")
        folded = phone.find_elements(By.CSS_SELECTOR, ".site-menu a, .site-menu button")
        assert folded and not any(e.is_displayed() for e in folded)

        menu.click()
        shown = {
            e.text: e.size["height"]
            for e in phone.find_elements(By.CSS_SELECTOR, ".site-menu nav a, .site-menu button")
            if e.is_displayed()
        }
        assert set(links) <= set(shown), shown
        assert all(shown[name] >= 44 for name in links), shown
        assert phone.find_element(By.ID, "language").size["height"] >= 44
        assert page_fit(phone).fits
    finally:
        phone.get("about:blank")
        phone.delete_all_cookies()

    browser.get(f"{live_server.url}/accounts/login/")
    browser.add_cookie({"name": "django_language", "value": "en", "path": "/"})
    sign_in(browser, live_server.url, player.user, language=None)
    browser.get(f"{live_server.url}/")
    assert not browser.find_element(By.CSS_SELECTOR, "label.site-menu-button").is_displayed()
    header = browser.find_element(By.CSS_SELECTOR, ".site-header")
    for name in links:
        assert header.find_element(By.XPATH, f".//*[normalize-space()='{name}']").is_displayed()
    assert header.find_element(By.CSS_SELECTOR, ".notifications-word").text == "Notifications"
    assert header.size["height"] <= 100, header.size  # two lines at most at 1280 px

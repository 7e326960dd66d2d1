"""The probe kept in CI (issue 16): schemathesis over the OpenAPI schema (``/api/schema/``).

Every operation of the schema is called in-process (the WSGI app, no server), against the
real PostgreSQL test database holding a small club (the demo club's players and a year of
rated results, the demo tournament, matches, a chouette session, table clocks,
notifications), twice: anonymous, and with a player's token (``Authorization: Token``).
The player plays the matches, created the clocks, sits in the chouette session and
directs the tournament, so the writes get past the permission checks too.

Each operation runs schemathesis' coverage phase (the boundary and invalid values of every
parameter and field, worked out from the schema) and a bounded fuzzing phase of
valid-by-the-schema (positive) and invalid (negative) requests, with a fixed seed,
``derandomize`` and no example database: the same requests every run, no flakiness.
A path id is, for most examples, one of the seeded objects' (else the generated one,
which mostly answers 404).

The checks: no server error (5xx); every status is one the schema declares; every
response (refusals too) has the declared content type and matches its declared schema;
invalid data (an unknown enum value, a number under its minimum, a missing field, a
wrong type) is refused with a 4xx. Each operation's writes are rolled back after it (the
test's transaction), and the seeded club after the module.
"""

from __future__ import annotations

import json
from decimal import Decimal
from io import StringIO
from typing import Any

import pytest
import schemathesis
from django.core.cache import cache
from django.core.management import call_command
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections, transaction
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)
from werkzeug.test import Client

from tests.factories import UserFactory

#: Fuzzing examples per operation and generation mode (on top of the coverage phase).
MAX_EXAMPLES = 8
SEED = 16

SELECTED_CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    negative_data_rejection,
]

CONFIG = {
    "seed": SEED,
    "generation": {
        "max-examples": MAX_EXAMPLES,
        "deterministic": True,
        "database": "none",
        "mode": "all",
    },
    "phases": {
        "examples": {"enabled": True},
        "coverage": {"enabled": True},
        "fuzzing": {"enabled": True},
        "stateful": {"enabled": False},
    },
    "suppress-health-check": ["too_slow", "filter_too_much", "data_too_large"],
}


class Club:
    """What the seeding made: the ids a path parameter is mapped to, and the token."""

    def __init__(self) -> None:
        self.ids: dict[str, list[int]] = {}
        self.online_ids: dict[str, list[int]] = {}
        self.token = ""


def _seed() -> Club:
    """A small club, through the services (as the pages and the API make it)."""
    from django.contrib.auth import get_user_model

    from chouette.models import ChouetteSession
    from chouette.services.sessions import session_create
    from games.clocks import services as tableclocks
    from games.models import Match, Notification, Player, RatedResult
    from games.notifications import services as notifications
    from games.play import invitations
    from games.play import services as play
    from games.play.dice import ScriptedDice
    from tournaments.models import Entry, Event, Flight, SidePool, TournamentMatch
    from tournaments.services.events import event_add_director

    call_command("load_demo_club", stdout=StringIO())
    call_command("load_demo_tournament", stdout=StringIO())
    club = Club()
    user = UserFactory(username="probe")
    players = list(Player.objects.order_by("pk"))
    me = players[0]
    me.user = user
    me.save(update_fields=["user"])
    club.token = Token.objects.create(user=user).key

    event = Event.objects.get()
    director = get_user_model().objects.get(username="demo-director")
    event_add_director(event_id=event.pk, by=director, user=user)

    playing = play.match_create(player1=me, player2=players[1], length=5, created_by=user)
    play.match_start(match_id=playing.pk, dice=ScriptedDice((3, 1)))
    money = play.match_create(player1=players[2], player2=me, length=0, created_by=user)
    play.match_start(match_id=money.pk, dice=ScriptedDice((6, 5)))
    play.match_create(player1=me, player2=players[3], length=3, clock="usbgf", created_by=user)
    # Invitations (issue 18): one the probe sent, one it received, each waiting.
    for n, other in enumerate(players[4:6]):
        other.user = UserFactory(username=f"probe-opponent-{n}")
        other.save(update_fields=["user"])
    sent = invitations.invitation_send(inviter=me, invitee=players[4], length=5, created_by=user)
    received = invitations.invitation_send(inviter=players[5], invitee=me, length=0)

    ready = tableclocks.table_clock_create(
        label="Table 1", player1=me, player2=players[1], clock="seed002", created_by=user
    )
    running = tableclocks.table_clock_create(
        label="Table 2", player1_name="Anna", player2_name="Bence", clock="usbgf", created_by=user
    )
    tableclocks.table_clock_start(clock_id=running.pk, player=0, by=user)

    friday = session_create(
        by=user,
        name="Friday chouette",
        player_ids=[me.pk, players[1].pk, players[2].pk],
        stake_per_point=Decimal(10),
        currency="EUR",
        rolls={me.pk: [6], players[1].pk: [4], players[2].pk: [2]},
    )
    # A game of it played online (issue 19): the probe is the box, to play the opening 6-1.
    from chouette.online import services as chouette_online

    online = chouette_online.online_game_start(
        session_id=friday.pk, by=user, dice=ScriptedDice((6, 1))
    )
    notifications.notify(
        recipient=me, kind="double_offered", subject=f"match:{playing.pk}", context={}
    )

    club.ids = {
        "player_id": [p.pk for p in players],
        "match_id": [
            *Match.objects.order_by("pk").values_list("pk", flat=True),
            *TournamentMatch.objects.order_by("pk").values_list("pk", flat=True),
        ],
        "game_id": list(
            Match.objects.filter(games__isnull=False).values_list("games__pk", flat=True)
        ),
        "clock_id": [ready.pk, running.pk],
        "session_id": list(ChouetteSession.objects.values_list("pk", flat=True)),
        "event_id": [event.pk],
        "flight_id": list(Flight.objects.order_by("pk").values_list("pk", flat=True)),
        "entry_id": list(Entry.objects.order_by("pk").values_list("pk", flat=True)),
        "pool_id": list(SidePool.objects.order_by("pk").values_list("pk", flat=True)),
        "result_id": list(RatedResult.objects.order_by("-pk").values_list("pk", flat=True)[:5]),
        "notification_id": list(Notification.objects.order_by("pk").values_list("pk", flat=True)),
        "invitation_id": [sent.pk, received.pk],
    }
    #: The online chouette's ``game_id`` (its paths: ONLINE_PREFIX) names an online game.
    club.online_ids = {"game_id": [online.pk]}
    return club


#: The seeded club of the module, for the path parameter hook.
_CLUB: list[Club] = []


@pytest.fixture(scope="module")
def club(django_db_setup, django_db_blocker):
    """The seeded club, kept for the module inside one transaction rolled back at its end
    (each test's own transaction nests in it as a savepoint)."""
    # As Django's test client does: a request must not close the test's connection (the
    # WSGI handler closes it after every request otherwise, taking the transaction along).
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        with django_db_blocker.unblock(), transaction.atomic():
            _CLUB[:] = [_seed()]
            yield _CLUB[0]
            _CLUB.clear()
            transaction.set_rollback(True)
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)
        cache.clear()  # the throttles' counts of the run's requests (the tests' Redis db)


def _load() -> Any:
    """The schema as ``/api/schema/`` serves it (drf-spectacular builds it from the code:
    no database is read), to be called through the WSGI app."""
    app = get_wsgi_application()
    return schemathesis.openapi.from_wsgi(
        "/api/schema/?format=json", app, config=schemathesis.Config.from_dict(CONFIG)
    )


schema = _load()


#: The paths whose ``game_id`` is an online chouette game's, not a match game's.
ONLINE_PREFIX = "/api/v1/chouette/online-games/"


def _ids_for(path: str) -> dict[str, list[int]]:
    if not _CLUB:
        return {}
    club = _CLUB[0]
    return {**club.ids, **club.online_ids} if path.startswith(ONLINE_PREFIX) else club.ids


@schema.hook
def map_path_parameters(context: Any, path_parameters: dict[str, Any]) -> dict[str, Any]:
    """Most examples name a seeded object; the rest keep the generated id (mostly 404)."""
    if not path_parameters:
        return path_parameters
    ids = _ids_for(getattr(context.operation, "path", ""))
    mapped = dict(path_parameters)
    for name, value in path_parameters.items():
        known = ids.get(name) or []
        if known and isinstance(value, int) and value % 5 != 0:
            mapped[name] = known[value % len(known)]
    return mapped


HEADERS = {"Accept-Language": "en"}


def _call(case: Any, headers: dict[str, str]) -> None:
    """One example, its writes rolled back after it."""
    with transaction.atomic():
        case.call_and_validate(headers=headers, checks=SELECTED_CHECKS)
        transaction.set_rollback(True)


# `db` is function-scoped on purpose: each example runs in a savepoint of its own, rolled
# back after it (_call), so every example starts from the seeded club.
ISOLATED = settings(suppress_health_check=[HealthCheck.function_scoped_fixture])


@schema.parametrize()
@ISOLATED
def test_anonymous(case, club, db):
    _call(case, HEADERS)


@schema.parametrize()
@ISOLATED
def test_as_player(case, club, db):
    _call(case, {**HEADERS, "Authorization": f"Token {club.token}"})


# ================================================================ the probe's own requests
# What the fuzzer does not make of itself, sent to every operation it fits, with the same
# checks: JSON nested deeper than any parser's stack, a page size and a page start past a
# 64-bit integer, clock reserves past what a duration can hold.
DEEP_JSON = "[" * 1_000 + "]" * 1_000
HUGE = 2**63

OPERATIONS = [result.ok() for result in schema.get_all_operations()]
JSON_BODIES = [
    op for op in OPERATIONS if "application/json" in op.get_request_payload_content_types()
]
PAGINATED = [op for op in OPERATIONS if any(p.name == "limit" for p in op.query)]
RESPONSE_CHECKS = SELECTED_CHECKS[:4]  # a hand-made case has no "negative" to reject


def _path(op: Any) -> dict[str, int]:
    ids = _ids_for(op.path)
    return {p.name: ids.get(p.name, [1])[0] for p in op.path_parameters}


def _send(op: Any, club: Club, *, body: str | None = None, query: dict | None = None) -> None:
    """Send one hand-made request (a raw JSON text: the client's own encoder would give up
    on the deep one) through the WSGI app, as the player, and check its answer."""
    made = op.Case(path_parameters=_path(op), query=query or {})
    headers = {**HEADERS, "Authorization": f"Token {club.token}"}
    if body is not None:
        headers["Content-Type"] = "application/json"
    with transaction.atomic():
        response = Client(schema.app).open(
            made.formatted_path,
            method=op.method.upper(),
            query_string=query,
            data=body,
            headers=headers,
        )
        made.validate_response(response, checks=RESPONSE_CHECKS)
        transaction.set_rollback(True)


@pytest.mark.parametrize("op", JSON_BODIES, ids=lambda op: op.label)
def test_deep_json_body(op, club, db):
    _send(op, club, body=DEEP_JSON)


@pytest.mark.parametrize("op", PAGINATED, ids=lambda op: op.label)
def test_page_size_past_64_bits(op, club, db):
    _send(op, club, query={"limit": str(HUGE)})


@pytest.mark.parametrize("op", PAGINATED, ids=lambda op: op.label)
def test_page_offset_past_64_bits(op, club, db):
    _send(op, club, query={"offset": str(HUGE)})


HUGE_CLOCK = {"delay_ms": 1_000, "reserve_ms": 10**15}


def test_match_with_a_huge_clock(club, db):
    players = _CLUB[0].ids["player_id"]
    body = {"player1": players[0], "player2": players[1], "length": 3, "clock": HUGE_CLOCK}
    _send(schema["/api/v1/matches/"]["POST"], club, body=json.dumps(body))


def test_table_clock_with_a_huge_clock(club, db):
    create = schema["/api/v1/table-clocks/"]["POST"]
    body = {"label": "Table 9", "player1_name": "A", "player2_name": "B", "clock": HUGE_CLOCK}
    with transaction.atomic():
        made = create.Case(body=body, media_type="application/json")
        response = made.call(headers={**HEADERS, "Authorization": f"Token {club.token}"})
        made.validate_response(response, checks=RESPONSE_CHECKS)
        if response.status_code == 201:  # refused at once is the better answer
            start = schema["/api/v1/table-clocks/{clock_id}/start/"]["POST"]
            made = start.Case(
                path_parameters={"clock_id": response.json()["id"]},
                body={"player": 0},
                media_type="application/json",
            )
            answer = made.call(headers={**HEADERS, "Authorization": f"Token {club.token}"})
            made.validate_response(answer, checks=RESPONSE_CHECKS)
        transaction.set_rollback(True)

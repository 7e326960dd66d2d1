"""Issue 16, the API's plumbing: no request answers 500, a refusal changes nothing.

* JSON nested too deep is a 400 ``parse_error`` on every JSON endpoint (it was a
  ``RecursionError``), the anonymous token endpoint included;
* paginated lists serve at most 200 rows whatever ``limit`` says, and no integer in a
  query or a path (PostgreSQL's bigint overflows at 2**63) answers 500;
* clock settings have bounds (400 ``invalid_clock`` naming the field) and a refused
  match or table clock leaves no row behind;
* under /api/ Django's own 404 and 400/413 answers are ``{"code", "detail"}`` JSON.
"""

from __future__ import annotations

import json

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from games.models import Game, Match, Player, TableClock
from tests.factories import UserPlayerFactory, api_client

BIG = 2**63  # one past PostgreSQL's bigint
DEEP = "[" * 1000 + "]" * 1000


@pytest.fixture
def anna():
    return UserPlayerFactory(name="Anna")


@pytest.fixture
def bence():
    return UserPlayerFactory(name="Bence")


# ====================================================================== deep JSON
@pytest.mark.django_db
@pytest.mark.parametrize(
    "path", ["/api/v1/auth/token/", "/api/v1/matches/", "/api/v1/table-clocks/"]
)
def test_json_nested_a_thousand_deep_is_a_400_parse_error(anna, path):
    client = api_client(anna.user)
    client.raise_request_exception = False
    response = client.post(path, DEEP, content_type="application/json")
    assert response.status_code == 400, response.content[:200]
    assert response.json()["code"] == "parse_error"


@pytest.mark.django_db
def test_json_nested_deeper_than_the_parser_allows_is_refused_before_any_write(anna, bence):
    nested: object = {"delay_ms": 1000}
    for _level in range(100):
        nested = [nested]
    body = {"player1": anna.pk, "player2": bence.pk, "length": 1, "clock": nested}
    response = api_client(anna.user).post(
        "/api/v1/matches/", json.dumps(body), content_type="application/json"
    )
    assert (response.status_code, response.json()["code"]) == (400, "parse_error")
    assert Match.objects.count() == 0


# ====================================================================== pagination
@pytest.mark.django_db
def test_a_page_holds_at_most_200_rows_whatever_limit_asks():
    Player.objects.bulk_create(Player(name=f"Member {n:03}") for n in range(205))
    client = api_client()
    client.raise_request_exception = False
    for limit in (BIG, 10**6, 201):
        response = client.get(f"/api/v1/players/?limit={limit}")
        assert response.status_code == 200, (limit, response.content[:200])
        body = response.json()
        assert (body["count"], len(body["results"])) == (205, 200)
        assert "limit=200" in body["next"]
    assert len(client.get("/api/v1/players/").json()["results"]) == 50  # the default
    # An offset past the end is an empty page; what is not a whole number is refused.
    assert client.get(f"/api/v1/players/?offset={BIG}").json()["results"] == []
    # Past the 4,300 digits Python's int() reads (a ValueError, which was a 500).
    assert client.get(f"/api/v1/players/?offset={'9' * 5000}").json()["results"] == []
    assert len(client.get(f"/api/v1/players/?limit={'9' * 5000}").json()["results"]) == 200
    assert len(client.get("/api/v1/players/?offset=5&limit=3").json()["results"]) == 3
    for query, code in [
        ("limit=0", "invalid_limit"),
        ("limit=-1", "invalid_limit"),
        ("limit=abc", "invalid_limit"),
        ("limit=1e3", "invalid_limit"),
        ("offset=-5", "invalid_offset"),
        ("offset=٣", "invalid_offset"),  # an Arabic-Indic digit: isdigit() but not ASCII
    ]:
        response = client.get(f"/api/v1/players/?{query}")
        assert (response.status_code, response.json()["code"]) == (400, code), query


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/api/v1/notifications/", "/api/v1/club-results/"])
def test_the_lists_with_their_own_pagination_refuse_the_same(anna, path, settings):
    anna.user.is_staff = True
    anna.user.save()
    client = api_client(anna.user)
    assert client.get(f"{path}?limit={BIG}").status_code == 200
    response = client.get(f"{path}?offset=-1")
    assert (response.status_code, response.json()["code"]) == (400, "invalid_offset")


def _api_routes() -> list[tuple[str, list[str]]]:
    """Every route under /api/v1/: (path template, names of its path parameters)."""
    routes = []

    def walk(patterns, prefix):
        for entry in patterns:
            if isinstance(entry, URLResolver):
                walk(entry.url_patterns, prefix + str(entry.pattern))
            elif isinstance(entry, URLPattern):
                routes.append((prefix + str(entry.pattern), list(entry.pattern.converters)))

    walk(get_resolver().url_patterns, "/")
    return [(path, names) for path, names in routes if path.startswith("/api/v1/")]


@pytest.mark.django_db(transaction=True)  # a DataError would poison the test's transaction
def test_no_integer_in_a_query_or_a_path_answers_500(anna):
    """The sweep: every GET under /api/v1/ with bigint-overflowing ``limit``, ``offset``
    and filters, and with every integer path parameter at 2**63 and 2**63 - 1."""
    Player.objects.bulk_create(Player(name=f"Member {n}") for n in range(3))
    client = api_client(anna.user)
    client.raise_request_exception = False
    queries = [
        f"limit={BIG}",
        f"offset={BIG}",
        f"limit={BIG}&offset={BIG}",
        "limit=-1&offset=-1",
        f"min_experience={BIG}",
        f"since={BIG}",
        f"vs={BIG}",
    ]
    failures = []
    for template, params in _api_routes():
        for value in (BIG, BIG - 1) if params else (None,):
            path = template
            for name in params:
                path = path.replace(f"<int:{name}>", str(value))
            if "<" in path:
                continue
            for query in queries:
                response = client.get(f"{path}?{query}")
                if response.status_code >= 500:
                    failures.append((path, query, response.status_code))
    assert failures == []


# ====================================================================== clock bounds
def _match_body(anna, bence, clock, **extra):
    return {"player1": anna.pk, "player2": bence.pk, "length": 5, "clock": clock, **extra}


@pytest.mark.django_db
def test_a_reserve_of_a_billion_years_is_refused_and_leaves_no_match(anna, bence):
    """The probe's request: a 500 (OverflowError in wallclock.from_ms) and a Match row
    left behind."""
    client = api_client(anna.user)
    client.raise_request_exception = False
    clock = {"delay_ms": 1000, "reserve_ms": 1_000_000_000_000_000}
    # Refused as the match is made (the invitation), so accepting it can never start it.
    response = client.post("/api/v1/matches/", _match_body(anna, bence, clock), format="json")
    assert response.status_code == 400, response.content[:300]
    body = response.json()
    assert (body["code"], body["field"]) == ("invalid_clock", "reserve_ms")
    assert "reserve_ms" in body["detail"]
    assert (Match.objects.count(), Game.objects.count()) == (0, 0)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("clock", "field"),
    [
        ({"delay_ms": 10**15}, "delay_ms"),
        ({"delay_ms": 10 * 60_000 + 1, "reserve_ms": 1000}, "delay_ms"),
        ({"delay_ms": 1000, "reserve_ms": 24 * 3_600_000 + 1}, "reserve_ms"),
        ({"delay_ms": 1000, "reserve_per_point_ms": 10**15}, "reserve_per_point_ms"),
        (
            {"delay_ms": 1000, "reserve_per_point_ms": 120_000, "deduct_per_point_scored_ms": BIG},
            "deduct_per_point_scored_ms",
        ),
        ({"delay_ms": 1000, "money_reserve_ms": 10**15}, "money_reserve_ms"),
        ({"delay_ms": 1000, "reserve_ms": -1}, "reserve_ms"),
        ({"delay_ms": "1000"}, "delay_ms"),
        ({"delay_ms": True}, "delay_ms"),
        ({"delay_ms": 1000.5}, "delay_ms"),
        ({"delay_ms": 1000, "mode": "per_century"}, "mode"),
        ({"delay_ms": 1000, "runs_between_games": "yes"}, "runs_between_games"),
        ({"delay_ms": 1000, "ticks": 5}, "ticks"),
        ({"reserve_ms": 1000}, "delay_ms"),
    ],
)
def test_every_clock_field_is_checked_for_type_and_range(anna, bence, clock, field):
    client = api_client(anna.user)
    for path, body in (
        ("/api/v1/matches/", _match_body(anna, bence, clock)),
        ("/api/v1/table-clocks/", {"label": "T1", "player1_name": "A", "player2_name": "B"}),
    ):
        response = client.post(path, {**body, "clock": clock}, format="json")
        assert response.status_code == 400, (path, response.content[:300])
        assert (response.json()["code"], response.json()["field"]) == ("invalid_clock", field)
    assert (Match.objects.count(), TableClock.objects.count()) == (0, 0)


@pytest.mark.django_db
def test_a_huge_table_clock_is_not_created_so_its_start_cannot_fail(wall, anna):
    client = api_client(anna.user)
    client.raise_request_exception = False
    clock = {"delay_ms": 1000, "reserve_ms": 1_000_000_000_000_000}
    response = client.post(
        "/api/v1/table-clocks/",
        {"label": "T1", "player1_name": "A", "player2_name": "B", "clock": clock},
        format="json",
    )
    assert (response.status_code, response.json()["code"]) == (400, "invalid_clock")
    assert TableClock.objects.count() == 0
    # The largest clock allowed starts and runs (its deadline is a date).
    clock = {"delay_ms": 600_000, "reserve_ms": 24 * 3_600_000}
    created = client.post(
        "/api/v1/table-clocks/",
        {"label": "T1", "player1_name": "A", "player2_name": "B", "clock": clock},
        format="json",
    )
    assert created.status_code == 201, created.json()
    started = client.post(
        f"/api/v1/table-clocks/{created.json()['id']}/start/", {"player": 0}, format="json"
    )
    assert started.status_code == 200, started.content[:300]


@pytest.mark.django_db
def test_the_table_clock_page_refuses_a_huge_reserve_and_keeps_what_was_typed(client, anna):
    client.force_login(anna.user)
    response = client.post(
        "/clocks/new/",
        {
            "label": "Table 9",
            "player1_name": "A",
            "player2_name": "B",
            "preset": "custom",
            "match_length": 7,
            "delay_seconds": 12,
            "reserve_seconds": 10**12,
        },
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "Table 9" in html and 'name="reserve_seconds"' in html
    assert response.context["form"].errors["reserve_seconds"]
    assert TableClock.objects.count() == 0


# ====================================================================== Django's errors
@pytest.mark.django_db
def test_a_path_no_api_route_matches_is_a_json_404(anna):
    client = api_client(anna.user)
    for path in ("/api/v1/matches/abc/", "/api/v1/no-such-thing/", "/api/nothing"):
        response = client.get(path)
        assert response.status_code == 404
        assert response["Content-Type"].startswith("application/json")
        assert response.json()["code"] == "not_found" and response.json()["detail"]


@pytest.mark.django_db
def test_pages_outside_the_api_keep_their_html_404(client):
    response = client.get("/matches/abc/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


@pytest.mark.django_db
def test_a_body_over_the_upload_limit_is_a_json_413(anna, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10_000
    client = api_client(anna.user)
    client.raise_request_exception = False
    form = {"label": "x" * 20_000, "player1_name": "A", "player2_name": "B"}
    response = client.post("/api/v1/table-clocks/", form)  # multipart, Django reads it
    assert response.status_code == 413, response.content[:200]
    assert response.json()["code"] == "request_too_large"
    encoded = client.post(
        "/api/v1/table-clocks/",
        "label=" + "x" * 20_000,
        content_type="application/x-www-form-urlencoded",
    )
    assert (encoded.status_code, encoded.json()["code"]) == (413, "request_too_large")
    assert TableClock.objects.count() == 0


@pytest.mark.django_db
def test_a_json_body_over_the_upload_limit_is_a_413_too(anna, settings):
    """DRF reads JSON past Django's DATA_UPLOAD_MAX_MEMORY_SIZE; the parser does not."""
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10_000
    body = {"label": "x" * 20_000, "player1_name": "A", "player2_name": "B", "clock": "seed002"}
    for client in (api_client(anna.user), api_client()):
        response = client.post("/api/v1/table-clocks/", body, format="json")
        assert response.status_code in (401, 413)
    response = api_client(anna.user).post("/api/v1/table-clocks/", body, format="json")
    assert (response.status_code, response.json()["code"]) == (413, "request_too_large")
    token = api_client().post(
        "/api/v1/auth/token/", {"username": "x" * 20_000, "password": "y"}, format="json"
    )
    assert (token.status_code, token.json()["code"]) == (413, "request_too_large")
    assert TableClock.objects.count() == 0

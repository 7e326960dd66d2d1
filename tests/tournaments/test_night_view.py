"""Issue 29, item 3: the director's phone view of the night
(``/events/<slug>/manage/night/``, :mod:`tournaments.pages.night`, :mod:`tournaments.tonight`)
and its API: the open matches first (reported and disputed flagged), then those waiting
for players, then the results; by table or by name; searched by name or table; the
event's directors only; a result entered from it, and a refused one keeps its score."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.factories import UserFactory, UserPlayerFactory, api_client
from tests.tournaments.factories import flight_with
from tournaments import tonight
from tournaments.models import TournamentMatch
from tournaments.services.draw import flight_draw
from tournaments.services.results import match_set_table, result_enter, result_report

pytestmark = pytest.mark.django_db

NAMES = ["Kovács Anna", "Szabó Béla", "Tóth Csaba", "Nagy Dóra"]
NAMES += ["Varga Emil", "Kiss Flóra", "Molnár Gábor", "Farkas Hanna"]


@pytest.fixture
def drawn(event, director):
    """An 8-player knockout, drawn (round 1 published), tables 4, 3, 2, 1 on its four
    first matches (the reverse of their order)."""
    players = [UserPlayerFactory(name=name, rating=2000 - 10 * i) for i, name in enumerate(NAMES)]
    flight = flight_with(event, players)
    flight_draw(flight_id=flight.pk, by=director)
    first = list(flight.matches.filter(round=1).order_by("index"))
    for table, m in zip((4, 3, 2, 1), first, strict=True):
        match_set_table(match_id=m.pk, by=director, table=table)
    return flight


def _url(event, **query):
    url = reverse("tournaments:night", kwargs={"slug": event.slug})
    if query:
        url += "?" + "&".join(f"{k}={v}" for k, v in query.items())
    return url


def _open_ids(html: str) -> list[int]:
    section = html.split('id="night-open"', 1)[1].split('class="night-group', 1)[0]
    return [int(pk) for pk in re.findall(r'id="night-m-(\d+)"', section)]


def test_the_open_matches_come_first_by_table(client, event, director, drawn):
    client.force_login(director)
    answer = client.get(_url(event))
    assert answer.status_code == 200
    html = answer.content.decode()
    first = list(drawn.matches.filter(round=1))
    by_table = sorted(first, key=lambda m: m.table)
    assert _open_ids(html) == [m.pk for m in by_table]
    # The open list comes before the waiting one, and the setup after both.
    assert html.index('id="night-open"') < html.index('id="night-waiting"')
    assert html.index('id="night-waiting"') < html.index('id="night-setup"')
    assert html.index('id="night-open"') < html.index("night-form")
    night = tonight.event_night(event_id=event.pk)
    assert [r.group for r in night.rows] == ["open"] * 4 + ["waiting"] * 3
    # Each open row has its result form posting to the view itself.
    assert html.count('name="score_a"') == 4


def test_by_name(client, event, director, drawn):
    client.force_login(director)
    html = client.get(_url(event, sort="name")).content.decode()
    rows = tonight.event_night(event_id=event.pk, sort="name").open
    names = [r.name_a for r in rows]
    assert names == sorted(names)
    assert _open_ids(html) == [r.match.pk for r in rows]
    assert _open_ids(html) != [
        r.match.pk for r in tonight.event_night(event_id=event.pk, sort="table").open
    ]


def test_search_by_name_and_table(client, event, director, drawn):
    client.force_login(director)
    anna = drawn.matches.get(round=1, entry_a__player__name="Kovács Anna")
    html = client.get(_url(event, q="KOVACS+anna")).content.decode()
    assert _open_ids(html) == [anna.pk]
    assert "Nagy Dóra" not in html.split('id="night-setup"')[0].split("night-open")[1]
    by_table = drawn.matches.get(table=2)
    assert _open_ids(client.get(_url(event, q="2")).content.decode()) == [by_table.pk]
    assert _open_ids(client.get(_url(event, q="nobody")).content.decode()) == []


def test_reported_and_disputed_are_flagged(client, event, director, drawn):
    m = drawn.matches.get(table=1)
    user = m.entry_a.player.user
    result_report(match_id=m.pk, by=user, score_a=5, score_b=2)
    other = drawn.matches.get(table=2)
    TournamentMatch.objects.filter(pk=other.pk).update(status=TournamentMatch.Status.DISPUTED)
    client.force_login(director)
    html = client.get(_url(event)).content.decode()
    assert _open_ids(html)[:2] == [m.pk, other.pk]  # still open, still by table
    row = html.split(f'id="night-m-{m.pk}"')[1].split("</li>")[0]
    assert 'data-night-flag="reported"' in row and "5–2" in row  # noqa: RUF001
    row = html.split(f'id="night-m-{other.pk}"')[1].split("</li>")[0]
    assert 'data-night-flag="disputed"' in row
    assert 'name="score_a"' not in row  # decided on its match page, not typed over here
    assert reverse("tournaments:match-manage", args=[event.slug, other.pk]) in row


def test_entering_a_result_from_the_view(client, event, director, drawn):
    client.force_login(director)
    m = drawn.matches.get(table=3)
    answer = client.post(
        _url(event),
        {
            "match": m.pk,
            "version": m.version,
            "score_a": "5",
            "score_b": "1",
            "q": "",
            "sort": "name",
        },
    )
    assert answer.status_code == 302
    assert answer["Location"] == _url(event, sort="name") + "#night-open"
    m.refresh_from_db()
    assert (m.status, m.score_a, m.score_b, m.winner) == ("confirmed", 5, 1, "a")
    html = client.get(answer["Location"]).content.decode()
    assert m.pk not in _open_ids(html)
    assert f'id="night-m-{m.pk}"' in html.split('id="night-done"')[1]


def test_a_refusal_keeps_the_typed_score_and_names_the_match(client, event, director, drawn):
    client.force_login(director)
    m = drawn.matches.get(table=2)
    answer = client.post(
        _url(event), {"match": m.pk, "version": m.version, "score_a": "3", "score_b": "1"}
    )
    assert answer.status_code == 400
    html = answer.content.decode()
    row = html.split(f'id="night-m-{m.pk}"')[1].split("</li>")[0]
    assert 'value="3"' in row and 'value="1"' in row and 'aria-invalid="true"' in row
    assert f'id="night-error-{m.pk}"' in row and m.slot_key in row
    assert m.entry_a.player.name in row.split(f'id="night-error-{m.pk}"')[1]
    m.refresh_from_db()
    assert m.status == "ready"
    # The other rows' boxes are empty.
    other = drawn.matches.get(table=1)
    assert 'value="3"' not in html.split(f'id="night-m-{other.pk}"')[1].split("</li>")[0]


def test_a_stale_version_is_refused(client, event, director, drawn):
    client.force_login(director)
    m = drawn.matches.get(table=4)
    result_enter(match_id=m.pk, by=director, score_a=5, score_b=0)
    answer = client.post(_url(event), {"match": m.pk, "version": 0, "score_a": "5", "score_b": "2"})
    assert answer.status_code == 409
    m.refresh_from_db()
    assert (m.score_a, m.score_b) == (5, 0)


def test_only_directors(client, event, director, drawn):
    url = _url(event)
    assert client.get(url).status_code == 302  # to log in
    client.force_login(UserFactory())
    assert client.get(url).status_code == 403
    m = drawn.matches.get(table=1)
    answer = client.post(url, {"match": m.pk, "version": m.version, "score_a": 5, "score_b": 0})
    assert answer.status_code == 403
    assert TournamentMatch.objects.get(pk=m.pk).status == "ready"
    client.force_login(director)
    assert client.get("/events/no-such-event/manage/night/").status_code == 404
    # A match of another event is not this one's.
    assert client.post(url, {"match": 999999, "score_a": 5, "score_b": 0}).status_code == 404


def test_the_director_pages_link_to_it(client, event, director, drawn):
    client.force_login(director)
    url = _url(event)
    for name, kwargs in (
        ("tournaments:event-manage", {"slug": event.slug}),
        ("tournaments:flight-manage", {"slug": event.slug, "flight_id": drawn.pk}),
        ("tournaments:desk", {"slug": event.slug}),
    ):
        html = client.get(reverse(name, kwargs=kwargs)).content.decode()
        assert f'href="{url}"' in html, name
        # Prominent: before the page's first form.
        assert html.index(f'href="{url}"') < html.index('<form method="post"'), name


# ====================================================================== the API
def _api_url(event) -> str:
    return reverse("tournaments-api:event-night", kwargs={"event_id": event.pk})


def test_the_api_gives_the_same_rows(event, director, drawn):
    m = drawn.matches.get(table=4)
    result_enter(match_id=m.pk, by=director, score_a=5, score_b=3)
    answer = api_client(director).get(_api_url(event))
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["event"] == event.pk and body["sort"] == "table"
    groups = [r["group"] for r in body["rows"]]
    assert groups == ["open"] * 3 + ["waiting"] * 3 + ["done"]
    assert [r["table"] for r in body["rows"][:3]] == [1, 2, 3]
    done = body["rows"][-1]
    assert (done["id"], done["score_a"], done["score_b"], done["status"]) == (
        m.pk,
        5,
        3,
        "confirmed",
    )
    first = body["rows"][0]
    assert first["name_a"] and first["name_b"] and first["flight_name"] == drawn.name
    found = api_client(director).get(_api_url(event), {"q": "Hanna", "sort": "name"}).json()
    assert found["sort"] == "name"
    assert [r["name_b"] for r in found["rows"]] == ["Farkas Hanna"]


def test_the_api_is_the_directors(event, drawn):
    assert api_client().get(_api_url(event)).status_code == 401
    assert api_client(UserFactory()).get(_api_url(event)).status_code == 403
    missing = reverse("tournaments-api:event-night", kwargs={"event_id": 999999})
    assert api_client(UserFactory()).get(missing).status_code == 404

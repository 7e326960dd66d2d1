"""Whether an event is rated (issue 8), where events are created and edited: the service
(changes only before the first rated result, 409 ``event_has_results`` after), the API
(read and write, the event's directors only, in the schema) and the director's pages."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from games.errors import Conflict, PermissionDenied, ValidationFailed
from games.models import RatedResult
from tests.factories import UserFactory, UserPlayerFactory, api_client
from tests.tournaments.factories import EventFactory, flight_with, rated_players
from tournaments.models import Event, TournamentMatch
from tournaments.services.draw import flight_draw
from tournaments.services.events import event_update
from tournaments.services.results import result_correct, result_enter

pytestmark = pytest.mark.django_db


_api = api_client


@pytest.fixture
def en(client):
    client.cookies["django_language"] = "en"
    return client


def _drawn(event, n=4):
    director = event.directors.get()
    players = rated_players(n, with_login=True)
    flight = flight_with(event, players, match_length=3)
    flight_draw(flight_id=flight.pk, by=director)
    return flight, players


def _ready(flight):
    return TournamentMatch.objects.filter(flight=flight, status="ready").order_by("pk")


def _row(event):
    return Event.objects.filter(pk=event.pk).values().get()


# ---------------------------------------------------------------------- the service
def test_the_settings_change_and_rated_only_before_the_first_rated_result(event, director):
    flight, _players = _drawn(event)
    updated = event_update(
        event_id=event.pk,
        by=director,
        name="  Téli Kupa ",
        starts_on=datetime.date(2025, 12, 6),
        location="Szeged",
        rated=False,
    )
    assert (updated.name, updated.location, updated.rated) == ("Téli Kupa", "Szeged", False)
    assert _row(event)["starts_on"] == datetime.date(2025, 12, 6)
    assert _row(event)["slug"] == event.slug  # the address stays

    # A walkover is not in the rating ledger: the flag still changes.
    first, second = _ready(flight)
    result_enter(match_id=first.pk, by=director, walkover_winner="a")
    event_update(event_id=event.pk, by=director, rated=True)
    # A played result is: the flag no longer changes, in either direction.
    result_enter(match_id=second.pk, by=director, score_a=3, score_b=1)
    assert RatedResult.objects.get().rated is True
    before = _row(event)
    with pytest.raises(Conflict) as refused:
        event_update(event_id=event.pk, by=director, name="Más", rated=False)
    assert refused.value.code == "event_has_results"
    assert refused.value.extra == {"rated": True}
    assert _row(event) == before  # nothing changed, not even the name
    # The value it has is no change: the other settings still save.
    event_update(event_id=event.pk, by=director, name="Más", rated=True)
    assert _row(event)["name"] == "Más"


def test_an_unrated_event_records_its_results_unrated_after_the_change(event, director):
    flight, _players = _drawn(event)
    event_update(event_id=event.pk, by=director, rated=False)
    m = _ready(flight).first()
    result_enter(match_id=m.pk, by=director, score_a=3, score_b=0)
    row = RatedResult.objects.get()
    assert row.rated is False and row.change1 is None
    with pytest.raises(Conflict):
        event_update(event_id=event.pk, by=director, rated=True)


def test_a_reset_result_no_longer_counts(event, director):
    """Once the only played result is corrected into a walkover it leaves the ledger."""
    flight, _players = _drawn(event, n=2)
    (final,) = _ready(flight)
    result_enter(match_id=final.pk, by=director, score_a=3, score_b=0)
    with pytest.raises(Conflict):
        event_update(event_id=event.pk, by=director, rated=False)
    result_correct(match_id=final.pk, by=director, reason="no show", walkover_winner="a")
    assert not RatedResult.objects.exists()
    assert event_update(event_id=event.pk, by=director, rated=False).rated is False


def test_only_the_events_directors_change_it(event, director):
    player = UserPlayerFactory()
    other_director = EventFactory().directors.get()
    superuser = UserFactory(is_superuser=True)
    before = _row(event)
    for user in (None, UserFactory(), player.user, other_director):
        with pytest.raises(PermissionDenied) as refused:
            event_update(event_id=event.pk, by=user, rated=False)
        assert refused.value.code == "not_a_director"
    assert _row(event) == before
    with pytest.raises(ValidationFailed):
        event_update(event_id=event.pk, by=director, name="  ")
    assert event_update(event_id=event.pk, by=superuser, rated=False).rated is False


# ---------------------------------------------------------------------- the API
API_EXPECTED = {
    "anonymous": 401,
    "player": 403,
    "other_player": 403,
    "other_director": 403,
    "director": 200,
    "superuser": 200,
}


@pytest.mark.parametrize("actor", sorted(API_EXPECTED))
def test_the_api_authorization_matrix_of_changing_rated(event, director, actor):
    _flight, players = _drawn(event)
    actors = {
        "anonymous": None,
        "player": players[0].user,  # plays in the event
        "other_player": UserPlayerFactory().user,
        "other_director": EventFactory().directors.get(),
        "director": director,
        "superuser": UserFactory(is_superuser=True),
    }
    before = _row(event)
    response = _api(actors[actor]).patch(
        f"/api/v1/events/{event.pk}/", {"rated": False}, format="json"
    )
    assert response.status_code == API_EXPECTED[actor], response.json()
    if response.status_code == 200:
        assert response.json()["rated"] is False
        assert _row(event)["rated"] is False
    else:
        assert response.json()["code"] in {"not_authenticated", "not_a_director"}
        assert _row(event) == before


def test_the_api_reads_and_writes_rated_and_refuses_it_after_results(director):
    api = _api(director)
    created = api.post(
        "/api/v1/events/", {"name": "Barátságos", "starts_on": "2025-05-01", "rated": False}
    )
    assert created.status_code == 201 and created.json()["rated"] is False
    event = Event.objects.get(pk=created.json()["id"])
    assert event.rated is False
    # A form post without the field: rated, the default (not an unticked box).
    default = api.post("/api/v1/events/", {"name": "Klubnap", "starts_on": "2025-05-02"})
    assert default.status_code == 201 and default.json()["rated"] is True
    # Both are drafts: their director reads them (the public sees them once published).
    assert api.get(f"/api/v1/events/{event.pk}/").json()["rated"] is False
    assert api.get("/api/v1/events/").json()["results"][0]["rated"] in (True, False)

    changed = api.patch(
        f"/api/v1/events/{event.pk}/", {"rated": True, "location": "Győr"}, format="json"
    )
    assert changed.status_code == 200, changed.json()
    assert (changed.json()["rated"], changed.json()["location"]) == (True, "Győr")
    # Only what is given changes.
    renamed = api.patch(f"/api/v1/events/{event.pk}/", {"name": "Tavaszi"}, format="json")
    assert (renamed.json()["name"], renamed.json()["rated"]) == ("Tavaszi", True)

    flight, _players = _drawn(event)
    m = _ready(flight).first()
    result_enter(match_id=m.pk, by=director, score_a=3, score_b=1)
    before = _row(event)
    refused = api.patch(f"/api/v1/events/{event.pk}/", {"rated": False}, format="json")
    assert refused.status_code == 409
    assert refused.json()["code"] == "event_has_results"
    assert "can no longer be changed" in refused.json()["detail"]
    assert _row(event) == before
    bad = api.patch(f"/api/v1/events/{event.pk}/", {"rated": "perhaps"}, format="json")
    assert bad.status_code == 400
    assert api.patch("/api/v1/events/999999/", {"rated": False}, format="json").status_code == 404


def test_the_schema_has_rated_and_the_event_patch(client):
    schema = client.get("/api/schema/", {"format": "json"}).json()
    assert "patch" in schema["paths"]["/api/v1/events/{event_id}/"]
    components = schema["components"]["schemas"]
    assert "rated" in components["EventOutput"]["properties"]
    assert "rated" in components["EventCreateInput"]["properties"]
    assert "rated" in components["PatchedEventUpdateInput"]["properties"]
    assert "place_label" in components["EntryOutput"]["properties"]


# ---------------------------------------------------------------------- the pages
def test_creating_an_event_rated_or_not_on_the_page(en, director):
    en.force_login(director)
    url = reverse("tournaments:event-create")
    form = en.get(url).content.decode()
    assert 'name="rated"' in form and "checked" in form  # rated unless unticked
    en.post(url, {"name": "Barátságos", "starts_on": "2025-05-01"})
    assert Event.objects.get(slug="baratsagos").rated is False  # an unticked box
    en.post(url, {"name": "Bajnokság", "starts_on": "2025-05-01", "rated": "on"})
    assert Event.objects.get(slug="bajnoksag").rated is True


def test_the_settings_form_on_the_directors_page(en, event, director):
    en.force_login(director)
    manage = reverse("tournaments:event-manage", kwargs={"slug": event.slug})
    url = reverse("tournaments:event-update", kwargs={"slug": event.slug})
    page = en.get(manage).content.decode()
    assert f'action="{url}"' in page and "Ratings" in page
    assert _inputs(page, "rated") == {"True": "checked", "False": ""}
    base = {"name": "Új név", "starts_on": "2025-03-08", "location": "Eger"}
    done = en.post(url, {**base, "rated": "False"}, follow=True)
    assert "The event&#x27;s settings were saved." in done.content.decode()
    event.refresh_from_db()
    assert (event.name, event.location, event.rated) == ("Új név", "Eger", False)
    assert "Not rated" in en.get(reverse("tournaments:event", args=[event.slug])).content.decode()
    en.post(url, {**base, "name": "Második"})  # without the radios: rated stays
    event.refresh_from_db()
    assert (event.name, event.rated) == ("Második", False)
    en.post(url, {**base, "rated": "True"})
    event.refresh_from_db()
    assert event.rated is True

    # After a played result: the radios are shown disabled (a browser then sends none)
    # and the other settings still save; a post that changes rated (a page opened
    # before the result) is refused with the service's words, and nothing changes.
    flight, _players = _drawn(event)
    result_enter(match_id=_ready(flight).first().pk, by=director, score_a=3, score_b=0)
    page = en.get(manage).content.decode()
    assert "Results of this event are in the rating list already" in page
    assert _inputs(page, "rated", attribute="disabled") == {"True": "disabled", "False": "disabled"}
    en.post(url, {**base, "name": "Más"})
    event.refresh_from_db()
    assert (event.name, event.rated) == ("Más", True)
    refused = en.post(url, {**base, "name": "Megint más", "rated": "False"}, follow=True)
    assert "whether it is rated can no longer be changed" in refused.content.decode()
    event.refresh_from_db()
    assert (event.name, event.rated) == ("Más", True)
    invalid = en.post(url, {"name": "", "starts_on": "x", "rated": "maybe"}, follow=True)
    assert invalid.status_code == 200
    event.refresh_from_db()
    assert (event.name, event.rated) == ("Más", True)


def _inputs(html: str, name: str, attribute: str = "checked") -> dict[str, str]:
    """The ``value`` of each ``<input name=...>`` -> ``attribute`` if the tag has it."""
    out = {}
    for tag in html.split("<input")[1:]:
        tag = tag.split(">")[0]
        if f'name="{name}"' in tag:
            value = tag.split('value="')[1].split('"')[0]
            out[value] = attribute if f" {attribute}" in tag else ""
    return out

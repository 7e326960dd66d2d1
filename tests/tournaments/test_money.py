"""The night's money (issue 17) through the services, the pages and the API: money settings,
side pools, payouts from the paid entries and the finishing order, refusals, permission."""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from django.urls import reverse
from django.utils import timezone, translation
from rest_framework.test import APIClient

from games.errors import Conflict, NotFound, PermissionDenied, ValidationFailed
from tests.factories import UserFactory
from tests.tournaments.factories import flight_with, rated_players
from tournaments import prizes
from tournaments.models import Entry, Event, FlightMoney, SidePool, TournamentMatch
from tournaments.services.draw import flight_draw
from tournaments.services.money import (
    flight_money_set,
    side_pool_create,
    side_pool_delete,
    side_pool_enter,
    side_pool_leave,
    side_pool_paid_set,
)
from tournaments.services.results import result_enter

pytestmark = pytest.mark.django_db

EN = {"django_language": "en"}


def pay(flight, *, but=()):
    """The desk's paid flag (helper d's ``entry_set_paid``), written straight on the rows."""
    Entry.objects.filter(flight=flight).exclude(pk__in=[e.pk for e in but]).update(
        paid_at=timezone.now()
    )


def play_out(flight, director):
    """Results for every ready match, the better seed winning, until none is ready."""
    while True:
        ready = list(
            TournamentMatch.objects.filter(flight=flight, status="ready").select_related(
                "entry_a", "entry_b"
            )
        )
        if not ready:
            return
        for m in ready:
            a = m.entry_a.seed < m.entry_b.seed
            result_enter(
                match_id=m.pk,
                by=director,
                score_a=m.match_length if a else 0,
                score_b=0 if a else m.match_length,
            )


def consolation_of_8(event, director):
    flight = flight_with(event, rated_players(8), format="consolation", name="Main")
    flight_draw(flight_id=flight.pk, by=director)
    flight.refresh_from_db()
    return flight


def by_seed(flight):
    return {e.seed: e for e in flight.entries.all()}


# ---------------------------------------------------------------- services and payouts
def test_the_issues_40_25_25_10_after_the_final(event, director):
    flight = consolation_of_8(event, director)
    flight_money_set(
        flight_id=flight.pk,
        by=director,
        fee="5000",
        house_percent="10",
        split={"main": [40, 25], "consolation": [25, 10]},
    )
    pay(flight)
    play_out(flight, director)
    flight.refresh_from_db()
    assert flight.status == "finished"
    found = prizes.flight_payouts(flight=flight)
    seeds = by_seed(flight)
    r = found.main.result
    assert (r.collected, r.house, r.prize_pool) == (D(40000), D(4000), D(36000))
    got = {(line.payout.ranking, line.entry.seed): line.payout.amount for line in found.main.lines}
    assert got == {
        ("main", 1): D(14400),
        ("main", 2): D(9000),
        ("consolation", 5): D(9000),
        ("consolation", 6): D(3600),
    }
    assert seeds[1].paid_at is not None
    assert found.final and r.remainder == r.unclaimed == 0


def test_the_preview_while_the_flight_runs_and_unpaid_entries_counted_out(event, director):
    flight = consolation_of_8(event, director)
    flight_money_set(flight_id=flight.pk, by=director, fee="1000", split={"main": [50, 30, 10, 10]})
    seeds = by_seed(flight)
    pay(flight, but=[seeds[8]])
    found = prizes.flight_payouts(flight=flight)
    assert found.main.result.collected == D(7000)
    assert not found.final
    # Nobody is out yet: the 7 paid share 1st-7th (100 %), "if it ended as it stands".
    assert [line.payout.amount for line in found.main.lines] == [D(1000)] * 7
    assert {line.payout.label for line in found.main.lines} == {"1-7"}
    assert [e.seed for e in found.main.unpaid] == [8]


def test_a_swiss_tie_shares_its_places(event, director):
    flight = flight_with(event, rated_players(4), format="swiss", options={"rounds": 1})
    flight_draw(flight_id=flight.pk, by=director)
    flight_money_set(flight_id=flight.pk, by=director, fee="1000", split={"": [60, 40]})
    pay(flight)
    play_out(flight, director)
    flight.refresh_from_db()
    found = prizes.flight_payouts(flight=flight)
    r = found.main.result
    assert r.paid_out + r.house + r.unclaimed + r.remainder == r.collected == D(4000)
    amounts = sorted(line.payout.amount for line in found.main.lines)
    labels = {line.payout.label for line in found.main.lines}
    # Two winners of round 1: tied for 1st-2nd (2000 each), unless a tiebreak parts them.
    assert amounts in ([D(2000), D(2000)], [D(1600), D(2400)])
    assert labels <= {"1", "2", "1-2"}


def test_side_pools_have_their_own_entrants_fee_and_split(event, director):
    flight = consolation_of_8(event, director)
    seeds = by_seed(flight)
    pool = side_pool_create(flight_id=flight.pk, by=director, name="Jackpot", fee="2000")
    assert pool.split == {"main": ["70", "30"]}
    for seed in (2, 3, 4):
        side_pool_enter(pool_id=pool.pk, by=director, entry_id=seeds[seed].pk, paid=True)
    side_pool_enter(pool_id=pool.pk, by=director, entry_id=seeds[1].pk)  # not paid: out
    side_pool_enter(pool_id=pool.pk, by=director, entry_id=seeds[5].pk, paid=True)
    side_pool_leave(pool_id=pool.pk, by=director, entry_id=seeds[5].pk)
    play_out(flight, director)
    flight.refresh_from_db()
    view = prizes.flight_payouts(flight=flight).side_pools[0]
    assert view.result.collected == D(6000)
    got = {line.entry.seed: line.payout.amount for line in view.lines}
    assert got == {2: D(4200), 3: D(900), 4: D(900)}  # 2nd of the flight is 1st here
    assert [e.seed for e in view.unpaid] == [1]


def test_side_pool_paid_flag_and_delete(event, director):
    flight = consolation_of_8(event, director)
    seeds = by_seed(flight)
    pool = side_pool_create(flight_id=flight.pk, by=director, name="Side", fee="500")
    side_pool_enter(pool_id=pool.pk, by=director, entry_id=seeds[1].pk)
    member = side_pool_paid_set(pool_id=pool.pk, by=director, entry_id=seeds[1].pk, paid=True)
    assert member.paid_at is not None
    member = side_pool_paid_set(pool_id=pool.pk, by=director, entry_id=seeds[1].pk, paid=False)
    assert member.paid_at is None
    side_pool_delete(pool_id=pool.pk, by=director)
    assert not SidePool.objects.exists()


def test_no_paid_entries_and_no_settings(event, director):
    flight = consolation_of_8(event, director)
    found = prizes.flight_payouts(flight=flight)
    assert not found.settings.is_set
    assert found.settings.split == {"main": (D(40), D(25)), "consolation": (D(25), D(10))}
    assert found.main.result.collected == 0 and found.main.lines == []
    flight_money_set(flight_id=flight.pk, by=director, fee="3000")  # the default split
    assert FlightMoney.objects.get().split == {"main": ["40", "25"], "consolation": ["25", "10"]}
    assert prizes.flight_payouts(flight=flight).main.result.collected == 0


@pytest.mark.parametrize(
    ("kwargs", "code", "field"),
    [
        ({"fee": "-100"}, "invalid_amount", "fee"),
        ({"fee": "100.5"}, "amount_not_in_unit", "fee"),
        ({"fee": "100", "split": {"main": [60, 50]}}, "split_not_100", "split"),
        ({"fee": "100", "split": {"semifinal": [100]}}, "unknown_ranking", "split:semifinal"),
        ({"fee": "100", "house_percent": "101"}, "invalid_percent", "house_percent"),
        ({"fee": "100", "house_fixed": "-1"}, "invalid_amount", "house_fixed"),
        ({"fee": "100", "currency": "XYZ"}, "invalid_currency", "currency"),
        ({"fee": "100", "split": "main"}, "invalid_split", "split"),
    ],
)
def test_money_settings_are_refused_and_change_nothing(event, director, kwargs, code, field):
    flight = consolation_of_8(event, director)
    version = type(flight).objects.get(pk=flight.pk).version
    with pytest.raises(ValidationFailed) as exc:
        flight_money_set(flight_id=flight.pk, by=director, **kwargs)
    assert (exc.value.code, exc.value.extra["field"]) == (code, field)
    assert not FlightMoney.objects.exists()
    assert type(flight).objects.get(pk=flight.pk).version == version
    assert Event.objects.get().currency == "HUF"


def test_currency_and_its_unit(event, director):
    flight = consolation_of_8(event, director)
    flight_money_set(flight_id=flight.pk, by=director, fee="12.50", currency="eur")
    assert Event.objects.get().currency == "EUR"
    with pytest.raises(ValidationFailed) as exc:  # 12.50 is no whole forint amount
        flight_money_set(flight_id=flight.pk, by=director, fee="12.50", currency="HUF")
    assert exc.value.code == "amount_not_in_unit"
    with pytest.raises(ValidationFailed) as exc:  # a side pool's fee keeps the currency too
        side_pool_create(flight_id=flight.pk, by=director, name="X", fee="0.001")
    assert exc.value.extra["field"] == "fee"


def test_payouts_are_final_once_the_flight_is(event, director):
    flight = consolation_of_8(event, director)
    pool = side_pool_create(flight_id=flight.pk, by=director, name="Side", fee="500")
    play_out(flight, director)
    for call in (
        lambda: flight_money_set(flight_id=flight.pk, by=director, fee="1000"),
        lambda: side_pool_create(flight_id=flight.pk, by=director, name="Late", fee="1"),
        lambda: side_pool_delete(pool_id=pool.pk, by=director),
        lambda: side_pool_enter(pool_id=pool.pk, by=director, entry_id=flight.entries.first().pk),
    ):
        with pytest.raises(Conflict) as exc:
            call()
        assert exc.value.code == "payouts_final"


def test_side_pool_refusals(event, director):
    flight = consolation_of_8(event, director)
    other = flight_with(event, rated_players(2), name="Other")
    pool = side_pool_create(flight_id=flight.pk, by=director, name="Side", fee="500")
    with pytest.raises(Conflict):
        side_pool_create(flight_id=flight.pk, by=director, name="side", fee="500")
    with pytest.raises(ValidationFailed) as exc:
        side_pool_create(flight_id=flight.pk, by=director, name=" ", fee="500")
    assert exc.value.extra["field"] == "name"
    with pytest.raises(ValidationFailed) as exc:
        side_pool_create(flight_id=flight.pk, by=director, name="B", fee="1", split={"main": [99]})
    assert exc.value.code == "split_not_100"
    entry = flight.entries.first()
    side_pool_enter(pool_id=pool.pk, by=director, entry_id=entry.pk)
    with pytest.raises(Conflict):
        side_pool_enter(pool_id=pool.pk, by=director, entry_id=entry.pk)
    with pytest.raises(NotFound) as exc:
        side_pool_enter(pool_id=pool.pk, by=director, entry_id=other.entries.first().pk)
    assert exc.value.code == "entry_not_found"


def test_only_directors_change_money(event, director):
    flight = consolation_of_8(event, director)
    pool = side_pool_create(flight_id=flight.pk, by=director, name="Side", fee="500")
    stranger = UserFactory()
    for call in (
        lambda: flight_money_set(flight_id=flight.pk, by=stranger, fee="1000"),
        lambda: side_pool_create(flight_id=flight.pk, by=stranger, name="X", fee="1"),
        lambda: side_pool_enter(pool_id=pool.pk, by=stranger, entry_id=flight.entries.first().pk),
        lambda: side_pool_delete(pool_id=pool.pk, by=stranger),
    ):
        with pytest.raises(PermissionDenied):
            call()


# ---------------------------------------------------------------- pages
def test_the_money_page_saves_and_a_refusal_keeps_what_was_typed(client, event, director):
    flight = consolation_of_8(event, director)
    client.force_login(director)
    client.cookies.load(EN)
    url = reverse("tournaments:flight-money", args=[event.slug, flight.pk])
    page = client.get(url)
    assert page.status_code == 200
    assert 'value="40 / 25"' in page.content.decode()
    post = {
        "currency": "HUF",
        "fee": "5000",
        "house_percent": "10",
        "house_fixed": "",
        "split_main": "40 / 25",
        "split_consolation": "25 / 20",
    }
    refused = client.post(url, post)
    assert refused.status_code == 400
    html = refused.content.decode()
    assert 'value="25 / 20"' in html and 'value="5000"' in html
    assert "must add up to exactly 100" in html
    assert not FlightMoney.objects.exists()
    refused = client.post(url, {**post, "fee": "-5", "split_consolation": "25 / 10"})
    assert refused.status_code == 400
    assert 'value="-5"' in refused.content.decode()
    assert refused.context["form"].errors["fee"]
    done = client.post(url, {**post, "split_consolation": "25 / 10"})
    assert done.status_code == 302
    assert FlightMoney.objects.get().split == {"main": ["40", "25"], "consolation": ["25", "10"]}


def test_side_pools_on_the_money_page(client, event, director):
    flight = consolation_of_8(event, director)
    client.force_login(director)
    url = reverse("tournaments:side-pool-create", args=[event.slug, flight.pk])
    assert (
        client.post(url, {"name": "Jackpot", "fee": "1000", "split": "70 / 30"}).status_code == 302
    )
    pool = SidePool.objects.get()
    act = reverse("tournaments:side-pool-act", args=[event.slug, pool.pk])
    entry = flight.entries.first()
    client.post(act, {"action": "enter", "entry": entry.pk, "paid": "on"})
    assert pool.entries.get().paid_at is not None
    client.post(act, {"action": "unpaid", "entry": entry.pk})
    assert pool.entries.get().paid_at is None
    bad = client.post(url, {"name": "B", "fee": "10", "split": "50"}, cookies=EN)
    assert bad.status_code == 400 and bad.context["pool_form"].errors["split"]


def test_the_payout_page_is_the_directors_until_the_final_then_public(client, event, director):
    flight = consolation_of_8(event, director)
    flight_money_set(
        flight_id=flight.pk,
        by=director,
        fee="5000",
        house_percent="10",
        split={"main": [40, 25], "consolation": [25, 10]},
    )
    pay(flight)
    Event.objects.filter(pk=event.pk).update(status="running")
    url = reverse("tournaments:flight-payouts", args=[event.slug, flight.pk])
    assert client.get(url).status_code == 404
    client.force_login(director)
    with translation.override("en"):
        preview = client.get(url, HTTP_ACCEPT_LANGUAGE="en", cookies=EN)
    assert preview.status_code == 200
    assert "if the flight ended as it stands" in preview.content.decode()
    play_out(flight, director)
    client.logout()
    client.cookies.load(EN)
    page = client.get(url).content.decode()
    assert "these payouts are final" in page
    assert "HUF\u00a014,400" in page and "HUF\u00a036,000" in page
    client.cookies.load({"django_language": "hu"})
    assert "14\u00a0400\u00a0Ft" in client.get(url).content.decode()


def test_only_directors_open_the_money_page(client, event, director):
    flight = consolation_of_8(event, director)
    url = reverse("tournaments:flight-money", args=[event.slug, flight.pk])
    client.force_login(UserFactory())
    assert client.get(url).status_code == 403
    assert client.post(url, {"currency": "HUF", "fee": "1"}).status_code == 403


# ---------------------------------------------------------------- API
def test_the_money_api(event, director):
    flight = consolation_of_8(event, director)
    api = APIClient()
    base = f"/api/v1/flights/{flight.pk}"
    assert api.get(f"{base}/money/").json()["is_set"] is False
    assert api.put(f"{base}/money/", {"fee": "5000"}, format="json").status_code in (401, 403)
    api.force_authenticate(UserFactory())
    refused = api.put(f"{base}/money/", {"fee": "5000"}, format="json")
    assert refused.status_code == 403 and refused.json()["code"] == "not_a_director"
    assert api.get(f"{base}/payouts/").json()["code"] == "payouts_not_final"
    api.force_authenticate(director)
    body = {
        "fee": "5000",
        "house_percent": "10",
        "split": {"main": [40, 25], "consolation": [25, 10]},
    }
    got = api.put(f"{base}/money/", body, format="json").json()
    assert got == {
        "currency": "HUF",
        "fee": "5000",
        "house_percent": "10",
        "house_fixed": "0",
        "split": {"main": ["40", "25"], "consolation": ["25", "10"]},
        "is_set": True,
    }
    over = api.put(f"{base}/money/", {**body, "split": {"main": [90, 25]}}, format="json")
    assert over.status_code == 400 and over.json()["code"] == "split_not_100"
    assert over.json()["field"] == "split"
    part = api.put(f"{base}/money/", {**body, "split": {"final": [100]}}, format="json").json()
    assert (part["code"], part["field"]) == ("unknown_ranking", "split:final")
    wrong = api.put(f"{base}/money/", {**body, "currency": "XYZ"}, format="json")
    assert wrong.status_code == 400 and "currency" in wrong.json()["errors"]
    negative = api.put(f"{base}/money/", {**body, "fee": "-1"}, format="json").json()
    assert (negative["code"], negative["field"]) == ("invalid_amount", "fee")
    pool = api.post(f"{base}/side-pools/", {"name": "Jackpot", "fee": "1000"}, format="json")
    assert pool.status_code == 201
    pool_id = pool.json()["id"]
    entry = by_seed(flight)[2]
    member = api.post(f"/api/v1/side-pools/{pool_id}/entries/", {"entry": entry.pk}, format="json")
    assert member.status_code == 201 and member.json()["paid"] is False
    paid = api.patch(
        f"/api/v1/side-pools/{pool_id}/entries/{entry.pk}/", {"paid": True}, format="json"
    )
    assert paid.json()["paid"] is True
    pay(flight)
    play_out(flight, director)
    api.force_authenticate(None)
    out = api.get(f"{base}/payouts/").json()
    assert out["final"] is True and out["currency"] == "HUF"
    assert out["main"]["prize_pool"] == "36000"
    assert [(p["ranking"], p["place"], p["amount"]) for p in out["main"]["payouts"]] == [
        ("main", "1", "14400"),
        ("main", "2", "9000"),
        ("consolation", "1", "9000"),
        ("consolation", "2", "3600"),
    ]
    assert [p["percent"] for p in out["main"]["payouts"]] == ["40", "25", "25", "10"]
    assert out["side_pools"][0]["payouts"][0]["amount"] == "700"
    assert out["side_pools"][0]["unclaimed"] == "300"  # nobody else paid into it
    assert api.get(f"{base}/side-pools/").json()[0]["entrants"][0]["paid"] is True

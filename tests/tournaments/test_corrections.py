"""Corrections after the final, through the services, the page and the API (issue 17,
defect 1: in an 11-player knockout a round-1 correction answered 500
``PairingError: result_not_expected``).

Every format, with byes and with a withdrawal: a flight is played to the end, then every
match in turn (inside a savepoint rolled back after it) is corrected to the other winner,
without and with "reset their results too". Without, the answer is the corrected match
or a 409 with a code (``later_results_depend`` naming the later slots, ``no_result`` for a
bye or a withdrawal's walkover). With, exactly those slots lose their results, every
result kept is still played by the same players, every reset match has other players
now, and the flight plays to a champion again with a complete finishing order.
"""

from __future__ import annotations

import pytest
from django.db import transaction
from django.urls import reverse

from games.errors import Conflict
from tests.factories import api_client
from tests.tournaments.factories import flight_with, rated_players
from tournaments import selectors
from tournaments.models import Flight, TournamentMatch
from tournaments.services.draw import flight_draw, round_publish
from tournaments.services.entries import entry_withdraw
from tournaments.services.results import result_correct, result_enter

pytestmark = pytest.mark.django_db

#: (format, options, players, withdraw after this many results or None)
CASES = [
    ("single_elimination", {}, 11, None),
    ("single_elimination", {}, 6, 2),
    ("consolation", {"entry_rounds": 1}, 11, None),
    ("consolation", {"entry_rounds": 2}, 6, 3),
    ("progressive_consolation", {}, 6, None),
    ("last_chance", {"entry_rounds": 1}, 5, None),
    ("last_chance", {"entry_rounds": 2}, 6, 2),
    ("double_elimination", {"bracket_reset": False}, 5, None),
    ("double_elimination", {"bracket_reset": True}, 4, 3),
    ("swiss", {"rounds": 3}, 5, 4),
    ("round_robin", {}, 4, None),
]


def _play(flight, director, *, withdraw_after=None) -> None:
    """Results for the ready matches until none is ready (Swiss: publishing each next
    round), the better seed winning; after ``withdraw_after`` results the next ready
    match's side b withdraws."""
    entered = 0
    while True:
        ready = list(
            TournamentMatch.objects.filter(flight=flight, status="ready")
            .select_related("entry_a", "entry_b")
            .order_by("pk")
        )
        if not ready:
            flight.refresh_from_db()
            if flight.format == "swiss" and flight.status == "drawn":
                round_publish(flight_id=flight.pk, by=director)
                continue
            return
        m = ready[0]
        if entered == withdraw_after:
            entry_withdraw(entry_id=m.entry_b_id, by=director)
            entered += 1
            continue
        a_wins = m.entry_a.seed < m.entry_b.seed
        result_enter(match_id=m.pk, by=director, score_a=int(a_wins), score_b=int(not a_wins))
        entered += 1


def _drawn(event, director, fmt, options, n, withdraw_after=None):
    flight = flight_with(event, rated_players(n), format=fmt, options=options, match_length=1)
    flight_draw(flight_id=flight.pk, by=director)
    _play(flight, director, withdraw_after=withdraw_after)
    flight.refresh_from_db()
    assert flight.status == "finished"
    return flight


def _rows(flight) -> dict[str, TournamentMatch]:
    return {m.slot_key: m for m in TournamentMatch.objects.filter(flight=flight)}


def _complete(flight) -> None:
    """Finished, with every drawn entry placed, all places final, one champion."""
    flight.refresh_from_db()
    assert flight.status == "finished"
    orders = selectors.flight_finishing_order(flight=flight)
    main = next(iter(orders.values()))
    assert all(p.final for places in orders.values() for p in places)
    assert sorted(e.pk for p in main for e in p.entries) == sorted(
        flight.entries.filter(seed__isnull=False).values_list("pk", flat=True)
    )
    if flight.is_bracket:
        assert main[0].rank == 1 and len(main[0].entries) == 1


def _flip(row: TournamentMatch) -> dict[str, int]:
    return {"score_a": int(row.winner == "b"), "score_b": int(row.winner == "a")}


class _Rollback(Exception):
    pass


def _correct_every_match(flight, director) -> int:
    corrected = 0
    for key, row in _rows(flight).items():
        try:
            with transaction.atomic():
                corrected += _correct_one(flight, director, key, row)
                raise _Rollback
        except _Rollback:
            pass
    return corrected


def _correct_one(flight, director, key, row) -> int:
    before = _rows(flight)
    if row.decided_at is None:  # a bye, a withdrawal's walkover
        with pytest.raises(Conflict) as refused:
            result_correct(match_id=row.pk, by=director, reason="r", **_flip(row))
        assert refused.value.code == "no_result"
        return 0
    depend: list[str] = []
    refused: Conflict | None = None
    try:
        with transaction.atomic():
            result_correct(match_id=row.pk, by=director, reason="sheet", **_flip(row))
            raise _Rollback
    except Conflict as exc:
        refused = exc
    except _Rollback:
        pass
    if refused is not None:
        assert refused.code == "later_results_depend", key
        depend = refused.extra["slots"]
        assert depend and key not in depend
    if not flight.is_bracket:
        assert depend == []
    result_correct(match_id=row.pk, by=director, reason="sheet", reset_later=True, **_flip(row))
    after = _rows(flight)
    assert after[key].winner != row.winner
    lost = sorted(k for k, m in after.items() if before[k].decided_at and not m.decided_at)
    assert lost == sorted(depend), key
    for k, m in after.items():
        sides_before = (before[k].entry_a_id, before[k].entry_b_id)
        if m.decided_at is not None:  # kept: the same players
            assert (m.entry_a_id, m.entry_b_id) == sides_before, (key, k)
        elif k in depend:  # reset: other players (or not known yet)
            assert (m.entry_a_id, m.entry_b_id) != sides_before, (key, k)
    if depend:
        flight.refresh_from_db()
        assert flight.status == "drawn"
    _play(flight, director)
    _complete(flight)
    return 1


@pytest.mark.parametrize(
    ("fmt", "options", "n", "withdraw_after"),
    CASES,
    ids=[f"{c[0]}-{c[1]}-{c[2]}-w{c[3]}" for c in CASES],
)
def test_every_correction_of_every_match_after_the_final(
    event, director, fmt, options, n, withdraw_after
):
    flight = _drawn(event, director, fmt, options, n, withdraw_after)
    _complete(flight)
    assert _correct_every_match(flight, director) > 0
    _complete(flight)


def test_eleven_players_the_page_and_the_api_answer_409_then_200(client, event, director):
    """The reported case: M1-2 and M2-2 corrected after the final of 11."""
    flight = _drawn(event, director, "single_elimination", {}, 11)
    m12, m22 = (TournamentMatch.objects.get(flight=flight, slot_key=k) for k in ("M1-2", "M2-2"))
    api = api_client(director)
    url = f"/api/v1/tournament-matches/{m12.pk}/correct/"
    refused = api.post(url, {"reason": "sheet", **_flip(m12)}, format="json")
    assert refused.status_code == 409, refused.content
    assert refused.json()["code"] == "later_results_depend"
    assert refused.json()["slots"] == ["M2-1", "M3-1", "M4-1"]
    done = api.post(url, {"reason": "sheet", "reset_later": True, **_flip(m12)}, format="json")
    assert done.status_code == 200, done.content
    assert Flight.objects.get(pk=flight.pk).status == "drawn"
    _play(flight, director)
    _complete(flight)

    client.cookies["django_language"] = "en"
    client.force_login(director)
    page = reverse("tournaments:match-correct", kwargs={"slug": event.slug, "match_id": m22.pk})
    m22.refresh_from_db()
    form = {"reason": "sheet", "score_a": str(int(m22.winner == "b")), "expected_version": ""}
    form["score_b"] = str(int(m22.winner == "a"))
    refused = client.post(page, form, follow=True)
    assert refused.status_code in (200, 409)
    assert "Later matches were already played" in refused.content.decode()
    done = client.post(page, {**form, "reset_later": "on"}, follow=True)
    assert done.status_code == 200
    assert "The result was corrected." in done.content.decode()
    assert TournamentMatch.objects.get(flight=flight, slot_key="M4-1").decided_at is None
    _play(flight, director)
    _complete(flight)

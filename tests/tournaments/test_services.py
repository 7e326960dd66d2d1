"""Tournament services on PostgreSQL: who may do what, reports and confirmations,
audited corrections, walkovers after withdrawals, late entries taking byes."""

from __future__ import annotations

import datetime

import pytest

from games.errors import Conflict, PermissionDenied, ValidationFailed
from games.models import Notification, Player
from tests.factories import UserFactory, UserPlayerFactory
from tests.tournaments.factories import (
    DirectorFactory,
    EventFactory,
    flight_with,
    rated_players,
    sheet,
)
from tournaments import selectors
from tournaments.models import Entry, Event, Flight, ResultCorrection, TournamentMatch
from tournaments.services.draw import flight_draw, round_publish
from tournaments.services.entries import entry_register, entry_withdraw
from tournaments.services.events import event_add_director, event_create
from tournaments.services.flights import flight_create, flight_round_set
from tournaments.services.results import (
    match_set_table,
    result_confirm,
    result_correct,
    result_enter,
    result_report,
)

pytestmark = pytest.mark.django_db


def _match(flight, key):
    return TournamentMatch.objects.select_related("entry_a__player", "entry_b__player").get(
        flight=flight, slot_key=key
    )


@pytest.fixture
def drawn(event, director):
    """A drawn 4-player knockout with logins: M1-1 = seed 1 v 4, M1-2 = seed 2 v 3."""
    players = rated_players(4, with_login=True)
    flight = flight_with(event, players)
    flight_draw(flight_id=flight.pk, by=director)
    flight_with(event, [], name="Side")  # still taking entries
    return flight, players


# ====================================================================== authorization
def test_event_create_needs_the_permission_and_makes_the_creator_director():
    with pytest.raises(PermissionDenied):
        event_create(by=UserFactory(), name="Kupa", starts_on=datetime.date(2025, 1, 1))
    creator = DirectorFactory()
    event = event_create(by=creator, name="Tavaszi Kupa", starts_on=datetime.date(2025, 4, 5))
    assert event.slug == "tavaszi-kupa" and event.status == Event.Status.DRAFT
    assert list(event.directors.all()) == [creator]
    with pytest.raises(Conflict) as taken:
        event_create(by=creator, name="Tavaszi kupa", starts_on=datetime.date(2025, 4, 5))
    assert taken.value.code == "slug_taken"


DIRECTOR_WRITES = {
    "event_add_director": lambda f, m, by: event_add_director(
        event_id=f.event_id, by=by, user=UserFactory()
    ),
    "flight_create": lambda f, m, by: flight_create(
        event_id=f.event_id, by=by, name="B", format="swiss", options={"rounds": 3}
    ),
    "flight_round_set": lambda f, m, by: flight_round_set(
        flight_id=f.pk, by=by, part="main", number=2, match_length=7
    ),
    "entry_register": lambda f, m, by: entry_register(
        flight_id=Flight.objects.get(event_id=f.event_id, name="Side").pk, by=by, name="Walk In"
    ),
    "entry_withdraw": lambda f, m, by: entry_withdraw(entry_id=m.entry_b_id, by=by),
    "round_publish": lambda f, m, by: round_publish(flight_id=f.pk, by=by, part="main", number=1),
    "result_enter": lambda f, m, by: result_enter(match_id=m.pk, by=by, score_a=5, score_b=2),
    "match_set_table": lambda f, m, by: match_set_table(match_id=m.pk, by=by, table=9),
}


@pytest.mark.parametrize("write", sorted(DIRECTOR_WRITES))
def test_director_writes_are_refused_to_everyone_but_the_events_directors(drawn, director, write):
    flight, _ = drawn
    match = _match(flight, "M1-1")
    other_director = EventFactory().directors.get()
    player_of_match = match.entry_a.player.user
    other_player = match.entry_b.player.user
    stranger = UserPlayerFactory().user
    for user in (other_director, player_of_match, other_player, stranger):
        with pytest.raises(PermissionDenied) as refused:
            DIRECTOR_WRITES[write](flight, match, user)
        assert refused.value.code == "not_a_director"
    DIRECTOR_WRITES[write](flight, match, director)  # the event's own director may
    superuser = UserFactory(is_superuser=True, is_staff=True)
    DIRECTOR_WRITES["match_set_table"](flight, match, superuser)


def test_draw_and_correct_are_director_only(event, director):
    players = rated_players(2, with_login=True)
    flight = flight_with(event, players)
    with pytest.raises(PermissionDenied):
        flight_draw(flight_id=flight.pk, by=players[0].user)
    with pytest.raises(PermissionDenied):
        flight_draw(flight_id=flight.pk, by=EventFactory().directors.get())
    flight_draw(flight_id=flight.pk, by=director)
    final = _match(flight, "M1-1")
    result_enter(match_id=final.pk, by=director, score_a=5, score_b=3)
    for user in (players[0].user, players[1].user, EventFactory().directors.get()):
        with pytest.raises(PermissionDenied):
            result_correct(match_id=final.pk, by=user, reason="typo", score_a=3, score_b=5)


def test_players_report_only_their_own_matches(drawn, director):
    flight, _ = drawn
    match = _match(flight, "M1-1")
    other_match_player = _match(flight, "M1-2").entry_a.player.user
    for user in (other_match_player, director, UserPlayerFactory().user):
        with pytest.raises(PermissionDenied) as refused:
            result_report(match_id=match.pk, by=user, score_a=5, score_b=1)
        assert refused.value.code == "not_your_match"


# ====================================================================== reports
def test_a_report_confirmed_by_the_opponent_stands_and_advances(drawn):
    flight, _ = drawn
    match = _match(flight, "M1-1")
    a, b = match.entry_a.player, match.entry_b.player
    reported = result_report(match_id=match.pk, by=a.user, games=sheet(1, 5))
    assert reported.status == "reported" and reported.report_a["score_a"] == 5
    note = Notification.objects.get(recipient=b, kind="result_to_confirm")
    assert a.name in note.title
    with pytest.raises(PermissionDenied) as own:
        result_confirm(match_id=match.pk, by=a.user)
    assert own.value.code == "own_report"
    with pytest.raises(PermissionDenied):
        result_confirm(match_id=match.pk, by=_match(flight, "M1-2").entry_a.player.user)
    done = result_confirm(match_id=match.pk, by=b.user, expected_version=match.version + 1)
    assert done.status == "confirmed" and done.winner == "a" and done.decided_by == b.user
    assert len(done.games) == 6
    final = _match(flight, "M2-1")
    assert final.entry_a_id == match.entry_a_id and final.entry_b_id is None
    assert final.status == "pending"


def test_matching_reports_stand_and_different_ones_are_kept_disputed(drawn, director):
    flight, _ = drawn
    match = _match(flight, "M1-2")
    a, b = match.entry_a.player.user, match.entry_b.player.user
    result_report(match_id=match.pk, by=a, score_a=5, score_b=3)
    # A different second report is stored, not refused (issue 29): the match is disputed.
    disputed = result_report(match_id=match.pk, by=b, score_a=3, score_b=5)
    assert disputed.status == "disputed" and disputed.decided_at is None
    row = TournamentMatch.objects.get(pk=match.pk)
    assert (row.report_a["score_a"], row.report_b["score_a"]) == (5, 3)
    # The players may still agree: then the result stands.
    done = result_report(match_id=match.pk, by=b, score_a=5, score_b=3)
    assert done.status == "confirmed" and done.winner == "a"
    with pytest.raises(Conflict) as again:
        result_report(match_id=match.pk, by=a, score_a=5, score_b=3)
    assert again.value.code == "result_exists"


def test_the_director_confirms_a_single_report(drawn, director):
    flight, _ = drawn
    match = _match(flight, "M1-1")
    result_report(match_id=match.pk, by=match.entry_b.player.user, score_a=2, score_b=5)
    done = result_confirm(match_id=match.pk, by=director)
    assert done.winner == "b" and (done.score_a, done.score_b) == (2, 5)
    assert done.decided_by == director


def test_stale_version_and_impossible_scores_are_refused_and_change_nothing(drawn, director):
    flight, _ = drawn
    match = _match(flight, "M1-1")
    with pytest.raises(Conflict) as stale:
        result_enter(match_id=match.pk, by=director, score_a=5, score_b=1, expected_version=99)
    assert stale.value.code == "stale_version"
    with pytest.raises(ValidationFailed) as impossible:
        result_enter(match_id=match.pk, by=director, score_a=5, score_b=5)
    assert impossible.value.code == "both_reached"
    with pytest.raises(ValidationFailed) as short:
        result_enter(match_id=match.pk, by=director, games=sheet(1, 5)[:-1])
    assert short.value.code == "match_not_finished" and short.value.extra["game"] == 5
    row = TournamentMatch.objects.get(pk=match.pk)
    assert row.status == "ready" and row.version == match.version and row.decided_at is None


# ====================================================================== corrections
def test_a_correction_is_audited_and_moves_the_winner_on(drawn, director):
    flight, _ = drawn
    m1, m2 = _match(flight, "M1-1"), _match(flight, "M1-2")
    result_enter(match_id=m1.pk, by=director, score_a=5, score_b=2)
    result_enter(match_id=m2.pk, by=director, score_a=5, score_b=4)
    final = _match(flight, "M2-1")
    assert (final.entry_a_id, final.entry_b_id) == (m1.entry_a_id, m2.entry_a_id)
    assert final.status == "ready"
    with pytest.raises(ValidationFailed) as why:
        result_correct(match_id=m2.pk, by=director, reason=" ", score_a=4, score_b=5)
    assert why.value.code == "reason_required"
    corrected = result_correct(
        match_id=m2.pk, by=director, reason="scores swapped on the sheet", score_a=4, score_b=5
    )
    assert corrected.winner == "b"
    audit = ResultCorrection.objects.get(match=m2)
    assert audit.by == director and audit.reason == "scores swapped on the sheet"
    assert (audit.old["winner"], audit.old["score_a"]) == ("a", 5)
    assert (audit.new["winner"], audit.new["score_a"]) == ("b", 4)
    final = _match(flight, "M2-1")
    assert final.entry_b_id == m2.entry_b_id and final.status == "ready"
    # The new finalist hears of it.
    assert Notification.objects.filter(
        recipient=m2.entry_b.player, kind="match_ready", subject__startswith=f"tmatch:{final.pk}:"
    ).exists()
    # Once the final is played, the semi-final's winner can no longer change.
    result_enter(match_id=final.pk, by=director, score_a=5, score_b=0)
    with pytest.raises(Conflict) as later:
        result_correct(match_id=m2.pk, by=director, reason="x", score_a=5, score_b=4)
    assert later.value.code == "later_results_depend"
    assert later.value.extra["slots"] == ["M2-1"]
    # The same winner with another score is fine.
    result_correct(match_id=m2.pk, by=director, reason="it was 3-5", score_a=3, score_b=5)
    assert ResultCorrection.objects.filter(match=m2).count() == 2


def test_a_correction_may_reset_the_later_results_that_depended_on_it(drawn, director):
    flight, _ = drawn
    m1, m2 = _match(flight, "M1-1"), _match(flight, "M1-2")
    result_enter(match_id=m1.pk, by=director, score_a=5, score_b=2)
    result_enter(match_id=m2.pk, by=director, score_a=5, score_b=4)
    final = _match(flight, "M2-1")
    result_enter(match_id=final.pk, by=director, score_a=5, score_b=0)
    assert Flight.objects.get(pk=flight.pk).status == "finished"
    corrected = result_correct(
        match_id=m2.pk,
        by=director,
        reason="wrong winner on the sheet",
        score_a=4,
        score_b=5,
        reset_later=True,
    )
    assert corrected.winner == "b"
    final = _match(flight, "M2-1")
    # The final is to be played again, by the right players; both corrections audited.
    assert (final.entry_a_id, final.entry_b_id) == (m1.entry_a_id, m2.entry_b_id)
    assert final.status == "ready" and final.decided_at is None and final.score_a is None
    reset = ResultCorrection.objects.get(match=final)
    assert reset.old["winner"] == "a" and reset.new["winner"] == ""
    assert "wrong winner on the sheet" in reset.reason and "M1-2" in reset.reason
    assert ResultCorrection.objects.filter(match=m2).count() == 1
    assert Flight.objects.get(pk=flight.pk).status == "drawn"


# ====================================================================== withdrawals, late entries
def test_withdrawal_gives_the_opponent_a_walkover_that_advances(drawn, director):
    flight, _ = drawn
    m1, m2 = _match(flight, "M1-1"), _match(flight, "M1-2")
    entry_withdraw(entry_id=m1.entry_b_id, by=director)
    row = _match(flight, "M1-1")
    assert row.status == "walkover" and row.winner == "a"
    result_enter(match_id=m2.pk, by=director, score_a=1, score_b=5)
    final = _match(flight, "M2-1")
    assert (final.entry_a_id, final.entry_b_id) == (m1.entry_a_id, m2.entry_b_id)
    assert final.status == "ready"
    # A withdrawn finalist: the other takes the title by walkover; the flight is over.
    entry_withdraw(entry_id=m2.entry_b_id, by=director)
    final = _match(flight, "M2-1")
    assert final.status == "walkover" and final.winner == "a"
    flight.refresh_from_db()
    assert flight.status == Flight.Status.FINISHED
    order = selectors.flight_finishing_order(flight=flight)["main"]
    assert order[0].entries[0].pk == m1.entry_a_id


def test_forfeit_entered_by_the_director(drawn, director):
    flight, _ = drawn
    m1 = _match(flight, "M1-1")
    done = result_enter(match_id=m1.pk, by=director, walkover_winner="b")
    assert done.status == "walkover" and done.winner == "b" and done.score_a is None
    assert _match(flight, "M2-1").entry_a_id == m1.entry_b_id


def test_a_late_entry_takes_the_lowest_seeds_bye(event, director):
    players = rated_players(5)
    flight = flight_with(event, players)  # 8-bracket: seeds 1-3 have byes
    flight_draw(flight_id=flight.pk, by=director)
    assert _match(flight, "M1-3").status == "bye"  # line 1 8 4 5 2 7 3 6: seed 2 v 7
    late = entry_register(flight_id=flight.pk, by=director, name="Késő Kálmán")
    assert late.late and late.seed == 6
    assert Player.objects.filter(name="Késő Kálmán").exists()
    # Seed 6 meets seed 3 in the last match of round 1, which was a bye.
    last = _match(flight, "M1-4")
    assert last.status == "ready" and last.entry_b_id == late.pk
    result_enter(match_id=last.pk, by=director, score_a=5, score_b=0)
    # Seed 7's bye (v seed 2) is untouched by that result: still open.
    late7 = entry_register(flight_id=flight.pk, by=director, name="Még Később")
    assert late7.seed == 7
    result_enter(match_id=_match(flight, "M1-3").pk, by=director, score_a=5, score_b=2)
    result_enter(match_id=_match(flight, "M1-2").pk, by=director, score_a=5, score_b=2)
    # Seed 8 would turn seed 1's bye into a match, and so take seed 1 out of M2-1,
    # which has a result now: the last bye is closed.
    result_enter(match_id=_match(flight, "M2-1").pk, by=director, score_a=5, score_b=2)
    count = Entry.objects.count()
    with pytest.raises(Conflict) as closed:
        entry_register(flight_id=flight.pk, by=director, name="Túl Késő")
    assert closed.value.code == "late_entry_closed"
    assert Entry.objects.count() == count
    assert not Player.objects.filter(name="Túl Késő").exists()


def test_walk_in_with_an_existing_name_is_sent_to_the_existing_player(event, director):
    flight = flight_with(event, [])
    existing = rated_players(1)[0]
    with pytest.raises(Conflict) as exists:
        entry_register(flight_id=flight.pk, by=director, name=existing.name.upper())
    assert exists.value.code == "player_exists"
    assert exists.value.extra["player_id"] == existing.pk
    entry_register(flight_id=flight.pk, by=director, player_id=existing.pk)
    with pytest.raises(Conflict):
        entry_register(flight_id=flight.pk, by=director, player_id=existing.pk)


# ====================================================================== flights, draw
def test_flight_options_and_round_settings_are_validated(event, director):
    with pytest.raises(ValidationFailed) as unknown:
        flight_create(
            event_id=event.pk, by=director, name="X", format="swiss", options={"roundz": 3}
        )
    assert unknown.value.code == "invalid_option"
    with pytest.raises(ValidationFailed):
        flight_create(event_id=event.pk, by=director, name="X", format="swiss")
    with pytest.raises(ValidationFailed):
        flight_create(
            event_id=event.pk,
            by=director,
            name="X",
            format="consolation",
            options={"entry_rounds": 3},
        )
    with pytest.raises(ValidationFailed) as clock:
        flight_create(
            event_id=event.pk,
            by=director,
            name="X",
            format="round_robin",
            clock_policy="required",
        )
    assert clock.value.code == "clock_preset_required"
    flight = flight_create(
        event_id=event.pk,
        by=director,
        name="X",
        format="double_elimination",
        options={"bracket_reset": True},
        clock_preset="usbgf",
        clock_policy="allowed",
    )
    with pytest.raises(ValidationFailed) as part:
        flight_round_set(flight_id=flight.pk, by=director, part="main", number=1)
    assert part.value.code == "invalid_part"
    # No entries yet: the final is round 1 (2 players), its reset round 2.
    with pytest.raises(ValidationFailed) as no_round:
        flight_round_set(flight_id=flight.pk, by=director, part="final", number=9)
    assert no_round.value.code == "no_such_round"
    row = flight_round_set(
        flight_id=flight.pk, by=director, part="final", number=2, match_length=11
    )
    assert (row.match_length, row.clock_preset, row.clock_policy) == (11, "usbgf", "allowed")
    with pytest.raises(ValidationFailed):
        flight_round_set(flight_id=flight.pk, by=director, part="final", number=2, match_length=99)


def test_random_draw_records_its_seed_and_repeats_with_it(director):
    orders = []
    for _ in range(2):
        event = EventFactory(director=director)
        players = rated_players(6, top=1800)
        flight = flight_with(event, players, seeding="random")
        flight_draw(flight_id=flight.pk, by=director, seed=12345)
        flight.refresh_from_db()
        assert flight.seed == 12345
        orders.append([players.index(e.player) for e in flight.entries.order_by("seed")])
    assert orders[0] == orders[1]
    event = EventFactory(director=director)
    flight = flight_with(event, rated_players(3, top=1700), seeding="random")
    flight_draw(flight_id=flight.pk, by=director)
    flight.refresh_from_db()
    assert isinstance(flight.seed, int)
    with pytest.raises(Conflict):
        flight_draw(flight_id=flight.pk, by=director)


def test_a_draw_needs_two_players(event, director):
    flight = flight_with(event, rated_players(1))
    with pytest.raises(ValidationFailed) as few:
        flight_draw(flight_id=flight.pk, by=director)
    assert few.value.code == "too_few_entrants"
    assert Flight.objects.get(pk=flight.pk).status == Flight.Status.REGISTRATION

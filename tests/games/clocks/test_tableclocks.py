"""Over-the-board table clocks (R12, issue 5) through their services on PostgreSQL: a tap
ends the running player's turn, the delay runs before the reserve, stale and wrong taps
are refused and change nothing, the alarm and the sweeper record a flag once. Time is
injected through ``games.wallclock.now``, the one place that reads the wall clock."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.clocks import selectors as clock_selectors
from games.clocks import services as tableclocks
from games.clocks import sweep, tasks
from games.engine.clock import ClockState
from games.errors import Conflict, NotFound, PermissionDenied, ValidationFailed
from games.models import TableClock
from tests.factories import UserFactory, UserPlayerFactory
from tests.wall import T0

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner():
    return UserFactory(username="anna")


def _clock(owner=None, *, clock="seed002", label="Table 7", **extra) -> TableClock:
    return tableclocks.table_clock_create(
        label=label,
        player1_name="Anna",
        player2_name="Bence",
        clock=clock,
        created_by=owner,
        **extra,
    )


def _started(owner=None, *, player=0, **extra) -> TableClock:
    clock = _clock(owner, **extra)
    return tableclocks.table_clock_start(clock_id=clock.pk, player=player)


def _snapshot(clock: TableClock) -> tuple:
    clock.refresh_from_db()
    return (
        clock.version,
        clock.status,
        clock.state,
        clock.deadline_at,
        clock.armed_version,
        clock.paused_at,
        clock.updated_at,
    )


def _state(clock: TableClock) -> ClockState:
    clock.refresh_from_db()
    return ClockState.from_dict(clock.state)


# ====================================================================== creating
def test_a_new_clock_is_ready_with_both_reserves_and_no_deadline(wall, owner):
    clock = _clock(owner)
    assert (clock.status, clock.version, clock.preset) == ("ready", 0, "seed002")
    assert (clock.deadline_at, clock.armed_version, clock.created_by) == (None, None, owner)
    state = ClockState.from_dict(clock.state)
    assert (state.running, state.reserves) == (None, (90_000, 90_000))
    assert clock.clock_settings["delay_ms"] == 11_000
    view = clock_selectors.table_clock_view(clock)
    assert view["reserves_ms"] == [90_000, 90_000]
    assert (view["running"], view["delay_left_ms"], view["flagged"]) == (None, None, None)


def test_usbgf_reserves_come_from_the_match_length_and_score(wall):
    # 2 min per point, less 1 min per point already scored: 7 points at 3-2 = 9 min.
    clock = _clock(clock="usbgf", match_length=7, score=(3, 2))
    assert ClockState.from_dict(clock.state).reserves == (540_000, 540_000)
    assert clock.match_length == 7
    custom = _clock(clock={"delay_ms": 5_000, "reserve_ms": 60_000})
    assert (custom.preset, ClockState.from_dict(custom.state).reserves) == ("", (60_000, 60_000))


def test_a_linked_match_gives_players_length_score_and_clock(wall):
    from games.play import services

    anna, bence = UserPlayerFactory(name="Anna"), UserPlayerFactory(name="Bence")
    match = services.match_create(player1=anna, player2=bence, length=5, clock="usbgf")
    clock = tableclocks.table_clock_create(label="Table 1", match=match)
    assert clock.names == ("Anna", "Bence")
    assert (clock.player1, clock.player2, clock.match) == (anna, bence, match)
    assert (clock.preset, ClockState.from_dict(clock.state).reserves) == ("", (600_000, 600_000))


@pytest.mark.parametrize(
    ("extra", "code"),
    [
        ({"clock": "no-such-preset"}, "invalid_clock"),
        ({"clock": {"delay_ms": -1}}, "invalid_clock"),
        ({"clock": {"delay_ms": 0, "reserve_ms": 0}}, "invalid_clock"),
        ({"clock": None}, "invalid_clock"),
        ({"clock": "usbgf", "match_length": 5, "score": (5, 0)}, "invalid_score"),
        ({"clock": "usbgf", "match_length": 99}, "invalid_length"),
        ({"clock": "seed002", "player2_name": "  "}, "player_names_required"),
        ({"clock": "seed002", "label": ""}, "label_required"),
    ],
)
def test_bad_settings_are_refused_and_nothing_is_stored(wall, extra, code):
    values = {"label": "Table 7", "player1_name": "Anna", "player2_name": "Bence", **extra}
    with pytest.raises(ValidationFailed) as refused:
        tableclocks.table_clock_create(**values)
    assert refused.value.code == code
    assert TableClock.objects.count() == 0


# ====================================================================== running
def test_start_runs_the_first_players_clock_with_a_deadline_and_a_timer(wall):
    clock = _clock()
    clock = tableclocks.table_clock_start(clock_id=clock.pk, player=1, expected_version=0)
    assert (clock.status, clock.version) == ("running", 1)
    assert _state(clock).running == 1
    # seed002: 11 s delay + 90 s reserve.
    assert clock.deadline_at == T0 + timedelta(seconds=101)
    assert clock.armed_version == 1
    with pytest.raises(Conflict) as refused:
        tableclocks.table_clock_start(clock_id=clock.pk, player=0)
    assert refused.value.code == "clock_already_started"


def test_a_tap_ends_the_tappers_turn_and_the_delay_runs_before_the_reserve(wall):
    clock = _started(player=0)
    wall.advance(seconds=5)
    view = clock_selectors.table_clock_view(clock)
    assert (view["running"], view["delay_left_ms"], view["reserves_ms"]) == (0, 6_000, [90_000] * 2)
    wall.advance(seconds=3)  # 8 s: inside the delay, free
    clock = tableclocks.table_clock_tap(clock_id=clock.pk, player=0, expected_version=1)
    state = _state(clock)
    assert (clock.version, state.running, state.reserves) == (2, 1, (90_000, 90_000))
    assert clock.deadline_at == T0 + timedelta(seconds=8 + 101)
    wall.advance(seconds=20)  # 11 s of delay, then 9 s of Bence's reserve
    view = clock_selectors.table_clock_view(clock)
    assert (view["delay_left_ms"], view["reserves_ms"]) == (0, [90_000, 81_000])
    clock = tableclocks.table_clock_tap(clock_id=clock.pk, player=1, expected_version=2)
    state = _state(clock)
    assert (clock.version, state.running, state.reserves) == (3, 0, (90_000, 81_000))
    # Anna's turn: a fresh delay, her reserve untouched.
    assert clock.deadline_at == T0 + timedelta(seconds=28 + 101)
    view = clock_selectors.table_clock_view(clock)
    assert (view["running"], view["turn"], view["delay_left_ms"]) == (0, 0, 11_000)


def test_a_stale_tap_is_refused_and_changes_nothing(wall):
    clock = _started(player=0)
    wall.advance(seconds=3)
    tableclocks.table_clock_tap(clock_id=clock.pk, player=0, expected_version=1)
    before = _snapshot(clock)
    wall.advance(seconds=3)
    # The other tablet (or a double tap) still thinks it is version 1.
    with pytest.raises(Conflict) as refused:
        tableclocks.table_clock_tap(clock_id=clock.pk, player=1, expected_version=1)
    assert (refused.value.code, refused.value.extra["version"]) == ("stale_version", 2)
    assert _snapshot(clock) == before


def test_only_the_running_player_may_tap_and_a_refusal_changes_nothing(wall):
    clock = _started(player=0)
    wall.advance(seconds=30)
    before = _snapshot(clock)
    with pytest.raises(Conflict) as refused:
        tableclocks.table_clock_tap(clock_id=clock.pk, player=1, expected_version=1)
    assert refused.value.code == "not_your_clock"
    assert "Bence" in str(refused.value.detail)
    with pytest.raises(ValidationFailed) as invalid:
        tableclocks.table_clock_tap(clock_id=clock.pk, player=2, expected_version=1)
    assert invalid.value.code == "invalid_player"
    assert _snapshot(clock) == before


def test_taps_are_refused_unless_the_clock_runs(wall):
    clock = _clock()
    with pytest.raises(Conflict) as refused:
        tableclocks.table_clock_tap(clock_id=clock.pk, player=0, expected_version=0)
    assert refused.value.code == "clock_not_started"
    with pytest.raises(NotFound) as missing:
        tableclocks.table_clock_tap(clock_id=clock.pk + 1000, player=0, expected_version=0)
    assert missing.value.code == "table_clock_not_found"
    tableclocks.table_clock_finish(clock_id=clock.pk)
    with pytest.raises(Conflict) as refused:
        tableclocks.table_clock_tap(clock_id=clock.pk, player=0, expected_version=1)
    assert refused.value.code == "clock_finished"


def test_only_the_creator_and_directors_operate_a_clock(wall, owner):
    clock = _clock(owner)
    stranger = UserFactory(username="stranger")
    director = UserFactory(username="director", is_staff=True)
    before = _snapshot(clock)
    with pytest.raises(PermissionDenied) as refused:
        tableclocks.table_clock_start(clock_id=clock.pk, player=0, by=stranger)
    assert refused.value.code == "not_clock_operator"
    assert _snapshot(clock) == before
    clock = tableclocks.table_clock_start(clock_id=clock.pk, player=0, by=owner)
    clock = tableclocks.table_clock_tap(
        clock_id=clock.pk, player=0, expected_version=clock.version, by=director
    )
    assert _state(clock).running == 1


# ====================================================================== pause, finish
def test_a_pause_freezes_the_turn_and_resuming_goes_on_where_it_stopped(wall):
    clock = _started(player=0)
    wall.advance(seconds=5)  # 6 s of delay left
    clock = tableclocks.table_clock_pause(clock_id=clock.pk, expected_version=1)
    assert (clock.status, clock.deadline_at, clock.armed_version) == ("paused", None, None)
    wall.advance(minutes=10)
    view = clock_selectors.table_clock_view(clock)
    assert (view["running"], view["turn"], view["delay_left_ms"]) == (None, 0, 6_000)
    assert view["reserves_ms"] == [90_000, 90_000]
    with pytest.raises(Conflict) as refused:
        tableclocks.table_clock_tap(clock_id=clock.pk, player=0, expected_version=2)
    assert refused.value.code == "clock_paused"
    resumed_at = wall.at
    clock = tableclocks.table_clock_resume(clock_id=clock.pk, expected_version=2)
    assert clock.status == "running"
    assert clock.deadline_at == resumed_at + timedelta(seconds=6 + 90)
    wall.advance(seconds=16)  # 6 s of delay, 10 s of reserve
    view = clock_selectors.table_clock_view(clock)
    assert (view["delay_left_ms"], view["reserves_ms"]) == (0, [80_000, 90_000])
    with pytest.raises(Conflict) as refused:
        tableclocks.table_clock_resume(clock_id=clock.pk)
    assert refused.value.code == "clock_not_paused"


def test_finishing_charges_the_running_player_and_stops_for_good(wall):
    clock = _started(player=1)
    wall.advance(seconds=21)
    clock = tableclocks.table_clock_finish(clock_id=clock.pk, expected_version=1)
    assert (clock.status, clock.deadline_at, clock.finished_at) == ("finished", None, wall.at)
    assert _state(clock).reserves == (90_000, 80_000)
    assert clock_selectors.table_clock_view(clock)["reserves_ms"] == [90_000, 80_000]
    before = _snapshot(clock)
    with pytest.raises(Conflict) as refused:
        tableclocks.table_clock_finish(clock_id=clock.pk)
    assert refused.value.code == "clock_finished"
    assert _snapshot(clock) == before


# ====================================================================== flags
def test_the_alarm_records_the_flag_once(wall):
    clock = _started(player=0)
    version = clock.version
    assert tableclocks.table_clock_alarm(clock_id=clock.pk, version=version) == "not_due"
    wall.advance(seconds=100, milliseconds=999)
    assert tableclocks.table_clock_alarm(clock_id=clock.pk, version=version) == "not_due"
    wall.advance(milliseconds=1)  # the deadline: 11 s + 90 s
    assert tableclocks.table_clock_alarm(clock_id=clock.pk, version=version) == "flagged"
    clock.refresh_from_db()
    after = _snapshot(clock)
    assert (clock.status, clock.flagged_index, clock.version) == ("flagged", 0, version + 1)
    assert (clock.deadline_at, clock.armed_version) == (None, None)
    assert _state(clock).reserves == (0, 90_000)
    # Twice (a re-delivered task, the sweeper racing the timer): one effect.
    assert tableclocks.table_clock_alarm(clock_id=clock.pk, version=version) == "stale"
    assert tableclocks.table_clock_alarm(clock_id=clock.pk) == "stale"
    assert tasks.table_clock_alarm(clock.pk, version) == "stale"
    assert _snapshot(clock) == after
    view = clock_selectors.table_clock_view(clock)
    assert (view["status"], view["flagged"], view["running"]) == ("flagged", 0, None)
    with pytest.raises(Conflict) as refused:
        tableclocks.table_clock_tap(clock_id=clock.pk, player=1, expected_version=clock.version)
    assert refused.value.code == "clock_flagged"
    # The director ends it; the flag stays on record.
    clock = tableclocks.table_clock_finish(clock_id=clock.pk)
    assert (clock.status, clock.flagged_index) == ("finished", 0)


def test_the_timer_task_is_the_alarm_for_its_version(wall):
    clock = _started(player=0)
    assert tasks.table_clock_alarm(clock.pk, clock.version) == "not_due"
    wall.advance(seconds=200)
    assert tasks.table_clock_alarm(clock.pk, clock.version) == "flagged"
    assert tasks.table_clock_alarm(clock.pk, clock.version) == "stale"


def test_a_tap_or_pause_after_the_deadline_records_the_flag_instead(wall):
    late = _started(player=0)
    wall.advance(seconds=102)
    late = tableclocks.table_clock_tap(clock_id=late.pk, player=0, expected_version=1)
    assert (late.status, late.flagged_index, _state(late).running) == ("flagged", 0, None)
    paused = _started(player=1, label="Table 8")
    wall.advance(seconds=102)
    paused = tableclocks.table_clock_pause(clock_id=paused.pk)
    assert (paused.status, paused.flagged_index) == ("flagged", 1)


def test_the_timer_is_sent_after_commit_with_the_deadline_as_eta(
    wall, monkeypatch, django_capture_on_commit_callbacks
):
    sent = []
    monkeypatch.setattr(
        tasks.table_clock_alarm, "apply_async", lambda args, eta: sent.append((args, eta))
    )
    clock = _clock()
    with django_capture_on_commit_callbacks(execute=True):
        clock = tableclocks.table_clock_start(clock_id=clock.pk, player=0)
    assert sent == [((clock.pk, 1), T0 + timedelta(seconds=101))]
    # A far deadline (USBGF, 25 points: 50 min) gets no timer yet: the sweeper arms it.
    far = _clock(clock="usbgf", match_length=25, label="Table 9")
    with django_capture_on_commit_callbacks(execute=True):
        far = tableclocks.table_clock_start(clock_id=far.pk, player=0)
    assert (len(sent), far.armed_version) == (1, None)


def test_the_sweeper_flags_overdue_clocks_and_arms_near_deadlines(wall, settings):
    overdue = _started(player=0)
    far = _started(player=0, clock="usbgf", match_length=25, label="Table 9")
    finished = _started(player=1, label="Table 10")
    tableclocks.table_clock_finish(clock_id=finished.pk)
    # A deadline whose timer was never sent (the broker was down).
    TableClock.objects.filter(pk=overdue.pk).update(armed_version=None)
    counts = tableclocks.table_clocks_sweep_alarms()
    assert counts == {"flagged": 0, "armed": 1}
    assert TableClock.objects.get(pk=overdue.pk).armed_version == overdue.version
    assert TableClock.objects.get(pk=far.pk).armed_version is None  # 50 min away
    wall.advance(seconds=101)
    # Beat runs the clocks' sweeper; it covers table clocks too.
    sweep.clocks_sweep_alarms()
    overdue.refresh_from_db()
    assert (overdue.status, overdue.flagged_index) == ("flagged", 0)
    assert tableclocks.table_clocks_sweep_alarms() == {"flagged": 0, "armed": 0}
    wall.advance(minutes=41)  # 9 min before the far deadline: now it is armed
    assert tableclocks.table_clocks_sweep_alarms() == {"flagged": 0, "armed": 1}
    wall.advance(minutes=10)
    assert tableclocks.table_clocks_sweep_alarms() == {"flagged": 1, "armed": 0}
    statuses = dict(TableClock.objects.values_list("label", "status"))
    assert statuses == {"Table 7": "flagged", "Table 9": "flagged", "Table 10": "finished"}


def test_reads_record_a_flag_that_is_due(wall):
    clock = _started(player=1)
    assert tableclocks.table_clocks_flag_due(table_clocks=[clock]) is False
    wall.advance(seconds=150)
    view = clock_selectors.table_clock_view(clock)
    assert (view["flagged"], view["reserves_ms"]) == (1, [90_000, 0])  # computed, not stored
    assert tableclocks.table_clocks_flag_due(table_clocks=[clock]) is True
    clock.refresh_from_db()
    assert (clock.status, clock.flagged_index) == ("flagged", 1)


def test_the_list_orders_labels_as_people_read_them(wall):
    for label in ("Table 10", "Table 2", "Table 1", "Bar"):
        _clock(label=label)
    tableclocks.table_clock_finish(clock_id=TableClock.objects.get(label="Bar").pk)
    labels = [c.label for c in clock_selectors.table_clock_list()]
    assert labels == ["Table 1", "Table 2", "Table 10"]
    assert [c.label for c in clock_selectors.table_clock_list(status="finished")] == ["Bar"]
    assert len(clock_selectors.table_clock_list(status=None)) == 4

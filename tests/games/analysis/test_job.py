"""The analysis job against real GNU Backgammon (issue 28): matches gnubg plays against
itself with noise, recorded by the project's import and analysed by the project at
0-ply, agree with gnubg's own analysis of the same file; a match gnubg cannot analyse
fails with a reason; the command's JSON; a job run twice stores one result; a run that
times out is tried once more, then fails."""

from __future__ import annotations

import json
from datetime import timedelta
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.utils import timezone

from games.analysis import services
from games.analysis.driver import GnubgFailure, gnubg_analyse
from games.models import DecisionAnalysis, GameAction, MatchAnalysis, PlayerAnalysis
from games.play.interchange import match_import_mat
from tests.games.analysis.gnubgplay import reference, selfplay

pytestmark = pytest.mark.django_db


def _imported(tmp_path: Path, *, length: int, seed: int):
    path = tmp_path / f"selfplay-{seed}.mat"
    text = selfplay(path, length=length, seed=seed)
    return path, match_import_mat(text=text, by=None)


def _run(match, *, plies: int = 0) -> MatchAnalysis:
    analysis = services.analysis_request(match_id=match.pk, plies=plies, send=False)
    done = services.analysis_run(analysis_id=analysis.pk)
    assert done is not None
    return done


@pytest.mark.parametrize(("length", "seed"), [(3, 11), (5, 22), (4, 33)])
def test_the_figures_agree_with_gnubgs_own_analysis(tmp_path, length, seed):
    path, match = _imported(tmp_path, length=length, seed=seed)
    assert match.status == "finished"
    done = _run(match)
    assert done.status == MatchAnalysis.Status.DONE, done.failure_reason
    assert done.progress == 100 and done.attempts == 1
    assert done.gnubg_version.startswith("GNU Backgammon")
    gnubg_own = reference(path, plies=0)
    rows = list(PlayerAnalysis.objects.filter(analysis=done).order_by("index"))
    assert [row.player_id for row in rows] == [match.player1_id, match.player2_id]
    for index, row in enumerate(rows):
        assert abs(row.unforced_moves - gnubg_own["unforced"][index]) <= 1
        assert abs(row.close_cube_decisions - gnubg_own["close"][index]) <= 1
        expected = gnubg_own["rate"][index]
        assert abs(row.error_rate_memg - expected) <= max(1.0, 0.05 * expected)
        assert row.pr == pytest.approx(row.error_rate_memg / 2)
        decisions = row.unforced_moves + row.close_cube_decisions
        assert row.error_rate_memg == pytest.approx(row.error_total_emg / decisions * 1000, 0.01)
        assert row.rating_words and row.luck_words
        # The stored decisions add up to the player's figures.
        mine = DecisionAnalysis.objects.filter(analysis=done, player_index=index)
        unforced = mine.filter(kind="move", forced=False)
        assert unforced.count() == row.unforced_moves
        assert mine.filter(kind="cube").count() >= row.close_cube_decisions
        lost = sum(d.equity_lost for d in mine if d.kind == "move" and not d.forced)
        assert lost == pytest.approx(row.chequer_error_emg, abs=0.002)
        cube_lost = sum(d.equity_lost for d in mine.filter(kind="cube"))
        assert cube_lost == pytest.approx(row.cube_error_emg, abs=0.002)
    # Every decision names an action of its game: a play, a roll (nothing legal, or the
    # roll after a no-double), a double, take or drop.
    kinds = {"play", "roll", "opening_roll", "double", "take", "drop"}
    for decision in DecisionAnalysis.objects.filter(analysis=done):
        action = GameAction.objects.get(
            game__match=match, game__number=decision.game_number, seq=decision.action_seq
        )
        assert action.kind in kinds
        if decision.kind == "move" and action.kind == "play":
            assert action.player_index == decision.player_index
        assert decision.equity_lost >= 0


def test_a_match_file_gnubg_cannot_read_fails_with_a_reason():
    with pytest.raises(GnubgFailure) as refused:
        gnubg_analyse(mat_text="this is no match\n", plies=0, timeout=60)
    assert refused.value.code == "gnubg_refused"
    assert not refused.value.retry


def test_gnubg_failing_fails_the_job_with_a_reason(tmp_path, settings):
    _path, match = _imported(tmp_path, length=3, seed=44)
    settings.GNUBG_PROGRAM = "/bin/false"
    done = _run(match)
    assert done.status == MatchAnalysis.Status.FAILED
    assert done.failure_code == "gnubg_error"
    assert done.failure_reason
    assert not PlayerAnalysis.objects.filter(analysis=done).exists()
    assert not DecisionAnalysis.objects.filter(analysis=done).exists()


def test_analyse_match_prints_the_figures_as_json(tmp_path):
    _path, match = _imported(tmp_path, length=3, seed=55)
    out = StringIO()
    call_command("analyse_match", str(match.pk), "--plies", "0", "--json", stdout=out)
    printed = json.loads(out.getvalue())
    assert set(printed) == {"match", "plies", "players"}
    assert printed["match"] == match.pk and printed["plies"] == 0
    assert [p["player"] for p in printed["players"]] == [match.player1_id, match.player2_id]
    assert [p["name"] for p in printed["players"]] == [match.player1.name, match.player2.name]
    for player in printed["players"]:
        assert set(player) == {
            "player",
            "name",
            "unforced_moves",
            "close_cube_decisions",
            "error_total_emg",
            "error_rate_memg",
            "pr",
            "snowie_error_rate",
            "luck_rate_memg",
            "luck_adjusted_result",
        }
        assert player["pr"] == pytest.approx(player["error_rate_memg"] / 2)
    # Without --json: a table naming both players.
    table = StringIO()
    call_command("analyse_match", str(match.pk), "--plies", "0", stdout=table)
    assert match.player1.name in table.getvalue() and match.player2.name in table.getvalue()
    assert MatchAnalysis.objects.filter(match=match).count() == 1
    assert PlayerAnalysis.objects.filter(match=match).count() == 2


def test_a_job_run_twice_stores_one_result(tmp_path):
    _path, match = _imported(tmp_path, length=3, seed=66)
    done = _run(match)
    players = list(PlayerAnalysis.objects.filter(analysis=done).values_list("pk", flat=True))
    decisions = DecisionAnalysis.objects.filter(analysis=done).count()
    again = services.analysis_run(analysis_id=done.pk)
    assert again is not None
    assert again.version == done.version and again.attempts == 1
    assert list(PlayerAnalysis.objects.filter(analysis=done).values_list("pk", flat=True)) == (
        players
    )
    assert DecisionAnalysis.objects.filter(analysis=done).count() == decisions


def test_a_run_that_times_out_is_tried_once_more_then_fails(tmp_path, settings):
    _path, match = _imported(tmp_path, length=5, seed=77)
    settings.ANALYSIS_TIME_BASE = 0.2
    settings.ANALYSIS_TIME_PER_MOVE = 0.0
    first = _run(match, plies=2)
    assert first.status == MatchAnalysis.Status.QUEUED
    assert first.attempts == 1 and first.failure_code == "timeout"
    second = services.analysis_run(analysis_id=first.pk)
    assert second is not None
    assert second.status == MatchAnalysis.Status.FAILED
    assert second.attempts == 2 and second.failure_code == "timeout"
    assert second.failure_reason
    assert not PlayerAnalysis.objects.filter(analysis=second).exists()
    assert second.version > first.version


def test_finished_and_imported_matches_are_queued(tmp_path, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        _path, match = _imported(tmp_path, length=3, seed=88)
    analysis = MatchAnalysis.objects.get(match=match)
    assert analysis.status == MatchAnalysis.Status.QUEUED


def test_the_sweep_fails_a_job_whose_second_run_died(tmp_path, settings):
    _path, match = _imported(tmp_path, length=3, seed=99)
    analysis = services.analysis_request(match_id=match.pk, plies=0, send=False)
    long_ago = timezone.now() - timedelta(hours=2)
    MatchAnalysis.objects.filter(pk=analysis.pk).update(
        status=MatchAnalysis.Status.RUNNING, attempts=2, run_token="dead", started_at=long_ago
    )
    assert services.analysis_sweep() == 1
    analysis.refresh_from_db()
    assert analysis.status == MatchAnalysis.Status.FAILED
    assert analysis.failure_code == "worker_lost" and analysis.failure_reason
    # A job running for less than its limit is left to its run.
    other = _imported(tmp_path, length=3, seed=98)[1]
    fresh = services.analysis_request(match_id=other.pk, plies=0, send=False)
    MatchAnalysis.objects.filter(pk=fresh.pk).update(
        status=MatchAnalysis.Status.RUNNING, attempts=1, started_at=timezone.now()
    )
    assert services.analysis_sweep() == 0


def test_a_memory_limit_too_small_fails_the_run(tmp_path, settings):
    _path, match = _imported(tmp_path, length=3, seed=97)
    settings.ANALYSIS_MEMORY_LIMIT_MB = 40
    first = _run(match)
    assert first.status == MatchAnalysis.Status.FAILED
    assert first.failure_code == "out_of_memory" and first.failure_reason
    assert not PlayerAnalysis.objects.filter(analysis=first).exists()


def _one_point_match(*, play: bool):
    from games.engine.actions import state_from_dict
    from games.play import services as play_services
    from games.play.dice import ScriptedDice
    from tests.factories import PlayerFactory

    players = (PlayerFactory(), PlayerFactory())
    match = play_services.match_create(player1=players[0], player2=players[1], length=1)
    game = play_services.match_start(match_id=match.pk, dice=ScriptedDice((3, 1)))
    mover = state_from_dict(game.state).player_to_act
    version = game.version
    resigner = mover
    if play:
        version = play_services.game_play(
            game_id=game.pk, player=players[mover], expected_version=version, play="8/5 6/5"
        ).game.version
        resigner = 1 - mover
    offered = play_services.resign_offer(
        game_id=game.pk, player=players[resigner], expected_version=version, kind="single"
    )
    play_services.resign_accept(
        game_id=game.pk, player=players[1 - resigner], expected_version=offered.game.version
    )
    match.refresh_from_db()
    assert match.status == "finished"
    return match


def test_a_match_finished_here_is_queued_and_analysed(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        match = _one_point_match(play=True)
    analysis = MatchAnalysis.objects.get(match=match)
    assert analysis.status == MatchAnalysis.Status.QUEUED
    done = services.analysis_run(analysis_id=analysis.pk, plies=0)
    assert done is not None and done.status == MatchAnalysis.Status.DONE, done.failure_reason
    rows = PlayerAnalysis.objects.filter(analysis=done).order_by("index")
    assert rows.count() == 2
    assert not any(row.counts for row in rows)  # one move: fewer than 30 decisions
    move = DecisionAnalysis.objects.get(analysis=done, kind="move")
    action = GameAction.objects.get(game__match=match, seq=move.action_seq)
    assert action.kind == "play" and move.dice == "31"
    assert move.played == "8/5 6/5" and move.best == "8/5 6/5" and move.equity_lost == 0


def test_a_match_without_a_checker_play_is_not_queued(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        match = _one_point_match(play=False)
    assert not MatchAnalysis.objects.filter(match=match).exists()


def test_gnubg_reports_its_progress_game_by_game(tmp_path):
    path = tmp_path / "progress.mat"
    text = selfplay(path, length=5, seed=96)
    seen: list[tuple[int, int]] = []
    gnubg_analyse(mat_text=text, plies=0, timeout=120, on_progress=lambda d, t: seen.append((d, t)))
    games = text.count(" Game ")
    assert seen == [(number, games) for number in range(1, games + 1)]


def test_analyse_matches_back_fills_the_unanalysed_matches(tmp_path):
    _path, first = _imported(tmp_path, length=3, seed=95)
    _path, second = _imported(tmp_path, length=3, seed=94)
    out = StringIO()
    call_command("analyse_matches", "--plies", "0", "--limit", "1", "--sync", stdout=out)
    assert "1 analysed, 0 failed" in out.getvalue()
    assert MatchAnalysis.objects.get(match=first).status == MatchAnalysis.Status.DONE
    assert not MatchAnalysis.objects.filter(match=second).exists()
    queued = StringIO()
    call_command("analyse_matches", stdout=queued)  # the rest, to the queue
    assert "1 queued" in queued.getvalue()
    assert MatchAnalysis.objects.get(match=second).status == MatchAnalysis.Status.QUEUED

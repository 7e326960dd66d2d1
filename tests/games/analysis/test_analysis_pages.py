"""Where the analysis shows (issue 28): the match page (figures, the job's state, the
Analyse form), the replay (errors marked with the best move and the equity lost), the
player page (PR history, averages, class), the admin; each as the club's PR setting
allows. The figures are made directly (the job's tests make real ones)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import MatchAnalysis
from games.play import services
from games.play.dice import ScriptedDice
from tests.factories import (
    DecisionAnalysisFactory,
    MatchAnalysisFactory,
    PlayerAnalysisFactory,
    PlayerFactory,
    UserFactory,
    UserPlayerFactory,
    analysed_match,
    finish_by_resignation,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def en(client):
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


def _finished():
    anna, bence = UserPlayerFactory(), UserPlayerFactory()
    match = services.match_create(player1=anna, player2=bence, length=1)
    finish_by_resignation(match)
    return match


def _section(html: str) -> str:
    found = re.search(r'<section class="match-analysis.*?</section>', html, re.S)
    return found.group(0) if found else ""


# ====================================================================== match page
def test_an_analysed_match_shows_both_players_pr_luck_and_gnubgs_words(en):
    match = _finished()
    analysis = analysed_match(match, prs=(3.25, 11.5))
    analysis.players.filter(index=1).update(rating_words="Casual player", luck_words="Go to bed")
    html = en.get(f"/matches/{match.pk}/").content.decode()
    section = _section(html)
    assert 'data-status="done"' in section
    assert 'data-testid="pr-0" data-value="3.25"' in section
    assert 'data-testid="pr-1" data-value="11.50"' in section
    assert "Casual player" in section and "Go to bed" in section
    assert "Analysed at 2 plies." in section
    assert "Analyse" not in re.sub(r"Analysed at", "", section)  # done: no form for players


def test_the_match_page_in_hungarian_translates_gnubgs_words(client):
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "hu"
    match = _finished()
    analysed_match(match)
    analysis = MatchAnalysis.objects.get(match=match)
    analysis.players.update(rating_words="World class", luck_words="Good dice, man!")
    section = _section(client.get(f"/matches/{match.pk}/").content.decode())
    assert "World class" not in section and "Good dice, man!" not in section
    assert "GNU Backgammon" in section


def test_a_player_of_a_finished_match_gets_the_analyse_form_and_a_visitor_does_not(en):
    match = _finished()
    visitor = _section(en.get(f"/matches/{match.pk}/").content.decode())
    assert "This match has not been analysed." in visitor
    assert 'data-action="analyse"' not in visitor
    en.force_login(match.player1.user)
    mine = _section(en.get(f"/matches/{match.pk}/").content.decode())
    assert 'data-action="analyse"' in mine and "csrfmiddlewaretoken" in mine


def test_the_analyse_form_queues_the_analysis_and_the_page_shows_the_state(en):
    match = _finished()
    en.force_login(match.player2.user)
    got = en.post(f"/matches/{match.pk}/analyse/")
    assert got.status_code == 302
    assert got["Location"].endswith(f"/matches/{match.pk}/#match-analysis")
    assert MatchAnalysis.objects.get(match=match).status == "queued"
    page = en.get(f"/matches/{match.pk}/").content.decode()
    assert "queued for analysis by GNU Backgammon" in page
    section = _section(page)
    assert 'data-status="queued"' in section and 'data-action="analyse"' not in section


def test_the_analyse_form_of_someone_else_is_refused_with_the_reason(en):
    match = _finished()
    en.force_login(UserPlayerFactory().user)
    got = en.post(f"/matches/{match.pk}/analyse/", follow=True)
    assert "Only a player of the match, or staff, may ask for its analysis." in got.content.decode()
    assert not MatchAnalysis.objects.exists()


def test_the_analyse_form_of_a_match_still_played_is_refused(en):
    anna, bence = UserPlayerFactory(), UserPlayerFactory()
    match = services.match_create(player1=anna, player2=bence, length=3)
    services.match_start(match_id=match.pk)
    en.force_login(anna.user)
    assert "match-analysis" not in en.get(f"/matches/{match.pk}/").content.decode()
    got = en.post(f"/matches/{match.pk}/analyse/", follow=True)
    assert "The match is not finished" in got.content.decode()
    assert not MatchAnalysis.objects.exists()


def test_a_running_analysis_shows_its_progress_and_a_failed_one_its_reason(en):
    match = _finished()
    analysis = MatchAnalysisFactory(match=match, status="running", progress=40)
    section = _section(en.get(f"/matches/{match.pk}/").content.decode())
    assert "Being analysed: 40%" in section and 'value="40"' in section
    analysis.status = "failed"
    analysis.failure_code = "gnubg_timeout"
    analysis.failure_reason = "GNU Backgammon took longer than 600 s."
    analysis.save()
    en.force_login(match.player1.user)
    section = _section(en.get(f"/matches/{match.pk}/").content.decode())
    assert "The analysis failed: GNU Backgammon took longer than 600 s." in section
    assert "Analyse again" in section


def test_pr_shown_to_the_player_only(en, settings):
    settings.ANALYSIS_PR_PUBLIC = False
    match = _finished()
    analysed_match(match, prs=(3.25, 11.5))
    visitor = _section(en.get(f"/matches/{match.pk}/").content.decode())
    assert "data-value" not in visitor and "shown to the player only" in visitor
    en.force_login(match.player2.user)
    mine = _section(en.get(f"/matches/{match.pk}/").content.decode())
    assert 'data-testid="pr-1" data-value="11.50"' in mine
    assert 'data-testid="pr-0" data-value' not in mine


# ====================================================================== replay
def _played_game():
    """Anna opens 3-1 with 8/5 6/5 (seq 1, 2); Bence doubles (3), Anna takes (4)."""
    anna, bence = PlayerFactory(name="Anna"), PlayerFactory(name="Bence")
    match = services.match_create(player1=anna, player2=bence, length=5)
    game = services.match_start(match_id=match.pk, dice=ScriptedDice([3, 1]))
    services.game_play(game_id=game.pk, player=anna, expected_version=1, play="8/5 6/5")
    services.cube_offer(game_id=game.pk, player=bence, expected_version=2)
    services.cube_take(game_id=game.pk, player=anna, expected_version=3)
    return match


def test_the_replay_marks_an_error_with_the_best_move_and_the_equity_lost(en):
    match = _played_game()
    analysis = analysed_match(match)
    DecisionAnalysisFactory(
        analysis=analysis,
        action_seq=2,
        ordinal=1,
        player_index=0,
        played="8/5 6/5",
        best="24/23 13/10",
        equity_lost=0.083,
        mark="bad",
        luck=0.2,
        luck_mark="lucky",
    )
    DecisionAnalysisFactory(
        analysis=analysis,
        action_seq=3,
        ordinal=2,
        player_index=1,
        kind="cube",
        dice="",
        played="double",
        best="no_double",
        equity_lost=0.215,
        mark="very_bad",
    )
    page = en.get(f"/matches/{match.pk}/replay/1/?move=1").content.decode()
    assert "Bad move (\u22120.083): best was 24/23 13/10" in page
    assert "Lucky roll (+0.200)" in page
    # The move list marks both errors with their signs.
    assert page.count('data-testid="move-mark"') == 2
    assert 'data-mark="very_bad"' in page
    cube = en.get(f"/matches/{match.pk}/replay/1/?move=2").content.decode()
    assert "Very bad cube decision (\u22120.215): double; best was no double" in cube
    calm = en.get(f"/matches/{match.pk}/replay/1/?move=3").content.decode()
    assert "GNU Backgammon marked no error here." in calm


def test_the_replay_of_a_match_not_analysed_works_as_before(en):
    match = _played_game()
    page = en.get(f"/matches/{match.pk}/replay/1/?move=1")
    assert page.status_code == 200
    text = page.content.decode()
    assert "replay-analysis" not in text and "move-mark" not in text


def test_the_replay_hides_the_errors_of_a_player_whose_pr_is_not_shown(en, settings):
    settings.ANALYSIS_PR_PUBLIC = False
    match = _played_game()
    analysis = analysed_match(match)
    DecisionAnalysisFactory(analysis=analysis, action_seq=2, player_index=0)
    assert "move-mark" not in en.get(f"/matches/{match.pk}/replay/1/?move=1").content.decode()
    en.force_login(UserFactory(is_staff=True))
    assert "move-mark" in en.get(f"/matches/{match.pk}/replay/1/?move=1").content.decode()


# ====================================================================== player page
def _history(player, prs, *, counts=True, days_ago=60):
    other = PlayerFactory()
    start = timezone.now() - timedelta(days=days_ago)
    for i, pr in enumerate(prs):
        match = services.match_create(player1=player, player2=other, length=1)
        analysis = MatchAnalysisFactory(match=match)
        PlayerAnalysisFactory(
            analysis=analysis,
            player=player,
            pr=pr,
            counts=counts,
            played_at=start + timedelta(days=i),
        )


def test_the_player_page_shows_the_pr_chart_averages_and_class(en):
    anna = UserPlayerFactory(name="Anna")
    _history(anna, [12.0, 12.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0])
    _history(anna, [40.0], counts=False, days_ago=1)  # a short match: no average
    html = en.get(f"/players/{anna.pk}/").content.decode()
    assert 'data-testid="pr-recent" data-value="3.00"' in html
    assert 'data-testid="pr-all" data-value="4.50"' in html
    assert 'data-class="3"' in html and "PR class 3 (≤ 6.5)" in html
    assert "13 (12 counted)" in html
    chart = re.search(r'<svg[^>]*class="pr-chart".*?</svg>', html, re.S).group(0)
    assert 'data-count="12"' in chart
    assert chart.count('class="pr-dot"') == 12
    # The latest ten analysed matches, counted or not: the short one (PR 40) first.
    latest = re.findall(r'data-testid="pr-match" data-value="([0-9.]+)"', html)
    assert latest == ["40.00"] + ["3.00"] * 9


def test_a_player_without_analysed_matches_gets_an_empty_chart(en):
    html = en.get(f"/players/{PlayerFactory().pk}/").content.decode()
    assert "pr-chart-empty" in html and "No analysed matches that count yet." in html


def test_the_player_page_hides_pr_from_others_when_the_club_says_so(en, settings):
    settings.ANALYSIS_PR_PUBLIC = False
    anna = UserPlayerFactory()
    _history(anna, [5.0])
    assert 'data-testid="pr-section"' not in en.get(f"/players/{anna.pk}/").content.decode()
    en.force_login(anna.user)
    own = en.get(f"/players/{anna.pk}/").content.decode()
    assert 'data-testid="pr-section"' in own and "Shown to the player and staff only." in own


# ====================================================================== admin
def test_the_admin_lists_failed_analyses_with_their_reason_and_queues_them_again(client):
    match = _finished()
    analysis = MatchAnalysis.objects.create(
        match=match, status="failed", failure_code="bad_file", failure_reason="gnubg said no"
    )
    other = _finished()
    analysed_match(other)
    admin = UserFactory(is_staff=True, is_superuser=True)
    client.force_login(admin)
    listing = client.get("/admin/games/matchanalysis/?status__exact=failed").content.decode()
    assert "gnubg said no" in listing and f"/matches/{match.pk}/" in listing
    assert f"/matches/{other.pk}/" not in listing
    detail = client.get(f"/admin/games/matchanalysis/{other.analysis.pk}/change/")
    assert detail.status_code == 200 and "Advanced" in detail.content.decode()
    got = client.post(
        "/admin/games/matchanalysis/",
        {"action": "analyse_again", "_selected_action": [analysis.pk]},
    )
    assert got.status_code == 302
    analysis.refresh_from_db()
    assert (analysis.status, analysis.failure_reason, analysis.requested_by_id) == (
        "queued",
        "",
        admin.pk,
    )

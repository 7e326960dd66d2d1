"""The read side of the analysis (games.ratings.performance, issue 28): averages over
the counted matches, the PR class and its bounds, who sees a player's PR."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone, translation

from games.play import services
from games.ratings import performance
from tests.factories import (
    MatchAnalysisFactory,
    PlayerAnalysisFactory,
    PlayerFactory,
    UserFactory,
    UserPlayerFactory,
    analysed_match,
)

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("pr", "number"),
    [
        (0.0, 1),
        (2.5, 1),
        (2.51, 2),
        (4.0, 2),
        (6.5, 3),
        (6.6, 4),
        (10.0, 4),
        (16.0, 5),
        (16.01, 6),
        (40, 6),
    ],
)
def test_the_pr_class_bounds_are_inclusive(pr, number):
    assert performance.pr_class(pr).number == number


def test_the_class_is_labelled_a_class_with_its_bound():
    with translation.override("en"):
        assert performance.pr_class(3.1).label == "PR class 2 (≤ 4)"
        assert performance.pr_class(17).label == "PR class 6 (above 16)"
        assert performance.pr_class(7).label == "PR class 4 (≤ 10)"
    assert performance.pr_class(3.1).lower == 2.5
    assert performance.pr_class(None) is None
    assert [c.number for c in performance.pr_classes()] == [1, 2, 3, 4, 5, 6]


def _matches(player, prs, *, counts=True, start=None):
    start = start or timezone.now() - timedelta(days=100)
    other = PlayerFactory()
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
        PlayerAnalysisFactory(analysis=analysis, player=other, pr=1.0, played_at=start)


def test_averages_over_the_last_ten_and_all_counted_matches():
    anna = PlayerFactory()
    _matches(anna, [20.0, 20.0] + [4.0] * 10)
    _matches(anna, [50.0], counts=False)  # not played out, or too short: left out
    summary = performance.player_pr_summary(player_id=anna.pk)
    assert summary.analysed == 13
    assert summary.counted == 12
    assert summary.average_recent == pytest.approx(4.0)
    assert summary.average_all == pytest.approx((40 + 40) / 12)
    assert summary.pr_class.number == 4
    assert [p.pr for p in summary.history][:3] == [20.0, 20.0, 4.0]


def test_a_player_without_analysed_matches_has_no_average_nor_class():
    summary = performance.player_pr_summary(player_id=PlayerFactory().pk)
    assert (summary.analysed, summary.average_all, summary.pr_class) == (0, None, None)


def test_pr_visible_follows_the_club_setting(settings):
    anna = UserPlayerFactory()
    stranger = UserFactory()
    staff = UserFactory(is_staff=True)
    settings.ANALYSIS_PR_PUBLIC = True
    assert performance.pr_visible(AnonymousUser(), anna)
    settings.ANALYSIS_PR_PUBLIC = False
    assert not performance.pr_visible(AnonymousUser(), anna)
    assert not performance.pr_visible(None, anna)
    assert not performance.pr_visible(stranger, anna)
    assert performance.pr_visible(anna.user, anna)
    assert performance.pr_visible(staff, anna)


def test_match_figures_hide_the_figures_the_viewer_may_not_see(settings):
    anna, bence = UserPlayerFactory(), UserPlayerFactory()
    match = services.match_create(player1=anna, player2=bence, length=1)
    assert performance.match_figures(match=match, viewer=None).status == "none"
    analysed_match(match, prs=(3.0, 8.0))
    settings.ANALYSIS_PR_PUBLIC = False
    seen = performance.match_figures(match=match, viewer=anna.user)
    assert seen.status == "done"
    assert [(f.visible, f.row and f.row.pr) for f in seen.players] == [(True, 3.0), (False, None)]
    settings.ANALYSIS_PR_PUBLIC = True
    seen = performance.match_figures(match=match, viewer=None)
    assert [f.row.pr for f in seen.players] == [3.0, 8.0]
    with translation.override("en"):
        assert seen.players[0].rating_text == "Advanced"
    with translation.override("hu"):
        assert seen.players[0].rating_text == "Haladó"
        assert performance.pr_class(3.1).label == "2. PR-osztály (≤ 4)"


def test_gnubg_words_are_translated(settings):
    with translation.override("hu"):
        assert performance.rating_words_text("World class") != "World class"
        assert performance.luck_words_text("Go to bed") != "Go to bed"
        assert performance.rating_words_text("Something new") == "Something new"


def test_many_matches_figures_at_once_as_a_viewer_sees_them(settings, django_assert_num_queries):
    anna, bence = UserPlayerFactory(), UserPlayerFactory()
    analysed = services.match_create(player1=anna, player2=bence, length=1)
    analysed_match(analysed, prs=(3.0, 8.0))
    waiting = services.match_create(player1=anna, player2=bence, length=1)
    settings.ANALYSIS_PR_PUBLIC = False
    with django_assert_num_queries(1):
        seen = performance.matches_figures_seen(
            match_ids=[analysed.pk, waiting.pk], viewer=bence.user
        )
    assert list(seen) == [analysed.pk]
    assert [(f.player.pk, f.row and f.row.pr) for f in seen[analysed.pk]] == [
        (anna.pk, None),
        (bence.pk, 8.0),
    ]

"""What queues an analysis: every match finished here and every match recorded from a
``.mat`` file (the signals of games.signals), after their transaction commits.

Left out: a money session (no match score to judge a PR by; its figures would mix
games of any length), and a match with no checker play (nothing to analyse: a match
given up or lost on time before a move). ``manage.py analyse_match`` still analyses a
money session on request.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction

from games.analysis.services import analysis_request
from games.models import GameAction, Match
from games.signals import match_finished, match_recorded

log = logging.getLogger(__name__)


def analysis_wanted(match: Match) -> bool:
    """Whether a match is queued for analysis by itself (see the module docstring)."""
    if match.is_money or match.status != Match.Status.FINISHED:
        return False
    return GameAction.objects.filter(game__match=match, kind="play").exists()


def _queue(match: Match) -> None:
    match_id = match.pk

    def send() -> None:
        # After commit, in a transaction of its own: a failure here (never expected)
        # must not undo the move or the import that finished the match.
        try:
            analysis_request(match_id=match_id)
        except Exception:
            log.exception("could not queue the analysis of match %s", match_id)

    transaction.on_commit(send)


def on_match_finished(sender: Any, match: Match, **kwargs: Any) -> None:
    if analysis_wanted(match):
        _queue(match)


def connect() -> None:
    match_finished.connect(on_match_finished, dispatch_uid="analysis_on_match_finished")
    match_recorded.connect(on_match_finished, dispatch_uid="analysis_on_match_recorded")

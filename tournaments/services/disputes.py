"""Disputes (issue 29): two players' reports of one match that differ.

The second report is stored like the first (:func:`tournaments.services.results.result_report`):
the match is ``disputed``, both reports kept on the match (``report_a``, ``report_b``),
both players and the event's directors told (``result_disputed``). Nobody confirms a
disputed match and a director's plain result is refused (409 ``match_disputed``): a
director resolves it here, having seen both reports, by choosing one of them or typing
the score (or the games), with a reason. The resolution is audited
(:class:`~tournaments.models.ResultCorrection`, kind ``dispute``: ``old`` holds both
reports, ``new`` the result that stands), the result then stands as a director's and the
bracket advances, as after :func:`~tournaments.services.results.result_enter`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from games.errors import Conflict, ValidationFailed
from games.notifications.services import Notice, notify_all
from tournaments.models import ResultCorrection, TournamentMatch
from tournaments.services.advancing import advance
from tournaments.services.common import (
    check_version,
    lock_match,
    match_notice_context,
    require_director,
    require_published,
)
from tournaments.services.results import _checked, record

#: What a director may choose: side a's report, side b's, or neither (the score typed).
CHOICES = ("a", "b", "")


def dispute_old(row: TournamentMatch) -> dict[str, Any]:
    """What the audit row keeps of a dispute: both reports and the match's sides."""
    return {
        "entry_a": row.entry_a_id,
        "entry_b": row.entry_b_id,
        "status": row.status,
        "report_a": row.report_a,
        "report_b": row.report_b,
    }


def match_dispute_resolve(
    *,
    match_id: int,
    by: Any,
    reason: str,
    choice: str = "",
    score_a: int | None = None,
    score_b: int | None = None,
    games: Sequence[Mapping[str, Any]] | None = None,
    expected_version: int | None = None,
) -> TournamentMatch:
    """A director resolves a disputed match: ``choice`` ``"a"``/``"b"`` takes that
    side's report as the result; ``""`` takes the typed final score or games (checked
    against the match rules, R9-R11, from the match's starting score, R15). The reason
    is required. Refused, changing nothing: 403 ``not_a_director``; 409
    ``not_disputed`` (no dispute, or resolved already), ``stale_version``; 400
    ``reason_required``, ``invalid_choice``, ``choice_and_score`` (a report chosen and a
    score typed), ``score_required`` and the match rules' codes."""
    with transaction.atomic():
        flight, row = lock_match(match_id)
        require_director(by, flight.event)
        check_version(row, expected_version)
        if row.status != TournamentMatch.Status.DISPUTED or row.decided_at is not None:
            raise Conflict(
                "not_disputed",
                _("This match is not disputed (or the dispute was resolved already)."),
                extra={"status": row.status},
            )
        require_published(flight, row)
        choice = choice or ""
        if choice not in CHOICES:
            raise ValidationFailed(
                "invalid_choice", _("Choose side a's report, side b's, or type the score.")
            )
        reason = (reason or "").strip()
        if not reason:
            raise ValidationFailed("reason_required", _("Say why you decide the dispute so."))
        if choice:
            if score_a is not None or score_b is not None or games:
                raise ValidationFailed(
                    "choice_and_score",
                    _("Choose a report or type the score, not both."),
                )
            report = row.report_a if choice == "a" else row.report_b
            if not report:
                raise Conflict("no_report", _("This side has no report to choose."))
            # Checked again: a lateness recorded since may have changed the starting score.
            result = _checked(
                row,
                score_a=report.get("score_a"),
                score_b=report.get("score_b"),
                games=report.get("games") or None,
            )
        else:
            result = _checked(row, score_a=score_a, score_b=score_b, games=games)
        old = dispute_old(row)
        record(flight, row, result, by=by)
        ResultCorrection.objects.create(
            match=row,
            by=by,
            old=old,
            new=row.result_dict(),
            reason=reason,
            kind=ResultCorrection.Kind.DISPUTE,
        )
        assert row.entry_a is not None and row.entry_b is not None
        notify_all(
            [
                Notice(
                    recipient=player,
                    kind="dispute_resolved",
                    subject=f"tmatch:{row.pk}:resolved:{row.version}",
                    context=match_notice_context(
                        flight,
                        row,
                        player_a=row.entry_a.player.name,
                        player_b=row.entry_b.player.name,
                        score=[row.score_a, row.score_b],
                        reason=reason,
                    ),
                )
                for player in (row.entry_a.player, row.entry_b.player)
            ]
        )
        advance(flight)
        return row

"""The session's totals and its summary: net points, money and who pays whom."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Sum

from chouette import rules
from chouette.models import ChouetteLine, ChouetteSession
from chouette.services.common import get_session, rule_error
from chouette.stored import stake_of
from games.models import Player


@dataclass(frozen=True)
class Summary:
    """The end-of-session summary with the players' names (``names[player_id]``)."""

    session: ChouetteSession
    summary: rules.SessionSummary
    names: dict[int, str]


def session_totals(session: ChouetteSession) -> dict[int, int]:
    """Every participant's net points (games not undone), in joined order."""
    order = list(session.participants.order_by("order").values_list("player_id", flat=True))
    sums = dict(
        ChouetteLine.objects.filter(session=session, event__undone=False)
        .values("player_id")
        .annotate(total=Sum("points"))
        .values_list("player_id", "total")
    )
    return {p: int(sums.get(p) or 0) for p in order}


def session_summary(*, session_id: int) -> Summary:
    """Net points, money at the stake and the fewest transfers that settle the session
    (open sessions too: the summary so far)."""
    session = get_session(session_id)
    totals = session_totals(session)
    try:
        summary = rules.summarize(totals, stake_of(session))
    except rules.ChouetteError as exc:  # only if the database lost the zero sum
        raise rule_error(exc) from None
    names = dict(Player.objects.filter(pk__in=totals).values_list("pk", "name"))
    return Summary(session=session, summary=summary, names=names)

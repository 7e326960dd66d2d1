"""The reads of sign-up: what staff see of the sign-ups waiting, with the record of each
player claimed (rating, experience, matches) next to it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, Max, QuerySet

from games.models import Match, Player, RatedResult, SignUp


@dataclass(frozen=True)
class ClaimRecord:
    """What staff compare a claim with: the claimed player's record in the club."""

    player: Player
    rated_results: int
    online_matches: int
    last_result_at: datetime | None


def signups_waiting() -> QuerySet[SignUp]:
    return (
        SignUp.objects.filter(state=SignUp.State.WAITING)
        .select_related("claim")
        .order_by("created_at", "pk")
    )


def signups_recent(limit: int = 20) -> QuerySet[SignUp]:
    """The last decided sign-ups, for the record under the waiting ones."""
    return (
        SignUp.objects.filter(state__in=[SignUp.State.APPROVED, SignUp.State.REFUSED])
        .select_related("player", "decided_by")
        .order_by("-decided_at", "-pk")[:limit]
    )


def claim_records(signups: list[SignUp]) -> dict[int, ClaimRecord]:
    """``{player id: record}`` of the players the sign-ups claim: five queries whatever
    their number."""
    ids = {s.claim_id for s in signups if s.claim_id is not None}
    if not ids:
        return {}
    rated: dict[int, int] = dict.fromkeys(ids, 0)
    last: dict[int, datetime | None] = dict.fromkeys(ids, None)
    matches: dict[int, int] = dict.fromkeys(ids, 0)
    for side in ("player1", "player2"):
        for row in (
            RatedResult.objects.filter(**{f"{side}_id__in": ids})
            .values(f"{side}_id")
            .annotate(n=Count("id"), last=Max("at"))
        ):
            pk = row[f"{side}_id"]
            rated[pk] += row["n"]
            seen = last[pk]
            last[pk] = row["last"] if seen is None else max(seen, row["last"])
        for row in (
            Match.objects.filter(**{f"{side}_id__in": ids})
            .values(f"{side}_id")
            .annotate(n=Count("id"))
        ):
            matches[row[f"{side}_id"]] += row["n"]
    return {
        p.pk: ClaimRecord(
            player=p,
            rated_results=rated[p.pk],
            online_matches=matches[p.pk],
            last_result_at=last[p.pk],
        )
        for p in Player.objects.filter(pk__in=ids)
    }

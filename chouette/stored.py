"""The pure values a stored chouette session holds (:mod:`chouette.rules`): its profile
and stake, and the event each log row records. Shared by the write side
(:mod:`chouette.services`) and the read side (:mod:`chouette.selectors`)."""

from __future__ import annotations

from chouette import rules
from chouette.models import ChouetteEvent, ChouetteSession


def profile_of(session: ChouetteSession) -> rules.Profile:
    return rules.Profile.from_dict(session.profile)


def stake_of(session: ChouetteSession) -> rules.Stake | None:
    if session.stake_per_point is None:
        return None
    return rules.Stake(session.stake_per_point, session.currency or "")


def stored_event(row: ChouetteEvent) -> rules.Event:
    """The pure event a log row holds."""
    if row.kind == ChouetteEvent.Kind.GAME:
        return rules.GameEntry.from_dict(row.data)
    if row.data.get("action") == "set":
        return rules.Reseat.from_dict(row.data)
    return rules.SeatChange.from_dict(row.data)

"""What the pure chouette rules' tests share: two profiles and a compact game entry."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from chouette.rules import GameEntry, MemberEntry, PlayerId, Profile

INDIVIDUAL = Profile(kind="individual")
BEAVERS = Profile(kind="individual", beavers=True)


def entry(
    box: PlayerId,
    members: Sequence[tuple[Any, ...]],
    winner: str | None = None,
    kind: str | None = None,
    **extra: Any,
) -> GameEntry:
    """A game entry from ``(player, cube, fate[, beavers])`` rows, the captain first."""
    rows = tuple(MemberEntry(*m) for m in members)
    return GameEntry(
        box=box,
        captain=rows[0].player,
        members=rows,
        winner=winner,  # type: ignore[arg-type]
        kind=kind,  # type: ignore[arg-type]
        **extra,
    )

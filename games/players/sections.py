"""Sections of the player page that other apps add (issue 8).

``games`` owns players and their page but imports neither ``tournaments`` nor
``chouette`` (the import contracts say so). An app that knows something about a player
registers a **section** when it loads (``AppConfig.ready``)::

    register_player_section(
        "chouette",
        title=_("Chouette"),
        template="chouette/partials/player_sessions.html",
        context=lambda player: {"rows": ..., "net": ...},
        order=30,
    )

The player page calls each section's ``context(player)`` and includes its template with
that context, in ``order``. A section's ``context`` must run a number of queries that does
not grow with the player's history (the page asserts its total in a test).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from games.models import Player


@dataclass(frozen=True)
class PlayerSection:
    code: str
    title: Any  # a lazy translation
    template: str
    context: Callable[[Player], Mapping[str, Any]]
    order: int = 100


_SECTIONS: dict[str, PlayerSection] = {}


def register_player_section(
    code: str,
    *,
    title: Any,
    template: str,
    context: Callable[[Player], Mapping[str, Any]],
    order: int = 100,
) -> PlayerSection:
    """Add a section to every player page (once per code: registering twice is a
    programming error)."""
    if code in _SECTIONS:
        raise ValueError(f"player section {code!r} is already registered")
    section = PlayerSection(code, title, template, context, order)
    _SECTIONS[code] = section
    return section


def player_sections() -> list[PlayerSection]:
    """Every registered section, in ``order`` (then code)."""
    return sorted(_SECTIONS.values(), key=lambda s: (s.order, s.code))

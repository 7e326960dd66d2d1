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

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .models import Player


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


# ---------------------------------------------------------------------- result links
#: ``links(source_keys) -> {source_key: url}``: the pages of results another app owns,
#: all of one page's rows in one call (so one query, not one per row).
ResultLinks = Callable[[Sequence[str]], Mapping[str, str]]

#: ``rated(source_key) -> bool``: whether the result of that key will be rated (asked
#: before an online match played for it finishes, to show what is at stake).
RatedCheck = Callable[[str], bool]

_RESULT_LINKS: dict[str, ResultLinks] = {}
_RATED: dict[str, RatedCheck] = {}


def register_result_links(
    prefix: str, links: ResultLinks, *, rated: RatedCheck | None = None
) -> None:
    """Link the ledger rows whose ``source_key`` starts with ``prefix + ":"`` (e.g.
    ``"tmatch"``) to pages of the app that owns them; ``rated`` says whether a result
    of such a key will be rated (an online match ``played_for`` it)."""
    if prefix in _RESULT_LINKS:
        raise ValueError(f"result links for {prefix!r} are already registered")
    _RESULT_LINKS[prefix] = links
    if rated is not None:
        _RATED[prefix] = rated


def result_will_be_rated(source_key: str) -> bool | None:
    """Whether the owner of ``source_key`` will rate its result (``None``: unknown)."""
    check = _RATED.get(source_key.partition(":")[0])
    return None if check is None else check(source_key)


def result_links(source_keys: Sequence[str]) -> dict[str, str]:
    """The registered pages of ``source_keys`` (those nobody links are left out)."""
    by_prefix: dict[str, list[str]] = {}
    for key in source_keys:
        prefix = key.partition(":")[0]
        if prefix in _RESULT_LINKS:
            by_prefix.setdefault(prefix, []).append(key)
    out: dict[str, str] = {}
    for prefix, keys in by_prefix.items():
        out.update(_RESULT_LINKS[prefix](keys))
    return out

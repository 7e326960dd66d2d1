"""Where rated results come from, and which are rated (issue 8).

A *source* is one of :class:`games.models.RatedResult.Source` (online, tournament, club);
a *source key* names the one result a ledger row records (``match:12``, ``tmatch:7``,
``club:3``), its prefix the app that owns it. ``games`` imports neither ``tournaments`` nor
``chouette``: an app that owns results registers, when it loads (``AppConfig.ready``),
how to link them to its pages and whether a result of its keys will be rated::

    register_result_links("tmatch", links, rated=will_be_rated)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from django.conf import settings


def is_rated(source: str, rated: bool = True) -> bool:
    """Whether a result of ``source`` is rated: its setting (``RATING_SOURCES``) and the
    caller's flag (an event's ``rated``)."""
    return bool(rated) and bool(getattr(settings, "RATING_SOURCES", {}).get(source, False))


@dataclass(frozen=True)
class ResultLink:
    """Where a result another app owns is shown: ``url``, the page of the match (a
    tournament match: its row on the flight page); ``title``, what it was played in, as
    the player page names it (the event and flight), and that page (``title_url``)."""

    url: str
    title: str = ""
    title_url: str = ""


#: ``links(source_keys) -> {source_key: ResultLink}``: the pages of results another app
#: owns, all of one page's rows in one call (so one query, not one per row).
ResultLinks = Callable[[Sequence[str]], Mapping[str, ResultLink]]

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


def result_links(source_keys: Sequence[str]) -> dict[str, ResultLink]:
    """The registered pages of ``source_keys`` (those nobody links are left out)."""
    by_prefix: dict[str, list[str]] = {}
    for key in source_keys:
        prefix = key.partition(":")[0]
        if prefix in _RESULT_LINKS:
            by_prefix.setdefault(prefix, []).append(key)
    out: dict[str, ResultLink] = {}
    for prefix, keys in by_prefix.items():
        out.update(_RESULT_LINKS[prefix](keys))
    return out

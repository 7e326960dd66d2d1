"""Each entrant's place in a flight, from its finishing orders (issue 8: the player page).

A flight has one **main** ranking that places every entrant (a knockout's ``main``: the
main draw, or the three parts of a double elimination together; ``""``: the Swiss / round
robin standings) and, in the consolation and last chance formats, one **other** part that
some entrants play as well (main + consolation + last chance: two, and the later one an
entrant played counts: a consolation loser who goes on to the last chance is placed
there, where their night ended). :func:`entrant_places` gives each entrant their place in the
main ranking and in the other part they played, **once it is final** (``Place.final``:
out of the running, or the ranking is over); an entrant still playing gets none.

A final place is final for the entrant, but the group it is shared with can still grow
while its round is being played (a first-round loser of eight is "8", then "7-8", ...,
"5-8" when the round is over): the same convention as the finishing order itself
(:func:`tournaments.pairing.finishing_order`).

:func:`standings_places` turns Swiss / round robin standings into the same kind of
places: players of equal rank share a place ("3-4"); ``final`` says whether the
standings are (the flight is finished).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tournaments.pairing.common import EntrantId
from tournaments.pairing.resolve import Place
from tournaments.pairing.standings import Standing


@dataclass(frozen=True, slots=True)
class EntrantPlace:
    """An entrant's final places: ``place`` (the group's best place, 3 for "3-4") and
    ``label`` in the main ranking; ``side_part`` and ``side_label`` in the other part
    they played (empty when none, or not final yet)."""

    place: int | None = None
    label: str = ""
    side_part: str = ""
    side_label: str = ""


#: No place (still playing, or not drawn).
NO_PLACE = EntrantPlace()


def standings_places(table: Sequence[Standing], *, final: bool) -> tuple[Place, ...]:
    """Standings (best first) as places: the players of one rank share it."""
    groups: list[tuple[int, list[EntrantId]]] = []
    for line in table:
        if groups and groups[-1][0] == line.rank:
            groups[-1][1].append(line.player)
        else:
            groups.append((line.rank, [line.player]))
    return tuple(Place(rank, tuple(players), final) for rank, players in groups)


def entrant_places(
    orders: Mapping[str, Sequence[Place]], *, main: str
) -> dict[EntrantId, EntrantPlace]:
    """Entrant -> their final places (see the module docstring), for the entrants with
    one: ``orders`` are the finishing orders by ranking, ``main`` names the one that
    places everybody. Of several other parts (main + consolation + last chance) the
    last one, in play order, that places the entrant counts."""
    found: dict[EntrantId, EntrantPlace] = {}
    for place in orders.get(main, ()):
        if place.final:
            for e in place.entrants:
                found[e] = EntrantPlace(place.rank, place.label)
    for ranking, places in orders.items():
        if ranking == main:
            continue
        for place in places:
            if not place.final:
                continue
            for e in place.entrants:
                before = found.get(e, NO_PLACE)
                found[e] = EntrantPlace(before.place, before.label, ranking, place.label)
    return found

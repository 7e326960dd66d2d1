"""The position as text (issue 27: accessibility), for a reader who cannot see the board:
each side's checkers point by point, the bar, borne off, pips, the cube and the dice.

Pure: plain values in, plain values out, no Django (the words are the template's,
``templates/games/partials/position_text.html``, so both languages). Every point is
numbered from the viewer's side, the one numbering a reader needs (R1: the viewer moves
from 24 toward 1; the opponent's checkers on the viewer's 19 are on their own 6). A
spectator reads it from the first side's numbering. The match page and the online
chouette table build it with :func:`position_text`; a replay can too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class SideText:
    """One side's checkers, its points already in the reader's numbering."""

    name: str
    is_viewer: bool
    pips: int
    points: tuple[tuple[int, int], ...]  # (point, checkers), nearest the reader's home first
    bar: int
    off: int
    unentered: int = 0  # Acey-Deucey (R3): not yet entered

    @property
    def points_line(self) -> str:
        """``6: 5, 8: 3, 13: 5, 24: 2`` (numbers only: the same in every language)."""
        return ", ".join(f"{point}: {count}" for point, count in self.points)


@dataclass(frozen=True)
class PositionText:
    """What the template writes: the sides (the reader's first), whose numbering, the
    cube (value, and the owner's name or ``None`` when centred) and the dice."""

    sides: tuple[SideText, ...]
    numbered_from: str  # the name of the side whose numbering is used
    viewer_plays: bool  # the reader is one of the sides ("your checkers")
    cube_value: int
    cube_owner: str | None
    dice: tuple[int, ...]


def position_text(
    *,
    boards: Sequence[Sequence[int]],
    names: Sequence[str],
    viewer: int | None,
    borne_off: Sequence[int] = (),
    unentered: Sequence[int] = (0, 0),
    cube_value: int = 1,
    cube_owner: int | None = None,
    dice: Sequence[int] | None = None,
) -> PositionText:
    """The position of two sides as text for ``viewer`` (0, 1 or ``None`` for a
    spectator, who reads side 0's numbering).

    ``boards[s]``: side ``s``'s 25 counts in its own numbering (index ``i`` = point
    ``i + 1``, 24 = the bar: gnubg's ``board[2][25]``, R1); ``names[s]`` its name;
    ``borne_off[s]`` checkers off (computed from the 15 when not given);
    ``cube_owner`` the side owning the cube (``None``: centred)."""
    reader = 0 if viewer is None else viewer
    sides: list[SideText] = []
    for side in (reader, 1 - reader):
        counts = list(boards[side])
        on_board = sum(counts) + unentered[side]
        off = borne_off[side] if borne_off else 15 - on_board
        points = []
        for index in range(24):
            if counts[index]:
                own = index + 1
                points.append((own if side == reader else 25 - own, counts[index]))
        points.sort()
        pips = sum((i + 1) * n for i, n in enumerate(counts[:24])) + 25 * counts[24]
        pips += 25 * unentered[side]
        sides.append(
            SideText(
                name=names[side],
                is_viewer=viewer is not None and side == viewer,
                pips=pips,
                points=tuple(points),
                bar=counts[24],
                off=off,
                unentered=unentered[side],
            )
        )
    return PositionText(
        sides=tuple(sides),
        numbered_from=names[reader],
        viewer_plays=viewer is not None,
        cube_value=cube_value,
        cube_owner=None if cube_owner is None else names[cube_owner],
        dice=tuple(dice or ()),
    )

"""What the chouette tests share: two profiles, a compact game entry, and the scripted
30-game sessions of five players with a reference settlement written independently of
:mod:`chouette.rules` (the pure rules and the services replay the same script)."""

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


# ============================================================================ sessions
CLASSIC_SCRIPT = [
    "team single | t1 t1 t1 t1",
    "box single | t1 t1 t1 t1",
    "box gammon | t2 d2 t2 t2",
    "team single | t2 t2 d2 d2",
    "- - | x2 x2 x2 x2",
    "- - | d2 d2 d2 d2",
    "team gammon | t4 d2 t4 t4",
    "box backgammon | t1 t1 t1 t1",
    "- - | d2 x4 x4 x4",
    "team single | d2 t2 t2 t2",
    # Dee sits out before game 11 and comes back after game 14.
    "box gammon | t2 t2 t2",
    "team single | t4 t4 d2",
    "box single | t1 t1 t1",
    "team backgammon | t2 t2 t2",
    "box single | t2 d2 d2 t2",
    "team gammon | t1 t1 t1 t1",
    "box single | t8 d2 d8 t8",
    "- - | d4 d4 d4 d4",
    "team single | t2 t2 t2 t2",
    "box gammon | t4 t4 t4 t4",
    "team single | t1 t1 t1 t1",
    "box single | d2 t2 t2 t2",
    "team gammon | t2 t2 d2 t2",
    "box backgammon | t2 t2 t2 t2",
    "- - | d2 d2 x4 x4",
    "team single | t8 t8 t8 t8",
    "box single | t1 t1 t1 t1",
    "team single | t2 t2 t2 t2",
    "box gammon | d2 d2 t2 t2",
    "team single | t1 t1 t1 t1",
]
INDIVIDUAL_SCRIPT = [
    "box gammon | t4 d2 t4b t1",
    "team single | x2 t2 t1 t4",
    "box single | t1 t1 t1 t1",
    "team gammon | t2 t8br t1 d2",
    "- - | x2 d2 x4 d4",
    "box backgammon | t2 t1 t1 t16",
    "team single | d2 t2 t2 t2",
    "box single | x2 t1 t1 t1",
    "team gammon | t1 t1 t1 t1",
    "box gammon | t2 t1 d2 t4b",
    "team single | t2 t4 t1",
    "box single | d2 t1 t2",
    "- - | x2 x2 d2",
    "team backgammon | t2 t2 t1",
    "box single | t1 t2 t4 t8",
    "team gammon | t2 t2 t2 t2",
    "box gammon | t4b t4b d2 t1",
    "team single | t1 d2 d2 d2",
    "box single | x4 t2 t2 t2",
    "team single | t2 t1 t1 t1",
    "box gammon | t1 t1 t1 t2",
    "team single | d2 d2 t2 t4",
    "box backgammon | t2 t2 t2 t2",
    "team single | t1 t1 x2 t1",
    "box single | t2 t2 d2 d2",
    "team gammon | t4 t1 t1 t1",
    "box single | t1 t1 t1 t1",
    "- - | d2 d2 d2 d2",
    "team single | x2 t8 t2 t1",
    "box gammon | t2 t2 t2 t2",
]
SESSION_PROFILES = {
    "classic": Profile(kind="classic", jacoby=True),
    "individual": Profile(
        kind="individual",
        rotation="box_needs_net_profit",
        jacoby=True,
        beavers=True,
        raccoons=True,
        backgammon_value=2,
    ),
}
FATE_CODES = {"t": "took", "d": "dropped", "x": "box_dropped"}


def parse_script_line(line: str) -> tuple[str | None, str | None, list[tuple[str, int, int, int]]]:
    head, codes = line.split("|")
    winner, kind = head.split()
    members = []
    for code in codes.split():
        digits = "".join(c for c in code[1:] if c.isdigit())
        members.append((code[0], int(digits), code.count("b"), code.count("r")))
    return (None if winner == "-" else winner), (None if kind == "-" else kind), members


def reference_game(
    line: str, box: str, team: list[str], profile: Profile
) -> tuple[dict[PlayerId, int], bool]:
    """Points and "box keeps the box", computed straight from the script (the reference)."""
    winner, kind, codes = parse_script_line(line)
    mult = {"single": 1, "gammon": 2, "backgammon": profile.backgammon_value}
    points: dict[PlayerId, int] = {}
    for player, (fate, cube, _, _) in zip(team, codes, strict=True):
        if fate == "d":
            points[player] = -cube // 2
        elif fate == "x":
            points[player] = cube // 2
        else:
            assert kind is not None
            stake = cube * (1 if profile.jacoby and cube == 1 else mult[kind])
            points[player] = stake if winner == "team" else -stake
    box_points = -sum(points.values())
    captain_fate = codes[0][0]
    captain_won = captain_fate == "x" or (captain_fate == "t" and winner == "team")
    keeps = not captain_won
    if profile.rotation == "box_needs_net_profit":
        keeps = keeps and box_points > 0
    return {box: box_points, **points}, keeps


def script_entry(line: str, box: str, team: list[str]) -> GameEntry:
    winner, kind, codes = parse_script_line(line)
    members = tuple(
        MemberEntry(p, cube, FATE_CODES[f], b, r)  # type: ignore[arg-type]
        for p, (f, cube, b, r) in zip(team, codes, strict=True)
    )
    return GameEntry(box=box, captain=team[0], members=members, winner=winner, kind=kind)  # type: ignore[arg-type]


EXPECTED_FINAL = {
    "classic": {"Bob": -22, "Ann": -14, "Cy": 15, "Eve": 29, "Dee": -8},
    "individual": {"Bob": -1, "Ann": 35, "Cy": -32, "Eve": 26, "Dee": -28},
}

"""PURE chouette rules: seating and rotation, settlement, the ledger (docs/rules.md R13).

No Django, no database, no I/O: immutable data in, immutable data out, JSON-friendly
through ``to_dict``/``from_dict`` where the application stores it (profile, seating, game
entry, seat change, stake). Every refusal is a :class:`ChouetteError` with a stable
``code``. The Django side (models, services, pages) stores the outputs and calls these
functions.

* :mod:`~chouette.rules.profile`: the rule profile (``classic``/``individual``, options,
  rotation variant).
* :mod:`~chouette.rules.seating`: roll-off, the line, joining, sitting out, rotation,
  splitting a chouette in two.
* :mod:`~chouette.rules.proxies`: an absent member's proxy for their cube decisions.
* :mod:`~chouette.rules.settlement`: the game entry (settlements and extras included),
  its validation, points per player, the rotation outcome.
* :mod:`~chouette.rules.ledger`: running totals, seat changes (and the seating set by
  hand), undo of the last game, the edit of any game.
* :mod:`~chouette.rules.transfers`: fewest transfers, money at the stake, the summary.
"""

from chouette.rules.common import ChouetteError, PlayerId
from chouette.rules.ledger import Event, GameRow, Ledger, Reseat, SeatAction, SeatChange, Totals
from chouette.rules.profile import (
    CLASSIC,
    PROFILE_KINDS,
    ROTATION_VARIANTS,
    Profile,
    ProfileKind,
    RotationVariant,
)
from chouette.rules.proxies import check_proxies, game_proxies, set_proxy
from chouette.rules.seating import (
    MIN_START_PLAYERS,
    ROTATION_OUTCOMES,
    RotationOutcome,
    Seating,
    SplitPlan,
    come_back,
    default_movers,
    join,
    reseat,
    roll_off_order,
    rotate,
    seating_for_roles,
    seating_from_order,
    seating_from_rolls,
    sit_out,
    split_plan,
)
from chouette.rules.settlement import (
    FATES,
    MAX_EXTRAS,
    RESULT_KINDS,
    WINNERS,
    Extra,
    Fate,
    GameEntry,
    MemberEntry,
    ResultKind,
    Winner,
    box_side_result,
    check_entry_seating,
    extra_points,
    extras_result,
    member_points,
    next_seating,
    rotation_outcome,
    settle,
    settlement_bounds,
    split_box_share,
    validate_entry,
)
from chouette.rules.transfers import (
    EXACT_LIMIT,
    PaymentLine,
    PlayerTotal,
    SessionSummary,
    Stake,
    Transfer,
    fewest_transfers,
    summarize,
    zero_sum_groups,
)

__all__ = [
    "CLASSIC",
    "EXACT_LIMIT",
    "FATES",
    "MAX_EXTRAS",
    "MIN_START_PLAYERS",
    "PROFILE_KINDS",
    "RESULT_KINDS",
    "ROTATION_OUTCOMES",
    "ROTATION_VARIANTS",
    "WINNERS",
    "ChouetteError",
    "Event",
    "Extra",
    "Fate",
    "GameEntry",
    "GameRow",
    "Ledger",
    "MemberEntry",
    "PaymentLine",
    "PlayerId",
    "PlayerTotal",
    "Profile",
    "ProfileKind",
    "Reseat",
    "ResultKind",
    "RotationOutcome",
    "RotationVariant",
    "SeatAction",
    "SeatChange",
    "Seating",
    "SessionSummary",
    "SplitPlan",
    "Stake",
    "Totals",
    "Transfer",
    "Winner",
    "box_side_result",
    "check_entry_seating",
    "check_proxies",
    "come_back",
    "default_movers",
    "extra_points",
    "extras_result",
    "fewest_transfers",
    "game_proxies",
    "join",
    "member_points",
    "next_seating",
    "reseat",
    "roll_off_order",
    "rotate",
    "rotation_outcome",
    "seating_for_roles",
    "seating_from_order",
    "seating_from_rolls",
    "set_proxy",
    "settle",
    "settlement_bounds",
    "sit_out",
    "split_box_share",
    "split_plan",
    "summarize",
    "validate_entry",
    "zero_sum_groups",
]

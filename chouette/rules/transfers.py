"""Settling a session: the fewest transfers, money at the stake, the summary.

Terms:

* A **balance** is a player's net points for the session: positive = won (is owed),
  negative = lost (owes). Balances sum to zero (R13).
* A :class:`Transfer` ``(payer, payee, points)`` moves ``points`` from a loser to a winner.
* The **stake** (:class:`Stake`) turns points into money: an exact ``Decimal`` per point
  and a currency code. Money is never rounded here (points x stake is exact); rounding for
  display belongs to the page.

Fewest transfers (:func:`fewest_transfers`). With ``n`` non-zero balances, any settlement
needs at least ``n - g`` transfers, where ``g`` is the largest number of disjoint groups
the players can be split into so that every group sums to zero (the transfers form a
forest whose trees each sum to zero; a tree of ``k`` players has ``k - 1`` edges); and a
zero-sum group of ``k`` settles with ``k - 1`` transfers (each transfer clears at least
one player, the last clears two). So the minimum is exactly ``n - g``. Finding ``g`` is
NP-hard in general; for club sizes it is a dynamic programme over subsets: ``best[S]`` =
the most zero-sum prefixes in an ordering of ``S`` = ``max_i best[S - i] + [sum(S) == 0]``,
O(2^n * n). Exact up to :data:`EXACT_LIMIT` non-zero balances (16: 2^16 states, well under
a second); beyond, a greedy settlement (largest debtor pays largest creditor), not always
minimal, is returned. Output order follows the input order, so it is deterministic.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import NamedTuple

from chouette.rules.common import ChouetteError, PlayerId, check_player, is_int

#: Most non-zero balances settled exactly (see the module docstring).
EXACT_LIMIT = 16


class Transfer(NamedTuple):
    """``payer`` pays ``payee`` ``points`` (> 0)."""

    payer: PlayerId
    payee: PlayerId
    points: int


def _check_balances(balances: Mapping[PlayerId, int]) -> None:
    for player, amount in balances.items():
        check_player(player)
        if not is_int(amount):
            raise ChouetteError("invalid_data", f"{player!r}: balance {amount!r} is not an int")
    if sum(balances.values()) != 0:
        raise ChouetteError("unbalanced", "balances must sum to zero (R13)")


def _settle_group(players: list[PlayerId], balances: Mapping[PlayerId, int]) -> list[Transfer]:
    """Settle one zero-sum group: each transfer clears at least one player."""
    debtors = [[p, -balances[p]] for p in players if balances[p] < 0]
    creditors = [[p, balances[p]] for p in players if balances[p] > 0]
    transfers: list[Transfer] = []
    i = j = 0
    while i < len(debtors) and j < len(creditors):
        amount = min(int(debtors[i][1]), int(creditors[j][1]))
        transfers.append(Transfer(debtors[i][0], creditors[j][0], amount))
        debtors[i][1] = int(debtors[i][1]) - amount
        creditors[j][1] = int(creditors[j][1]) - amount
        if debtors[i][1] == 0:
            i += 1
        if creditors[j][1] == 0:
            j += 1
    return transfers


def zero_sum_groups(balances: Mapping[PlayerId, int]) -> list[list[PlayerId]]:
    """The non-zero players split into the most disjoint zero-sum groups (exact DP)."""
    _check_balances(balances)
    players = [p for p, b in balances.items() if b != 0]
    n = len(players)
    if n > EXACT_LIMIT:
        raise ChouetteError("too_many_balances", f"exact only up to {EXACT_LIMIT} players")
    values = [balances[p] for p in players]
    full = (1 << n) - 1
    sums = [0] * (full + 1)
    best = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = (mask & -mask).bit_length() - 1
        sums[mask] = sums[mask & (mask - 1)] + values[low]
        top = 0
        m = mask
        while m:
            bit = m & -m
            top = max(top, best[mask ^ bit])
            m ^= bit
        best[mask] = top + (sums[mask] == 0)
    # Walk back from the full set, removing one player at a time along an optimal path;
    # the zero-sum sets met on the way cut the removal order into the groups.
    groups: list[list[PlayerId]] = []
    current: list[PlayerId] = []
    mask = full
    while mask:
        target = best[mask] - (sums[mask] == 0)
        if sums[mask] == 0 and current:
            groups.append(current)
            current = []
        for i in range(n):
            bit = 1 << i
            if mask & bit and best[mask ^ bit] == target:
                current.append(players[i])
                mask ^= bit
                break
    if current:
        groups.append(current)
    order = {p: k for k, p in enumerate(players)}
    groups = [sorted(g, key=order.__getitem__) for g in groups]
    groups.sort(key=lambda g: order[g[0]])
    return groups


def fewest_transfers(balances: Mapping[PlayerId, int]) -> list[Transfer]:
    """The fewest transfers that settle all ``balances`` (see the module docstring)."""
    _check_balances(balances)
    nonzero = [p for p, b in balances.items() if b != 0]
    if len(nonzero) > EXACT_LIMIT:
        order = sorted(nonzero, key=lambda p: -abs(balances[p]))
        return _settle_group(order, balances)
    transfers: list[Transfer] = []
    for group in zero_sum_groups(balances):
        transfers.extend(_settle_group(group, balances))
    return transfers


@dataclass(frozen=True, slots=True)
class Stake:
    """Money per point: an exact non-negative ``Decimal`` and a currency code (``EUR``)."""

    per_point: Decimal
    currency: str

    def __post_init__(self) -> None:
        if (
            not isinstance(self.per_point, Decimal)
            or not self.per_point.is_finite()
            or self.per_point < 0
        ):
            raise ChouetteError("invalid_stake", "the stake is a finite Decimal, at least 0")
        if not isinstance(self.currency, str) or not self.currency.strip():
            raise ChouetteError("invalid_stake", "the stake needs a currency code")

    def money(self, points: int) -> Decimal:
        """``points`` at this stake (exact)."""
        return self.per_point * points

    def to_dict(self) -> dict[str, str]:
        return {"per_point": str(self.per_point), "currency": self.currency}

    @classmethod
    def from_dict(cls, data: Mapping[str, str]) -> Stake:
        try:
            per_point = Decimal(data["per_point"])
        except (KeyError, ArithmeticError, TypeError, ValueError) as exc:
            raise ChouetteError("invalid_stake", "per_point must be a decimal string") from exc
        return cls(per_point=per_point, currency=data.get("currency", ""))


@dataclass(frozen=True, slots=True)
class PlayerTotal:
    """One line of the summary: net points and, with a stake, money."""

    player: PlayerId
    points: int
    money: Decimal | None = None


@dataclass(frozen=True, slots=True)
class PaymentLine:
    """One settling transfer, in points and (with a stake) money."""

    payer: PlayerId
    payee: PlayerId
    points: int
    money: Decimal | None = None


@dataclass(frozen=True, slots=True)
class SessionSummary:
    """End of session: net points per player, money at the stake, fewest transfers.

    ``players`` is ordered by points, best first (ties keep the input order)."""

    players: tuple[PlayerTotal, ...]
    transfers: tuple[PaymentLine, ...]
    stake: Stake | None = None


def summarize(balances: Mapping[PlayerId, int], stake: Stake | None = None) -> SessionSummary:
    """The session summary for net ``balances`` (every player, also those at zero)."""
    _check_balances(balances)

    def money(points: int) -> Decimal | None:
        return stake.money(points) if stake is not None else None

    players = sorted(balances.items(), key=lambda item: -item[1])
    return SessionSummary(
        players=tuple(PlayerTotal(p, b, money(b)) for p, b in players),
        transfers=tuple(
            PaymentLine(t.payer, t.payee, t.points, money(t.points))
            for t in fewest_transfers(balances)
        ),
        stake=stake,
    )

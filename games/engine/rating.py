"""The FIBS rating formula, exactly, with every step of the calculation kept for show.

Terms (the formula as FIBS publishes it; issue 8):

* **N**: the match length in points (a rated match is played to N >= 1; money sessions
  are never rated).
* **D**: the rating difference, ``|r1 - r2|``.
* **P_upset**: the probability that the weaker player (the **underdog**, lower rating)
  wins an N-point match, ``1 / (10^(D * sqrt(N) / 2000) + 1)``.
* **P**: ``1 - P_upset`` if the underdog won, ``P_upset`` if the **favourite** (higher
  rating) won. With equal ratings there is neither: D = 0, both formulas give exactly
  0.5, and this module calls the winner the favourite (``upset`` is ``False``).
* **experience**: the sum of the lengths of a player's earlier rated matches.
* **K**: a player's own weight, ``max(1, 5 - experience / 100)``: 5 for a newcomer,
  falling by 1 per 100 points played, 1 from 400 on.
* **change**: the winner gains and the loser loses ``4 * K * sqrt(N) * P``, each with
  their own K (so a newcomer's rating moves up to five times as fast as a veteran's, and
  the two changes need not be equal).

Rounding -- one rule, used by the incremental update and the full replay alike (both go
through the same :func:`_step`), so both give identical numbers: ratings are stored with two
decimals (as FIBS shows them). The computation takes the two stored ratings, runs in
binary floating point, and rounds each player's change to 0.01 (``ROUND_HALF_EVEN``,
applied to the exact value of the float). The new rating is the old one plus (winner) or
minus (loser) that rounded change, exact in :class:`~decimal.Decimal`, so anyone can
check a history by adding up the changes it shows. The float intermediates
(``p_upset``, ``k``, ``exact`` changes) are kept for the calculation shown to players.
:func:`replay_cents` does the same sums in whole cents (integers), exact too.

Pure: no Django, no I/O; ratings in and out are :class:`~decimal.Decimal`, or whole cents
(``int``) for :func:`replay_cents`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal

#: Where every player starts.
INITIAL_RATING = Decimal("1500.00")
INITIAL_EXPERIENCE = 0
CENT = Decimal("0.01")


def p_upset(difference: float, length: int) -> float:
    """The underdog's chance to win an N-point match at rating difference D."""
    return 1.0 / (math.pow(10.0, difference * math.sqrt(length) / 2000.0) + 1.0)


def k_factor(experience: int) -> float:
    """A player's K: ``max(1, 5 - experience / 100)``."""
    return max(1.0, 5.0 - experience / 100.0)


def round_change(value: float) -> Decimal:
    """The one rounding rule: the exact value of the float, to cents, half to even."""
    return Decimal(value).quantize(CENT, rounding=ROUND_HALF_EVEN)


def _cents(value: float) -> int:
    """:func:`round_change` in cents, fast: ``value * 100`` is within 1e-9 of the exact
    product for any change there can be (below 10,000 cents), so away from a half the
    nearest integer is the same; near a half the exact rule decides."""
    y = value * 100.0
    n = math.floor(y)
    frac = y - n
    if frac > 0.500001:
        return n + 1
    if frac < 0.499999:
        return n
    return int(round_change(value).scaleb(2))


@dataclass(frozen=True, slots=True)
class PlayerChange:
    """One player's side of a rated match: before, the calculation, after.

    ``change`` is signed (positive for the winner) and rounded; ``exact`` is the float it
    was rounded from. ``rating_after == rating_before + change`` exactly."""

    rating_before: Decimal
    experience_before: int
    k: float
    exact: float
    change: Decimal
    rating_after: Decimal
    experience_after: int


@dataclass(frozen=True, slots=True)
class RatingChange:
    """The rating change of one match, with the calculation shown.

    ``winner`` is 1 or 2; ``upset`` says that the lower-rated player won (never with
    equal ratings); ``p`` is the P of the formula (``1 - p_upset`` after an upset, else
    ``p_upset``)."""

    length: int
    winner: int
    difference: float
    p_upset: float
    upset: bool
    p: float
    player1: PlayerChange
    player2: PlayerChange


def _check(length: int, experiences: tuple[int, int]) -> None:
    if length < 1:
        raise ValueError("a rated match is played to at least 1 point")
    if min(experiences) < 0:
        raise ValueError("experience is never negative")


#: One result's numbers as a tuple, in this order (``games.ratings.services`` stores them so):
#: p_upset, k1, k2, change1, change2, rating1 before, after, rating2 before, after,
#: experience1 before, after, experience2 before, after.
Numbers = tuple[
    float, float, float, Decimal, Decimal, Decimal, Decimal, Decimal, Decimal, int, int, int, int
]


def _step(
    f1: float, f2: float, e1: int, e2: int, length: int, winner: int
) -> tuple[float, float, float, int, int]:
    """The formula itself, lean (a replay runs it 100,000 times), on the two ratings as
    floats: P_upset, each K and each player's signed change in whole cents. Every path
    goes through it (:func:`numbers` for :func:`rate` and :func:`replay_numbers`, and
    :func:`replay_cents`), so they cannot differ. Arguments are checked by the callers."""
    root = math.sqrt(length)
    pu = 1.0 / (math.pow(10.0, abs(f1 - f2) * root / 2000.0) + 1.0)
    # The winner is the favourite unless they are rated lower (then P = 1 - P_upset).
    p = 1.0 - pu if (f1 < f2 if winner == 1 else f2 < f1) else pu
    k1 = 5.0 - e1 / 100.0
    if k1 < 1.0:
        k1 = 1.0
    k2 = 5.0 - e2 / 100.0
    if k2 < 1.0:
        k2 = 1.0
    c1 = _cents(4.0 * k1 * root * p)
    c2 = _cents(4.0 * k2 * root * p)
    if winner == 1:
        return pu, k1, k2, c1, -c2
    return pu, k1, k2, -c1, c2


def numbers(r1: Decimal, e1: int, r2: Decimal, e2: int, length: int, winner: int) -> Numbers:
    """:func:`_step` with :class:`~decimal.Decimal` ratings in and out: all the
    :data:`Numbers` of one result. Arguments are checked by the callers."""
    pu, k1, k2, n1, n2 = _step(float(r1), float(r2), e1, e2, length, winner)
    c1, c2 = Decimal(n1).scaleb(-2), Decimal(n2).scaleb(-2)
    return (pu, k1, k2, c1, c2, r1, r1 + c1, r2, r2 + c2, e1, e1 + length, e2, e2 + length)


def rate(r1: Decimal, e1: int, r2: Decimal, e2: int, *, length: int, winner: int) -> RatingChange:
    """The FIBS change of an N-point match between player 1 (rating ``r1``, experience
    ``e1``) and player 2, won by player ``winner`` (1 or 2)."""
    if winner not in (1, 2):
        raise ValueError("the winner is player 1 or player 2")
    _check(length, (e1, e2))
    n = numbers(r1, e1, r2, e2, length, winner)
    pu = n[0]
    upset = (r1 < r2) if winner == 1 else (r2 < r1)
    p = 1.0 - pu if upset else pu
    root = math.sqrt(length)

    def side(
        k: float, won: bool, values: tuple[Decimal, Decimal, Decimal, int, int]
    ) -> PlayerChange:
        change, before, after, exp_before, exp_after = values
        exact = 4.0 * k * root * p
        return PlayerChange(
            rating_before=before,
            experience_before=exp_before,
            k=k,
            exact=exact if won else -exact,
            change=change,
            rating_after=after,
            experience_after=exp_after,
        )

    return RatingChange(
        length=length,
        winner=winner,
        difference=abs(float(r1) - float(r2)),
        p_upset=pu,
        upset=upset,
        p=p,
        player1=side(n[1], winner == 1, (n[3], n[5], n[6], n[9], n[10])),
        player2=side(n[2], winner == 2, (n[4], n[7], n[8], n[11], n[12])),
    )


@dataclass(frozen=True, slots=True)
class RatingPreview:
    """What each player stands to gain or lose before an N-point match: the whole
    change if player 1 wins and if player 2 wins. ``player1_gain`` is player 1's gain
    when they win, ``player1_loss`` their (positive) loss when they lose."""

    if_player1_wins: RatingChange
    if_player2_wins: RatingChange

    @property
    def player1_gain(self) -> Decimal:
        return self.if_player1_wins.player1.change

    @property
    def player1_loss(self) -> Decimal:
        return -self.if_player2_wins.player1.change

    @property
    def player2_gain(self) -> Decimal:
        return self.if_player2_wins.player2.change

    @property
    def player2_loss(self) -> Decimal:
        return -self.if_player1_wins.player2.change


def preview(r1: Decimal, e1: int, r2: Decimal, e2: int, length: int) -> RatingPreview:
    """Both outcomes of an N-point match, computed as :func:`rate` will."""
    return RatingPreview(
        if_player1_wins=rate(r1, e1, r2, e2, length=length, winner=1),
        if_player2_wins=rate(r1, e1, r2, e2, length=length, winner=2),
    )


@dataclass(frozen=True, slots=True)
class Result:
    """One rated result to replay: player ids, length, winner (1 or 2)."""

    player1: int
    player2: int
    length: int
    winner: int


def replay(
    results: list[Result],
    start: dict[int, tuple[Decimal, int]] | None = None,
) -> tuple[list[RatingChange], dict[int, tuple[Decimal, int]]]:
    """Replay ``results`` in order from ``start`` (rating and experience by player id; a
    player not in it starts at 1500 and 0). Returns the change of every result and the
    final (rating, experience) of every player in ``start`` or in ``results``.
    ``start`` is not changed."""
    state = dict(start or {})
    initial = (INITIAL_RATING, INITIAL_EXPERIENCE)
    changes: list[RatingChange] = []
    append = changes.append
    for res in results:
        r1, e1 = state.get(res.player1, initial)
        r2, e2 = state.get(res.player2, initial)
        change = rate(r1, e1, r2, e2, length=res.length, winner=res.winner)
        append(change)
        state[res.player1] = (change.player1.rating_after, change.player1.experience_after)
        state[res.player2] = (change.player2.rating_after, change.player2.experience_after)
    return changes, state


def replay_numbers(
    results: list[tuple[int, int, int, int]],
    state: dict[int, tuple[Decimal, int]],
) -> list[Numbers]:
    """:func:`replay`, lean: ``results`` as (player1, player2, length, winner) tuples,
    the :data:`Numbers` of each returned. ``state`` (rating and experience by player;
    a player not in it starts at 1500 and 0) is moved on in place. The results must be
    valid (length >= 1, winner 1 or 2), as the ledger's constraints keep them."""
    initial = (INITIAL_RATING, INITIAL_EXPERIENCE)
    get = state.get
    out: list[Numbers] = []
    append = out.append
    for a, b, length, winner in results:
        r1, e1 = get(a, initial)
        r2, e2 = get(b, initial)
        n = numbers(r1, e1, r2, e2, length, winner)
        append(n)
        state[a] = (n[6], n[10])
        state[b] = (n[8], n[12])
    return out


#: :data:`Numbers` with every rating and change in whole cents (``147354`` for 1473.54).
CentNumbers = tuple[float, float, float, int, int, int, int, int, int, int, int, int, int]
INITIAL_CENTS = 150_000


def replay_cents(
    results: list[tuple[int, int, int, int]],
    state: dict[int, tuple[int, int]],
) -> list[CentNumbers]:
    """:func:`replay_numbers` in whole cents (what ``games.ratings.services`` replays with): the
    same numbers without a :class:`~decimal.Decimal` in the loop, about twice as fast.
    ``state`` holds each player's rating in cents and experience (a player not in it
    starts at :data:`INITIAL_CENTS` and 0) and is moved on in place.

    The same numbers: ``cents / 100`` is the float nearest to the rating, as
    ``float(Decimal)`` is (both round correctly), so :func:`_step` sees the same floats;
    the changes are whole cents, so integer sums are the Decimal sums exactly."""
    initial = (INITIAL_CENTS, INITIAL_EXPERIENCE)
    get = state.get
    step = _step
    out: list[CentNumbers] = []
    append = out.append
    for a, b, length, winner in results:
        r1, e1 = get(a, initial)
        r2, e2 = get(b, initial)
        pu, k1, k2, c1, c2 = step(r1 / 100, r2 / 100, e1, e2, length, winner)
        a1, a2, x1, x2 = r1 + c1, r2 + c2, e1 + length, e2 + length
        append((pu, k1, k2, c1, c2, r1, a1, r2, a2, e1, x1, e2, x2))
        state[a] = (a1, x1)
        state[b] = (a2, x2)
    return out

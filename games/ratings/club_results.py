"""Club match results typed in (issue 8): a match played over the board outside a
tournament, e.g. a club night's friendly 7-pointer, entered so it counts for the rating.

Terms and decisions:

* A **club result** is a row of the rating ledger with source ``club``
  (:class:`~games.models.RatedResult`, key ``club:<uuid4 hex>``, ``at`` = when it was
  played) and, beside it, its audit (:class:`~games.models.ClubResult`: who typed it in
  and when, who last corrected or voided it). The ledger does the rating
  (:func:`games.ratings.services.rating_record`, ``rating_correct``, ``rating_void``): a result
  dated before later results of its players is replayed into place there. Whether club
  results are rated is ``settings.RATING_SOURCES["club"]``; when not, they are kept
  without numbers.
* **Who may**: the club's directors -- staff users and users with the Django permission
  ``games.add_ratedresult`` (403 ``cannot_enter_club_results`` for anyone else; the
  check comes first, so nobody learns anything from a refusal).
* **Ids**: a result is named by its ledger row's id. Only club rows can be corrected or
  voided here (404 ``result_not_found`` when there is no such row, 409
  ``not_a_club_result`` for a tournament or online result, which their own apps own).
* **A void** deletes the ledger row (the ratings are replayed without it) and keeps the
  audit row, marked voided, with the result as it was: the audit outlives the result.
* **Rules checked** before anything is written (each refusal is a
  :class:`~games.errors.ValidationFailed` with its code, and changes nothing):
  ``played_in_future`` (more than :data:`FUTURE_TOLERANCE` after now: clocks differ a
  little), ``invalid_date`` (no time zone), ``invalid_length`` (1 to
  :data:`MAX_LENGTH` points; money play is never rated), ``same_player``,
  ``invalid_winner`` (one of the two players) and ``inactive_player`` (a player no longer
  active; a correction refuses only players it brings in, so an old result of a member
  who left can still be corrected).
* **The preview** (:func:`club_result_preview`) gives both outcomes from the players'
  ratings at the date played -- those after their last rated result up to then, which is
  exactly what the result will be rated from, even when later results exist -- and
  writes nothing.

Time: :func:`games.wallclock.now` is the one reading of the wall clock (tests replace it).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from games import wallclock
from games.engine import rating as formula
from games.errors import Conflict, NotFound, PermissionDenied, ValidationFailed
from games.models import ClubResult, Player, RatedResult
from games.ratings import services as ratings
from games.ratings import sources

#: The longest match that can be typed in.
MAX_LENGTH = 64
#: How far after now a date played may be (the director's watch and the server's differ).
FUTURE_TOLERANCE = timedelta(minutes=5)
#: The Django permission that makes a user a typist of club results (besides staff).
PERMISSION = "games.add_ratedresult"
KEY_PREFIX = "club:"

Source = RatedResult.Source


# ====================================================================== permissions
def club_result_can_enter(*, user: Any) -> bool:
    """Whether ``user`` may type in, correct, void and list club results: staff and
    users with ``games.add_ratedresult``."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    return bool(user.is_staff) or bool(user.has_perm(PERMISSION))


def club_result_authorize(*, user: Any) -> None:
    """Refuse (403 ``cannot_enter_club_results``) anyone who may not
    (:func:`club_result_can_enter`)."""
    if not club_result_can_enter(user=user):
        raise PermissionDenied(
            "cannot_enter_club_results",
            _("Only the club's directors may type in club match results."),
        )


# ====================================================================== checks
def _check(
    *,
    player1: Player,
    player2: Player,
    length: int,
    played_at: datetime,
    winner: Player | None = None,
    new_players: Sequence[Player] | None = None,
) -> None:
    """The rules of a club result, before anything is written. ``new_players``: the
    players whose being active is checked (both, unless a correction keeps them)."""
    if isinstance(length, bool) or not isinstance(length, int) or not 1 <= length <= MAX_LENGTH:
        raise ValidationFailed(
            "invalid_length",
            _("A club match is played to 1 to %(max)d points.") % {"max": MAX_LENGTH},
        )
    if not isinstance(played_at, datetime) or timezone.is_naive(played_at):
        raise ValidationFailed("invalid_date", _("Give the date and time the match was played."))
    if played_at > wallclock.now() + FUTURE_TOLERANCE:
        raise ValidationFailed("played_in_future", _("The date played cannot be in the future."))
    ratings.check_players(player1=player1, player2=player2, winner=winner)
    check = [player1, player2] if new_players is None else list(new_players)
    if check:
        # From the database, not the objects given: they may be stale.
        inactive = list(
            Player.objects.filter(pk__in=[p.pk for p in check], is_active=False)
            .order_by("name")
            .values_list("name", flat=True)
        )
        if inactive:
            raise ValidationFailed(
                "inactive_player",
                _("%(names)s is no longer an active player.") % {"names": ", ".join(inactive)},
            )


# ====================================================================== writes
def club_result_record(
    *,
    by: Any,
    player1: Player,
    player2: Player,
    length: int,
    winner: Player,
    played_at: datetime,
) -> RatedResult:
    """Type in a club match result: a new row of the ledger (rated when club results
    are, moving both players' ratings) and its audit, in one transaction."""
    club_result_authorize(user=by)
    _check(player1=player1, player2=player2, length=length, played_at=played_at, winner=winner)
    key = f"{KEY_PREFIX}{uuid.uuid4().hex}"
    with transaction.atomic():
        row = ratings.rating_record(
            source=Source.CLUB,
            source_key=key,
            player1=player1,
            player2=player2,
            length=length,
            winner=winner,
            at=played_at,
        )
        ClubResult.objects.create(
            source_key=key,
            player1=player1,
            player2=player2,
            length=length,
            winner=winner,
            played_at=played_at,
            entered_by=by,
            entered_at=wallclock.now(),
        )
    return row


def _club_row_for_write(result_id: int) -> tuple[RatedResult, ClubResult]:
    """The club row ``result_id`` and its audit, the audit locked (a correction and a
    void of one result wait for each other). Call inside a transaction."""
    row = RatedResult.objects.filter(pk=result_id).first()
    if row is None:
        raise NotFound("result_not_found", _("There is no such result."))
    if row.source != Source.CLUB:
        raise Conflict(
            "not_a_club_result",
            _("Only club results can be changed here; this result is of another kind: %(source)s.")
            % {"source": row.get_source_display()},
        )
    audit = ClubResult.objects.select_for_update().filter(source_key=row.source_key).first()
    if audit is None:
        # A club row recorded without this module (e.g. imported): its audit starts now,
        # with nobody known to have typed it in.
        audit = ClubResult.objects.create(
            source_key=row.source_key,
            player1_id=row.player1_id,
            player2_id=row.player2_id,
            length=row.length,
            winner_id=row.winner_id,
            played_at=row.at,
            entered_by=None,
            entered_at=row.recorded_at,
        )  # inserted in this transaction: locked already
    # Again under the lock (a void may have taken it meanwhile), with its players.
    locked = RatedResult.objects.select_related("player1", "player2").filter(pk=result_id).first()
    if locked is None:
        raise NotFound("result_not_found", _("There is no such result."))
    return locked, audit


def club_result_correct(
    *,
    by: Any,
    result_id: int,
    player1: Player | None = None,
    player2: Player | None = None,
    length: int | None = None,
    winner: Player | None = None,
    played_at: datetime | None = None,
) -> RatedResult:
    """Correct a club result: what is given replaces what was typed in (``None`` keeps
    it; the winner is kept by who they are, so give it again when the players change).
    The ledger replays from the earlier of the old and new date. Nothing changes, and
    the audit does not either, when the result is the same."""
    club_result_authorize(user=by)
    with transaction.atomic():
        row, audit = _club_row_for_write(result_id)
        new1 = player1 or row.player1
        new2 = player2 or row.player2
        if winner is not None:
            new_winner = winner
        else:
            new_winner = row.player1 if row.winner_id == row.player1_id else row.player2
        new_length = row.length if length is None else length
        new_at = row.at if played_at is None else played_at
        old_players = {row.player1_id, row.player2_id}
        _check(
            player1=new1,
            player2=new2,
            length=new_length,
            played_at=new_at,
            winner=new_winner,
            new_players=[p for p in (new1, new2) if p.pk not in old_players],
        )
        if (row.player1_id, row.player2_id, row.length, row.winner_id, row.at) == (
            new1.pk,
            new2.pk,
            new_length,
            new_winner.pk,
            new_at,
        ):
            return row
        row = ratings.rating_correct(
            source_key=row.source_key,
            player1=new1,
            player2=new2,
            length=new_length,
            winner=new_winner,
            at=new_at,
        )
        audit.player1, audit.player2, audit.winner = new1, new2, new_winner
        audit.length, audit.played_at = new_length, new_at
        audit.corrected_by, audit.corrected_at = by, wallclock.now()
        audit.save()
    return row


def club_result_void(*, by: Any, result_id: int) -> ClubResult:
    """Void a club result: the ledger row goes (the ratings are replayed without it), the
    audit stays, marked voided by ``by``. Returns the audit."""
    club_result_authorize(user=by)
    with transaction.atomic():
        row, audit = _club_row_for_write(result_id)
        ratings.rating_void(source_key=row.source_key)
        audit.voided_by, audit.voided_at = by, wallclock.now()
        audit.save(update_fields=["voided_by", "voided_at"])
    return audit


# ====================================================================== reads
@dataclass(frozen=True)
class ClubPreview:
    """What each player stands to gain or lose: their ratings and experiences at the
    date played and both outcomes computed as the ledger will (``formula.preview``)."""

    player1: Player
    player2: Player
    length: int
    played_at: datetime
    rating1: Decimal
    experience1: int
    rating2: Decimal
    experience2: int
    outcomes: formula.RatingPreview
    rated: bool


def club_result_preview(
    *, player1: Player, player2: Player, length: int, played_at: datetime
) -> ClubPreview:
    """Both outcomes of the match, from the players' ratings at ``played_at``. Checks
    what :func:`club_result_record` checks (but the winner) and writes nothing."""
    _check(player1=player1, player2=player2, length=length, played_at=played_at)
    r1, e1 = player_rating_at(player=player1, at=played_at)
    r2, e2 = player_rating_at(player=player2, at=played_at)
    return ClubPreview(
        player1=player1,
        player2=player2,
        length=length,
        played_at=played_at,
        rating1=r1,
        experience1=e1,
        rating2=r2,
        experience2=e2,
        outcomes=formula.preview(r1, e1, r2, e2, length),
        rated=sources.is_rated(Source.CLUB),
    )


def player_rating_at(*, player: Player, at: datetime) -> tuple[Decimal, int]:
    """A player's rating and experience after their last rated result at or before
    ``at`` (a new result at ``at`` comes after those in the ledger's order): 1500/0
    before the first. One query."""
    last = (
        RatedResult.objects.filter(Q(player1=player) | Q(player2=player), rated=True, at__lte=at)
        .order_by("-at", "-id")
        .values_list(
            "player1_id", "rating1_after", "experience1_after", "rating2_after", "experience2_after"
        )
        .first()
    )
    if last is None:
        return formula.INITIAL_RATING, formula.INITIAL_EXPERIENCE
    p1, r1, e1, r2, e2 = last
    return (r1, e1) if p1 == player.pk else (r2, e2)


def club_result_list() -> QuerySet[RatedResult]:
    """The club results that stand, newest played first, with their players (one query
    per page; :func:`club_result_audits` gives their audits in one more)."""
    return (
        RatedResult.objects.filter(source=Source.CLUB)
        .select_related("player1", "player2")
        .order_by("-at", "-id")
    )


def club_result_get(*, result_id: int) -> RatedResult:
    """One club result (404 ``result_not_found`` for any other id)."""
    row = club_result_list().filter(pk=result_id).first()
    if row is None:
        raise NotFound("result_not_found", _("There is no such result."))
    return row


def club_result_audits(rows: Sequence[RatedResult]) -> dict[str, ClubResult]:
    """The audits of ``rows`` by key, with who typed in and corrected: one query."""
    if not rows:
        return {}
    found = ClubResult.objects.filter(source_key__in=[r.source_key for r in rows]).select_related(
        "entered_by", "corrected_by"
    )
    return {audit.source_key: audit for audit in found}

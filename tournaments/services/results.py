"""Results: a director enters or corrects one (corrections audited, later results reset
on request), the players report and confirm theirs, a director sets a match's table; a
result that stands goes into the rating ledger (:mod:`games.ratings.services`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.errors import Conflict, PermissionDenied, ValidationFailed
from games.models import Player
from games.notifications.services import Notice, notify_all
from games.ratings import services as ratings
from tournaments import bridge, pairing
from tournaments.models import DONE, OPEN, Event, Flight, ResultCorrection, TournamentMatch
from tournaments.pairing.common import is_entrant
from tournaments.services.advancing import advance
from tournaments.services.common import (
    check_version,
    lock_match,
    match_notice_context,
    pairing_error,
    require_director,
    require_published,
    side_of_user,
    touch,
)


def _checked(
    row: TournamentMatch,
    *,
    score_a: int | None,
    score_b: int | None,
    games: Sequence[Mapping[str, Any]] | None,
) -> dict[str, Any]:
    """Check a typed result against the match rules (R9-R11), counted from the match's
    starting score (a lateness penalty, R15), and return it as stored."""
    try:
        if games:
            try:
                sheet = [pairing.GameEntry.from_dict(g) for g in games]
            except (KeyError, TypeError, AttributeError):
                raise ValidationFailed(
                    "invalid_games",
                    _("Each game needs its winner (1 or 2), points and cube."),
                ) from None
            outcome = pairing.check_games(row.match_length, sheet, start=row.start_score)
            if (score_a, score_b) != (None, None) and (score_a, score_b) != outcome.score:
                raise ValidationFailed(
                    "score_mismatch",
                    _("The games add up to %(a)d-%(b)d, not the score given.")
                    % {"a": outcome.score[0], "b": outcome.score[1]},
                )
            stored = [g.to_dict() for g in sheet]
        else:
            if score_a is None or score_b is None:
                raise ValidationFailed("score_required", _("Enter the final score or the games."))
            outcome = pairing.check_final_score(
                row.match_length, score_a, score_b, start=row.start_score
            )
            stored = []
    except pairing.ResultError as exc:
        raise pairing_error(exc) from None
    return {
        "winner": "a" if outcome.winner == 1 else "b",
        "score_a": outcome.score[0],
        "score_b": outcome.score[1],
        "games": stored,
    }


def _walkover(winner: str) -> dict[str, Any]:
    if winner not in ("a", "b"):
        raise ValidationFailed("invalid_winner", _("The winner is side a or side b."))
    return {"winner": winner, "score_a": None, "score_b": None, "games": [], "walkover": True}


def require_open(row: TournamentMatch) -> None:
    if row.decided_at is not None or row.status in DONE:
        raise Conflict(
            "result_exists", _("This match has a result already; a director can correct it.")
        )
    if row.status not in OPEN or not (row.entry_a_id and row.entry_b_id):
        raise Conflict("match_not_ready", _("This match cannot be played yet."))


def require_undisputed(row: TournamentMatch) -> None:
    """Refuse (409 ``match_disputed``) a plain result or confirmation of a disputed
    match: the director resolves it on its own form, with a reason for the audit
    (:func:`tournaments.services.disputes.match_dispute_resolve`), having seen both
    reports; a quick score typed over it would leave no trace of the other report."""
    if row.status == TournamentMatch.Status.DISPUTED:
        raise Conflict(
            "match_disputed",
            _(
                "The players' reports differ: the director resolves the dispute on the "
                "match's page (choose a report or type the score, with a reason)."
            ),
            extra={"match": row.pk},
        )


def record(
    flight: Flight,
    row: TournamentMatch,
    result: Mapping[str, Any],
    *,
    by: Any,
    correction: bool = False,
) -> None:
    row.winner = result["winner"]
    row.score_a = result["score_a"]
    row.score_b = result["score_b"]
    row.games = list(result["games"])
    row.status = (
        TournamentMatch.Status.WALKOVER
        if result.get("walkover")
        else TournamentMatch.Status.CONFIRMED
    )
    row.decided_by = by if getattr(by, "is_authenticated", False) else None
    # A corrected result keeps its place in the rating ledger: when it first stood.
    now = timezone.now()
    counts_from = row.decided_at if correction and row.decided_at else now
    row.decided_at = now
    row.version += 1
    row.save()
    _rate(flight, row, at=counts_from, correction=correction)


def rating_key(row: TournamentMatch) -> str:
    """The key of a tournament match's result in the rating ledger."""
    return f"tmatch:{row.pk}"


def _rate(flight: Flight, row: TournamentMatch, *, at: datetime, correction: bool) -> None:
    """Put a result that stands into the rating ledger (``games.ratings.services``), rated when
    the event is, counting from ``at`` (from when an online match finished). A walkover
    is not rated (a correction to one takes the result out); a correction replays the
    ratings from the result's place."""
    key = rating_key(row)
    if row.status != TournamentMatch.Status.CONFIRMED or not (row.entry_a and row.entry_b):
        if correction:
            ratings.rating_void(source_key=key)
        return
    p1, p2 = row.entry_a.player, row.entry_b.player
    # The flag as committed now, not as read with the flight: an event_update that held
    # the flight lock while we waited for it may have changed it (one small query).
    rated = Event.objects.filter(pk=flight.event_id).values_list("rated", flat=True).get()
    online = row.online_match
    fields: dict[str, Any] = {
        "source_key": key,
        "player1": p1,
        "player2": p2,
        "length": row.match_length,
        "winner": p1 if row.winner == "a" else p2,
        "match": online,
        "rated": rated,
    }
    if online is not None and online.finished_at:
        at = online.finished_at
    if correction:
        ratings.rating_correct(source=ratings.Source.TOURNAMENT, at=at, **fields)
    else:
        ratings.rating_record(source=ratings.Source.TOURNAMENT, at=at, **fields)


def result_enter(
    *,
    match_id: int,
    by: Any,
    score_a: int | None = None,
    score_b: int | None = None,
    games: Sequence[Mapping[str, Any]] | None = None,
    walkover_winner: str = "",
    expected_version: int | None = None,
) -> TournamentMatch:
    """A director enters a result: the final score, or game by game (``games``: each
    ``{"winner": 1|2, "points": n, "cube": c}``, player 1 = side a), checked by
    :func:`tournaments.pairing.check_games` (a refusal names the game in
    ``extra["game"]``); or a forfeit (``walkover_winner`` ``"a"``/``"b"``)."""
    with transaction.atomic():
        flight, row = lock_match(match_id)
        require_director(by, flight.event)
        require_published(flight, row)
        check_version(row, expected_version)
        require_open(row)
        require_undisputed(row)
        result = (
            _walkover(walkover_winner)
            if walkover_winner
            else _checked(row, score_a=score_a, score_b=score_b, games=games)
        )
        record(flight, row, result, by=by)
        advance(flight)
        return row


def result_report(
    *,
    match_id: int,
    by: Any,
    score_a: int | None = None,
    score_b: int | None = None,
    games: Sequence[Mapping[str, Any]] | None = None,
    expected_version: int | None = None,
) -> TournamentMatch:
    """A player reports their own match. The result stands when the other side has
    reported the same. A different report is stored too (issue 29: nothing is lost):
    the match is ``disputed``, both reports kept, both players and the event's
    directors told (``result_disputed``), and a director resolves it
    (:func:`tournaments.services.disputes.match_dispute_resolve`); until then either
    player may still change their report, and when the two agree the result stands.
    A first report tells the opponent (``result_to_confirm``). The same report again by
    the same side (a repeated tap, a retried request, several sent at once: they wait
    for one another on the flight's lock) changes nothing and tells nobody again; a
    changed report is stored and the opponent told of it (a new thing to confirm)."""
    with transaction.atomic():
        flight, row = lock_match(match_id)
        player = Player.of_user(by)
        side = ""
        if player is not None:
            for s, entry in (("a", row.entry_a), ("b", row.entry_b)):
                if entry is not None and entry.player_id == player.pk:
                    side = s
        if not side:
            raise PermissionDenied("not_your_match", _("You can report only your own matches."))
        check_version(row, expected_version)
        require_open(row)
        require_published(flight, row)
        result = _checked(row, score_a=score_a, score_b=score_b, games=games)
        report = {**result, "user": by.pk, "at": timezone.now().isoformat()}
        other = row.report_b if side == "a" else row.report_a
        if other is not None and _same_result(other, result):
            if not result["games"] and other.get("games"):
                result["games"] = other["games"]
            setattr(row, f"report_{side}", report)
            record(flight, row, result, by=by)
            advance(flight)
            return row
        own = row.report_a if side == "a" else row.report_b
        if own is not None and _same_result(own, result):
            if own.get("games") == result["games"]:
                return row  # a repeat: already stored, the opponent already told
            setattr(row, f"report_{side}", report)  # the same score, more detail
            row.version += 1
            row.save()
            touch(flight)
            return row
        setattr(row, f"report_{side}", report)
        if other is not None:
            # The two reports differ: both are kept, the director decides (issue 29).
            _dispute(flight, row, reporter=player)
            return row
        row.status = TournamentMatch.Status.REPORTED
        row.version += 1
        row.save()
        opponent = row.entry_b if side == "a" else row.entry_a
        assert opponent is not None
        notify_all(
            [
                Notice(
                    recipient=opponent.player,
                    kind="result_to_confirm",
                    subject=f"tmatch:{row.pk}:report:{row.version}",
                    context=match_notice_context(
                        flight,
                        row,
                        reporter=player.name if player else "",
                        score=[result["score_a"], result["score_b"]],
                    ),
                )
            ]
        )
        touch(flight)
        return row


def _dispute(flight: Flight, row: TournamentMatch, *, reporter: Player | None) -> None:
    """The second report differs from the first: the match is ``disputed`` with both
    reports kept (stored by the caller), and both players and the event's directors are
    told (``result_disputed``, once per change of a report: the match's version)."""
    row.status = TournamentMatch.Status.DISPUTED
    row.version += 1
    row.save()
    assert row.entry_a is not None and row.entry_b is not None
    report_a, report_b = row.report_a or {}, row.report_b or {}
    context = match_notice_context(
        flight,
        row,
        reporter=reporter.name if reporter else "",
        player_a=row.entry_a.player.name,
        player_b=row.entry_b.player.name,
        report_a=[report_a.get("score_a"), report_a.get("score_b")],
        report_b=[report_b.get("score_a"), report_b.get("score_b")],
    )
    players = [row.entry_a.player, row.entry_b.player]
    directors = (
        Player.objects.filter(user__in=flight.event.directors.all())
        .exclude(pk__in=[p.pk for p in players])
        .select_related("user")
    )
    # The directors' notice links to the match's page, where they decide it.
    notify_all(
        [
            Notice(
                recipient=recipient,
                kind="result_disputed",
                subject=f"tmatch:{row.pk}:dispute:{row.version}",
                context=context if recipient in players else {**context, "director": True},
            )
            for recipient in [*players, *directors]
        ]
    )
    touch(flight)


def _same_result(x: Mapping[str, Any], y: Mapping[str, Any]) -> bool:
    return all(x.get(k) == y.get(k) for k in ("winner", "score_a", "score_b"))


def result_confirm(
    *, match_id: int, by: Any, expected_version: int | None = None
) -> TournamentMatch:
    """Confirm the one report of a match: a director, or the opponent of the player
    who reported. The result then stands."""
    with transaction.atomic():
        flight, row = lock_match(match_id)
        reports = [(s, r) for s, r in (("a", row.report_a), ("b", row.report_b)) if r]
        if row.status != TournamentMatch.Status.REPORTED or len(reports) != 1:
            if not flight.event.is_director(by) and not side_of_user(row, by):
                raise PermissionDenied("not_your_match", _("You can confirm only your matches."))
            require_undisputed(row)
            raise Conflict("nothing_to_confirm", _("There is no report to confirm."))
        reporter, report = reports[0]
        if not flight.event.is_director(by):
            side = side_of_user(row, by)
            if not side:
                raise PermissionDenied("not_your_match", _("You can confirm only your matches."))
            if side == reporter:
                raise PermissionDenied(
                    "own_report", _("Your opponent or a director must confirm your report.")
                )
        check_version(row, expected_version)
        record(flight, row, report, by=by)
        advance(flight)
        return row


def result_correct(
    *,
    match_id: int,
    by: Any,
    reason: str,
    score_a: int | None = None,
    score_b: int | None = None,
    games: Sequence[Mapping[str, Any]] | None = None,
    walkover_winner: str = "",
    reset_later: bool = False,
    expected_version: int | None = None,
) -> TournamentMatch:
    """A director changes a result that stands; audited (who, when, old, new, why).

    The bracket advances again from the new result. When the change moves a player out
    of a later match that already has a result, a report or an online match, it is
    refused (409 ``later_results_depend``, the slots in ``extra``) unless
    ``reset_later``: then those later matches (and, in turn, the ones that depended on
    them) lose their results, each reset audited with the same reason, and are played
    again by the right players. An online match of a reset match is unlinked (it stays
    in the players' match history)."""
    with transaction.atomic():
        flight, row = lock_match(match_id)
        require_director(by, flight.event)
        check_version(row, expected_version)
        if row.decided_at is None or row.status not in (
            TournamentMatch.Status.CONFIRMED,
            TournamentMatch.Status.WALKOVER,
        ):
            raise Conflict("no_result", _("This match has no result to correct."))
        reason = (reason or "").strip()
        if not reason:
            raise ValidationFailed("reason_required", _("Say why the result is corrected."))
        new = (
            _walkover(walkover_winner)
            if walkover_winner
            else _checked(row, score_a=score_a, score_b=score_b, games=games)
        )
        old = row.result_dict()
        reset: list[TournamentMatch] = []
        if flight.is_bracket and new["winner"] != row.winner:
            reset = _later_results_to_reset(flight, row, new)
            if reset and not reset_later:
                raise Conflict(
                    "later_results_depend",
                    # Issue 29: the usual fix is the checkbox beside the form, say so.
                    _(
                        "Later matches were already played with the players this changes: "
                        "tick “Reset the later results” (the box beside it) or correct "
                        "these matches first."
                    ),
                    extra={"slots": [m.slot_key for m in reset]},
                )
        for later in reset:
            before = later.result_dict()
            later.decided_at = later.decided_by = None  # type: ignore[assignment]
            later.winner, later.score_a, later.score_b, later.games = "", None, None, []
            later.report_a = later.report_b = None
            later.online_match = None
            later.status = TournamentMatch.Status.PENDING
            later.version += 1
            later.save()
            ratings.rating_void(source_key=rating_key(later))
            ResultCorrection.objects.create(
                match=later,
                by=by,
                old=before,
                new=later.result_dict(),
                reason=_("%(reason)s (reset: %(slot)s changed)")
                % {"reason": reason, "slot": row.slot_key},
            )
        record(flight, row, new, by=by, correction=True)
        ResultCorrection.objects.create(
            match=row, by=by, old=old, new=row.result_dict(), reason=reason
        )
        advance(flight)
        return row


def _later_results_to_reset(
    flight: Flight, row: TournamentMatch, new: Mapping[str, Any]
) -> list[TournamentMatch]:
    """The later matches of a bracket that ``row``'s new result takes players from: those
    with a result that no longer stands (:func:`tournaments.pairing.results_to_reset`:
    it moves their players, or a reset before them does), and those without one but
    with a report or an online match whose players change. In play order."""
    rows = list(flight.matches.all())
    entries = list(flight.entries.all())
    bracket = pairing.Bracket.from_dict(flight.bracket)
    changed = {row.slot_key: pairing.Result(new["winner"], bool(new.get("walkover")))}
    reset = set(bridge.results_to_reset(flight, entries, rows, changed=changed, bracket=bracket))
    kept = {k: v for k, v in bridge.bracket_results(rows).items() if k not in reset}
    after = bridge.resolve(flight, entries, rows, bracket=bracket, results=kept | changed)
    found = []
    for m in rows:
        if m.slot_key in reset:
            found.append(m)
        elif m.decided_at is None and (m.report_a or m.report_b or m.online_match_id):
            rs = after[m.slot_key]
            if (m.entry_a_id, m.entry_b_id) != tuple(
                e if is_entrant(e) else None for e in (rs.a, rs.b)
            ):
                found.append(m)
    order = {s.key: i for i, s in enumerate(bracket.slots)}
    return sorted(found, key=lambda m: order[m.slot_key])


def match_set_table(*, match_id: int, by: Any, table: int | None) -> TournamentMatch:
    """A director puts a match at another table (``None``: no table)."""
    with transaction.atomic():
        flight, row = lock_match(match_id)
        require_director(by, flight.event)
        if table is not None and (
            isinstance(table, bool) or not isinstance(table, int) or not 1 <= table <= 999
        ):
            raise ValidationFailed("invalid_table", _("Tables are numbered 1 to 999."))
        row.table = table
        row.version += 1
        row.save(update_fields=["table", "version"])
        touch(flight)
        return row

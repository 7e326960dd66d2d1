"""A tournament match played online: start it (a ``games.Match`` with the round's length
and clock), and record its result when its last game ends (the ``match_finished``
receiver)."""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from games.errors import ApplicationError, Conflict, PermissionDenied, ValidationFailed
from games.models import Game, Match
from games.play import services as game_services
from tournaments.models import ClockPolicy, FlightRound, TournamentMatch
from tournaments.services.advancing import advance
from tournaments.services.common import lock_match, require_published, side_of_user, touch
from tournaments.services.results import rating_key, record, require_open

logger = logging.getLogger(__name__)


def match_start_online(*, match_id: int, by: Any, clock: bool | None = None) -> Match:
    """Create the online match (``games.Match``) of a ready tournament match: the
    round's length, its clock preset when the round's policy requires one (or allows
    one and ``clock`` is not ``False``), side a as player 1. Its last game reports the
    result here (``games.signals.match_finished``). A player of the match or a director
    may do this. A match with a lateness penalty is refused (409 ``penalty_not_online``):
    an online match always starts at 0-0."""
    with transaction.atomic():
        flight, row = lock_match(match_id)
        if not side_of_user(row, by) and not flight.event.is_director(by):
            raise PermissionDenied("not_your_match", _("You can start only your own matches."))
        if row.status != TournamentMatch.Status.READY:
            raise Conflict("match_not_ready", _("This match cannot be played now."))
        require_published(flight, row)
        if row.online_match_id is not None:
            raise Conflict("already_online", _("This match is already being played online."))
        if row.late_points:
            # games.play.services.match_create starts every match at 0-0 (R15).
            raise Conflict(
                "penalty_not_online",
                _("This match starts at a lateness penalty: play it at the board."),
            )
        settings = FlightRound.objects.filter(
            flight=flight, part=row.part, number=row.round
        ).first()
        preset = settings.clock_preset if settings else flight.clock_preset
        policy = settings.clock_policy if settings else flight.clock_policy
        if policy == ClockPolicy.OFF and clock:
            raise ValidationFailed("clocks_off", _("This round is played without clocks."))
        use = policy == ClockPolicy.REQUIRED or (
            policy == ClockPolicy.ALLOWED and clock is not False
        )
        assert row.entry_a is not None and row.entry_b is not None
        online = game_services.match_create(
            player1=row.entry_a.player,
            player2=row.entry_b.player,
            length=row.match_length,
            clock=preset if use else None,
            created_by=by if getattr(by, "is_authenticated", False) else None,
            played_for=rating_key(row),
        )
        row.online_match = online
        row.version += 1
        row.save(update_fields=["online_match", "version"])
        touch(flight)
        return online


def result_record_online(*, match_id: int, online: Match) -> TournamentMatch | None:
    """Record the result of a finished online match (called by the ``match_finished``
    receiver, in the transaction of the last move). Safe to run twice: a match that has
    a result is left alone."""
    with transaction.atomic():
        flight, row = lock_match(match_id)
        if row.online_match_id != online.pk or row.decided_at is not None:
            return None
        require_open(row)
        assert row.entry_a is not None
        winner = "a" if online.winner_id == row.entry_a.player_id else "b"
        games = [
            {"winner": g.winner_index + 1, "points": g.points, "cube": g.state.get("cube", 1)}
            for g in Game.objects.filter(match_id=online.pk, is_over=True)
            .exclude(result_kind=Game.VOID)
            .order_by("number")
            if g.winner_index is not None
        ]
        result = {
            "winner": winner,
            "score_a": online.score1,
            "score_b": online.score2,
            "games": games,
        }
        record(flight, row, result, by=None)
        advance(flight)
        return row


def on_match_finished(sender: Any, match: Match, **kwargs: Any) -> None:
    """Receiver of ``games.signals.match_finished``: a tournament match played online
    reports itself. A refusal here must not undo the player's last move, so it runs in
    a savepoint and is logged (the director can still enter the result)."""
    found = TournamentMatch.objects.filter(online_match_id=match.pk)
    row_id = found.values_list("pk", flat=True).first()
    if row_id is None:
        return
    try:
        with transaction.atomic():
            result_record_online(match_id=row_id, online=match)
    except ApplicationError:
        logger.warning("online result of tournament match %s not recorded", row_id, exc_info=True)

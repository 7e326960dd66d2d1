"""A tournament match played at the board, recorded from its ``.mat`` file for its
analysis (issue 28).

**Who**: the flight's directors and the match's two players (403 ``not_your_match``
for anyone else). **Which side is which**: the file's player 1 is side A and its
player 2 side B, unless the uploader says otherwise (``first_side``) or the names say
otherwise (the file's player 1 is side B's player, or its player 2 side A's, compared
without case and accents); names matching neither player (a nickname, "Player 1") are
taken in the file's order. **What must agree**: the file's length is the match's, the
file's match was played to the end, and when a result stands already, the file's winner
and final score are that result (409 ``mat_length_mismatch``, 400 ``mat_unfinished``,
409 ``mat_result_mismatch``; nothing stored).

**No result yet**: the file is the record of the match, so its result is entered through
the result services, as if typed game by game: a director's upload enters it
(:func:`tournaments.services.results.result_enter`: it stands), a player's is that
player's report (:func:`tournaments.services.results.result_report`: the opponent
confirms it, or a director). A director at a busy desk expects the file to settle the
match, and a player may not settle one alone anywhere else either.

**One file per match**: a second upload is refused (409 ``mat_exists``), a director's
too. A recorded match cannot be replaced: the action log is append-only (a database
trigger refuses deleting it), and a second recorded match beside the first would count
the same match twice in the players' PR averages. A file accepted here agrees with the
match's length, players and result, so a wrong one is rare.

The recorded ``games.Match`` is imported (never rated: the tournament result is what
the ledger holds) and ``played_for`` the tournament match (``"tmatch:<id>"``), so its
page shows the tournament's rating line; an analysis is queued for it
(:func:`games.analysis.services.analysis_request`).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from games.analysis.services import analysis_request
from games.engine.matfile.read import MatOutline
from games.errors import Conflict, PermissionDenied, ValidationFailed
from games.models import Game, Match, Player
from games.play import interchange
from games.text.fold import fold
from tournaments.models import TournamentMatch
from tournaments.services.common import lock_match, side_of_user, touch
from tournaments.services.results import rating_key, result_enter, result_report

#: Which side the file's player 1 is: "" (by the names, else in order), "a" or "b".
FIRST_SIDES = ("", "a", "b")


def mat_upload_text(*, upload: Any = None, text: str = "") -> str:
    """The text of an uploaded file (``upload``: Django's ``UploadedFile``), its size
    checked before it is read (400 ``mat_too_large``), as UTF-8 (400 ``mat_not_text``);
    else the pasted ``text``."""
    if upload is None:
        return text
    interchange.mat_check_size(size=upload.size or 0)
    try:
        return str(upload.read().decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise ValidationFailed(
            "mat_not_text", _("The file is not UTF-8 text."), extra={"field": "file"}
        ) from None


def _first_side(row: TournamentMatch, outline: MatOutline, given: str) -> str:
    if given:
        return given
    assert row.entry_a is not None and row.entry_b is not None
    first, second = (fold(n) for n in outline.players)
    name_a, name_b = fold(row.entry_a.player.name), fold(row.entry_b.player.name)
    if (first == name_b and first != name_a) or (second == name_a and second != name_b):
        return "b"
    return "a"


def _file_result(match: Match, first: str) -> dict[str, Any]:
    """The recorded match's result in the tournament's sides (player 1 = side a)."""
    swap = first == "b"
    score_a, score_b = (match.score2, match.score1) if swap else (match.score1, match.score2)
    winner_index = 0 if match.winner_id == match.player1_id else 1
    games = [
        {
            "winner": (2 - g.winner_index) if swap else (g.winner_index + 1),
            "points": g.points,
            "cube": g.state.get("cube", 1),
        }
        for g in Game.objects.filter(match=match, is_over=True)
        .exclude(result_kind=Game.VOID)
        .order_by("number")
        if g.winner_index is not None
    ]
    return {
        "winner": "ab"[winner_index ^ swap],
        "score_a": score_a,
        "score_b": score_b,
        "games": games,
    }


def _check_state(row: TournamentMatch) -> None:
    if row.online_match_id is not None:
        raise Conflict(
            "played_online",
            _("This match was played online here: its own record is analysed."),
        )
    if row.status in (TournamentMatch.Status.WALKOVER, TournamentMatch.Status.BYE):
        raise Conflict("match_not_played", _("This match was not played (a walkover or a bye)."))
    if not (row.entry_a_id and row.entry_b_id) or row.status == TournamentMatch.Status.PENDING:
        raise Conflict("match_not_ready", _("This match cannot be played yet."))
    if row.mat_match_id is not None:
        raise Conflict("mat_exists", _("This match's file is recorded already."))


def match_mat_upload(*, match_id: int, by: Any, text: str, first_side: str = "") -> TournamentMatch:
    """Record tournament match ``match_id``'s ``.mat`` ``text``, uploaded by ``by``, and
    queue its analysis (the module docstring says who may and what must agree).
    ``first_side``: which side the file's player 1 is (``"a"``, ``"b"``; ``""``: by the
    names). Every refusal stores nothing. Returns the tournament match as it now is
    (``mat_match`` the recorded match)."""
    if first_side not in FIRST_SIDES:
        raise ValidationFailed(
            "invalid_side",
            _("Say which side the file's first player is: side A or side B."),
            extra={"field": "first_side"},
        )
    with transaction.atomic():
        flight, row = lock_match(match_id)
        director = flight.event.is_director(by)
        if not director and not side_of_user(row, by):
            raise PermissionDenied(
                "not_your_match", _("Only the match's players and the directors may do this.")
            )
        _check_state(row)
        assert row.entry_a is not None and row.entry_b is not None
        sides: list[str] = []

        def players_for(outline: MatOutline) -> tuple[Player, Player]:
            if outline.length != row.match_length:
                raise Conflict(
                    "mat_length_mismatch",
                    _(
                        "The file is a match to %(found)d points; this match is to "
                        "%(length)d points."
                    )
                    % {"found": outline.length, "length": row.match_length},
                    extra={"found": outline.length, "length": row.match_length},
                )
            sides.append(_first_side(row, outline, first_side))
            a, b = row.entry_a.player, row.entry_b.player  # type: ignore[union-attr]
            return (a, b) if sides[0] == "a" else (b, a)

        recorded = interchange.match_import_mat(text=text, by=by, players_for=players_for)
        if recorded.status != Match.Status.FINISHED or recorded.winner_id is None:
            raise ValidationFailed(
                "mat_unfinished",
                _("The file's match is not played to the end: upload the whole match."),
                extra={"field": "file"},
            )
        result = _file_result(recorded, sides[0])
        if row.decided_at is not None:
            stands = {k: getattr(row, k) for k in ("winner", "score_a", "score_b")}
            found = {k: result[k] for k in ("winner", "score_a", "score_b")}
            if stands != found:
                names = {"a": row.entry_a.player.name, "b": row.entry_b.player.name}
                raise Conflict(
                    "mat_result_mismatch",
                    _(
                        "The file's result (%(found)s) is not the result recorded "
                        "(%(stands)s): check the file and the sides, or correct the result."
                    )
                    % {
                        "found": _result_text(found, names),
                        "stands": _result_text(stands, names),
                    },
                    extra={"file": found, "recorded": stands},
                )
        Match.objects.filter(pk=recorded.pk).update(played_for=rating_key(row))
        TournamentMatch.objects.filter(pk=row.pk).update(mat_match=recorded)
        if row.decided_at is None:
            score = {"score_a": result["score_a"], "score_b": result["score_b"]}
            if director:
                result_enter(match_id=row.pk, by=by, games=result["games"], **score)
            else:
                result_report(match_id=row.pk, by=by, games=result["games"], **score)
        else:
            TournamentMatch.objects.filter(pk=row.pk).update(version=row.version + 1)
            touch(flight)
        user = by if getattr(by, "is_authenticated", False) else None
        analysis_request(match_id=recorded.pk, requested_by=user)
        row.refresh_from_db()
        return row


def _result_text(result: dict[str, Any], names: dict[str, str]) -> str:
    # The en dash as the character: xgettext does not decode escapes.
    return _("%(a)s–%(b)s, won by %(name)s") % {  # noqa: RUF001
        "a": result["score_a"],
        "b": result["score_b"],
        "name": names.get(result["winner"], "?"),
    }

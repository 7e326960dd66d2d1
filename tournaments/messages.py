"""People's words for the pairing package's stable error codes (the pure package never
translates). A code not listed falls back to a general sentence; the code still travels
with the error (``ApplicationError.code``), and ``extra["reason"]`` keeps the English
explanation for developers."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

PAIRING_MESSAGES: dict[str, Promise] = {
    # Results typed in (tournaments.pairing.results)
    "invalid_length": _("A match is played to 1 or more points."),
    "no_games": _("Enter at least one game."),
    "invalid_winner": _("Game %(game)s: the winner is player 1 or player 2."),
    "invalid_cube": _("Game %(game)s: a cube shows 1, 2, 4, 8, ..."),
    "cube_too_high": _("Game %(game)s: the cube is higher than it can go."),
    "invalid_points": _(
        "Game %(game)s: a game is worth the cube times 1, 2 or 3 (single, gammon, backgammon)."
    ),
    "crawford_cube": _("Game %(game)s is the Crawford game: no doubling in it."),
    "game_after_match_end": _("Game %(game)s comes after the match was already won."),
    "match_not_finished": _("After game %(game)s nobody has reached the match length."),
    "invalid_score": _("A score is a whole number, 0 or more."),
    "no_winner": _("Nobody reached the match length: the match is not over."),
    "both_reached": _("Only one player can reach the match length."),
    "impossible_score": _("No single last game can give the winner that score."),
    "invalid_start": _("The match cannot start at that score."),
    "score_below_start": _(
        "The match started at the late player's penalty: a score cannot be below its start."
    ),
    # Lateness (tournaments.pairing.lateness)
    "invalid_minutes": _("Minutes late are a whole number from 0 to 600."),
    "invalid_grace": _("The grace period is a whole number of minutes from 0 to 60."),
    "invalid_minutes_per_point": _(
        "A penalty point is for a whole number of minutes from 1 to 60."
    ),
    # Draws and brackets
    "too_few_entrants": _("At least two players are needed for the draw."),
    "too_many_entrants": _("The bracket has no place left."),
    "duplicate_entrant": _("A player is entered twice."),
    "invalid_option": _("One of the format's options is not valid."),
    "invalid_format": _("Unknown tournament format."),
    "invalid_tiebreaks": _(
        "The tie-breaks must be distinct: wins, Buchholz, point difference, head-to-head."
    ),
    "result_not_expected": _("This match cannot have a result now."),
}


def pairing_message(code: str, *, game: int | None = None) -> str:
    message = PAIRING_MESSAGES.get(code)
    if message is None:
        return str(_("The tournament rules do not allow this."))
    text = str(message)
    return text % {"game": game if game is not None else "?"} if "%(game)s" in text else text

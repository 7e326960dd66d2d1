"""People's words for the engine's stable error codes (the engine itself never
translates). An unknown code falls back to a general sentence; the code still travels
with the error, so clients can always branch on it."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

ENGINE_MESSAGES: dict[str, Promise] = {
    "not_your_turn": _("It is not your turn."),
    "illegal_play": _("That play is not legal with these dice."),
    "invalid_notation": _("That move could not be read."),
    "must_roll_first": _("Roll the dice first."),
    "already_rolled": _("The dice are already rolled: play them."),
    "opening_roll_required": _("The opening roll comes first."),
    "opening_roll_done": _("The opening roll has already been made."),
    "must_choose_double": _("Name the double to play (Acey-Deucey)."),
    "no_double_to_choose": _("There is no Acey-Deucey double to name now."),
    "double_pending": _("A double is waiting for an answer."),
    "no_double_pending": _("No double has been offered."),
    "cube_not_available": _("You may not double now."),
    "crawford_no_double": _("No doubling in the Crawford game."),
    "max_cube_reached": _("The cube is already at its highest value."),
    "beaver_not_allowed": _("Beavers are not allowed here."),
    "resignation_pending": _("A resignation offer is waiting for an answer."),
    "no_resignation_pending": _("No resignation has been offered."),
    "invalid_resignation": _("That resignation is not possible."),
    "game_over": _("This game is over."),
    "match_over": _("This match is over."),
    "invalid_dice": _("Dice show 1 to 6."),
    "invalid_player": _("No such player in this game."),
    "money_option_in_match": _("Jacoby, beavers and automatic doubles are for money play only."),
    "invalid_options": _("These rule options do not fit together."),
    "unknown_action": _("Unknown action."),
    "invalid_clock": _("These clock settings are not valid."),
    "out_of_time": _("Time is up in this game: only the opponent's claim is left."),
    "no_timeout": _("Your opponent has not run out of time."),
}


def engine_message(code: str) -> str:
    message = ENGINE_MESSAGES.get(code)
    return str(message) if message is not None else str(_("That breaks a rule of the game."))

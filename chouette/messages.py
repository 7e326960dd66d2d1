"""People's words for the chouette rules' stable error codes (the pure package never
translates). A code not listed falls back to a general sentence; the code still travels
with the error (``ApplicationError.code``) and ``extra["reason"]`` keeps the rules'
English explanation for developers."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

RULE_MESSAGES: dict[str, Promise] = {
    # Players and seating
    "invalid_player": _("A player is missing or unknown."),
    "duplicate_player": _("A player is named twice."),
    "too_few_players": _(
        "A chouette needs three players to start, and a box and a captain to go on."
    ),
    "already_seated": _("This player is already in the session."),
    "sitting_out": _("This player is sitting out: let them come back instead."),
    "not_seated": _("This player is not seated."),
    "not_sitting_out": _("This player is not sitting out."),
    "invalid_roll": _("A roll-off die shows 1 to 6."),
    "tied_rolls": _("Players tied in the roll-off: they roll again."),
    "needless_reroll": _("Only tied players roll again."),
    # Club rules (issue 19): proxies, splitting a chouette in two
    "not_a_participant": _("This player is not in the session."),
    "proxy_self": _("A proxy is another player: nobody is their own proxy."),
    "proxy_not_in_session": _("A proxy is another player of this session."),
    "proxy_chained": _(
        "No chains of proxies: the proxy must be at the table, and a player who answers "
        "for someone cannot name a proxy."
    ),
    "split_too_few_players": _("Too few players are seated to split the chouette in two."),
    # The scorekeeper in control (issue 27): the seating set by hand, a game edited
    "reseat_players_differ": _(
        "The new seating holds every seated player once, and nobody who sits out."
    ),
    "game_not_found": _("There is no such game in this session."),
    "edit_breaks_later_game": _(
        "With this correction the table rotates otherwise, and a later game no longer fits "
        "its seating: undo the later games first, or correct them too."
    ),
    "split_side_too_small": _("Each half of a split chouette needs three players or more."),
    "split_not_seated": _("Only seated players move to the new session."),
    "invalid_outcome": _("Unknown rotation."),
    # Profiles and stake
    "invalid_profile": _("The rule profile is not valid."),
    "invalid_profile_kind": _("Unknown rule profile: classic or individual."),
    "invalid_rotation": _("Unknown rotation variant."),
    "raccoons_need_beavers": _("Raccoons need beavers."),
    "option_needs_individual": _("This option needs individual cubes (the individual profile)."),
    "invalid_stake": _("The stake is an amount of 0 or more with a currency."),
    # Game entries
    "invalid_data": _("The game entry is not complete or not valid."),
    "entry_seating_mismatch": _(
        "The box, captain or team entered are not the seating's: reload the scoreboard."
    ),
    "captain_not_member": _("The captain needs a cube entry."),
    "not_a_member": _("This player has no cube in this game."),
    "invalid_cube": _("A cube shows 1, 2, 4, 8, ..."),
    "cube_below_initial": _("A cube is below the game's initial cube."),
    "cube_above_max": _("A cube is higher than this session allows."),
    "drop_without_double": _("A drop needs a double: the cube must be at least 2."),
    "cube_too_small_for_beavers": _("The cube is too small for its beavers and raccoons."),
    "invalid_fate": _(
        "Each member took, dropped, had their double dropped by the box, or settled."
    ),
    "raccoon_without_beaver": _("A raccoon answers a beaver."),
    "beaver_not_allowed": _("This session plays without beavers."),
    "raccoon_not_allowed": _("This session plays without raccoons."),
    "missing_result": _("Members played on: enter the winner and the result kind."),
    "result_without_takers": _("Every cube was dropped: the board has no winner."),
    "invalid_acting_captain": _(
        "An acting captain is a member who played on after the captain left."
    ),
    "invalid_double_group": _("Simultaneous initial doubles name only members who doubled."),
    "automatic_double_not_allowed": _("This session plays without automatic doubles."),
    "initial_cube_above_limit": _("The initial cube is above the automatic doubles allowed."),
    "partner_not_allowed": _("This session plays without a box partner."),
    "partner_missing": _("With this many players the box has a partner."),
    "partner_too_few_players": _("Too few players for a box partner."),
    "box_must_take_half": _("The box must take at least half of simultaneous initial doubles."),
    "classic_cubes_differ": _("One team cube: every member who took has the same cube."),
    "classic_team_double_not_unanimous": _(
        "A team double is unanimous: the box drops every remaining member or none."
    ),
    "dropped_beyond_offer": _("A member dropped a double the team cube never reached."),
    "classic_drops_inconsistent": _(
        "With one team cube these drops cannot all answer doubles by the box."
    ),
    # Settlements
    "settlement_missing": _("A member who settled needs the points agreed (whole points)."),
    "settlement_without_fate": _("Settlement points are only for a member who settled."),
    "settlement_out_of_bounds": _(
        "A settlement is at most the member's cube times the backgammon value, either way."
    ),
    "settled_beyond_cube": _("A member settled on a cube the team cube never reached."),
    # Extras
    "extra_same_player": _("An extra is a bet between two different players."),
    "invalid_extra_stake": _("An extra's stake is a whole number of points, 1 or more."),
    "invalid_extra_price": _("An extra's price is 0 or more and below its stake."),
    "extra_not_in_game": _("An extra is between two players of this game."),
    "extra_taker_not_member": _(
        "The player who backs the team in an extra is a team member: the box and its "
        "partner back the box."
    ),
    "too_many_extras": _("Too many extras for one game."),
    "extra_stake_above_max": _("An extra's stake is higher than this session's highest cube."),
    "extra_without_result": _(
        "Nobody played the board to its end and it is not known who gave it up: an extra "
        "has no result to be settled on."
    ),
    # Ledger
    "nothing_to_undo": _("No game has been entered yet."),
    "unbalanced": _("The points do not sum to zero."),
}

#: Codes about the session's state rather than the input (HTTP 409).
CONFLICT_CODES = frozenset(
    {"nothing_to_undo", "proxy_chained", "split_too_few_players", "edit_breaks_later_game"}
)


def rule_message(code: str) -> str:
    message = RULE_MESSAGES.get(code)
    if message is None:
        return str(_("The chouette rules do not allow this."))
    return str(message)

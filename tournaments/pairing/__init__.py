"""Pure draw algorithms of club backgammon tournaments: no Django, no database, no I/O.

* :mod:`~tournaments.pairing.seeding`: seed order, bracket size, the standard bracket line
  (byes to the top seeds).
* :mod:`~tournaments.pairing.brackets`: knockout formats (single, consolation,
  progressive consolation, last chance, double elimination) as graphs of match slots.
* :mod:`~tournaments.pairing.resolve`: who plays whom from the draw, results and
  withdrawals; the results a correction resets; the finishing order.
* :mod:`~tournaments.pairing.places`: each entrant's final place (main ranking and the
  other part they played), for storing on the entries.
* :mod:`~tournaments.pairing.swiss`: Swiss pairings and round robin schedules.
* :mod:`~tournaments.pairing.standings`: Swiss / round robin standings with tie-breaks.
* :mod:`~tournaments.pairing.results`: checking a typed match result (R9-R11).

Everything here is immutable data in, immutable data out, JSON-friendly through
``to_dict``/``from_dict`` where the application stores it. Errors are
:class:`~tournaments.pairing.common.PairingError` with stable codes. The Django side
(models, services) stores the outputs and calls these functions; an import-linter
contract keeps frameworks out.
"""

from tournaments.pairing.brackets import (
    Bracket,
    Slot,
    Source,
    build_bracket,
    build_consolation,
    build_consolation_last_chance,
    build_double_elimination,
    build_last_chance,
    build_progressive_consolation,
    build_single_elimination,
)
from tournaments.pairing.common import BYE, Bye, EntrantId, PairingError, Side
from tournaments.pairing.places import NO_PLACE, EntrantPlace, entrant_places, standings_places
from tournaments.pairing.resolve import (
    Place,
    ResolvedSlot,
    Result,
    finishing_order,
    late_entry_open,
    resolve,
    results_to_reset,
)
from tournaments.pairing.results import (
    GameEntry,
    MatchOutcome,
    ResultError,
    check_final_score,
    check_games,
)
from tournaments.pairing.seeding import (
    Seeding,
    bracket_line,
    bracket_size,
    bye_seeds,
    seed_order,
)
from tournaments.pairing.standings import (
    DEFAULT_ORDER,
    ROUND_ROBIN_ORDER,
    TIEBREAKS,
    MatchResult,
    Standing,
    standings,
)
from tournaments.pairing.swiss import Round, round_robin_rounds, swiss_pairings

__all__ = [
    "BYE",
    "DEFAULT_ORDER",
    "NO_PLACE",
    "ROUND_ROBIN_ORDER",
    "TIEBREAKS",
    "Bracket",
    "Bye",
    "EntrantId",
    "EntrantPlace",
    "GameEntry",
    "MatchOutcome",
    "MatchResult",
    "PairingError",
    "Place",
    "ResolvedSlot",
    "Result",
    "ResultError",
    "Round",
    "Seeding",
    "Side",
    "Slot",
    "Source",
    "Standing",
    "bracket_line",
    "bracket_size",
    "build_bracket",
    "build_consolation",
    "build_consolation_last_chance",
    "build_double_elimination",
    "build_last_chance",
    "build_progressive_consolation",
    "build_single_elimination",
    "bye_seeds",
    "check_final_score",
    "check_games",
    "entrant_places",
    "finishing_order",
    "late_entry_open",
    "resolve",
    "results_to_reset",
    "round_robin_rounds",
    "seed_order",
    "standings",
    "standings_places",
    "swiss_pairings",
]

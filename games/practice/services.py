"""The practice opponent: the bot account, its turns, and whether it can play here.

Terms: the **bot** is the player "GNU Backgammon" (``Player.bot == "gnubg"``, no login),
made once by :func:`bot_player_get_or_create`. A **bot match** has ``Match.bot_level``
set (one of ``BOT_LEVELS``); it is never rated. The bot **must act** in a game when the
engine's ``player_to_act`` is the bot's index: it rolls (after deciding whether to double
first), plays, answers a double or a resignation. The opening roll and each next game
need no action of its own (the play services roll them).

:func:`bot_act` makes exactly one decision, through the same services and server dice as
a person (:mod:`games.play.services`), as the bot player, on the game ``version`` it was
asked about: run twice, or after the game moved on, it does nothing (``stale``). The
turn is scheduled by the signal ``bot_game_changed`` (:mod:`games.practice.turns`); a
sweep (:func:`bot_sweep`) finds bot games waiting on the bot as the backstop.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.core.cache import cache
from django.db.models import Max
from django.utils.translation import gettext as _

from games import wallclock
from games.engine import actions as engine_actions
from games.engine.game import GameState
from games.engine.position import position_id
from games.errors import ApplicationError, Unavailable
from games.models import Game, Match, Player
from games.play import services as play
from games.play.dice import SYSTEM_DICE, DiceSource
from games.practice import brain as brains

log = logging.getLogger(__name__)

#: ``Player.bot`` of the practice opponent, and its name in the club.
BOT_ENGINE = "gnubg"
BOT_NAME = "GNU Backgammon"
DEFAULT_LEVEL = "world_class"


def bot_player_get_or_create() -> Player:
    """The practice opponent's account, made the first time it is needed (idempotent:
    the oldest such player is kept). It has no login."""
    # One query when it exists (the lobby asks on every view). Two first creations at
    # once would make two; the oldest is the one used, the other never.
    found = Player.objects.filter(bot=BOT_ENGINE).order_by("pk").first()
    if found is not None:
        return found
    return Player.objects.create(name=BOT_NAME, bot=BOT_ENGINE, country="", club="")


#: The cache key of the last availability check (shared by the processes), and how long
#: it is trusted: a check starts a gnubg child (~0.5 s), so a page asks at most this often.
STATUS_KEY = "practice:gnubg-status"
STATUS_TTL = 300


def bot_unavailable_reason() -> str | None:
    """Why the bot cannot play here, for people (``None`` when it can): GNU Backgammon's
    PyPI module does not import, or its child process fails."""
    found = cache.get(STATUS_KEY)
    if found is None:
        found = {"reason": brains.probe()}
        cache.set(STATUS_KEY, found, STATUS_TTL)
    reason = found["reason"]
    if reason is None:
        return None
    return _("GNU Backgammon is not available on this server: %(reason)s") % {"reason": reason}


def _note_failure(reason: str) -> None:
    """A decision failed: the pages say so until the next check finds gnubg working."""
    cache.set(STATUS_KEY, {"reason": reason}, 60)


def bot_require_available() -> None:
    """503 ``bot_unavailable`` when the bot cannot play here (see above)."""
    reason = bot_unavailable_reason()
    if reason is not None:
        raise Unavailable("bot_unavailable", reason)


def bot_index(match: Match) -> int | None:
    """The bot's engine index (0 = player1, 1 = player2) in ``match``, or ``None``."""
    if match.player1.bot:
        return 0
    if match.player2.bot:
        return 1
    return None


def _to_act(state: GameState, index: int) -> bool:
    return state.player_to_act == index and state.flagged is None


def bot_act(*, game_id: int, version: int, dice: DiceSource = SYSTEM_DICE) -> str:
    """The bot's one decision in game ``game_id`` at ``version`` (see the module
    docstring). Returns what it did: ``rolled``, ``doubled``, ``played``, ``took``,
    ``dropped``, ``accepted``, ``declined``, ``chose``; or why not: ``stale`` (the game
    moved on or is over), ``not_bot_turn``, ``unavailable`` (gnubg failed: logged; the
    sweep tries again)."""
    game = (
        Game.objects.select_related("match__player1", "match__player2").filter(pk=game_id).first()
    )
    if game is None or game.version != version or game.is_over:
        return "stale"
    match = game.match
    index = bot_index(match)
    if index is None or match.status != Match.Status.PLAYING:
        return "stale"
    state = engine_actions.state_from_dict(game.state)
    if not _to_act(state, index):
        return "not_bot_turn"
    bot = match.player1 if index == 0 else match.player2
    level = match.bot_level or DEFAULT_LEVEL
    mind = brains.brain()
    common: dict[str, Any] = {"game_id": game_id, "player": bot, "expected_version": version}
    try:
        if state.resignation is not None:
            if mind.accepts_resignation(state, level):
                play.resign_accept(**common, dice=dice)
                return "accepted"
            play.resign_decline(**common)
            return "declined"
        if state.phase == "doubled":
            if mind.should_take(state, level):
                play.cube_take(**common, dice=dice)
                return "took"
            play.cube_drop(**common, dice=dice)
            return "dropped"
        if state.phase == "roll":
            if mind.should_double(state, level):
                play.cube_offer(**common)
                return "doubled"
            play.game_roll(**common, dice=dice)
            return "rolled"
        if state.phase == "move":
            chosen = mind.choose_play(state, level)
            play.game_play(**common, result_position_id=position_id(chosen.result), dice=dice)
            return "played"
        if state.phase == "choose_double":  # Acey-Deucey, not offered to the bot: the best
            play.game_choose_double(**common, value=6)
            return "chose"
    except brains.BrainUnavailable as exc:
        log.exception("the practice opponent could not decide in game %s", game_id)
        _note_failure(str(exc))
        return "unavailable"
    except ApplicationError as exc:
        if exc.code == "stale_version":
            return "stale"
        raise
    return "not_bot_turn"


def bot_games_waiting(*, older_than: float = 0.0, limit: int = 200) -> list[tuple[int, int]]:
    """``(game id, version)`` of the bot games whose move is the bot's (the sweep's list),
    left unchanged for ``older_than`` seconds at least (a turn just scheduled is its
    task's to play)."""
    rows = Game.objects.filter(
        is_over=False, match__status=Match.Status.PLAYING, match__bot_level__gt=""
    )
    if older_than:
        recent = wallclock.now() - timedelta(seconds=older_than)
        rows = rows.annotate(last=Max("actions__created_at")).filter(last__lt=recent)
    rows = (
        rows.select_related("match__player1", "match__player2")
        .only(
            "id",
            "version",
            "state",
            "match__id",
            "match__status",
            "match__player1__bot",
            "match__player2__bot",
        )
        .order_by("id")[:limit]
    )
    return list(_waiting(rows))


def _waiting(rows: Iterable[Game]) -> Iterable[tuple[int, int]]:
    for game in rows:
        index = bot_index(game.match)
        if index is None:
            continue
        try:
            state = engine_actions.state_from_dict(game.state)
        except Exception:  # a broken snapshot is the play services' to report
            log.exception("game %s: unreadable state", game.pk)
            continue
        if _to_act(state, index):
            yield game.pk, game.version


def bot_sweep(*, older_than: float = 0.0, limit: int = 200) -> dict[str, int]:
    """Backstop: the bot's one decision in every game waiting on it (for ``older_than``
    seconds at least). Returns counts of the outcomes."""
    counts: dict[str, int] = {}
    for game_id, version in bot_games_waiting(older_than=older_than, limit=limit):
        outcome = bot_act(game_id=game_id, version=version)
        counts[outcome] = counts.get(outcome, 0) + 1
    return counts

"""What the match page says in words (issue 27): whose turn it is, which checkers are
whose, the opponent's last move, a pending double and what a take and a drop mean at
this score, a resignation offered, declined or accepted, the game just finished and the
match won. Every sentence is said from the viewer's side ("Your turn", "Waiting for
Bence") or, for a visitor, by name; the numbers come from the engine (a drop's score
from :meth:`games.engine.match.MatchState.record_game`, a resignation's points from the
engine accepting it), never computed twice.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine.errors import EngineError
from games.engine.game import GameResult, GameState, apply_result
from games.engine.match import MatchState
from games.models import Game, GameAction

#: The colours games.play.boardsvg draws: the viewer's checkers at the bottom are light.
_BOTTOM, _TOP = "white", "black"


def _points(points: int) -> str:
    return ngettext("%(points)d point", "%(points)d points", points) % {"points": points}


def kind_word(kind: str) -> str:
    """A resignation's or a win's kind in words (never the raw ``single``)."""
    return {
        "single": _("a single game"),
        "gammon": _("a gammon"),
        "backgammon": _("a backgammon"),
    }.get(kind, kind)


def score_words(score: tuple[int, int] | list[int], names: tuple[str, str]) -> str:
    """The score with the names ("Anna 2, en dash, Bence 1"): the same in every language."""
    return f"{names[0]} {score[0]} \u2013 {names[1]} {score[1]}"


def sides(names: tuple[str, str], my_index: int | None) -> list[str]:
    """Which checkers are whose: the viewer's (player 0 for a visitor) are the light
    ones at the bottom of the board (games.play.boardsvg)."""
    bottom = 0 if my_index is None else my_index
    colour = {bottom: _("white (bottom)"), 1 - bottom: _("black (top)")}
    lines = []
    for index in (bottom, 1 - bottom):
        if index == my_index:
            lines.append(_("You: %(colour)s") % {"colour": colour[index]})
        else:
            lines.append(
                _("%(name)s: %(colour)s") % {"name": names[index], "colour": colour[index]}
            )
    return lines


def turn_line(
    state: GameState, names: tuple[str, str], my_index: int | None
) -> tuple[str, bool] | None:
    """Whose turn it is, said to the viewer, and whether it is the viewer's; ``None``
    when the game is over or a player ran out of time (said elsewhere)."""
    if state.is_over or state.flagged is not None:
        return None
    to_act = state.player_to_act
    if to_act is None:
        return None
    if to_act == my_index:
        if state.resignation is not None:
            return _("Your turn: answer the resignation."), True
        if state.phase == "doubled":
            return _("Your turn: answer the double."), True
        return _("Your turn."), True
    if my_index is not None:
        return _("Waiting for %(name)s.") % {"name": names[to_act]}, False
    return _("%(name)s to play.") % {"name": names[to_act]}, False


def cube_words(state: GameState, names: tuple[str, str], my_index: int | None) -> str:
    """The cube's value (1 while centred, though the board draws 64), its owner, and a
    pending double: "1, doubled to 2: your answer"."""
    value = state.cube
    if state.phase == "doubled":
        answerer = 1 - state.turn
        if answerer == my_index:
            waiting = _("your answer")
        else:
            waiting = _("%(name)s answers") % {"name": names[answerer]}
        return _("%(value)d, doubled to %(new)d: %(waiting)s") % {
            "value": value,
            "new": value * 2,
            "waiting": waiting,
        }
    if state.cube_owner is None:
        return _("%(value)d, in the middle") % {"value": value}
    owner = _("you") if state.cube_owner == my_index else names[state.cube_owner]
    return _("%(value)d, owned by %(owner)s") % {"value": value, "owner": owner}


def _after_drop(match: MatchState, winner: int, points: int, names: tuple[str, str]) -> str:
    """The match score after ``winner`` scores ``points``, and what it means."""
    after = match.record_game(winner, points)
    text = _("the score becomes %(score)s") % {"score": score_words(after.score, names)}
    if after.is_over:
        return _("%(score)s: %(name)s wins the match") % {"score": text, "name": names[winner]}
    if after.crawford:
        return _("%(score)s (Crawford game next)") % {"score": text}
    return text


def double_dialog(
    state: GameState, names: tuple[str, str], my_index: int | None, *, beaver: bool
) -> dict[str, str] | None:
    """A pending double as its answerer reads it: who doubles to what, and what a take,
    a drop (and a beaver, where offered) mean at this score."""
    if state.phase != "doubled" or state.is_over or my_index != 1 - state.turn:
        return None
    doubler = state.turn
    new = state.cube * 2
    dialog = {
        "title": _("%(name)s doubles to %(value)d") % {"name": names[doubler], "value": new},
        "take": _("Take: the game is played for %(points)s and the cube (%(value)d) is yours.")
        % {"points": _points(new), "value": new},
    }
    lose = _("Drop: you lose %(points)s") % {"points": _points(state.cube)}
    if not state.match.is_money:
        lose = f"{lose}, {_after_drop(state.match, doubler, state.cube, names)}"
    dialog["drop"] = f"{lose}."
    if beaver:
        dialog["beaver"] = _(
            "Beaver: you take and redouble at once: the game is played for %(points)s"
            " and you keep the cube."
        ) % {"points": _points(new * 2)}
    return dialog


def resign_points(state: GameState, player: int, kind: str | None) -> int | None:
    """What ``player`` loses by resigning ``kind`` now (the engine's own result of the
    resignation accepted); ``None`` when the engine would refuse it."""
    try:
        after = state.resign(player, kind)  # type: ignore[arg-type]
        if after.resignation is not None:
            after = after.accept_resignation(1 - player)
    except EngineError:
        return None
    return None if after.result is None else after.result.points


def resign_choices(state: GameState, my_index: int, kinds: list[str]) -> list[dict[str, Any]]:
    """The kinds the viewer may resign, each said with its points."""
    found = []
    for kind in kinds:
        points = resign_points(state, my_index, kind)
        if points is None:
            continue
        found.append(
            {
                "kind": kind,
                "label": _("%(kind)s (%(points)s)")
                % {"kind": kind_word(kind), "points": _points(points)},
            }
        )
    return found


def resignation_line(state: GameState, names: tuple[str, str], my_index: int | None) -> str | None:
    """A pending resignation, as the resigner, the opponent or a visitor reads it."""
    offer = state.resignation
    if offer is None:
        return None
    points = resign_points(replace(state, resignation=None), offer.player, offer.kind)
    what = _("%(kind)s, %(points)s") % {
        "kind": kind_word(offer.kind),
        "points": _points(points or 0),
    }
    other = names[1 - offer.player]
    if offer.player == my_index:
        return _("You offered to resign %(what)s; waiting for %(name)s.") % {
            "what": what,
            "name": other,
        }
    if 1 - offer.player == my_index:
        return _("%(name)s offers to resign: %(what)s.") % {
            "name": names[offer.player],
            "what": what,
        }
    return _("%(name)s offers to resign: %(what)s; %(other)s answers.") % {
        "name": names[offer.player],
        "what": what,
        "other": other,
    }


def last_answer_line(
    last: GameAction | None, names: tuple[str, str], my_index: int | None
) -> str | None:
    """After a declined resignation, until the resigner's next action: said to both."""
    if last is None or last.kind != "decline_resignation" or last.player_index is None:
        return None
    decliner = last.player_index
    resigner = 1 - decliner
    if resigner == my_index:
        return _("%(name)s declined your resignation.") % {"name": names[decliner]}
    if decliner == my_index:
        return _("You declined the resignation of %(name)s.") % {"name": names[resigner]}
    return _("%(name)s declined the resignation of %(other)s.") % {
        "name": names[decliner],
        "other": names[resigner],
    }


def result_line(result: GameResult, names: tuple[str, str], my_index: int | None) -> str:
    """How a game ended: "Anna won the game: a gammon, 2 points"."""
    winner, loser = names[result.winner], names[1 - result.winner]
    points = _points(result.points)
    if result.reason == "drop":
        return _("%(loser)s dropped the double: %(winner)s won %(points)s.") % {
            "loser": loser,
            "winner": winner,
            "points": points,
        }
    if result.reason == "resign":
        return _("%(loser)s resigned %(kind)s: %(winner)s won %(points)s.") % {
            "loser": loser,
            "kind": kind_word(result.kind),
            "winner": winner,
            "points": points,
        }
    if result.reason == "timeout":
        return _("%(loser)s ran out of time: %(winner)s won %(points)s.") % {
            "loser": loser,
            "winner": winner,
            "points": points,
        }
    return _("%(winner)s won the game: %(kind)s, %(points)s.") % {
        "winner": winner,
        "kind": kind_word(result.kind),
        "points": points,
    }


def game_over_banner(
    finished: Game, finished_state: GameState, names: tuple[str, str], my_index: int | None
) -> dict[str, Any] | None:
    """The banner of a finished game: its result and the match score after it."""
    result = finished_state.result
    if result is None:
        return None
    try:
        after = apply_result(finished_state.match, result)
    except EngineError:  # not a result the match could record (never stored so)
        after = finished_state.match
    banner: dict[str, Any] = {
        "number": finished.number,
        "result": result_line(result, names, my_index),
        "score": None if after.is_money else score_words(after.score, names),
        "crawford": after.crawford,
    }
    return banner


def resign_now_line(points: int | None) -> str | None:
    """A resignation that ends the game at once (R9 seed002), with what it costs."""
    if points is None:
        return None
    return _("Resign: you lose %(points)s at once.") % {"points": _points(points)}


def match_won_line(
    winner: int,
    score: tuple[int, int],
    names: tuple[str, str],
    my_index: int | None,
    *,
    money: bool,
) -> str:
    """A finished match: who won it, and the final score."""
    if money:
        return _("The session is over: %(score)s.") % {"score": score_words(score, names)}
    if winner == my_index:
        return _("You won the match, %(score)s.") % {"score": score_words(score, names)}
    return _("%(name)s won the match, %(score)s.") % {
        "name": names[winner],
        "score": score_words(score, names),
    }

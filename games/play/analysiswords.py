"""GNU Backgammon's analysis in words, for the match page and the replay (issue 28).

The figures come from :mod:`games.ratings.performance` (as the viewer may see them);
this module says them the way a player reads them: "Bad move (-0.083): best was 13/7
8/7", gnubg's marks as the annotation signs players know (``?!`` doubtful, ``?`` bad,
``??`` very bad), a cube decision's keys in words.

A replay step and a decision meet by the game's log: a decision's ``action_seq`` is the
log row it made (the play, the double, the take or drop; for a no-double, the roll after
it). A replay step that is a roll and its play ends with the play's row, its roll the
row just before, so a step holds the decisions of its own row and, for a play, of its
roll.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.models import DecisionAnalysis, Match, MatchAnalysis
from games.ratings import performance

#: The minus sign (U+2212) of an equity lost: a hyphen reads as a dash.
MINUS = "\u2212"
#: The annotation signs of gnubg's marks.
SIGNS = {"doubtful": "?!", "bad": "?", "very_bad": "??"}
_MOVE_MARKS = {
    "doubtful": gettext_lazy("Doubtful move"),
    "bad": gettext_lazy("Bad move"),
    "very_bad": gettext_lazy("Very bad move"),
}
_CUBE_MARKS = {
    "doubtful": gettext_lazy("Doubtful cube decision"),
    "bad": gettext_lazy("Bad cube decision"),
    "very_bad": gettext_lazy("Very bad cube decision"),
}
#: A cube decision's keys (DecisionAnalysis.played, .best) in words.
CUBE_WORDS = {
    "no_double": gettext_lazy("no double"),
    "double": gettext_lazy("double"),
    "take": gettext_lazy("take"),
    "drop": gettext_lazy("drop"),
    "pass": gettext_lazy("drop"),
    "beaver": gettext_lazy("beaver"),
    "too_good": gettext_lazy("too good to double"),
    "redouble": gettext_lazy("redouble"),
    "no_redouble": gettext_lazy("no redouble"),
}
_LUCK = {
    "very_unlucky": gettext_lazy("Very unlucky roll"),
    "unlucky": gettext_lazy("Unlucky roll"),
    "lucky": gettext_lazy("Lucky roll"),
    "very_lucky": gettext_lazy("Very lucky roll"),
}


def equity_text(value: float, *, sign: str = MINUS) -> str:
    """An equity in EMG with three decimals, in the reader's format: "-0.083" (with a
    real minus sign)."""
    return f"{sign}{formats.number_format(abs(value), 3)}"


def cube_text(key: str) -> str:
    return str(CUBE_WORDS.get(key, key.replace("_", " ")))


def decision_text(decision: DecisionAnalysis) -> str:
    """A marked decision said in words (empty for one gnubg did not mark)."""
    lost = equity_text(decision.equity_lost)
    if decision.kind == DecisionAnalysis.Kind.CUBE:
        label = _CUBE_MARKS.get(decision.mark)
        if label is None:
            return ""
        return _("%(label)s (%(lost)s): %(played)s; best was %(best)s") % {
            "label": label,
            "lost": lost,
            "played": cube_text(decision.played),
            "best": cube_text(decision.best),
        }
    label = _MOVE_MARKS.get(decision.mark)
    if label is None:
        return ""
    return _("%(label)s (%(lost)s): best was %(best)s") % {
        "label": label,
        "lost": lost,
        "best": decision.best,
    }


def luck_text(decision: DecisionAnalysis) -> str:
    """A marked roll's luck in words ("Very lucky roll (+0.312)"), else empty."""
    label = _LUCK.get(decision.luck_mark)
    if label is None or decision.luck is None:
        return ""
    return f"{label} ({equity_text(decision.luck, sign='+' if decision.luck >= 0 else MINUS)})"


def step_marks(
    steps: Iterable[Any], decisions: Iterable[DecisionAnalysis]
) -> dict[int, list[dict[str, Any]]]:
    """Each replay step's analysed decisions that gnubg marked (errors) or whose roll it
    marked lucky or unlucky: ``{step index: [{"mark", "sign", "text", "luck", "kind"}]}``,
    in the decisions' order (a no-double's before the move)."""
    by_seq: dict[int, list[DecisionAnalysis]] = {}
    for d in decisions:
        by_seq.setdefault(d.action_seq, []).append(d)
    found: dict[int, list[dict[str, Any]]] = {}
    for step in steps:
        seqs = [step.seq - 1, step.seq] if step.kind == "play" else [step.seq]
        lines = []
        for seq in seqs:
            for d in sorted(by_seq.get(seq, []), key=lambda d: d.ordinal):
                text = decision_text(d)
                luck = luck_text(d)
                if not text and not luck:
                    continue
                lines.append(
                    {
                        "kind": d.kind,
                        "mark": d.mark,
                        "sign": SIGNS.get(d.mark, ""),
                        "text": text,
                        "luck": luck,
                        "player": d.player_index,
                    }
                )
        if lines and step.index > 0:
            found[step.index] = lines
    return found


# ====================================================================== the match page
def match_analysis_context(*, match: Match, user: Any) -> dict[str, Any]:
    """What the match page's analysis section needs: the figures as ``user`` may see
    them, whether they may ask for it, and the state in words."""
    figures = performance.match_figures(match=match, viewer=user)
    finished = match.status == Match.Status.FINISHED
    # The form: "Analyse" when never analysed, "Analyse again" when it failed, and when
    # done for staff only (a player's figures stand; a run is seconds of CPU).
    offer = finished and performance.analysis_may_request(user, match)
    if figures.status == MatchAnalysis.Status.DONE:
        offer = offer and user.is_staff
    elif figures.pending:
        offer = False
    return {
        "analysis": figures,
        "analysis_status_text": performance.STATUS_WORDS.get(figures.status, figures.status),
        "analysis_can_request": offer,
        "analysis_shown": finished or figures.status != performance.NONE,
    }

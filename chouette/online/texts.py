"""Online chouette in words: the log's lines, the defaults a countdown states, settlements.

One place for what the table page (:mod:`chouette.online.pages`) and the API
(:mod:`chouette.online.selectors` ``online_moves``) say, in the reader's language, so the
two can't disagree:

* :func:`move_text`: one row of the game's log (``ChouetteOnlineAction``), every timeout
  named with the rule that ran out and what it decided (the decision window's defaults,
  the move clock's flag, the away window's forfeit).
* :func:`defaults_text`: what :meth:`chouette.online.table.Table.defaults_applied`
  decides, said the same way under a countdown (what *will* be applied) and in the log
  (what *was*): both come from the same answers.
* :func:`settlement_text`: who pays whom, in points and money.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.money import format as money

ANSWER_LABELS = {
    "yes": gettext_lazy("Yes, double"),
    "no": gettext_lazy("No"),
    "take": gettext_lazy("Take"),
    "drop": gettext_lazy("Drop"),
    "beaver": gettext_lazy("Beaver"),
    "raccoon": gettext_lazy("Raccoon"),
    "no_raccoon": gettext_lazy("No raccoon"),
    "accept": gettext_lazy("Accept"),
    "refuse": gettext_lazy("Refuse"),
}
SIDE_LABELS = {"box": gettext_lazy("the box"), "team": gettext_lazy("the team")}


def money_text(points: int, stake: Any) -> str:
    """``points`` (>= 0) at the session's stake (``chouette.rules.Stake`` or ``None``):
    "500 Ft" in the reader's format (games.money.format), empty without a stake."""
    if stake is None:
        return ""
    return money.money_text(Decimal(stake.per_point) * points, stake.currency)


def _points_money(points: int, stake: Any) -> str:
    said = ngettext("%(n)d point", "%(n)d points", points) % {"n": points}
    money = money_text(points, stake)
    return f"{said} ({money})" if money else said


def settlement_text(points: int, *, box: str, member: str, stake: Any, you: bool = False) -> str:
    """Who pays whom in a settlement of ``points`` (+: the box pays the member), in
    points and money; ``you``: said to the member ("you pay Bob 1 point (500 HUF)")."""
    amount = _points_money(abs(points), stake)
    if points == 0:
        return _("nobody pays")
    if points > 0:
        if you:
            return _("%(box)s pays you %(amount)s") % {"box": box, "amount": amount}
        return _("%(box)s pays %(member)s %(amount)s") % {
            "box": box,
            "member": member,
            "amount": amount,
        }
    if you:
        return _("you pay %(box)s %(amount)s") % {"box": box, "amount": amount}
    return _("%(member)s pays %(box)s %(amount)s") % {
        "box": box,
        "member": member,
        "amount": amount,
    }


def _answer_phrase(
    decider: int, member: int, kind: str, answer: str, names: Mapping[int, str], classic: bool
) -> str:
    who = names.get(decider, "?")
    if kind == "consent":
        return _("%(name)s: no to the team double") % {"name": who}
    if kind == "settlement_offered":
        return _("%(name)s: the settlement refused") % {"name": who}
    if kind == "member_doubled" and classic:
        return _("%(name)s (box): %(answer)s the team's double") % {
            "name": who,
            "answer": str(ANSWER_LABELS.get(answer, answer)).lower(),
        }
    if kind == "member_doubled":
        return _("%(name)s (box): %(answer)s %(member)s's double") % {
            "name": who,
            "answer": str(ANSWER_LABELS.get(answer, answer)).lower(),
            "member": names.get(member, "?"),
        }
    return _("%(name)s: %(answer)s") % {
        "name": who,
        "answer": str(ANSWER_LABELS.get(answer, answer)).lower(),
    }


def defaults_text(
    given: Iterable[Sequence[Any]], names: Mapping[int, str], *, classic: bool
) -> str:
    """The defaults decided (``(decider, member, kind, answer)`` rows of
    :meth:`~chouette.online.table.Table.defaults_applied`), e.g. "Cy: drop; Dee: take"."""
    return "; ".join(
        _answer_phrase(int(d), int(m), str(k), str(a), names, classic) for d, m, k, a in given
    )


def move_text(
    row: Mapping[str, Any], names: Mapping[int, str], *, stake: Any = None, classic: bool = True
) -> str:
    """One row of the game's log in words (the actor's name is said before it)."""
    data = row["data"]
    kind = row["kind"]
    if kind == "opening_roll":
        box, team = data["rolls"][-1]
        return _("Opening roll: the box %(box)d, the team %(team)d.") % {"box": box, "team": team}
    if kind == "roll":
        return _("rolled %(d1)d-%(d2)d") % {"d1": data["dice"][0], "d2": data["dice"][1]}
    if kind == "play":
        return _("played %(play)s") % {"play": data.get("play", "")}
    if kind == "box_double":
        who = ", ".join(names.get(p, "?") for p in data.get("members", []))
        return _("doubled %(who)s") % {"who": who}
    if kind == "propose_double":
        return _("proposed a team double")
    if kind == "consent":
        return _("agreed to the team double") if data.get("answer") == "yes" else _("refused it")
    if kind == "double":
        return _("doubled the box")
    if kind == "answer":
        label = ANSWER_LABELS.get(data.get("answer", ""), data.get("answer", ""))
        member = data.get("member")
        if member is not None and member != row["actor"]:
            return _("%(answer)s for %(member)s") % {
                "answer": label,
                "member": names.get(member, "?"),
            }
        return str(label)
    if kind == "defaults":
        given = data.get("answers")
        if given is None:  # a row written before the answers were logged
            return _("Time ran out: the open decisions took their defaults.")
        return _("The time to answer ran out (%(seconds)s s); by default: %(what)s.") % {
            "seconds": data.get("seconds", "?"),
            "what": defaults_text(given, names, classic=classic),
        }
    if kind == "flag":
        side = data.get("side", "")
        return _("ran out of time on the move clock (R12): %(side)s loses a gammon.") % {
            "side": SIDE_LABELS.get(side, side)
        }
    if kind == "forfeit":
        side = data.get("side", "")
        return _(
            "Nobody at the table moved for %(side)s in %(seconds)s s: %(side)s forfeits, a gammon."
        ) % {"side": SIDE_LABELS.get(side, side), "seconds": data.get("seconds", "?")}
    if kind == "away":
        parts = [
            _("%(name)s left the table (proxy: %(proxy)s)")
            % {"name": names.get(player, "?"), "proxy": names.get(proxy, "?")}
            for player, proxy in data.get("away", [])
        ]
        parts.extend(
            _("%(name)s is back at the table") % {"name": names.get(player, "?")}
            for player in data.get("back", [])
        )
        return "; ".join(parts) + "."
    if kind == "abandon":
        return _("abandoned the game")
    if kind == "offer_settlement":
        member = data.get("member")
        return _("offered %(member)s a settlement: %(who_pays)s") % {
            "member": names.get(member, "?"),
            "who_pays": settlement_text(
                int(data.get("points", 0)),
                box=names.get(row["actor"], "?"),
                member=names.get(member, "?"),
                stake=stake,
            ),
        }
    if kind == "offer_extra":
        return _("offered %(other)s an extra at %(stake)d") % {
            "other": names.get(data.get("other"), "?"),
            "stake": data.get("stake", 0),
        }
    if kind == "answer_extra":
        return _("accepted the extra") if data.get("answer") == "accept" else _("refused the extra")
    if kind == "choose_double":
        return _("chose the double %(value)s") % {"value": data.get("value")}
    return str(kind)

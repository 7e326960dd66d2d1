"""The roll-off as the table types it into the new session's form: one line per player,
a name, then the die and any re-rolls after a tie ("Anna 3 5").

Issue 18: the help said "Anna 3 5" but only the whole name "Kovács Anna 6" was
understood. A line now names a player by **any unambiguous part of the name**, whatever
the case and the accents (:func:`games.text.fold.fold`): "Anna", "kovacs", "Kov A" and
"Kovács Anna" all name Kovács Anna when no other chosen player fits. Matching goes in
tiers, the first tier that fits anybody decides:

1. the whole name ("kovacs anna");
2. every typed word is a whole word of the name, in any order ("Anna", "anna kovacs");
3. every typed word begins a different word of the name ("Kov", "an ko").

So "Ann" names "Ann Kiss" rather than being ambiguous with "Anna Nagy" (a whole word wins
over a beginning). Two players fitting the deciding tier is ambiguous, none is unknown:
both are refused with a sentence naming the typed name (the ``rolls`` field's error),
and so are a line without dice, a die outside 1-6, two lines for one player and a chosen
player without a line. Only the chosen players are looked at.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from chouette import rules
from games.errors import ValidationFailed
from games.models import Player
from games.text.fold import fold

#: A name (anything), then dice: single digits separated by spaces, commas or a colon.
ROLL_LINE = re.compile(r"^\s*(?P<name>.*?)[\s:]+(?P<dice>\d(?:[\s,]+\d)*)\s*$")


def _words(text: str) -> list[str]:
    return fold(text).split()


def _begins_distinct_words(typed: list[str], words: list[str]) -> bool:
    """Every typed word begins a different word of the name (longest typed first, so
    "a" does not take the word "anna" needs)."""
    free = list(words)
    for part in sorted(typed, key=len, reverse=True):
        found = next((w for w in free if w.startswith(part)), None)
        if found is None:
            return False
        free.remove(found)
    return True


def _fits(typed: list[str], words: list[str], tier: int) -> bool:
    if tier == 1:
        return typed == words
    if tier == 2:
        free = list(words)
        for part in typed:
            if part not in free:
                return False
            free.remove(part)
        return True
    return _begins_distinct_words(typed, words)


def match_player(typed: str, players: Sequence[Player]) -> Player:
    """The one chosen player ``typed`` names (module docstring), or ValidationFailed
    ``unknown_roll_name`` / ``ambiguous_roll_name`` naming what was typed."""
    words = _words(typed)
    named = {p.pk: _words(p.name) for p in players}
    for tier in (1, 2, 3):
        found = [p for p in players if words and _fits(words, named[p.pk], tier)]
        if len(found) == 1:
            return found[0]
        if found:
            raise ValidationFailed(
                "ambiguous_roll_name",
                _("“%(typed)s” could be any of %(players)s: write more of the name.")
                % {"typed": typed, "players": ", ".join(p.name for p in found)},
            )
    raise ValidationFailed(
        "unknown_roll_name",
        _("“%(typed)s” is none of the chosen players: write a part of a chosen player's name.")
        % {"typed": typed},
    )


def parse_rolls(*, text: str, players: Sequence[Player]) -> dict[int, list[int]] | None:
    """The roll-off lines as player id -> dice (the roll-off, then re-rolls); ``None``
    when the text is empty (the server rolls). Refusals: ValidationFailed with a
    sentence naming the line or the name typed (module docstring)."""
    lines = [line.strip() for line in (text or "").splitlines() if line.strip()]
    if not lines:
        return None
    out: dict[int, list[int]] = {}
    typed_for: dict[int, str] = {}
    for line in lines:
        match = ROLL_LINE.match(line)
        name = match.group("name").strip(" :,") if match else ""
        if match is None or not name:
            raise ValidationFailed(
                "invalid_roll_line",
                _("Roll-off line not understood: “%(line)s”. Write a player's name, then the dice.")
                % {"line": line},
            )
        player = match_player(name, players)
        if player.pk in out:
            raise ValidationFailed(
                "duplicate_roll_line",
                _("“%(first)s” and “%(second)s” both name %(player)s: one line per player.")
                % {"first": typed_for[player.pk], "second": name, "player": player.name},
            )
        dice = [int(d) for d in re.split(r"[\s,]+", match.group("dice").strip())]
        if any(not 1 <= die <= 6 for die in dice):
            raise ValidationFailed(
                "invalid_roll",
                _("“%(line)s”: a die shows 1 to 6.") % {"line": line},
            )
        out[player.pk] = dice
        typed_for[player.pk] = name
    missing = [p.name for p in players if p.pk not in out]
    if missing:
        raise ValidationFailed(
            "missing_roll_line",
            ngettext(
                "No roll-off line for %(players)s: one line per player, or leave the field "
                "empty and the server rolls.",
                "No roll-off lines for %(players)s: one line per player, or leave the field "
                "empty and the server rolls.",
                len(missing),
            )
            % {"players": ", ".join(missing)},
        )
    _check_ties(out, players)
    return out


def _check_ties(rolls: dict[int, list[int]], players: Sequence[Player]) -> None:
    """A tie left unbroken, or a re-roll by a player who was not tied, refused here, as
    the field's error naming the players (the rules' own refusal knows only ids)."""
    try:
        rules.roll_off_order(rolls)
    except rules.ChouetteError as exc:
        names = {p.pk: p.name for p in players}
        named = ", ".join(names.get(p, str(p)) for p in exc.players)
        if exc.code == "tied_rolls":
            raise ValidationFailed(
                "tied_rolls",
                _(
                    "%(players)s tied in the roll-off: each writes the re-roll after the "
                    "first die, e.g. “Anna 3 5”."
                )
                % {"players": named},
            ) from None
        if exc.code == "needless_reroll":
            raise ValidationFailed(
                "needless_reroll",
                _("%(player)s was not tied: only tied players roll again.") % {"player": named},
            ) from None
        raise

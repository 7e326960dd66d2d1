"""The one check of a name typed for a player (issue 16: a name made only of a
zero-width space, or holding a right-to-left override, was accepted).

Every place where the server accepts a typed name for a player or a participant calls
:func:`player_name_clean` and stores what it returns: a player made on the spot (a
tournament's walk-in, a chouette guest: :mod:`games.players.guests`), a player added
or renamed in the admin (``games.admin.PlayerForm``), the two names of a table clock
(``games.clocks.services.table_clock_create``), and the players of an imported ``.mat``
file (``games.play.interchange``).

Why each rule:

* **NFC**: "é" typed as one code point or as "e" and a combining accent is one name
  (the unique, case-insensitive constraint on ``Player.name`` compares code points).
* **Direction controls** (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C) reorder
  what is shown: "Anna\\u202egnal" reads as "Annalang" and can pass for someone else on
  a result sheet. Right-to-left *letters* (Hebrew, Arabic) need none of them.
* **Control and invisible characters** (categories Cc, Cf, Cs, Zl, Zp): a name is one
  line of visible text. A zero-width space makes "Anna\\u200b" a second "Anna". The
  zero-width non-joiner and joiner (U+200C, U+200D) stay: some scripts (Persian, the
  Indic scripts) spell names with them.
* **At least one letter or digit**: a name of spaces, dots or invisible characters names
  nobody.
* Runs of spaces (of any kind, e.g. a no-break space) become one space, and the ends are
  stripped, so "Kiss  Anna" is "Kiss Anna".
* At most ``max_length`` characters (the column's, 80): longer is refused with a clear
  message rather than failing in the database.
"""

from __future__ import annotations

import unicodedata

from django.utils.translation import gettext as _

from games.errors import ValidationFailed
from games.models import Player

#: The longest name (``Player.name``'s column).
NAME_MAX = Player._meta.get_field("name").max_length

#: Characters that change the direction text is shown in (Unicode's bidi controls).
BIDI_CONTROLS = frozenset(
    [chr(c) for c in range(0x202A, 0x202F)]  # LRE RLE PDF LRO RLO
    + [chr(c) for c in range(0x2066, 0x206A)]  # LRI RLI FSI PDI
    + ["\u200e", "\u200f", "\u061c"]  # LRM RLM ALM
)
#: Format characters that spell names in some scripts: zero-width non-joiner, joiner.
ALLOWED_FORMAT = frozenset(["\u200c", "\u200d"])
#: Categories no name holds: control, format, surrogate, line and paragraph separators.
REFUSED_CATEGORIES = frozenset(["Cc", "Cf", "Cs", "Zl", "Zp"])


def _refuse(detail: str) -> ValidationFailed:
    return ValidationFailed("invalid_name", detail)


def player_name_clean(*, name: str, max_length: int = NAME_MAX) -> str:
    """``name`` as it is stored (NFC, spaces collapsed, ends stripped), or
    :class:`~games.errors.ValidationFailed` ``invalid_name`` with a sentence that says
    what is wrong (module docstring)."""
    if not isinstance(name, str):
        raise _refuse(_("Type the player's name."))
    text = unicodedata.normalize("NFC", name).strip()
    if any(ch in BIDI_CONTROLS for ch in text):
        raise _refuse(_("A name may not hold characters that change the writing direction."))
    if any(
        unicodedata.category(ch) in REFUSED_CATEGORIES and ch not in ALLOWED_FORMAT for ch in text
    ):
        raise _refuse(_("A name may not hold control characters or invisible characters."))
    text = " ".join(text.split())
    if not text:
        raise _refuse(_("Type the player's name."))
    if not any(unicodedata.category(ch)[0] in "LN" for ch in text):
        raise _refuse(_("A name needs at least one letter or digit."))
    if len(text) > max_length:
        raise _refuse(_("A name has at most %(max)d characters.") % {"max": max_length})
    return text

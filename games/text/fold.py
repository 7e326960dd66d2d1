"""The fold of a name for searching (issue 17: "kovacs", "Adam" and "ádám" found nobody;
only "Ádám" found Fekete Ádám). Pure: no Django.

:func:`fold` is what ``games.models.Player.search_name`` stores (kept in step on every
save) and what every name search folds its query with, so a search matches whatever the
case and the accents, on PostgreSQL and SQLite alike (the database compares two folded
strings; it needs no collation or extension)."""

from __future__ import annotations

import unicodedata


def fold(text: str) -> str:
    """``text`` without case and accents: compatibility decomposition (NFKD), every
    combining mark dropped, then case folded. "Fekete Ádám" -> "fekete adam"; the
    Hungarian double acute goes too ("Győző" -> "gyozo", "Űrhajós" -> "urhajos");
    "Straße" -> "strasse"; the ligature "ﬁ" -> "fi"."""
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return unicodedata.normalize("NFC", bare.casefold())

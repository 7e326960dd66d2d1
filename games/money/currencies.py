"""Currencies the site knows (pure: no framework): the digits an amount is shown and
paid in, and the symbol a reader knows it by. Shared by the tournaments' payouts
(:mod:`tournaments.payouts`) and the money format of the pages (:mod:`games.money.format`)."""

from __future__ import annotations

#: ISO 4217 codes offered, with the digits after the decimal point an amount is paid in
#: (HUF in whole forints, as Hungarian clubs pay; JPY has no minor unit).
DIGITS: dict[str, int] = {
    "HUF": 0,
    "EUR": 2,
    "USD": 2,
    "GBP": 2,
    "CHF": 2,
    "CZK": 2,
    "PLN": 2,
    "RON": 2,
    "RSD": 0,
    "SEK": 2,
    "NOK": 2,
    "DKK": 2,
    "JPY": 0,
}

#: The symbols readers know; any other currency is written by its code.
SYMBOLS: dict[str, str] = {
    "HUF": "Ft",
    "EUR": "€",
    "USD": "$",
    "GBP": "£",
    "CZK": "Kč",
    "PLN": "zł",
    "JPY": "¥",
}

#: Symbols written before the amount in English ("€12.50", "$3.00"); the others (and
#: every code) follow their own habit there: the code first ("HUF 10,500").
PREFIX_SYMBOLS = frozenset({"EUR", "USD", "GBP", "JPY"})

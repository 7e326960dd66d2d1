"""Money in the reader's format (issue 27): one helper for every page, e-mail and text
the site writes, the template filters :func:`games.templatetags.money.money` and
``signed_money`` on top of it. CSV exports and the API keep plain numbers.

* Hungarian: the amount grouped by non-breaking spaces, a decimal comma, the symbol
  after: ``10 500 Ft``, ``12,50 €``.
* English: grouped by commas, a decimal point; ``€12.50``, ``$3.00``, ``£1.00`` with the
  symbol first, other currencies with their code first: ``HUF 10,500``.

Digits: a currency's own (:data:`games.money.currencies.DIGITS`: none for HUF, two for
EUR); an amount with a fraction the currency does not pay in (half a forint a point)
keeps two. An unknown currency is written by its code with two digits; no currency, the
number alone."""

from __future__ import annotations

from decimal import Decimal

from django.utils.formats import number_format
from django.utils.translation import get_language

from games.money.currencies import DIGITS, PREFIX_SYMBOLS, SYMBOLS

#: Between the amount and the currency, never broken apart.
NBSP = "\u00a0"


def _digits(amount: Decimal, currency: str) -> int:
    digits = DIGITS.get(currency, 2 if currency else 0)
    if digits < 2 and amount != amount.quantize(Decimal(1).scaleb(-digits)):
        return 2
    return digits


def money_text(amount: Decimal | int | float, currency: str, *, signed: bool = False) -> str:
    """``amount`` of ``currency`` (an ISO code) as the active language writes it (module
    docstring); ``signed``: a ``+`` before a gain (a ledger's money)."""
    value = amount if isinstance(amount, Decimal) else Decimal(str(amount))
    currency = (currency or "").upper()
    digits = _digits(value, currency)
    number = number_format(abs(value), decimal_pos=digits, use_l10n=True, force_grouping=True)
    sign = "-" if value < 0 else "+" if signed and value > 0 else ""
    if not currency:
        return sign + number
    hungarian = (get_language() or "hu").split("-")[0] == "hu"
    symbol = SYMBOLS.get(currency, currency)
    if hungarian:
        return f"{sign}{number}{NBSP}{symbol}"
    if currency in PREFIX_SYMBOLS:
        return f"{sign}{symbol}{number}"
    return f"{sign}{currency}{NBSP}{number}"

"""games/money: an amount in the reader's format (issue 27), Hungarian and English."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.utils import translation

from games.money.currencies import DIGITS
from games.money.format import NBSP, money_text


@pytest.mark.parametrize(
    ("amount", "currency", "signed", "hungarian", "english"),
    [
        (10500, "HUF", False, f"10{NBSP}500{NBSP}Ft", f"HUF{NBSP}10,500"),
        (Decimal("12.5"), "EUR", False, f"12,50{NBSP}€", "€12.50"),
        (Decimal("-3"), "USD", False, f"-3,00{NBSP}$", "-$3.00"),
        (Decimal("0.5"), "HUF", True, f"+0,50{NBSP}Ft", f"+HUF{NBSP}0.50"),  # half a forint
        (7, "", True, "+7", "+7"),
        (Decimal("1.5"), "xyz", False, f"1,50{NBSP}XYZ", f"XYZ{NBSP}1.50"),
    ],
)
def test_money_in_each_language(amount, currency, signed, hungarian, english):
    with translation.override("hu"):
        assert money_text(amount, currency, signed=signed) == hungarian
    with translation.override("en"):
        assert money_text(amount, currency, signed=signed) == english


def test_the_forint_has_no_fraction_and_the_euro_two():
    assert DIGITS["HUF"] == 0 and DIGITS["EUR"] == 2

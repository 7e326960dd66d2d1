"""Template filters for rating numbers."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import template
from django.template.defaultfilters import floatformat

register = template.Library()


@register.filter
def signed(value: Any, digits: int = 2) -> str:
    """``+15.13`` / ``-4.00`` / ``0.00``, localised like ``floatformat`` (a rating change
    always shows its sign)."""
    if value is None or value == "":
        return ""
    text = floatformat(value, digits)
    return f"+{text}" if Decimal(str(value)) > 0 else text

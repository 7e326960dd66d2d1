"""Template filters for money in the reader's format (:mod:`games.money.format`):
``{{ amount|money:currency }}`` and ``{{ amount|signed_money:currency }}`` (a ``+``
before a gain). An empty value (``None``) shows nothing."""

from __future__ import annotations

from typing import Any

from django import template

from games.money.format import money_text

register = template.Library()


@register.filter
def money(value: Any, currency: str = "") -> str:
    if value is None or value == "":
        return ""
    return money_text(value, currency or "")


@register.filter
def signed_money(value: Any, currency: str = "") -> str:
    if value is None or value == "":
        return ""
    return money_text(value, currency or "", signed=True)

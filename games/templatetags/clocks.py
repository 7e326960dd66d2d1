"""Template filters for clocks: a preset's name as players read it."""

from __future__ import annotations

from django import template

from games.play.presets import preset_label as _preset_label

register = template.Library()


@register.filter
def preset_label(name: str) -> str:
    """``"seed002"`` -> "club (11 s + 1:30)" (:func:`games.play.presets.preset_label`)."""
    return _preset_label(name)

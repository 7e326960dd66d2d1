"""The clock presets (:data:`games.engine.clock.PRESETS`) as players and directors read
them: "club (11 s + 1:30)" rather than ``seed002``. One place for the lobby's clock menu
and every tournament form and page that names a preset."""

from __future__ import annotations

from django.utils import translation
from django.utils.functional import Promise, lazy
from django.utils.translation import gettext_lazy

from games.engine.clock import PRESETS

#: Preset name -> its label (the delay, then the reserve).
LABELS: dict[str, Promise] = {
    "seed002": gettext_lazy("club (11 s + 1:30)"),
    "usbgf": gettext_lazy("USBGF (12 s + 2 min per point)"),
    "galaxy-casual": gettext_lazy("casual (15 s + 3 min per point)"),
    "wbgf-speed": gettext_lazy("speed (9 s + 2 min)"),
}


def preset_label(name: str) -> str:
    """The label of the preset ``name`` (the name itself for one without a label; ``""``
    for no preset)."""
    return str(LABELS.get(name, name)) if name else ""


def preset_choices() -> list[tuple[str, str]]:
    """``(name, label)`` of every preset, in the engine's order."""
    return [(name, preset_label(name)) for name in PRESETS]


def _presets_in_english() -> str:
    with translation.override("en"):
        return ", ".join(f"{name} = {preset_label(name)}" for name in PRESETS)


#: The presets with their labels, in English (API help texts).
PRESETS_HELP = lazy(_presets_in_english, str)()

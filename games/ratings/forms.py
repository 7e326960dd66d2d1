"""Forms shared by pages and the API."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy

from games.ratings import selectors


class LeaderboardFilter(forms.Form):
    """The leaderboard's filters (a GET form on the page, query parameters in the API):
    :meth:`arguments` turns them into :func:`games.ratings.selectors.leaderboard`'s."""

    name = forms.CharField(label=gettext_lazy("Name"), required=False, max_length=80)
    club = forms.CharField(label=gettext_lazy("Club"), required=False, max_length=100)
    period = forms.ChoiceField(
        label=gettext_lazy("Period"),
        required=False,
        choices=[
            ("all", gettext_lazy("All time")),
            ("year", gettext_lazy("This year")),
            ("365d", gettext_lazy("Last 12 months")),
            ("90d", gettext_lazy("Last 90 days")),
            ("30d", gettext_lazy("Last 30 days")),
        ],
    )
    min_experience = forms.IntegerField(
        label=gettext_lazy("Minimum experience"),
        required=False,
        min_value=0,
        max_value=1_000_000,
        help_text=gettext_lazy("The sum of the lengths of a player's rated matches."),
    )

    def arguments(self) -> dict[str, Any]:
        """The selector's arguments: all time and ``RATING_LEADERBOARD_MIN_EXPERIENCE`` by
        default; a name search finds newcomers too unless a minimum is given. Unbound or
        invalid: the defaults."""
        data = self.cleaned_data if self.is_bound and self.is_valid() else {}
        name = (data.get("name") or "").strip()
        minimum = data.get("min_experience")
        if minimum is None:
            minimum = 0 if name else settings.RATING_LEADERBOARD_MIN_EXPERIENCE
        since: datetime | None = selectors.period_start(data.get("period") or "all")
        return {
            "club": data.get("club") or "",
            "since": since,
            "min_experience": minimum,
            "name": name,
        }

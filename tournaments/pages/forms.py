"""The forms of the director's pages: a new event, the event's settings, a new flight, a
director, one round's settings. The services check everything again."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy

from games.play.presets import preset_choices
from tournaments.models import BRACKET_FORMATS, BUILDER_OPTIONS, ClockPolicy, Flight, Format
from tournaments.pages.common import TIEBREAK_LABELS, part_title
from tournaments.pairing import TIEBREAKS

RATED_HELP = gettext_lazy(
    "The results count for the players' ratings. It can be changed until the first result "
    "is recorded."
)


class EventForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=120)
    starts_on = forms.DateField(
        label=gettext_lazy("Starts on"), widget=forms.DateInput(attrs={"type": "date"})
    )
    location = forms.CharField(label=gettext_lazy("Location"), max_length=200, required=False)
    slug = forms.CharField(
        label=gettext_lazy("Web address"),
        max_length=120,
        required=False,
        help_text=gettext_lazy("Letters, digits and hyphens; made from the name when empty."),
    )
    rated = forms.BooleanField(
        label=gettext_lazy("Rated"), required=False, initial=True, help_text=RATED_HELP
    )


class EventSettingsForm(forms.Form):
    """The event's settings on its director's page (the web address stays).

    ``rated`` is a pair of radio buttons, not a box: a post without it (they are shown
    disabled once results are rated, ``rated_locked``, and a browser does not send
    disabled inputs) leaves it as it is (``None``), while a post with it, e.g. from a page
    opened before the first result, is the service's to refuse, with its reason."""

    name = forms.CharField(label=gettext_lazy("Name"), max_length=120)
    starts_on = forms.DateField(
        label=gettext_lazy("Starts on"), widget=forms.DateInput(attrs={"type": "date"})
    )
    location = forms.CharField(label=gettext_lazy("Location"), max_length=200, required=False)
    rated = forms.TypedChoiceField(
        label=gettext_lazy("Ratings"),
        choices=[("True", gettext_lazy("Rated")), ("False", gettext_lazy("Not rated"))],
        coerce=lambda value: value == "True",
        empty_value=None,
        required=False,
        widget=forms.RadioSelect,
        help_text=RATED_HELP,
    )

    def __init__(self, *args: Any, rated_locked: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if rated_locked:
            self.fields["rated"].disabled = True
            self.fields["rated"].help_text = gettext_lazy(
                "Results of this event are in the rating list already: this no longer changes."
            )


def clock_choices(*, keep: bool = False) -> list[tuple[str, Any]]:
    choices: list[tuple[str, Any]] = [("", gettext_lazy("no clock"))]
    choices += preset_choices()
    if keep:
        choices.insert(0, ("-", gettext_lazy("(unchanged)")))
    return choices


TIEBREAK_FIELDS = ("tiebreak_1", "tiebreak_2", "tiebreak_3")


def tiebreak_choices() -> list[tuple[str, Any]]:
    """The tie-breaks a director orders (the match wins always come first)."""
    return [("", gettext_lazy("(default)"))] + [
        (name, TIEBREAK_LABELS[name]) for name in TIEBREAKS if name != "wins"
    ]


def tiebreak_order(form: forms.Form, data: dict[str, Any]) -> list[str]:
    """The order chosen in the tie-break selects, after the wins (``[]``: the format's
    default). A gap or a repeat is an error on its field; the form keeps what was
    chosen."""
    chosen = [data.get(name) or "" for name in TIEBREAK_FIELDS]
    order: list[str] = []
    for name, value in zip(TIEBREAK_FIELDS, chosen, strict=True):
        if not value:
            continue
        if len(order) < TIEBREAK_FIELDS.index(name):
            form.add_error(name, gettext_lazy("Choose the tie-breaks above this one first."))
        elif value in order:
            form.add_error(name, gettext_lazy("This tie-break is chosen already."))
        order.append(value)
    return ["wins", *order] if order else []


class FlightForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=80)
    format = forms.ChoiceField(label=gettext_lazy("Format"), choices=Format.choices)
    seeding = forms.ChoiceField(label=gettext_lazy("Seeding"), choices=Flight.SeedingMethod.choices)
    match_length = forms.IntegerField(
        label=gettext_lazy("Default match length"), min_value=1, max_value=25, initial=5
    )
    clock_preset = forms.ChoiceField(
        label=gettext_lazy("Clock preset"), choices=clock_choices, required=False
    )
    clock_policy = forms.ChoiceField(
        label=gettext_lazy("Clock use"), choices=ClockPolicy.choices, initial=ClockPolicy.OFF
    )
    entry_rounds = forms.TypedChoiceField(
        label=gettext_lazy("Consolation / last chance entry"),
        choices=[
            (1, gettext_lazy("losers of round 1")),
            (2, gettext_lazy("losers of rounds 1 and 2")),
        ],
        coerce=int,
        initial=1,
        help_text=gettext_lazy(
            "Main and consolation, main and last chance, main, consolation and last chance."
        ),
    )
    last_chance_rounds = forms.TypedChoiceField(
        label=gettext_lazy("Last chance entry"),
        choices=[
            (1, gettext_lazy("losers of consolation round 1")),
            (2, gettext_lazy("losers of consolation rounds 1 and 2")),
        ],
        coerce=int,
        initial=1,
        # Not required: a form posted before this format existed has no such field.
        required=False,
        empty_value=None,
        help_text=gettext_lazy("Main, consolation and last chance."),
    )
    last_entry_round = forms.IntegerField(
        label=gettext_lazy("Last main round feeding the consolation"),
        min_value=1,
        max_value=12,
        required=False,
        help_text=gettext_lazy("Progressive consolation; empty: up to the semi-finals."),
    )
    bracket_reset = forms.BooleanField(
        label=gettext_lazy("Bracket reset (a second final)"),
        required=False,
        help_text=gettext_lazy("Double elimination."),
    )
    rounds = forms.IntegerField(
        label=gettext_lazy("Swiss rounds"),
        min_value=1,
        max_value=30,
        required=False,
        help_text=gettext_lazy("Swiss: the number of rounds (required)."),
    )
    play_ahead = forms.BooleanField(
        label=gettext_lazy("Play ahead"),
        required=False,
        initial=True,
        help_text=gettext_lazy(
            "Knockouts: a next-round match is published and played as soon as both its "
            "players are known. Off: when the whole round before is complete. A Swiss "
            "round is always paired after the whole round before."
        ),
    )
    # Issue 29: the tie-break order of a Swiss or round robin flight (after the wins).
    tiebreak_1 = forms.ChoiceField(
        label=gettext_lazy("First tie-break"),
        choices=tiebreak_choices,
        required=False,
        help_text=gettext_lazy(
            "Swiss and round robin, after the match wins; empty: the format's default "
            "(Swiss: Buchholz, point difference, head-to-head; round robin: head-to-head, "
            "point difference)."
        ),
    )
    tiebreak_2 = forms.ChoiceField(
        label=gettext_lazy("Second tie-break"), choices=tiebreak_choices, required=False
    )
    tiebreak_3 = forms.ChoiceField(
        label=gettext_lazy("Third tie-break"), choices=tiebreak_choices, required=False
    )

    lateness = forms.BooleanField(
        label=gettext_lazy("Lateness penalties"),
        required=False,
        help_text=gettext_lazy(
            "After the grace period, the late player's opponent starts with a point per so "
            "many minutes late; past half the match length the match is forfeited."
        ),
    )
    lateness_grace = forms.IntegerField(
        label=gettext_lazy("Grace minutes"), min_value=0, max_value=60, initial=5, required=False
    )
    lateness_per_point = forms.IntegerField(
        label=gettext_lazy("Minutes per penalty point"),
        min_value=1,
        max_value=60,
        initial=5,
        required=False,
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("format") in (Format.SWISS, Format.ROUND_ROBIN):
            data["tiebreaks"] = tiebreak_order(self, data)
        return data

    def service_kwargs(self) -> dict[str, Any]:
        """The arguments of :func:`~tournaments.services.flights.flight_create`: only the
        options of the chosen format."""
        data = self.cleaned_data
        fmt = data["format"]
        options: dict[str, Any] = {}
        if fmt in BRACKET_FORMATS:
            for name in BUILDER_OPTIONS[fmt]:
                if data.get(name) is not None:
                    options[name] = data[name]
        elif fmt == Format.SWISS:
            options["rounds"] = data.get("rounds")
        if data.get("tiebreaks"):
            options["tiebreaks"] = data["tiebreaks"]
        return {
            "name": data["name"],
            "format": fmt,
            "options": options,
            "seeding": data["seeding"],
            "match_length": data["match_length"],
            "clock_preset": data.get("clock_preset") or "",
            "clock_policy": data["clock_policy"],
            "lateness": data["lateness"],
            "lateness_grace": 5 if data.get("lateness_grace") is None else data["lateness_grace"],
            "lateness_per_point": data.get("lateness_per_point") or 5,
            "play_ahead": data.get("play_ahead", True),
        }


class DirectorForm(forms.Form):
    username = forms.CharField(label=gettext_lazy("User name"), max_length=150)


class RoundForm(forms.Form):
    part = forms.ChoiceField(label=gettext_lazy("Part"), required=False)
    number = forms.IntegerField(label=gettext_lazy("Round"), min_value=1, max_value=99)
    match_length = forms.IntegerField(
        label=gettext_lazy("Match length"), min_value=1, max_value=25, required=False
    )
    clock_preset = forms.ChoiceField(
        label=gettext_lazy("Clock preset"),
        choices=lambda: clock_choices(keep=True),
        initial="-",
        required=False,
    )
    clock_policy = forms.ChoiceField(
        label=gettext_lazy("Clock use"),
        choices=[("", gettext_lazy("(unchanged)")), *ClockPolicy.choices],
        required=False,
    )
    starts_at = forms.DateTimeField(
        label=gettext_lazy("Starts at"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
    )

    def __init__(
        self, *args: Any, parts: tuple[str, ...] = (), rounds_help: str = "", **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["part"].choices = [(p, part_title(p)) for p in parts]
        self.fields["number"].help_text = rounds_help  # which round is the final


class TiebreakForm(forms.Form):
    """A Swiss or round robin flight's tie-break order on its own page (issue 29)."""

    tiebreak_1 = FlightForm.base_fields["tiebreak_1"]
    tiebreak_2 = FlightForm.base_fields["tiebreak_2"]
    tiebreak_3 = FlightForm.base_fields["tiebreak_3"]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        data["tiebreaks"] = tiebreak_order(self, data)
        return data

    @classmethod
    def of_flight(cls, options: dict[str, Any]) -> TiebreakForm:
        """Unbound, showing the flight's own order (after the wins), if it has one."""
        order = [t for t in options.get("tiebreaks", ()) if t != "wins"]
        return cls(initial=dict(zip(TIEBREAK_FIELDS, order, strict=False)))

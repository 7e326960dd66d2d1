"""The session list and a new session (the form, its rule profile and roll-off), the
summary, and the old player page's redirect."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from chouette import rolloff, rules
from chouette.models import ChouetteSession
from chouette.pages.common import scoreboard_url, summary_context
from chouette.services import sessions
from chouette.services.common import may_write
from chouette.services.summary import session_summary
from games.errors import ApplicationError
from games.models import Player
from games.web import show_refusal

#: Sessions listed on the list page.
LIST_LIMIT = 50


def _form_error(request: HttpRequest, form: forms.Form) -> None:
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else ""
        for error in errors:
            messages.error(request, f"{label}: {error}" if label else error)


# ====================================================================== list, create
PROFILE_KINDS = [
    ("classic", gettext_lazy("classic: one team cube")),
    ("individual", gettext_lazy("individual: every member has an own cube")),
]
#: The rotation variants (chouette.rules.profile; docs/rules.md R13): a short name in
#: the select, and what each one does under it (static/chouette/session-form.js shows
#: the chosen one's; without the script every description shows).
ROTATIONS = [
    ("standard", gettext_lazy("standard")),
    ("box_needs_net_profit", gettext_lazy("beat the captain and show a profit")),
    ("net_profit_decides", gettext_lazy("a profit decides")),
    ("double_stand_up", gettext_lazy("double stand-up")),
]
ROTATION_HELP = {
    "standard": gettext_lazy(
        "The box stays if it beat the captain; if the captain won, the captain takes the box."
    ),
    "box_needs_net_profit": gettext_lazy(
        "The box stays only if it beat the captain and won more than it lost in the game; "
        "otherwise the captain takes the box."
    ),
    "net_profit_decides": gettext_lazy(
        "The box stays if it won more than it lost in the game, whatever happened against "
        "the captain; otherwise the captain takes the box."
    ),
    "double_stand_up": gettext_lazy(
        "The box stays if it beat the captain and did not lose in the game. If it beat the "
        "captain but lost overall, both stand up: the captain and then the box go to the "
        "end of the line, and the next player takes the box."
    ),
}
assert [key for key, _label in ROTATIONS] == list(rules.ROTATION_VARIANTS) == list(ROTATION_HELP)


class SessionForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=120)
    players = forms.ModelMultipleChoiceField(
        label=gettext_lazy("Players"),
        queryset=Player.objects.filter(is_active=True).order_by("name"),
        widget=forms.CheckboxSelectMultiple,
        help_text=gettext_lazy("Three or more."),
    )
    rolls = forms.CharField(
        label=gettext_lazy("Roll-off"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=gettext_lazy(
            "One line per player: the name, then the die and any re-rolls after a tie "
            "(e.g. “Anna 3 5”). Leave empty and the server rolls."
        ),
    )
    stake_per_point = forms.DecimalField(
        label=gettext_lazy("Stake per point"),
        required=False,
        min_value=0,
        max_digits=10,
        decimal_places=2,
    )
    currency = forms.CharField(
        label=gettext_lazy("Currency"), required=False, max_length=3, initial="HUF"
    )
    kind = forms.ChoiceField(
        label=gettext_lazy("Rule profile"),
        choices=PROFILE_KINDS,
        initial="classic",
        widget=forms.RadioSelect,
    )
    rotation = forms.ChoiceField(
        label=gettext_lazy("Rotation"), choices=ROTATIONS, initial="standard"
    )
    jacoby = forms.BooleanField(label=gettext_lazy("Jacoby rule (per cube)"), required=False)
    beavers = forms.BooleanField(label=gettext_lazy("Beavers"), required=False)
    raccoons = forms.BooleanField(label=gettext_lazy("Raccoons"), required=False)
    automatic_doubles = forms.IntegerField(
        label=gettext_lazy("Automatic doubles (at most)"), min_value=0, max_value=6, initial=0
    )
    box_must_take_half = forms.BooleanField(
        label=gettext_lazy("The box must take at least half of simultaneous initial doubles"),
        required=False,
    )
    box_partner = forms.BooleanField(
        label=gettext_lazy("Box partner from six players"), required=False
    )
    backgammon_value = forms.TypedChoiceField(
        label=gettext_lazy("A backgammon counts"),
        choices=[(3, "3"), (2, "2"), (1, "1")],
        coerce=int,
        initial=3,
    )
    split_min_players = forms.IntegerField(
        label=gettext_lazy("The chouette may split in two from"),
        required=False,
        min_value=6,
        max_value=30,
        initial=8,
        help_text=gettext_lazy("seated players (each half keeps three or more)."),
    )

    #: The options of the individual profile only (the form shows them only when it is
    #: chosen: static/chouette/session-form.js; the rules refuse them with one team cube).
    INDIVIDUAL_ONLY = ("beavers", "raccoons", "box_must_take_half", "box_partner")
    COMMON_RULES = ("jacoby", "automatic_doubles", "backgammon_value", "split_min_players")

    def clean(self) -> dict[str, Any]:
        """The roll-off read against the chosen players (:mod:`chouette.rolloff`) into
        ``roll_map``, and no individual-only option with one team cube: each refusal is
        the error of the field it is about, and the form keeps what was typed."""
        data = super().clean()
        chosen = data.get("players")
        data["roll_map"] = None
        if chosen is not None and "rolls" in data:
            try:
                data["roll_map"] = rolloff.parse_rolls(text=data["rolls"], players=list(chosen))
            except ApplicationError as exc:
                self.add_error("rolls", str(exc.detail))
        if data.get("kind") == "classic":
            for name in self.INDIVIDUAL_ONLY:
                if data.get(name):
                    self.add_error(
                        name, _("Only with individual cubes: choose the individual profile.")
                    )
        return data

    def individual_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.INDIVIDUAL_ONLY]

    def rule_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.COMMON_RULES]

    def rotation_help(self) -> list[tuple[str, Any]]:
        return list(ROTATION_HELP.items())


def _profile_from(data: dict[str, Any]) -> dict[str, Any]:
    profile = {
        "kind": data["kind"],
        "rotation": data["rotation"],
        "jacoby": data["jacoby"],
        "automatic_doubles": data["automatic_doubles"] or 0,
        "backgammon_value": data["backgammon_value"],
        "split_min_players": data["split_min_players"] or rules.Profile().split_min_players,
    }
    if data["kind"] == "individual":
        for name in ("beavers", "raccoons", "box_must_take_half", "box_partner"):
            profile[name] = data[name]
    return profile


def session_list(request: HttpRequest) -> HttpResponse:
    recent = ChouetteSession.objects.all()[:LIST_LIMIT]
    form = SessionForm() if request.user.is_authenticated else None
    return render(request, "chouette/session_list.html", {"sessions": recent, "form": form})


def session_create(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if request.method != "POST":
        return redirect("chouette:session-list")
    form = SessionForm(request.POST)
    if not form.is_valid():
        _form_error(request, form)
        recent = ChouetteSession.objects.all()[:LIST_LIMIT]
        return render(
            request, "chouette/session_list.html", {"sessions": recent, "form": form}, status=400
        )
    data = form.cleaned_data
    chosen = list(data["players"])
    stake = data["stake_per_point"]
    try:
        session = sessions.session_create(
            by=request.user,
            name=data["name"],
            player_ids=[p.pk for p in chosen],
            stake_per_point=Decimal(stake) if stake is not None else None,
            currency=data["currency"],
            profile=_profile_from(data),
            rolls=data["roll_map"],
        )
    except ApplicationError as exc:
        # Shown in the page with what was typed; 403 when the user may not start this
        # session (not one of its players, not the scorekeeper, not staff).
        show_refusal(request, exc)
        recent = ChouetteSession.objects.all()[:LIST_LIMIT]
        return render(
            request,
            "chouette/session_list.html",
            {"sessions": recent, "form": form},
            status=exc.status,
        )
    messages.success(request, _("The session has started. Good luck!"))
    return redirect(scoreboard_url(session.pk))


# ====================================================================== summary, player
def summary(request: HttpRequest, session_id: int) -> HttpResponse:
    """Net points, money at the stake and the fewest transfers that settle."""
    try:
        found = session_summary(session_id=session_id)
    except ApplicationError:
        raise Http404 from None
    return render(
        request,
        "chouette/summary.html",
        {
            "session": found.session,
            **summary_context(found),
            "can_write": may_write(request.user, found.session),
        },
    )


def player_page(request: HttpRequest, player_id: int) -> HttpResponse:
    """Moved: the player page (games) shows chouette totals as one of its sections."""
    get_object_or_404(Player, pk=player_id)
    return redirect("games:player", player_id=player_id, permanent=True)

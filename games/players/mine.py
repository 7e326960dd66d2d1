"""The logged-in player's own settings page (``/players/me/settings/``, issue 18): where
the home board is drawn, whether it switches sides after each match (seed 000), and the
way to the notification settings.

A plain form; the write is :func:`games.players.services.player_settings_update`, as the
API's (``PATCH /api/v1/me/settings/``). A refused form comes back with what was chosen
and the reason next to the field it concerns.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.errors import ApplicationError, Conflict
from games.models import BoardOrientation, Player
from games.players import services


class BoardSettingsForm(forms.Form):
    board_orientation = forms.ChoiceField(
        label=gettext_lazy("Where is your home board?"),
        choices=BoardOrientation.choices,
        widget=forms.RadioSelect,
    )
    switch_sides_after_match = forms.BooleanField(
        label=gettext_lazy("Switch sides after each match"),
        required=False,
        help_text=gettext_lazy(
            "A good player is at ease both ways round: when a match you played finishes, "
            "your home board moves to the other side for the next one."
        ),
    )
    auto_roll = forms.BooleanField(
        label=gettext_lazy("Roll automatically"),
        required=False,
        help_text=gettext_lazy(
            "When it is your turn and you cannot double (the cube is not yours to turn, or "
            "it is the Crawford game), the dice are rolled for you."
        ),
    )
    auto_confirm_forced = forms.BooleanField(
        label=gettext_lazy("Play forced moves automatically"),
        required=False,
        help_text=gettext_lazy(
            "When your roll can be played in one way only, it is played for you without a tap."
        ),
    )
    turn_sound = forms.BooleanField(
        label=gettext_lazy("A sound when it becomes my turn"),
        required=False,
        help_text=gettext_lazy(
            "A short beep on the match page when your opponent's move makes it your turn."
        ),
    )
    #: The settings version the form was opened at (``Player.settings_version``); a post
    #: without one (none of this page's) is not checked, as the API's PATCH.
    version = forms.IntegerField(widget=forms.HiddenInput, min_value=0, required=False)


def _initial(player: Player) -> dict[str, object]:
    return {
        "board_orientation": player.board_orientation,
        "switch_sides_after_match": player.switch_sides_after_match,
        "auto_roll": player.auto_roll,
        "auto_confirm_forced": player.auto_confirm_forced,
        "turn_sound": player.turn_sound,
        "version": player.settings_version,
    }


@login_required
def my_settings_page(request: HttpRequest) -> HttpResponse:
    me = Player.of_user(request.user)
    if me is None:
        return render(request, "games/my_settings.html", {"me": None}, status=403)
    form = BoardSettingsForm(initial=_initial(me))
    if request.method == "POST":
        form = BoardSettingsForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                services.player_settings_update(
                    player_id=me.pk,
                    board_orientation=data["board_orientation"],
                    switch_sides_after_match=data["switch_sides_after_match"],
                    auto_roll=data["auto_roll"],
                    auto_confirm_forced=data["auto_confirm_forced"],
                    turn_sound=data["turn_sound"],
                    expected_version=data["version"],
                )
            except ApplicationError as exc:
                _refused(form, exc)
            else:
                messages.success(request, _("Your settings were saved."))
                return redirect("games:my-settings")
    return render(
        request,
        "games/my_settings.html",
        {"me": me, "form": form},
        status=400 if form.is_bound else 200,
    )


def _refused(form: BoardSettingsForm, exc: ApplicationError) -> None:
    """The refusal next to its field. A stale form keeps what was chosen, says what is
    stored now, and carries the stored version from here on: saving again, having
    looked, goes through."""
    if isinstance(exc, Conflict) and exc.code == "stale_settings":
        data = form.data.copy()
        data["version"] = str(exc.extra["version"])
        form.data = data
        stored = BoardOrientation(exc.extra["board_orientation"]).label
        form.add_error(None, f"{exc.detail} " + _("Stored now: %(side)s.") % {"side": stored})
        return
    field = exc.extra.get("field")
    form.add_error(field if field in form.fields else None, str(exc.detail))

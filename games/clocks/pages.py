"""Table clock pages (over-the-board play, R12): the director's list of every live clock,
the form that sets one up, and the tablet page between the two players.

Every page works without JavaScript: times are rendered by the server from the stored
state at the server's time, and tapping a half is a plain form post to the same services
the API uses. With JavaScript the director's list follows every clock live
(``clocks:all``, :mod:`games.clocks.live`: redrawn on each tap, move, pause or flag), and
the tablet (``static/games/tableclock.js``) counts down locally, taps through the API,
follows its clock's ``tableclock:<id>`` topic (a second device shows the taps of the
first) and beeps and vibrates when a reserve runs low and at the flag.
"""

from __future__ import annotations

import math
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from games import wallclock
from games.clocks import live
from games.clocks import selectors as clock_selectors
from games.clocks import services as tableclocks
from games.clocks.api import TableClockOutput
from games.errors import ApplicationError
from games.models import TableClock
from games.play import selectors
from games.play.live import CLOCK_LIST_TOPIC
from games.play.presets import preset_choices
from games.web import next_or, show_refusal

#: Under this much reserve the tablet warns (beep, vibration) and shows tenths.
LOW_RESERVE_MS = 10_000


def preset_menu() -> list[tuple[str, str]]:
    """The clock menu: every preset under the name the lobby and the tournaments give it
    (:func:`games.play.presets.preset_choices`, in the active language), then custom."""
    return [*preset_choices(), ("custom", _("Custom: the delay and reserve below"))]


def format_clock_ms(ms: int | None) -> str:
    """A clock reading as a clock shows it: ``h:mm:ss`` from an hour, ``m:ss`` from 10 s,
    then seconds and tenths (``9.4``); always rounded up, so 0 shows only at the flag.
    ``static/games/tableclock.js`` formats the same way."""
    if ms is None:
        return ""
    ms = max(0, ms)
    if ms < LOW_RESERVE_MS:
        tenths = math.ceil(ms / 100)
        return f"{tenths // 10}.{tenths % 10}"
    seconds = math.ceil(ms / 1000)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{secs:02d}"
    return f"{minutes}:{secs:02d}"


# ====================================================================== the director
@never_cache
def table_clock_list_page(request: HttpRequest) -> HttpResponse:
    """Every live table clock with its times now, and the online games with a clock;
    flagged ones stand out. Follows them live (``clocks:all``)."""
    found = clock_selectors.table_clock_list()
    if tableclocks.table_clocks_flag_due(table_clocks=found):
        found = clock_selectors.table_clock_list()
    at = wallclock.now()
    rows = [_row(clock_selectors.table_clock_view(clock, at=at)) for clock in found]
    online = [
        {
            "game": item["game"],
            "players": [
                {
                    "name": name,
                    "reserve": format_clock_ms(item["clock"]["reserves_ms"][index]),
                    "running": item["clock"]["running"] == index,
                    "flagged": item["clock"]["flagged"] == index,
                }
                for index, name in enumerate(
                    (item["game"].match.player1.name, item["game"].match.player2.name)
                )
            ],
        }
        for item in selectors.clocked_games_live(at=at)
    ]
    return render(
        request,
        "games/tableclocks/list.html",
        {
            "rows": rows,
            "online": online,
            "server_time": at,
            "live_topics": CLOCK_LIST_TOPIC,
        },
    )


def _row(view: dict[str, Any]) -> dict[str, Any]:
    """A clock's readings as text, for the list and the tablet."""
    turn, flagged, status = view["turn"], view["flagged"], view["status"]
    return {
        "view": view,
        "status_label": TableClock.Status(status).label,
        "delay_left": format_clock_ms(view["delay_left_ms"]),
        "flagged": flagged,
        "players": [
            {
                "index": i,
                "name": player["name"],
                "reserve": format_clock_ms(view["reserves_ms"][i]),
                "turn": turn == i,
                "delay_left": format_clock_ms(view["delay_left_ms"]) if turn == i else "",
                "running": view["running"] == i,
                "flagged": flagged == i,
                "low": turn == i and view["reserves_ms"][i] < LOW_RESERVE_MS,
            }
            for i, player in enumerate(view["players"])
        ],
    }


# ====================================================================== setting one up
class TableClockForm(forms.Form):
    label = forms.CharField(
        label=gettext_lazy("Label"),
        max_length=60,
        initial=gettext_lazy("Table 1"),
        help_text=gettext_lazy("Where the clock is, e.g. Table 7."),
    )
    player1_name = forms.CharField(label=gettext_lazy("Player 1"), max_length=80)
    player2_name = forms.CharField(label=gettext_lazy("Player 2"), max_length=80)
    preset = forms.ChoiceField(label=gettext_lazy("Clock"), choices=preset_menu, initial="seed002")
    match_length = forms.IntegerField(
        label=gettext_lazy("Match length"),
        min_value=0,
        max_value=tableclocks.MAX_MATCH_LENGTH,
        initial=7,
        help_text=gettext_lazy("Points; for the clocks that give time per point. 0: money play."),
    )
    delay_seconds = forms.IntegerField(
        label=gettext_lazy("Delay (seconds)"), min_value=0, max_value=600, required=False
    )
    reserve_seconds = forms.IntegerField(
        label=gettext_lazy("Reserve per player (seconds)"),
        min_value=0,
        max_value=24 * 3600,
        required=False,
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("preset") == "custom":
            for field in ("delay_seconds", "reserve_seconds"):
                if data.get(field) is None:
                    self.add_error(field, _("A custom clock needs this."))
        return data

    def clock(self) -> str | dict[str, int]:
        data = self.cleaned_data
        if data["preset"] != "custom":
            return str(data["preset"])
        return {
            "delay_ms": data["delay_seconds"] * 1000,
            "reserve_ms": data["reserve_seconds"] * 1000,
        }


@login_required
def table_clock_create_page(request: HttpRequest) -> HttpResponse:
    form = TableClockForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            clock = tableclocks.table_clock_create(
                label=form.cleaned_data["label"],
                player1_name=form.cleaned_data["player1_name"],
                player2_name=form.cleaned_data["player2_name"],
                clock=form.clock(),
                match_length=form.cleaned_data["match_length"],
                created_by=request.user,
            )
        except ApplicationError as exc:
            form.add_error(None, str(exc.detail))
        else:
            return redirect("tableclocks:detail", clock_id=clock.pk)
    return render(request, "games/tableclocks/new.html", {"form": form})


# ====================================================================== the tablet
@never_cache
def table_clock_page(request: HttpRequest, clock_id: int) -> HttpResponse:
    """The tablet: two big halves, the top one turned for the player across the table
    (player 2 by default; ``?swap=1`` turns player 1's half instead)."""
    try:
        clock = clock_selectors.table_clock_get(clock_id=clock_id)
    except ApplicationError as exc:
        return render(request, "games/tableclocks/missing.html", {"detail": exc.detail}, status=404)
    if tableclocks.table_clocks_flag_due(table_clocks=[clock]):
        clock = clock_selectors.table_clock_get(clock_id=clock_id)
    view = clock_selectors.table_clock_view(clock)
    swap = request.GET.get("swap") == "1"
    top, bottom = (0, 1) if swap else (1, 0)
    row = _row(view)
    halves = [
        {
            **row["players"][i],
            "position": position,
            "hint": _hint(view["status"], row["players"][i]),
            "tappable": view["status"] == TableClock.Status.READY or row["players"][i]["running"],
        }
        for position, i in (("top", top), ("bottom", bottom))
    ]
    status = view["status"]
    flagged = view["flagged"]
    names = [p["name"] for p in row["players"]]
    return render(
        request,
        "games/tableclocks/tablet.html",
        {
            "clock": clock,
            "view": view,
            "api_view": TableClockOutput(view).data,
            "halves": halves,
            "swap": swap,
            "can_operate": clock_selectors.table_clock_can_operate(clock=clock, user=request.user),
            "row": row,
            "status_text": _status_text(status, flagged, names),
            "live_topics": live.table_clock_topic(clock.pk),
            "low_reserve_ms": LOW_RESERVE_MS,
            "delay_text": format_clock_ms(view["delay_ms"]),
            "texts": {
                "hints": hint_texts(),
                "status": {
                    "ready": _status_text("ready", None, names),
                    "running": _status_text("running", None, names),
                    "paused": _status_text("paused", None, names),
                    "finished": _status_text("finished", None, names),
                    "flagged": [_status_text("flagged", i, names) for i in (0, 1)],
                },
                "offline": _("No connection to the server: the times shown may be late."),
                "error": _("The server refused this: %(detail)s"),
                "confirm_finish": _("Stop this clock for good?"),
            },
        },
    )


def _hint(status: str, player: dict[str, Any]) -> str:
    """The line under a half's time (``tableclock.js`` writes the same from
    ``hint_texts``)."""
    return str(hint_texts()[_hint_key(status, player)])


def _hint_key(status: str, player: dict[str, Any]) -> str:
    if player["flagged"]:
        return "flag"
    if status == TableClock.Status.RUNNING:
        return "tap" if player["running"] else "wait"
    return {"ready": "start", "paused": "paused", "finished": "finished"}.get(status, "none")


def hint_texts() -> dict[str, str]:
    return {
        "start": _("Tap if you play first"),
        "tap": _("Tap to end your turn"),
        "wait": _("Waiting"),
        "flag": _("Out of time"),
        "paused": _("Paused"),
        "finished": _("Finished"),
        "none": "",
    }


def _status_text(status: str, flagged: int | None, names: list[str]) -> str:
    if flagged is not None:
        return _("Time is up: %(name)s ran out of time.") % {"name": names[flagged]}
    return {
        TableClock.Status.READY: _("Ready: the player who plays first taps their half."),
        TableClock.Status.RUNNING: _("Tap your half when your turn is over."),
        TableClock.Status.PAUSED: _("Paused."),
        TableClock.Status.FINISHED: _("Finished."),
    }.get(TableClock.Status(status), "")


# ====================================================================== form posts
def _back(request: HttpRequest, clock_id: int) -> str:
    url = reverse("tableclocks:detail", kwargs={"clock_id": clock_id})
    if request.POST.get("swap") == "1":
        url += "?swap=1"
    return next_or(request, url)


def _int(request: HttpRequest, name: str) -> int | None:
    try:
        return int(request.POST.get(name, ""))
    except ValueError:
        return None


def _act(request: HttpRequest, clock_id: int, action: str) -> HttpResponseRedirect:
    version = _int(request, "version")
    player = _int(request, "player")
    try:
        if action in ("tap", "start") and player is None:
            messages.error(request, _("The form was incomplete: reload the page and try again."))
        elif action == "tap":
            if version is None:
                messages.error(
                    request, _("The form was incomplete: reload the page and try again.")
                )
            else:
                tableclocks.table_clock_tap(
                    clock_id=clock_id, player=player, expected_version=version, by=request.user
                )
        elif action == "start":
            tableclocks.table_clock_start(
                clock_id=clock_id, player=player, expected_version=version, by=request.user
            )
        else:
            service = {
                "pause": tableclocks.table_clock_pause,
                "resume": tableclocks.table_clock_resume,
                "finish": tableclocks.table_clock_finish,
            }[action]
            service(clock_id=clock_id, expected_version=version, by=request.user)
    except ApplicationError as exc:
        show_refusal(request, exc)
    return HttpResponseRedirect(_back(request, clock_id))


@login_required
@require_POST
def table_clock_start_page(request: HttpRequest, clock_id: int) -> HttpResponseRedirect:
    return _act(request, clock_id, "start")


@login_required
@require_POST
def table_clock_tap_page(request: HttpRequest, clock_id: int) -> HttpResponseRedirect:
    return _act(request, clock_id, "tap")


@login_required
@require_POST
def table_clock_pause_page(request: HttpRequest, clock_id: int) -> HttpResponseRedirect:
    return _act(request, clock_id, "pause")


@login_required
@require_POST
def table_clock_resume_page(request: HttpRequest, clock_id: int) -> HttpResponseRedirect:
    return _act(request, clock_id, "resume")


@login_required
@require_POST
def table_clock_finish_page(request: HttpRequest, clock_id: int) -> HttpResponseRedirect:
    return _act(request, clock_id, "finish")

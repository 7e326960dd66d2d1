"""Chouette pages: the session list and a new session; the live scoreboard (phone, and
``?wall=1`` for a big screen); the game entry from a phone with **Preview** before
**Save**; seat changes, undo and the end; the summary with the fewest transfers; a
player's totals per session.

Plain Django function views, like :mod:`tournaments.pages`. Every page works without
JavaScript: each action is a form post to the same services the API uses
(:mod:`chouette.services`), answered by a redirect (POST-redirect-GET) and, when a
service refuses, the error's human message through :mod:`django.contrib.messages`
(:func:`games.web.act_and_redirect`; the new session's form and the game entry are
rendered again with status 400 instead, keeping what was typed). The game entry's
**Preview** is the one post answered with a page: it saves nothing and shows the same
form again with every player's points (and **Add an extra**, which also saves nothing,
shows it again with one more extra row: no script needed). The scoreboard and its
wall follow the session live (``chouette:<id>``, :mod:`chouette.live`): a game saved
from one phone appears on every other screen without a reload.

Who sees what: anyone reads the list, a scoreboard, a summary and a player's totals.
The session's players with a login, the club's scorekeeper (``chouette.keep_score``)
and staff (:func:`services.may_write`) get the forms; anonymous users are sent to log in,
anyone else gets 403 and a page that says who may (the services check again). A new
session is started by one of its players, the scorekeeper or staff: anyone else sees the
refusal in the page, with the form as they filled it (403).

Join from a phone (issue 19): the scoreboard and the wall show the session's join code
and its QR code to the session's writers (those at the table; anyone may open a
scoreboard from anywhere); ``/chouette/join/`` takes the code from anyone (the code is
the capability: :mod:`services`), throttled, and ``/chouette/<id>/me/`` shows the
player's own running total live (a guest's phone is remembered by a signed cookie).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from decimal import Decimal
from functools import wraps
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from chouette import live, rolloff, rules, selectors
from chouette.messages import rule_message
from chouette.models import ChouetteOnlineGame, ChouetteSession
from chouette.services import common as common_writes
from chouette.services import games as games_writes
from chouette.services import joining as joining_writes
from chouette.services import proxies as proxies_writes
from chouette.services import seating as seating_writes
from chouette.services import sessions as sessions_writes
from chouette.services import summary as summary_writes
from chouette.throttles import join_allowed
from games.codes import clean_code, qr_svg
from games.errors import ApplicationError, ValidationFailed
from games.models import Player
from games.web import act_and_redirect, show_refusal

#: Sessions listed on the list page.
LIST_LIMIT = 50

FATE_LABELS = {
    "took": gettext_lazy("took"),
    "dropped": gettext_lazy("dropped"),
    "box_dropped": gettext_lazy("box dropped"),
    "settled": gettext_lazy("settled"),
}
#: Extra rows the game entry shows at most (the rules' bound).
MAX_EXTRA_ROWS = rules.MAX_EXTRAS
KIND_LABELS = {
    "single": gettext_lazy("single"),
    "gammon": gettext_lazy("gammon"),
    "backgammon": gettext_lazy("backgammon"),
}
ROLE_LABELS = {
    "box": gettext_lazy("box"),
    "partner": gettext_lazy("box partner"),
    "captain": gettext_lazy("captain"),
    "team": gettext_lazy("team"),
    "out": gettext_lazy("sitting out"),
}


# ====================================================================== access
def _form_error(request: HttpRequest, form: forms.Form) -> None:
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else ""
        for error in errors:
            messages.error(request, f"{label}: {error}" if label else error)


def writer_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """The view gets the session when the user may write to it; anonymous users are sent
    to log in, other users get 403 with a page that says who may."""

    @wraps(view)
    def wrapper(request: HttpRequest, session_id: int, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        session = get_object_or_404(ChouetteSession, pk=session_id)
        if not common_writes.may_write(request.user, session):
            return render(
                request,
                "chouette/refused.html",
                {"session": session, "refusal": common_writes.NOT_IN_SESSION},
                status=403,
            )
        return view(request, session, *args, **kwargs)

    return wrapper


def _scoreboard_url(session_id: int) -> str:
    return reverse("chouette:scoreboard", kwargs={"session_id": session_id})


def _digits(raw: str) -> bool:
    """Whether a posted value is a whole number Python reads: ASCII digits only (``'²'``
    is a digit to ``str.isdigit`` but not to ``int``), and not thousands of them."""
    return raw.isascii() and raw.isdigit() and len(raw) <= 18


def _version(request: HttpRequest) -> int | None:
    raw = request.POST.get("expected_version", "")
    return int(raw) if _digits(raw) else None


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
    sessions = ChouetteSession.objects.all()[:LIST_LIMIT]
    form = SessionForm() if request.user.is_authenticated else None
    return render(request, "chouette/session_list.html", {"sessions": sessions, "form": form})


def session_create(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if request.method != "POST":
        return redirect("chouette:session-list")
    form = SessionForm(request.POST)
    if not form.is_valid():
        _form_error(request, form)
        sessions = ChouetteSession.objects.all()[:LIST_LIMIT]
        return render(
            request, "chouette/session_list.html", {"sessions": sessions, "form": form}, status=400
        )
    data = form.cleaned_data
    chosen = list(data["players"])
    stake = data["stake_per_point"]
    try:
        session = sessions_writes.session_create(
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
        sessions = ChouetteSession.objects.all()[:LIST_LIMIT]
        return render(
            request,
            "chouette/session_list.html",
            {"sessions": sessions, "form": form},
            status=exc.status,
        )
    messages.success(request, _("The session has started. Good luck!"))
    return redirect(_scoreboard_url(session.pk))


# ====================================================================== scoreboard
def _board_or_404(session_id: int, last: int | None = selectors.LAST_GAMES) -> selectors.Scoreboard:
    try:
        return selectors.scoreboard(session_id=session_id, last=last)
    except ChouetteSession.DoesNotExist:
        raise Http404 from None


def _game_rows(board: selectors.Scoreboard) -> list[dict[str, Any]]:
    """The last games for the table: number, box, result, every player's points in the
    order they joined (:func:`_columns`): a column does not move when the seating does."""
    rows = []
    online = dict(
        ChouetteOnlineGame.objects.filter(
            event_id__in=[g.event.pk for g in board.games]
        ).values_list("event_id", "number")
    )
    for game in board.games:
        result = (
            _("%(winner)s wins a %(kind)s")
            % {
                "winner": _("box") if game.winner == "box" else _("team"),
                "kind": KIND_LABELS.get(game.kind or "", game.kind),
            }
            if game.winner
            else _("every cube dropped")
        )
        rows.append(
            {
                "game": game,
                "box": board.names.get(game.box, ""),
                "result": result,
                "notes": game_notes(game.members, game.extras, board.names),
                "online": online.get(game.event.pk),
                "corrected": game.event.corrects_id is not None,
                "cells": [game.points.get(p) for p in board.joined],
            }
        )
    return rows


def _signed(points: int) -> str:
    return f"{points:+d}"


def game_notes(
    members: list[dict[str, Any]], extras: list[dict[str, Any]], names: dict[int, str]
) -> list[str]:
    """A game's settlements and extras in words, for the games list: "Anna settled for
    +2", "Bob's extra from Cy at 2: +3 for Bob"."""
    notes = [
        _("%(name)s settled for %(points)s")
        % {"name": names.get(m["player"], ""), "points": _signed(m["settled"])}
        for m in members
        if m.get("fate") == "settled"
    ]
    for x in extras:
        taker = names.get(x["taker"], "")
        notes.append(
            _("%(taker)s's extra from %(giver)s at %(stake)d: %(points)s for %(taker)s")
            % {
                "taker": taker,
                "giver": names.get(x["giver"], ""),
                "stake": x["stake"],
                "points": _signed(x["points"]),
            }
        )
    return notes


def my_game_notes(game: selectors.GameLine, player: int, names: dict[int, str]) -> list[str]:
    """A game's settlement and extras of one player, from their side: "you settled for
    +2", "extra with Cy at 2: -3"."""
    notes = [
        _("you settled for %(points)s") % {"points": _signed(m["settled"])}
        for m in game.members
        if m.get("fate") == "settled" and m["player"] == player
    ]
    for x in game.extras:
        if player not in (x["taker"], x["giver"]):
            continue
        mine = x["points"] if x["taker"] == player else -x["points"]
        other = x["giver"] if x["taker"] == player else x["taker"]
        notes.append(
            _("extra with %(other)s at %(stake)d: %(points)s")
            % {"other": names.get(other, ""), "stake": x["stake"], "points": _signed(mine)}
        )
    return notes


def _columns(board: selectors.Scoreboard) -> list[str]:
    """The last games' player columns: the session's join order (issue 18: following the
    seating, a player's column moved after every game)."""
    return [board.names.get(p, str(p)) for p in board.joined]


def scoreboard(request: HttpRequest, session_id: int) -> HttpResponse:
    """The live scoreboard: the seating line with box, captain, partner and team marked,
    the last game's cubes, running totals and the last games; ``?wall=1`` for a big
    screen (no header, large type). Both follow the session live."""
    board = _board_or_404(session_id)
    wall = request.GET.get("wall") == "1"
    session = board.session
    can_write = common_writes.may_write(request.user, session)
    game_rows = _game_rows(board)
    context: dict[str, Any] = {
        "board": board,
        "session": session,
        "seats": [{"seat": s, "role_label": ROLE_LABELS[s.role]} for s in board.seats],
        "game_rows": game_rows,
        "columns": _columns(board),
        "fate_labels": FATE_LABELS,
        "can_write": can_write and session.is_open,
        "live_topics": live.session_topic(session.pk),
        "join": _join_context(request, session) if can_write and session.is_open else None,
        "online_game": session.online_games.filter(status="playing").first(),
    }
    context["rolloff"] = _rolloff(session, board.names)
    if not session.is_open:  # the end's totals and who pays whom (the wall says it big)
        context.update(_summary_context(summary_writes.session_summary(session_id=session.pk)))
    if wall:
        context["wall"] = True
        return render(request, "chouette/wall.html", context)
    # The confirmation names the game an undo takes back: the newest one counted.
    context["undo_game"] = game_rows[0] if game_rows else None
    context["can_reopen"] = sessions_writes.may_reopen(request.user, session)
    context["splits"] = list(session.splits.order_by("pk"))
    context["changes"] = [
        {"change": c, "before": ", ".join(c.before), "after": ", ".join(c.after)}
        for c in board.changes
    ]
    if can_write and session.is_open:
        # Only the player themself, the scorekeeper and staff name a proxy (R13 online).
        context["proxy_seats"] = [
            row
            for row in context["seats"]
            if proxies_writes.may_set_proxy(request.user, session, row["seat"].player_id)
        ]
        in_session = set(board.names)
        context["newcomers"] = Player.objects.filter(is_active=True).exclude(pk__in=in_session)
        context["split"] = _split_context(board)
        context["reseat"] = _reseat_context(board)
    return render(request, "chouette/scoreboard.html", context)


def _rolloff(session: ChouetteSession, names: dict[int, str]) -> list[dict[str, Any]]:
    """The session's roll-off as the table rolled it (issue 27), in the seating order it
    gave: each player's name, die and the re-rolls that broke a tie."""
    rolls = {int(r["player"]): list(r["rolls"]) for r in session.rolls if r.get("rolls")}
    if not rolls:
        return []
    try:
        order = [int(p) for p in rules.roll_off_order(rolls)]
    except rules.ChouetteError:  # stored before the rules checked it: as stored
        order = list(rolls)
    return [
        {"name": names.get(p, str(p)), "die": rolls[p][0], "rerolls": rolls[p][1:]} for p in order
    ]


def _reseat_context(board: selectors.Scoreboard) -> dict[str, Any]:
    """The form that sets box, captain and line by hand (issue 27): one select per seat,
    each offering every seated player, the present seating chosen."""
    seated = [s for s in board.seats if s.role != "out"]
    players = [{"id": s.player_id, "name": s.name} for s in seated]
    labels = [_("Box"), _("Captain")] + [
        _("Place %(number)d in the line") % {"number": i} for i in range(2, len(seated))
    ]
    return {
        "players": players,
        "rows": [
            {"label": label, "name": "box" if i == 0 else "line", "id": f"reseat-{i}", "chosen": s}
            for i, (label, s) in enumerate(zip(labels, seated, strict=True))
        ],
    }


@require_POST
@writer_required
def seating_set(request: HttpRequest, session: ChouetteSession) -> HttpResponse:
    """Box, captain and line set by hand (:func:`seating_writes.session_seating_set`): ``box``
    and ``line`` (the selects in order, the captain first)."""
    raw_box = request.POST.get("box", "")
    raw_line = request.POST.getlist("line")
    if not _digits(raw_box) or not raw_line or not all(_digits(r) for r in raw_line):
        messages.error(request, _("Choose a player."))
        return redirect(_scoreboard_url(session.pk))
    return act_and_redirect(
        request,
        lambda: seating_writes.session_seating_set(
            session_id=session.pk,
            by=request.user,
            box=int(raw_box),
            line=[int(r) for r in raw_line],
            expected_version=_version(request),
        ),
        to=_scoreboard_url(session.pk),
        success=_("The seating has been set."),
    )


def _split_context(board: selectors.Scoreboard) -> dict[str, Any] | None:
    """The split form (issue 19), when enough players are seated: the seated players,
    those who move by default checked, and a name for the new session."""
    seated = [s for s in board.seats if s.role != "out"]
    if len(seated) < board.profile.split_min_players:
        return None
    movers = set(rules.default_movers(board.seating))
    suffix = " (2)"
    return {
        "seats": [{"seat": s, "moves": s.player_id in movers} for s in seated],
        "name": board.session.name[: common_writes.MAX_NAME - len(suffix)] + suffix,
    }


def _join_url(request: HttpRequest, code: str) -> str:
    """The join page of a code, as an absolute URL (what the QR code opens)."""
    return request.build_absolute_uri(reverse("chouette:join-code", kwargs={"code": code}))


def _join_context(request: HttpRequest, session: ChouetteSession) -> dict[str, Any]:
    """The join code, its URL and QR code, for the scoreboard and the wall as the
    session's writers see them: the table (who may join with it: :mod:`services`)."""
    url = _join_url(request, session.join_code)
    return {"code": session.join_code, "url": url, "qr": qr_svg(url)}


@require_POST
@writer_required
def new_join_code(request: HttpRequest, session: ChouetteSession) -> HttpResponse:
    """A fresh join code (the old one got about): the old one stops working."""
    return act_and_redirect(
        request,
        lambda: joining_writes.session_new_join_code(session_id=session.pk, by=request.user),
        to=_scoreboard_url(session.pk),
        success=_("The session has a new join code: the old one no longer works."),
    )


@require_POST
@writer_required
def seat_change(request: HttpRequest, session: ChouetteSession) -> HttpResponse:
    action = request.POST.get("action", "")
    service = {
        "join": seating_writes.session_join,
        "sit_out": seating_writes.session_sit_out,
        "come_back": seating_writes.session_come_back,
    }.get(action)
    raw = request.POST.get("player", "")
    if service is None or not _digits(raw):
        messages.error(request, _("Choose a player."))
        return redirect(_scoreboard_url(session.pk))
    return act_and_redirect(
        request,
        lambda: service(
            session_id=session.pk,
            by=request.user,
            player_id=int(raw),
            expected_version=_version(request),
        ),
        to=_scoreboard_url(session.pk),
        success=_("The seating has changed."),
    )


@require_POST
@writer_required
def proxy_set(request: HttpRequest, session: ChouetteSession) -> HttpResponse:
    """A member away from the table names a proxy for their cube decisions, or clears it
    (an empty ``proxy``): :func:`proxies_writes.participant_proxy_set`."""
    raw_player = request.POST.get("player", "")
    raw_proxy = request.POST.get("proxy", "")
    if not _digits(raw_player) or (raw_proxy and not _digits(raw_proxy)):
        messages.error(request, _("Choose a player."))
        return redirect(_scoreboard_url(session.pk))
    proxy_id = int(raw_proxy) if raw_proxy else None
    return act_and_redirect(
        request,
        lambda: proxies_writes.participant_proxy_set(
            session_id=session.pk,
            by=request.user,
            player_id=int(raw_player),
            proxy_id=proxy_id,
            expected_version=_version(request),
        ),
        to=_scoreboard_url(session.pk),
        success=lambda row: (
            _("%(proxy)s takes the cube decisions of %(name)s.")
            % {"proxy": row.proxy.name, "name": row.player.name}
            if row.proxy_id is not None
            else _("%(name)s takes their own cube decisions again.") % {"name": row.player.name}
        ),
    )


@require_POST
@writer_required
def session_split(request: HttpRequest, session: ChouetteSession) -> HttpResponse:
    """Split a chouette of eight or more in two (:func:`sessions_writes.session_split`): the
    checked players start a new session (none checked: the default, every second player
    of the line); done, the new session's scoreboard."""
    raw = request.POST.getlist("move")
    if not all(_digits(r) for r in raw):
        messages.error(request, _("Choose a player."))
        return redirect(_scoreboard_url(session.pk))
    move = [int(r) for r in raw] or None
    return act_and_redirect(
        request,
        lambda: sessions_writes.session_split(
            session_id=session.pk,
            by=request.user,
            player_ids_to_move=move,
            name=request.POST.get("name", ""),
            expected_version=_version(request),
        ),
        to=_scoreboard_url(session.pk),
        success=lambda new: (
            _(
                "The chouette has split in two: “%(name)s” has started; its players sit out "
                "of “%(old)s”, where their totals stay."
            )
            % {"name": new.name, "old": session.name}
        ),
        then=lambda new: _scoreboard_url(new.pk),
    )


@require_POST
@writer_required
def join_guest(request: HttpRequest, session: ChouetteSession) -> HttpResponse:
    """A newcomer who is not yet a club member joins by name (a guest player made on the
    spot: :func:`seating_writes.session_join_guest`). Refused, the answer is a page with the
    name as typed and the reason; a name that is an existing player's offers to join
    that player instead (or, for the same name with other accents, to confirm that the
    newcomer is someone else)."""
    name = request.POST.get("name", "")
    namesake_ok = request.POST.get("namesake_ok") == "1"
    try:
        joined = seating_writes.session_join_guest(
            session_id=session.pk,
            by=request.user,
            name=name,
            namesake_ok=namesake_ok,
            expected_version=_version(request),
        )
    except ApplicationError as exc:
        session.refresh_from_db()
        offers: list[dict[str, Any]] = []
        if exc.code == "player_exists":
            offers = [{"id": exc.extra["player_id"], "name": exc.extra["name"]}]
        elif exc.code == "namesake_exists":
            in_session = set(session.participants.values_list("player_id", flat=True))
            offers = [p for p in exc.extra["players"] if p["id"] not in in_session]
        return render(
            request,
            "chouette/join_guest.html",
            {
                "session": session,
                "name": name,
                "error": exc.detail,
                "offers": offers,
                # Confirming "someone else" sends the name as the service cleaned it.
                "namesake_name": exc.extra["name"] if exc.code == "namesake_exists" else "",
            },
            status=exc.status,
        )
    messages.success(
        request,
        _("%(name)s joined at the end of the line, as a guest.") % {"name": joined.player.name},
    )
    return redirect(_scoreboard_url(session.pk))


@require_POST
@writer_required
def game_undo(request: HttpRequest, session: ChouetteSession) -> HttpResponse:
    return act_and_redirect(
        request,
        lambda: games_writes.game_undo_last(
            session_id=session.pk, by=request.user, expected_version=_version(request)
        ),
        to=_scoreboard_url(session.pk),
        success=_("The last game has been undone."),
    )


@require_POST
@writer_required
def session_end(request: HttpRequest, session: ChouetteSession) -> HttpResponse:
    return act_and_redirect(
        request,
        lambda: sessions_writes.session_end(
            session_id=session.pk, by=request.user, expected_version=_version(request)
        ),
        to=_scoreboard_url(session.pk),
        success=_("The session has ended."),
        then=lambda _ended: reverse("chouette:summary", kwargs={"session_id": session.pk}),
    )


@require_POST
@writer_required
def session_reopen(request: HttpRequest, session: ChouetteSession) -> HttpResponse:
    """Reopen a session ended by mistake (:func:`sessions_writes.session_reopen` says who may)."""
    return act_and_redirect(
        request,
        lambda: sessions_writes.session_reopen(
            session_id=session.pk, by=request.user, expected_version=_version(request)
        ),
        to=_scoreboard_url(session.pk),
        success=_("The session is open again: games can be entered."),
    )


# ====================================================================== game entry
#: Typed for a negative settlement by a phone's keyboard now and then.
MINUS_SIGN = "\u2212"


def _int(value: str, default: int | None = None) -> int | None:
    value = (value or "").strip()
    if not value:
        return default
    value = value.replace(MINUS_SIGN, "-")
    if not re.fullmatch(r"[-+]?\d+", value):  # a settlement may be typed "+2"
        raise ValidationFailed("invalid_data", rule_message("invalid_data"))
    return int(value)


def _entry_from_post(post: Any, seating: rules.Seating) -> dict[str, Any]:
    """The game entry the form describes (shape only: the rules judge it), played from
    ``seating`` (the present one; for an edit, the one the game was played from)."""
    box = _int(post.get("box", ""))
    captain = _int(post.get("captain", ""))
    partner = _int(post.get("partner", ""))
    seated = [int(p) for p in seating.seated]
    team = [p for p in seated if p not in (box, partner)]
    if captain in team:
        team.remove(captain)
        team.insert(0, captain)
    members = []
    for p in team:
        fate = post.get(f"fate-{p}", "took")
        member = {
            "player": p,
            "cube": _int(post.get(f"cube-{p}", ""), 1),
            "fate": fate,
            "beavers": _int(post.get(f"beavers-{p}", ""), 0),
            "raccoons": _int(post.get(f"raccoons-{p}", ""), 0),
        }
        if fate == "settled":  # the points field counts only for a member who settled
            member["settled"] = _int(post.get(f"settled-{p}", ""))
        members.append(member)
    winner = post.get("winner") or None
    entry: dict[str, Any] = {
        "box": box,
        "captain": captain,
        "partner": partner,
        "members": members,
        "winner": winner,
        "kind": (post.get("kind") or None) if winner else None,
        "initial_cube": _int(post.get("initial_cube", ""), 1),
    }
    extras = [
        {
            "taker": _int(row["taker"]),
            "giver": _int(row["giver"]),
            "stake": _int(row["stake"]),
            "price": _int(row["price"], 0),
        }
        for row in _extra_rows(post)
        if row["taker"] or row["giver"]  # a row left empty is no extra
    ]
    if extras:
        entry["extras"] = extras
    return entry


def _extra_count(post: Any) -> int:
    """How many extra rows the posted form had (``extra_rows``), within bounds."""
    raw = post.get("extra_rows", "") if post is not None else ""
    return min(int(raw), MAX_EXTRA_ROWS) if _digits(raw) else 0


def _extra_rows(post: Any) -> list[dict[str, str]]:
    """The extra rows as typed: ``extra-<i>-taker``, ``-giver``, ``-stake``, ``-price``."""
    return [
        {
            name: (post.get(f"extra-{i}-{name}", "") or "").strip()
            for name in ("taker", "giver", "stake", "price")
        }
        for i in range(_extra_count(post))
    ]


def _entry_values(data: dict[str, Any]) -> dict[str, Any]:
    """A stored entry as the form's values (the edit of a game, issue 27)."""
    values: dict[str, Any] = {
        "box": str(data["box"]),
        "captain": str(data["captain"]),
        "partner": "" if data.get("partner") is None else str(data["partner"]),
        "winner": data.get("winner") or "",
        "kind": data.get("kind") or "single",
        "initial_cube": str(data.get("initial_cube", 1)),
    }
    for m in data["members"]:
        p = m["player"]
        values[f"cube-{p}"] = str(m.get("cube", 1))
        values[f"fate-{p}"] = m.get("fate", "took")
        values[f"beavers-{p}"] = str(m.get("beavers", 0))
        values[f"raccoons-{p}"] = str(m.get("raccoons", 0))
        values[f"settled-{p}"] = "" if m.get("settled") is None else str(m["settled"])
    return values


def _entry_extra_rows(data: dict[str, Any]) -> list[dict[str, str]]:
    return [
        {name: str(x.get(name, "")) for name in ("taker", "giver", "stake", "price")}
        for x in data.get("extras", [])
    ]


def _form_values(
    profile: rules.Profile, seating: rules.Seating, post: Any | None
) -> dict[str, Any]:
    """The entry form's values: the posted ones, or the seating's (box, captain,
    partner), every cube at the initial value, taken."""
    if post is not None:
        return {k: post.get(k, "") for k in post}
    partner = seating.partner(profile)
    values: dict[str, Any] = {
        "box": str(seating.box),
        "captain": str(seating.captain),
        "partner": "" if partner is None else str(partner),
        "winner": "team",
        "kind": "single",
        "initial_cube": "1",
    }
    for p in seating.line:
        values[f"cube-{p}"] = "1"
        values[f"fate-{p}"] = "took"
        values[f"beavers-{p}"] = "0"
        values[f"raccoons-{p}"] = "0"
        values[f"settled-{p}"] = ""
    return values


def _cubes(profile: rules.Profile) -> list[int]:
    out, value = [], 1
    while value <= profile.max_cube:
        out.append(value)
        value *= 2
    return out


@writer_required
def game_entry(
    request: HttpRequest, session: ChouetteSession, number: int | None = None
) -> HttpResponse:
    """Enter a game from a phone: box, captain (and partner) prefilled from the seating,
    every member's cube and fate (and beavers, raccoons per profile), the winner and
    the result. **Preview** shows each player's points and saves nothing; **Save**
    records the game. Another box, captain or partner than the seating's chosen here
    sets the seating by hand first (``set_seating``: issue 27).

    ``number`` (``/games/<number>/edit/``, issue 27): the same form prefilled with game
    ``number`` as it was typed, played from the seating it was played from; **Save**
    corrects it (:func:`games_writes.game_edit`), **Preview** shows its corrected points."""
    board = _board_or_404(session.pk, last=1)
    if not session.is_open:
        messages.error(request, _("This chouette session has ended."))
        return redirect(_scoreboard_url(session.pk))
    seating = board.seating
    stored: dict[str, Any] | None = None
    if number is not None:
        games = games_writes.counted_game_events(session)
        if not 1 <= number <= len(games):
            raise Http404
        if ChouetteOnlineGame.objects.filter(event=games[number - 1]).exists():
            messages.error(
                request,
                _("This game was played online: its record is the table's, not typed in."),
            )
            return redirect(_scoreboard_url(session.pk))
        stored = games[number - 1].data
        seating = common_writes.ledger_of(session).rows[number - 1].seating_before
    preview = None
    status = 200
    post = request.POST if request.method == "POST" else None
    extra_rows = _extra_rows(post) if post is not None else []
    if post is None and stored is not None:
        extra_rows = _entry_extra_rows(stored)
    if post is not None and post.get("action") == "add_extra":
        # One more extra row: the form again as typed, nothing checked or saved.
        if len(extra_rows) < MAX_EXTRA_ROWS:
            extra_rows.append({"taker": "", "giver": "", "stake": "2", "price": "1"})
    elif post is not None:
        try:
            entry = _entry_from_post(post, seating)
            if post.get("action") == "save" and number is not None:
                games_writes.game_edit(
                    session_id=session.pk,
                    by=request.user,
                    number=number,
                    entry=entry,
                    expected_version=_version(request),
                )
                messages.success(
                    request, _("Game %(number)d has been corrected.") % {"number": number}
                )
                return redirect(_scoreboard_url(session.pk))
            if post.get("action") == "save":
                games_writes.game_record(
                    session_id=session.pk,
                    by=request.user,
                    entry=entry,
                    expected_version=_version(request),
                    set_seating=True,
                )
                messages.success(request, _("The game has been saved."))
                return redirect(_scoreboard_url(session.pk))
            if number is not None:
                found = games_writes.game_edit_preview(
                    session_id=session.pk, by=request.user, number=number, entry=entry
                )
            else:
                found = games_writes.game_preview(
                    session_id=session.pk, by=request.user, entry=entry, set_seating=True
                )
            preview = {
                "rows": [
                    {
                        "name": board.names.get(p, str(p)),
                        "points": v,
                        "total": found.totals_after.get(p, 0),
                    }
                    for p, v in found.points.items()
                ],
                "box": board.names.get(int(found.seating_after.box), ""),
                "captain": board.names.get(int(found.seating_after.captain), ""),
                "notes": _preview_notes(found, board),
            }
        except ApplicationError as exc:
            show_refusal(request, exc)
            status = 400
    profile = board.profile
    partner = seating.partner(profile)
    seated = [
        {
            "id": p,
            "name": board.names.get(int(p), str(p)),
            "role": "box"
            if i == 0
            else "captain"
            if i == 1
            else "partner"
            if p == partner
            else "team",
        }
        for i, p in enumerate(seating.seated)
    ]
    if post is None and stored is not None:
        values = _entry_values(stored)
    else:
        values = _form_values(profile, seating, post)
    members = [
        {
            **s,
            "cube": values.get(f"cube-{s['id']}", "1"),
            "fate": values.get(f"fate-{s['id']}", "took"),
            "beavers": values.get(f"beavers-{s['id']}", "0"),
            "raccoons": values.get(f"raccoons-{s['id']}", "0"),
            "settled": values.get(f"settled-{s['id']}", ""),
        }
        for s in seated
        if s["role"] != "box"
    ]
    context = {
        "board": board,
        "session": session,
        "seated": seated,
        "members": members,
        "values": values,
        "preview": preview,
        "profile": profile,
        "cubes": _cubes(profile),
        "initial_cubes": [c for c in _cubes(profile) if c <= profile.max_initial_cube],
        "fates": list(FATE_LABELS.items()),
        "kinds": list(KIND_LABELS.items()),
        "has_partner": profile.box_partner,
        "extra_rows": extra_rows,
        "can_add_extra": len(extra_rows) < MAX_EXTRA_ROWS,
        "number": number,
    }
    return render(request, "chouette/game_entry.html", context, status=status)


def _preview_notes(found: games_writes.GamePreview, board: selectors.Scoreboard) -> list[str]:
    """The previewed game's settlements and extras in words (as the games list says
    them once saved)."""
    data = found.entry.to_dict()
    return game_notes(data["members"], selectors.extras_of(data, board.profile), board.names)


# ====================================================================== join from a phone
#: The signed cookie that remembers, on a phone without a login, which guest joined
#: which session (``chouette-me-<session id>``: the player's id, signed with this salt),
#: so that the "my total" page shows theirs. A club night's length.
ME_COOKIE = "chouette-me-%d"
ME_SALT = "chouette.me"
ME_MAX_AGE = 24 * 3600


def _me_of(request: HttpRequest, session: ChouetteSession) -> int | None:
    """The player this visitor is in the session: their own with a login, else the
    guest the signed cookie remembers (if still in the session)."""
    member = Player.of_user(request.user)
    ids = set(session.participants.values_list("player_id", flat=True))
    if member is not None and member.pk in ids:
        return member.pk
    raw = request.get_signed_cookie(ME_COOKIE % session.pk, default=None, salt=ME_SALT)
    if raw is not None and _digits(raw) and int(raw) in ids:
        return int(raw)
    return None


def _me_url(session_id: int) -> str:
    return reverse("chouette:me", kwargs={"session_id": session_id})


def join(request: HttpRequest, code: str = "") -> HttpResponse:
    """Join a session's line from a phone with its code (``/chouette/join/<code>/``: its
    QR code; ``/chouette/join/?code=``: typed). Who may, and why: :mod:`services`
    (the code is the capability): a logged-in club member joins as themselves, anyone
    else as a guest by name. Opening a code and joining count against the
    ``chouette_join`` throttle; a refusal is the page again with what was typed, the
    reason, and the offers it allows (join an existing guest, or confirm that the
    newcomer is someone else). Joined, the phone goes to the player's running total
    (a guest's is remembered by a signed cookie)."""
    code = clean_code(code or request.POST.get("code") or request.GET.get("code", ""))[:20]
    member = Player.of_user(request.user)
    context: dict[str, Any] = {
        "code": code,
        "session": None,
        "member": member,
        "name": request.POST.get("name", "")[:200],
        "error": "",
        "offers": [],
        "namesake_name": "",
        "login_url": "",
    }
    status = 200
    if code:
        allowed, wait = join_allowed(request)
        if not allowed:
            context["error"] = _("Too many attempts: try again in %(seconds)d seconds.") % {
                "seconds": wait
            }
            return render(request, "chouette/join.html", context, status=429)
        try:
            session = joining_writes.session_by_join_code(code=code)
        except ApplicationError as exc:
            context["error"] = exc.detail
            return render(request, "chouette/join.html", context, status=exc.status)
        context["session"] = session
        context["login_url"] = (
            reverse("login") + "?next=" + reverse("chouette:join-code", kwargs={"code": code})
        )
        me = _me_of(request, session)
        if me is not None and request.method != "POST":
            return redirect(_me_url(session.pk))
        if request.method == "POST":
            guest_raw = request.POST.get("guest", "")
            try:
                joined = joining_writes.session_join_by_code(
                    code=code,
                    by=request.user,
                    name=context["name"],
                    namesake_ok=request.POST.get("namesake_ok") == "1",
                    guest_id=int(guest_raw) if _digits(guest_raw) else None,
                )
            except ApplicationError as exc:
                context.update(_join_offers(session, exc))
                status = exc.status
            else:
                messages.success(
                    request,
                    _("%(name)s joined at the end of the line.") % {"name": joined.player.name},
                )
                response = redirect(_me_url(session.pk))
                if member is None:
                    response.set_signed_cookie(
                        ME_COOKIE % session.pk,
                        str(joined.player_id),
                        salt=ME_SALT,
                        max_age=ME_MAX_AGE,
                        httponly=True,
                        samesite="Lax",
                        secure=request.is_secure(),
                    )
                return response
    return render(request, "chouette/join.html", context, status=status)


def _join_offers(session: ChouetteSession, exc: ApplicationError) -> dict[str, Any]:
    """A refused join as the page says it: the reason, and the players the phone may
    join as instead (guests without a login, not yet in the session)."""
    in_session = set(session.participants.values_list("player_id", flat=True))
    offers: list[dict[str, Any]] = []
    if exc.code == "player_exists":
        offers = [
            {"id": exc.extra["player_id"], "name": exc.extra["name"]},
        ]
        if exc.extra.get("has_login"):
            offers = []
    elif exc.code == "namesake_exists":
        offers = [p for p in exc.extra["players"] if not p.get("has_login")]
    return {
        "error": exc.detail,
        "offers": [p for p in offers if p["id"] not in in_session],
        "namesake_name": exc.extra["name"] if exc.code == "namesake_exists" else "",
    }


def me(request: HttpRequest, session_id: int) -> HttpResponse:
    """A player's own running total, following the session live: their total, where
    they sit now (box, captain, in the line, sitting out), their points in the last
    game. The player is the visitor's own (with a login) or the guest this phone joined
    as (the signed cookie); anyone else is offered the join page."""
    board = _board_or_404(session_id, last=1)
    session = board.session
    player_id = _me_of(request, session)
    seat = next((s for s in board.seats if s.player_id == player_id), None)
    last = board.games[0] if board.games else None
    seated = [s for s in board.seats if s.role != "out"]
    return render(
        request,
        "chouette/me.html",
        {
            "session": session,
            "board": board,
            "seat": seat,
            "role_label": ROLE_LABELS[seat.role] if seat else "",
            # In the line after the captain: 1 = the next captain, ...
            "place": seated.index(seat) - 1 if seat and seat.role == "team" else None,
            "last_points": last.points.get(player_id) if last and player_id else None,
            "last_notes": my_game_notes(last, player_id, board.names) if last and player_id else [],
            "last_number": last.number if last else None,
            "live_topics": live.session_topic(session.pk),
            "online_game": session.online_games.filter(status="playing").first(),
        },
    )


# ====================================================================== summary, player
def summary(request: HttpRequest, session_id: int) -> HttpResponse:
    """Net points, money at the stake and the fewest transfers that settle."""
    try:
        found = summary_writes.session_summary(session_id=session_id)
    except ApplicationError:
        raise Http404 from None
    return render(
        request,
        "chouette/summary.html",
        {
            "session": found.session,
            **_summary_context(found),
            "can_write": common_writes.may_write(request.user, found.session),
        },
    )


def _summary_context(found: summary_writes.Summary) -> dict[str, Any]:
    """Every player's net points and money, and who pays whom (the summary page, and
    the wall of an ended session)."""
    names = found.names
    return {
        "players": [
            {"name": names.get(int(p.player), ""), "points": p.points, "money": p.money}
            for p in found.summary.players
        ],
        "transfers": [
            {
                "payer": names.get(int(t.payer), ""),
                "payee": names.get(int(t.payee), ""),
                "points": t.points,
                "money": t.money,
            }
            for t in found.summary.transfers
        ],
        "currency": found.session.currency,
    }


def player_page(request: HttpRequest, player_id: int) -> HttpResponse:
    """Moved: the player page (games) shows chouette totals as one of its sections."""
    get_object_or_404(Player, pk=player_id)
    return redirect("games:player", player_id=player_id, permanent=True)

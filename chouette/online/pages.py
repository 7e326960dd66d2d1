"""The online chouette table's page: ``/chouette/<session id>/play/``.

One page for everybody at the table, on their own phone: the board, the dice, who must
act, every member's cube, the decisions waiting (with the time left), the moves; the
viewer's own buttons (roll, the play, double, take or drop, consent); the team's chat
and suggested plays for the team's members only. It follows the game live
(``chouette_game:<id>``, and ``chouette_team:<id>`` for the team): what anyone does
appears on every other phone without a reload, and a phone whose socket dropped gets
what it missed when it comes back (static/games/live.js).

Every action is a form post (``data-live-form``, so sent by fetch and answered with the
page) to :mod:`chouette.online.services`; a refusal comes back as the page's message.
The session's writers start a game, change the online settings between games, and may
abandon a game that can't be finished.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from django import forms
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    HttpResponseRedirect,
)
from django.shortcuts import render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from chouette import live as session_live
from chouette.models import (
    MAX_DECISION_SECONDS,
    ChouetteOnlineAction,
    ChouetteOnlineGame,
    ChouetteSession,
)
from chouette.online import alarms, live, selectors, services
from chouette.online.table import BOX, TEAM, Table
from chouette.online.texts import ANSWER_LABELS, SIDE_LABELS, defaults_text, settlement_text
from chouette.services.common import may_write
from chouette.stored import stake_of
from games.engine.errors import EngineError
from games.engine.notation import format_play
from games.engine.position import Position, position_id
from games.models import Player
from games.play.boardplay import (
    board_settings,
    last_play_moves,
    play_steps_data,
    position_on_the_way,
)
from games.play.boardsvg import render_board, view_from_position
from games.play.positiontext import PositionText, position_text
from games.play.presets import preset_choices
from games.web import act_and_redirect

#: How a decision is said on the page.
DECISION_LABELS = {
    "consent": gettext_lazy("agree to the team double"),
    "box_doubled": gettext_lazy("the box doubles"),
    "member_doubled": gettext_lazy("doubles the box"),
    "member_beavered": gettext_lazy("beavered the box's double"),
    "box_beavered": gettext_lazy("the box beavered"),
    "settlement_offered": gettext_lazy("the box offers a settlement"),
}
FATE_LABELS = {
    "in": gettext_lazy("in the game"),
    "dropped": gettext_lazy("dropped"),
    "box_dropped": gettext_lazy("the box dropped"),
    "settled": gettext_lazy("settled"),
}
ROLE_LABELS = {
    "box": gettext_lazy("box"),
    "partner": gettext_lazy("box partner"),
    "member": gettext_lazy("team"),
    "out": gettext_lazy("out of this game (watching)"),
    "spectator": gettext_lazy("watching"),
}
KIND_LABELS = {
    "single": gettext_lazy("single"),
    "gammon": gettext_lazy("gammon"),
    "backgammon": gettext_lazy("backgammon"),
}


def _url(session_id: int) -> str:
    return reverse("chouette:play", kwargs={"session_id": session_id})


class OnlineSettingsForm(forms.Form):
    decision_seconds = forms.IntegerField(
        label=gettext_lazy("Seconds for a cube decision"),
        min_value=0,
        max_value=MAX_DECISION_SECONDS,
        help_text=gettext_lazy("0: no limit."),
    )
    decision_default = forms.ChoiceField(
        label=gettext_lazy("A double not answered in time is"),
        choices=[("take", gettext_lazy("taken")), ("drop", gettext_lazy("dropped"))],
    )
    clock_preset = forms.ChoiceField(
        label=gettext_lazy("Move clock of box and captain (R12)"), required=False
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["clock_preset"].choices = [("", _("no clock")), *preset_choices()]


def _board_svg(
    table: Table,
    viewer_side: int,
    home: str,
    number: int,
    *,
    position: Position | None = None,
    last_play: tuple[int, str] | None = None,
) -> str:
    """The table's board seen from ``viewer_side`` with ``position`` on it (the board's
    own, or one on the way through the roll being played) and the other side's last play
    (``(side, notation)``) marked."""
    board = table.board
    last_moves: list[tuple[int, int]] = []
    if last_play is not None and last_play[0] != viewer_side:
        last_moves = last_play_moves(last_play[1])
    owner: Literal["mover", "opponent"] | None = None
    value = 1
    if table.classic and table.in_members:
        cube = table.cube_of(table.in_members[0])
        value = cube.value
        side = None if cube.owner is None else (BOX if cube.owner == "box" else TEAM)
        if side is not None:
            owner = "mover" if side == board.turn else "opponent"
    elif table.initial_cube > 1:
        value = table.initial_cube
    viewer_name = _("the box") if viewer_side == BOX else _("the team")
    return render_board(
        view_from_position(
            board.position if position is None else position,
            viewer_is_mover=board.turn == viewer_side,
            dice=board.dice,
            cube_value=value,
            cube_owner=owner,
            home="left" if home == "left" else "right",
            title=_("Board of online game %(number)d, %(side)s at the bottom")
            % {"number": number, "side": viewer_name},
            last_move=last_moves,
            last_move_by_mover=last_play is not None and last_play[0] == board.turn,
            pip_label=_("pips"),
        )
    )


def _last_play(table: Table, game: ChouetteOnlineGame) -> tuple[int, str] | None:
    """The side (box or team) and notation of the game's last play, or ``None``."""
    row = ChouetteOnlineAction.objects.filter(game=game, kind="play").order_by("-seq").first()
    if row is None:
        return None
    side = BOX if row.actor_id in (table.box, table.partner) else TEAM
    return side, row.data.get("play", "")


def _suggestions(game: ChouetteOnlineGame, table: Table) -> list[dict[str, Any]]:
    """The team's suggested plays for the dice on the board, the latest of each member
    (oldest first), with the moves the board script draws; none when the team is not
    to play."""
    board = table.board
    if board.phase != "move" or board.turn != TEAM:
        return []
    rolled = (
        ChouetteOnlineAction.objects.filter(game=game, kind="roll")
        .order_by("-seq")
        .values_list("created_at", flat=True)
        .first()
    )
    found: dict[int, dict[str, Any]] = {}
    rows = game.team_messages.exclude(play="").select_related("author").order_by("id")
    for m in rows if rolled is None else rows.filter(created_at__gte=rolled):
        found.pop(m.author_id, None)  # the latest last
        found[m.author_id] = {"name": m.author.name, "play": m.play}
    shown = list(found.values())
    for i, s in enumerate(shown):
        s["index"] = i % 4
        s["moves"] = last_play_moves(s["play"])
    return shown


@never_cache
@require_GET
def board_page(request: HttpRequest, game_id: int) -> HttpResponse:
    """The table's board as an SVG image with ``?position=`` (a Position ID) on it: the
    board's own or one on the way through the roll being played (the board script shows
    these while the mover arranges a play). Read-only: what the page shows anyone."""
    game = _game_or_404(game_id)
    table = Table.from_dict(game.table)
    try:
        position = position_on_the_way(table.board, request.GET.get("position", ""))
    except EngineError:
        return HttpResponseBadRequest(_("That is not a Position ID."), content_type="text/plain")
    if position is None:
        return HttpResponseBadRequest(
            _("That position is not on the way through this turn."), content_type="text/plain"
        )
    me = Player.of_user(request.user)
    view = selectors.online_game_view(game, viewer=None if me is None else me.pk)
    viewer_side = BOX if view["viewer_role"] in ("box", "partner") else TEAM
    home = request.GET.get("home") or (me.board_orientation if me else "right")
    svg = _board_svg(
        table,
        viewer_side,
        home,
        game.number,
        position=position,
        last_play=_last_play(table, game),
    )
    return HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")


def _announcement(view: dict[str, Any], moves: list[dict[str, Any]], me: int | None) -> str:
    """What the table's live region says after a live update (issue 27; read out by a
    screen reader, static/games/live.js): the last action by someone else (the mover's
    play), then who is to act."""
    said: list[str] = []
    if moves and moves[-1]["actor"] != me:
        last = moves[-1]
        who = f"{last['actor_name']} " if last["actor_name"] else ""
        said.append(f"{who}{last['text']}.".replace("..", "."))
    if view["result"] is not None or view["status"] != "playing":
        return " ".join(said)
    deciders = [d for d in view["decisions"] if d["decider"] is not None]
    if deciders:
        if any(d["decider"] == me for d in deciders):
            said.append(_("Your decision."))
        else:
            waiting = ", ".join(dict.fromkeys(d["decider_name"] for d in deciders))
            said.append(_("Waiting for %(name)s.") % {"name": waiting})
    elif view["mover"] is not None:
        if view["mover"] == me:
            said.append(_("Your turn."))
        else:
            said.append(_("Waiting for %(name)s.") % {"name": view["mover_name"]})
    return " ".join(said)


def _your_turn(view: dict[str, Any], me: int | None) -> bool:
    """The viewer is to move, or to answer a decision: their controls get the focus."""
    if me is None or view["status"] != "playing":
        return False
    return view["mover"] == me or any(d["decider"] == me for d in view["decisions"])


def _position_text(table: Table, view: dict[str, Any]) -> PositionText:
    """The table's position as text (games.play.positiontext): the box against the team,
    read from the viewer's side (a spectator: the box's)."""
    board = table.board
    position = board.board_of(BOX)
    value = table.initial_cube
    owner = None
    if table.classic and table.in_members:
        cube = table.cube_of(table.in_members[0])
        value = cube.value
        owner = None if cube.owner is None else (BOX if cube.owner == "box" else TEAM)
    role = view["viewer_role"]
    viewer = BOX if role in ("box", "partner") else TEAM if role == "member" else None
    return position_text(
        boards=[position.mover, position.opponent],
        names=[_("%(name)s (box)") % {"name": view["box"]["name"]}, _("the team")],
        viewer=viewer,
        borne_off=[position.mover_off, position.opponent_off],
        unentered=[position.mover_unentered, position.opponent_unentered],
        cube_value=value,
        cube_owner=owner,
        dice=board.dice,
    )


def play_page(request: HttpRequest, session_id: int) -> HttpResponse:
    """The table (see the module docstring)."""
    session = ChouetteSession.objects.filter(pk=session_id).first()
    if session is None:
        raise Http404
    wanted = request.GET.get("game", "")
    if wanted:  # an earlier game of the session (the scoreboard links each one here)
        game = (
            session.online_games.select_related("event").filter(number=int(wanted)).first()
            if wanted.isascii() and wanted.isdigit() and len(wanted) < 10
            else None
        )
        if game is None:
            raise Http404
    else:
        game = selectors.session_current_game(session)
    if game is not None and game.is_playing and game.alarm_at is not None:
        alarms.online_game_alarm(game_id=game.pk)  # what is due happens before it shows
        game.refresh_from_db()
    me = Player.of_user(request.user)
    can_write = may_write(request.user, session) and session.is_open
    context: dict[str, Any] = {
        "session": session,
        "game": game,
        "can_write": can_write,
        "me": me,
        "live_topics": session_live.session_topic(session.pk),
    }
    if game is not None:
        view = selectors.online_game_view(game, viewer=None if me is None else me.pk)
        table = Table.from_dict(game.table)
        names = {m["player"]: m["name"] for m in view["members"]}
        names[view["box"]["player"]] = view["box"]["name"]
        if view["partner"]:
            names[view["partner"]["player"]] = view["partner"]["name"]
        viewer_side = BOX if view["viewer_role"] in ("box", "partner") else TEAM
        home = request.GET.get("home") or (me.board_orientation if me else "right")
        _label(view, table, stake_of(session))
        moves = selectors.online_moves(game)
        context.update(
            {
                "view": view,
                "names": names,
                "board_svg": mark_safe(  # noqa: S308 - built by render_board, text escaped
                    _board_svg(
                        table, viewer_side, home, game.number, last_play=_last_play(table, game)
                    )
                ),
                "board_settings": board_settings(me),
                # The mover's ways to arrange the play on the board (static/games/board.js).
                "play_steps": play_steps_data(table.board)
                if game.is_playing and (view["actions"] or {}).get("play")
                else None,
                "suggestions": _suggestions(game, table) if view["in_team"] else [],
                "home": "left" if home == "left" else "right",
                "moves": moves,
                "role_label": ROLE_LABELS[view["viewer_role"]],
                "decision_labels": DECISION_LABELS,
                "answer_labels": ANSWER_LABELS,
                "fate_labels": FATE_LABELS,
                "kind_labels": KIND_LABELS,
                "team_messages": selectors.team_messages(game) if view["in_team"] else None,
                "game_topic": live.game_topic(game.pk),
                # Issue 27: the live region's words, the focus on your turn, the
                # position as text.
                "announce": _announcement(view, moves, None if me is None else me.pk),
                "your_turn": _your_turn(view, None if me is None else me.pk),
                "position_text": _position_text(table, view),
            }
        )
        if view["in_team"]:
            context["live_topics"] += " " + live.team_topic(game.pk)
    if can_write and (game is None or not game.is_playing):
        context["settings_form"] = OnlineSettingsForm(
            initial={
                "decision_seconds": session.decision_seconds,
                "decision_default": session.decision_default,
                "clock_preset": services.clock_preset_of(session),
            }
        )
    return render(request, "chouette/play.html", context)


def _mmss(ms: int | None) -> str:
    if ms is None:
        return ""
    seconds = max(0, ms) // 1000
    return f"{seconds // 60}:{seconds % 60:02d}"


def _question(d: dict[str, Any], view: dict[str, Any], stake: Any) -> str:
    box = view["box"]["name"]
    offered = d.get("offered", 0)
    if d["kind"] == "consent":
        return _("The team proposes to double the box to %(cube)d: do you agree?") % {
            "cube": offered
        }
    if d["kind"] == "box_doubled":
        return _("%(box)s doubles %(member)s to %(cube)d: take or drop?") % {
            "box": box,
            "member": d["member_name"],
            "cube": offered,
        }
    if d["kind"] == "member_doubled" and view["profile"] == "classic":
        names = {m["player"]: m["name"] for m in view["members"]}
        return _(
            "The team (%(members)s) doubles you to %(cube)d: take or drop? One answer for all."
        ) % {
            "members": ", ".join(names.get(m, "?") for m in d.get("members", [d["member"]])),
            "cube": offered,
        }
    if d["kind"] == "member_doubled":
        return _("%(member)s doubles you to %(cube)d: take or drop?") % {
            "member": d["member_name"],
            "cube": offered,
        }
    if d["kind"] == "settlement_offered":
        who_pays = settlement_text(
            offered,
            box=box,
            member=d["member_name"],
            stake=stake,
            you=not d.get("as_player"),
        )
        if d.get("as_player"):
            return _(
                "%(box)s (box) offers to let %(member)s leave this game: %(who_pays)s. Accept?"
            ) % {
                "box": box,
                "member": d["member_name"],
                "who_pays": who_pays,
            }
        return _("%(box)s (box) offers to let you leave this game: %(who_pays)s. Accept?") % {
            "box": box,
            "who_pays": who_pays,
        }
    return _("%(member)s's cube is beavered: raccoon?") % {"member": d["member_name"]}


def _label(view: dict[str, Any], table: Table, stake: Any = None) -> None:
    """The words the template shows, computed once (a template has no dictionary
    lookup by a variable)."""
    names = {m["player"]: m["name"] for m in view["members"]}
    names[view["box"]["player"]] = view["box"]["name"]
    for m in view["members"]:
        m["fate_label"] = FATE_LABELS[m["fate"]]
        pending = m["pending"]
        if pending == "consent" and m["consented"]:
            m["pending_label"] = _("agreed")
        elif pending is not None:
            m["pending_label"] = DECISION_LABELS[pending]
    for d in view["decisions"]:
        if d["kind"] == "member_doubled" and view["profile"] == "classic":
            d["about"] = _("the team's double")
        elif d["decider"] != d["member"]:
            d["about"] = d["member_name"]
    offered = {d["member"]: d["offered"] for d in view["decisions"]}
    actions = view["actions"]
    decisions = [*actions.get("decisions", []), *actions.get("proxy_decisions", [])]
    for d in decisions:
        d["offered"] = offered.get(d["member"], 0)
        d["question"] = _question(d, view, stake)
        if d.get("as_player") and d["kind"] != "settlement_offered":
            d["question"] = _("For %(member)s (you are their proxy): %(question)s") % {
                "member": d["member_name"],
                "question": d["question"],
            }
        d["answer_choices"] = [(a, ANSWER_LABELS[a]) for a in d["answers"]]
    actions["all_decisions"] = decisions
    if view["decision_ms_left"] is not None:
        view["decision_seconds_left"] = (view["decision_ms_left"] + 999) // 1000
        view["default_label"] = window_text(view["window"], names, classic=table.classic)
    if view["result"]:
        view["result"]["kind_label"] = KIND_LABELS.get(view["result"]["kind"] or "", "")
    clock = view["clock"]
    if clock:
        clock["sides"] = [
            {
                "side": side,
                "label": label,
                "running": clock["running"] == side,
                "reserve_ms": clock["reserves_ms"][side],
                "text": _mmss(clock["reserves_ms"][side]),
                "delay_left_ms": clock["delay_left_ms"] or 0,
                "delay_text": _mmss(clock["delay_left_ms"]),
            }
            for side, label in (("box", _("box")), ("team", _("team")))
        ]
    if view["unmanned"]:
        view["unmanned_label"] = (
            _("Nobody at the table may move for the box (away).")
            if view["unmanned"] == "box"
            else _("Nobody of the team still in this game is at the table.")
        )
    board = table.board
    if view["in_team"] and board.phase == "move" and board.turn == TEAM:
        view["team_plays"] = [
            {"position_id": position_id(p.result), "play": format_play(p)}
            for p in board.legal_plays()
        ]


def window_text(window: dict[str, Any] | None, names: dict[int, str], *, classic: bool) -> str:
    """What the end of the present window decides, as the countdown says it: the same
    answers :meth:`Table.defaults_applied` will give (so the text and what is applied
    can't differ), or the side that forfeits."""
    if not window:
        return ""
    if window["kind"] == "decision":
        return _("by default %(what)s") % {
            "what": defaults_text(window["defaults"], names, classic=classic)
        }
    side = SIDE_LABELS.get(window["side"] or "", "")
    return _("%(side)s forfeits the game (a gammon)") % {"side": side}


def _version(request: HttpRequest) -> int | None:
    raw = request.POST.get("expected_version", "")
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 18 else None


def _int_or_none(raw: str | None) -> Any:
    """A whole number typed in a form, ``None`` when left empty, else the text itself:
    the service refuses what is not a whole number with its field's code."""
    if raw is None or raw.strip() == "":
        return None
    try:
        return int(raw.strip().replace("\u2212", "-"))
    except ValueError:
        return raw


def _game_or_404(game_id: int) -> ChouetteOnlineGame:
    game = ChouetteOnlineGame.objects.filter(pk=game_id).only("session_id").first()
    if game is None:
        raise Http404
    return game


def _post(request: HttpRequest, url: str, action: Callable[[], object]) -> HttpResponse:
    """A post of the table (one service call), answered with the table again: a refusal
    shows as the page's message (games.web.act_and_redirect); a visitor logs in first."""
    if not request.user.is_authenticated:
        return redirect_to_login(url)
    return act_and_redirect(request, action, to=url)


def _game_url(game_id: int) -> str:
    return _url(_game_or_404(game_id).session_id)


@require_POST
def start(request: HttpRequest, session_id: int) -> HttpResponse:
    return _post(
        request,
        _url(session_id),
        lambda: services.online_game_start(
            session_id=session_id, by=request.user, expected_version=_version(request)
        ),
    )


@require_POST
def settings_update(request: HttpRequest, session_id: int) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(_url(session_id))
    form = OnlineSettingsForm(request.POST)
    if not form.is_valid():
        for field, errors in form.errors.items():
            label = form.fields[field].label if field in form.fields else ""
            for error in errors:
                messages.error(request, f"{label}: {error}")
        return HttpResponseRedirect(_url(session_id))
    return act_and_redirect(
        request,
        lambda: services.online_settings_update(
            session_id=session_id,
            by=request.user,
            decision_seconds=form.cleaned_data["decision_seconds"],
            decision_default=form.cleaned_data["decision_default"],
            clock_preset=form.cleaned_data["clock_preset"],
            expected_version=_version(request),
        ),
        to=_url(session_id),
        success=_("The online settings are saved."),
    )


@require_POST
def act(request: HttpRequest, game_id: int) -> HttpResponse:
    post = request.POST
    members = post.getlist("members")
    return _post(
        request,
        _game_url(game_id),
        lambda: services.online_game_act(
            game_id=game_id,
            by=request.user,
            action=post.get("action", ""),
            expected_version=_version(request),
            position_id=post.get("position_id") or None,
            member=_int_or_none(post.get("member")),
            members=[_int_or_none(m) for m in members] if members else None,
            answer=post.get("answer") or None,
            value=_int_or_none(post.get("value")),
            as_player=_int_or_none(post.get("as_player")),
            points=_int_or_none(post.get("points")),
            other=_int_or_none(post.get("other")),
            backs=post.get("backs") or None,
            stake=_int_or_none(post.get("stake")),
            price=_int_or_none(post.get("price")),
            offer=_int_or_none(post.get("offer")),
        ),
    )


@require_POST
def abandon(request: HttpRequest, game_id: int) -> HttpResponse:
    return _post(
        request,
        _game_url(game_id),
        lambda: services.online_game_abandon(
            game_id=game_id, by=request.user, expected_version=_version(request)
        ),
    )


@require_POST
def team_message(request: HttpRequest, game_id: int) -> HttpResponse:
    return _post(
        request,
        _game_url(game_id),
        lambda: services.online_team_message_post(
            game_id=game_id,
            by=request.user,
            text=request.POST.get("text", ""),
            play=request.POST.get("play", ""),
        ),
    )

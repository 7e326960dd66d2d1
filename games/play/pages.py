"""Match-play pages: the lobby, the match page (board, score, move list, controls) and
the form posts that carry a player's action to the same services the API uses.

Every page works without JavaScript: the controls are plain forms, a play is picked from
a list of the legal plays, and a page waiting for the opponent refreshes itself. With
JavaScript (``static/games/board.js``) the player to move may also build the play on
the board, undo and start again before submitting it (R14): the page
carries the ways to do so (:mod:`games.engine.steps`) and the script fetches the board
after each step from :func:`game_board_page`.
"""

from __future__ import annotations

from typing import Any, Literal

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    HttpResponseRedirect,
)
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from games.engine.actions import state_from_dict
from games.engine.errors import EngineError
from games.engine.game import GameState
from games.engine.position import Position
from games.errors import ApplicationError, NotFound, ValidationFailed
from games.models import BOT_LEVELS, Game, Match, MatchInvitation, Player
from games.play import (
    alarms,
    analysiswords,
    interchange,
    invitations,
    selectors,
    services,
    statements,
)
from games.play.boardplay import (
    board_settings,
    last_play_moves,
    play_steps_data,
    position_on_the_way,
)
from games.play.boardsvg import render_board, view_from_position
from games.play.interchange import match_export_mat
from games.play.positiontext import PositionText, position_text
from games.play.presets import preset_choices
from games.players import selectors as players_selectors
from games.ratings import selectors as ratings_selectors
from games.web import act_and_redirect, show_refusal

#: A .mat file of a long match is a few hundred kilobytes at most.
#: The longest pasted text given back in the form after a refusal.
_KEEP_TEXT = interchange.MAX_MAT_BYTES
#: What a game was won as (R9), as the games table and the resignation list say it.
_RESULT_KINDS = {
    "single": gettext_lazy("single game"),
    "gammon": gettext_lazy("gammon"),
    "backgammon": gettext_lazy("backgammon"),
}


def _player(request: HttpRequest) -> Player | None:
    return getattr(request.user, "player", None) if request.user.is_authenticated else None


def lobby(request: HttpRequest) -> HttpResponse:
    """Live, waiting and finished matches, newest first; for a player, the invitations
    they sent and received that wait for an answer (the page follows them live: each
    one tells both players' ``user:<id>`` topic, which every page of theirs follows),
    and the form that invites an opponent, who must be able to log in."""
    return _lobby(request)


#: The new-match form's fields, given back as typed when the invitation is refused.
_MATCH_FIELDS = (
    "opponent",
    "length",
    "variant",
    "clock",
    "timeout_claim",
    "timeout_result",
    "jacoby",
    "beavers",
    "bot_level",
)


def _lobby(
    request: HttpRequest,
    *,
    typed: dict[str, str] | None = None,
    refused: Any = None,
    arrange_typed: dict[str, str] | None = None,
    arrange_refused: Any = None,
) -> HttpResponse:
    me = Player.of_user(request.user)
    context: dict[str, Any] = {
        "playing": selectors.match_list(status=Match.Status.PLAYING, limit=50),
        "waiting": selectors.match_list(status=Match.Status.WAITING, limit=50),
        "finished": selectors.match_list(status=Match.Status.FINISHED, limit=50),
        "me": me,
        "clock_presets": preset_choices(),
        "typed": typed or {"length": "5", "timeout_claim": "claim", "bot_level": "intermediate"},
        "refused": refused,
    }
    if me is not None:
        context["opponents"] = [
            p for p in players_selectors.player_list_with_login() if p.pk != me.pk
        ]
        # The practice opponent (games.practice), listed last (a person stays the
        # default); when it cannot play here the form says why and its choice is disabled.
        context["bot"], context["bot_unavailable"] = invitations.bot_offered()
        context["bot_levels"] = BOT_LEVELS
        pending = selectors.invitation_list(player=me, status=MatchInvitation.Status.PENDING)
        context["received"] = [i for i in pending if i.invitee_id == me.pk]
        context["sent"] = [i for i in pending if i.inviter_id == me.pk]
    if request.user.is_staff:
        # Staff arrange matches between two players (match_arrange_page), with or
        # without a player of their own.
        context["arrange_players"] = [
            p for p in players_selectors.player_list_with_login() if not p.bot
        ]
        context["arrange_typed"] = arrange_typed or {"length": "5", "start": "1"}
        context["arrange_refused"] = arrange_refused
    refusal = refused or arrange_refused
    return render(
        request, "games/lobby.html", context, status=200 if refusal is None else refusal.status
    )


def _invitation_of(match: Match) -> MatchInvitation | None:
    """The match's invitation, read with the match (selectors.match_get); ``None`` when
    nobody was invited to it."""
    try:
        return match.invitation
    except MatchInvitation.DoesNotExist:
        return None


def _move_list(game: Game, names: tuple[str, str]) -> list[dict[str, Any]]:
    """The game's log as lines a person reads: who, dice, the play or the cube action."""
    lines: list[dict[str, Any]] = []
    labels = {
        "double": _("doubles"),
        "take": _("takes"),
        "drop": _("drops"),
        "beaver": _("beavers"),
        "resign": _("offers to resign"),
        "accept_resignation": _("accepts the resignation"),
        "decline_resignation": _("declines the resignation"),
        "choose_double": _("chooses a double"),
        "timeout": _("runs out of time"),
        "claim_timeout": _("claims the win on time"),
    }
    kinds = _RESULT_KINDS
    pending_dice: dict[int, list[int]] = {}
    for action in game.actions.order_by("seq"):
        data = action.data
        if action.kind == "opening_roll":
            d0, d1 = data["dice"]
            if d0 != d1:
                pending_dice[0 if d0 > d1 else 1] = [max(d0, d1), min(d0, d1)]
            continue
        who = names[action.player_index] if action.player_index is not None else ""
        if action.kind == "roll":
            pending_dice[action.player_index] = data["dice"]
            continue
        if action.kind == "play":
            dice = pending_dice.pop(action.player_index, None)
            lines.append(
                {
                    "who": who,
                    "player": action.player_index,
                    "by": action.player_index,
                    "dice": "".join(map(str, sorted(dice or [], reverse=True))),
                    "text": data.get("play", ""),
                }
            )
            continue
        text = labels.get(action.kind, action.kind)
        if action.kind == "resign" and data.get("kind") in kinds:
            text = f"{text} ({kinds[data['kind']]})"
        lines.append({"who": who, "by": action.player_index, "dice": "", "text": text})
    return lines


def _announcement(
    *,
    moves: list[dict[str, Any]],
    view: dict[str, Any],
    names: tuple[str, str],
    my_index: int | None,
    state: GameState,
) -> str:
    """What the page's live region says after a live update (issue 27; a screen reader
    reads it out, static/games/live.js): the opponent's last move in notation (a
    spectator: anyone's), then whose turn it is, or the game's result."""
    said: list[str] = []
    if moves and (my_index is None or moves[-1]["by"] != my_index):
        line = moves[-1]
        if line["dice"]:
            said.append(
                _("%(name)s played %(dice)s: %(play)s.")
                % {"name": line["who"], "dice": line["dice"], "play": line["text"] or "-"}
            )
        else:
            said.append(f"{line['who']} {line['text']}.")
    result = view["result"]
    if result is not None:
        said.append(
            ngettext(
                "%(name)s won %(points)s point.",
                "%(name)s won %(points)s points.",
                result["points"],
            )
            % {"name": names[result["winner"]], "points": result["points"]}
        )
    else:
        # The same words as the panel's (games.play.statements): "Your turn.", "Waiting
        # for Anna.", a visitor's "Anna to play.".
        turn = statements.turn_line(state, names, my_index)
        if turn is not None:
            said.append(turn[0])
    return " ".join(said)


def _position_text(
    *, state: GameState, names: tuple[str, str], my_index: int | None
) -> PositionText:
    """The position as text for the match page (games.play.positiontext)."""
    board = state.board_of(0)
    return position_text(
        boards=[board.mover, board.opponent],
        names=names,
        viewer=my_index,
        borne_off=[board.mover_off, board.opponent_off],
        unentered=[board.mover_unentered, board.opponent_unentered],
        cube_value=state.cube,
        cube_owner=state.cube_owner,
        dice=state.dice,
    )


def _viewer(request: HttpRequest, match: Match) -> tuple[Player | None, int | None, str]:
    """The viewer, their player index in ``match`` (``None`` for a spectator) and the
    side their home board is drawn on (``?home=`` first, then their preference)."""
    me = Player.of_user(request.user)
    my_index = None if me is None else match.player_index(me.pk)
    home = request.GET.get("home") or (me.board_orientation if me else "right")
    return me, my_index, "left" if home == "left" else "right"


def _board_svg(
    *, game: Game, state: GameState, position: Position, my_index: int | None, home: str
) -> str:
    """The board of ``game`` with ``position`` on it (the state's own, or one on the way
    through the roll being played), seen by player ``my_index`` at the bottom (a
    spectator: player 0), with the state's dice and cube and the opponent's last play
    marked (a spectator sees the last play of either)."""
    match = game.match
    viewer = 0 if my_index is None else my_index
    last = game.actions.filter(kind="play").order_by("-seq").first()
    last_moves = []
    if last is not None and last.player_index is not None and last.player_index != my_index:
        last_moves = last_play_moves(last.data.get("play"))
    names = (match.player1.name, match.player2.name)
    owner: Literal["mover", "opponent"] | None = None
    if state.cube_owner is not None:
        owner = "mover" if state.cube_owner == state.turn else "opponent"
    return render_board(
        view_from_position(
            position,
            viewer_is_mover=state.turn == viewer,
            dice=state.dice,
            # A pending double: the value proposed, highlighted (games.play.boardsvg).
            cube_value=state.cube * 2 if state.phase == "doubled" else state.cube,
            cube_owner=owner,
            cube_offered=state.phase == "doubled",
            home="left" if home == "left" else "right",
            title=_("Board of game %(number)d: %(bottom)s (bottom) against %(top)s")
            % {"number": game.number, "bottom": names[viewer], "top": names[1 - viewer]},
            crawford=state.match.crawford,
            last_move=last_moves,
            last_move_by_mover=last is not None and last.player_index == state.turn,
            pip_label=_("pips"),
        )
    )


def match_page(request: HttpRequest, match_id: int) -> HttpResponse:
    match = selectors.match_get(match_id=match_id)
    me, my_index, home = _viewer(request, match)
    game = selectors.match_current_game(match=match)
    if game is not None and alarms.game_alarm_if_due(game):  # R12: a due flag happens now
        match = selectors.match_get(match_id=match_id)
        game = selectors.match_current_game(match=match)
    context: dict[str, Any] = {
        "match": match,
        "me": me,
        "my_index": my_index,
        "game": game,
        "invitation": _invitation_of(match),
    }
    if game is not None:
        view = selectors.game_view(game=game, viewer_index=my_index)
        state = state_from_dict(game.state)
        names = (match.player1.name, match.player2.name)
        svg = _board_svg(
            game=game, state=state, position=state.position, my_index=my_index, home=home
        )
        actions = {a["action"]: a for a in view["legal_actions"]}
        moves = _move_list(game, names)
        context.update(
            {
                "view": view,
                "board_svg": mark_safe(svg),  # noqa: S308 - built by render_board, text escaped
                "actions": actions,
                "names": names,
                "to_act": None if view["player_to_act"] is None else names[view["player_to_act"]],
                "moves": moves,
                # Issue 27: what the live region announces, and the position as text.
                "announce": _announcement(
                    moves=moves, view=view, names=names, my_index=my_index, state=state
                ),
                "your_turn": my_index is not None
                and view["player_to_act"] == my_index
                and view["result"] is None,
                "position_text": _position_text(state=state, names=names, my_index=my_index),
                "home": home,
                # Only the player who is to play gets the steps to arrange the play with.
                "play_steps": play_steps_data(state) if "play" in actions else None,
                "board_settings": board_settings(me),
                "clock": _clock_display(view["clock"]),
                # A money session ends between games: before anyone plays the new one.
                "can_end_session": match.is_money
                and match.status == Match.Status.PLAYING
                and my_index is not None
                and not game.actions.exclude(kind="opening_roll").exists(),
            }
        )
        context.update(_words(match, game, state, names, my_index, actions, moves))
    context["games"] = [(g, game_result_label(g)) for g in match.games.all()]
    context["rating"] = ratings_selectors.match_rating(match=match)
    # Issue 28: GNU Backgammon's analysis (its figures, or its job's state).
    context.update(analysiswords.match_analysis_context(match=match, user=request.user))
    if match.bot_level and match.status == Match.Status.PLAYING:
        # A practice match whose computer cannot play here says so (games.practice).
        context["bot_unavailable"] = invitations.bot_offered()[1]
    return render(request, "games/match.html", context)


def _words(
    match: Match,
    game: Game,
    state: GameState,
    names: tuple[str, str],
    my_index: int | None,
    actions: dict[str, Any],
    moves: list[dict[str, Any]],
) -> dict[str, Any]:
    """Every state of the game said in words (games.play.statements): whose turn, the
    colours, the cube, the opponent's last move, a pending double or resignation, the
    banner of the game just finished (shown until the new game's first move) and the
    match won."""
    turn = statements.turn_line(state, names, my_index)
    last_action = game.actions.order_by("-seq").first()
    words: dict[str, Any] = {
        "turn_text": None if turn is None else turn[0],
        "my_turn": turn is not None and turn[1],
        "sides": statements.sides(names, my_index),
        "cube_text": statements.cube_words(state, names, my_index),
        "double_dialog": statements.double_dialog(
            state, names, my_index, beaver="beaver" in actions
        ),
        "resignation_text": statements.resignation_line(state, names, my_index),
        "declined_text": statements.last_answer_line(last_action, names, my_index),
        "last_move": _last_move(moves, my_index),
    }
    if "drop" in actions and words["double_dialog"]:
        words["drop_text"] = words["double_dialog"]["drop"]
    if "resign" in actions and my_index is not None:
        kinds = actions["resign"].get("kinds")
        if kinds:
            words["resign_choices"] = statements.resign_choices(state, my_index, kinds)
        else:  # seed002 (R9): the game ends at once, for what the engine says
            points = statements.resign_points(state, my_index, None)
            words["resign_now_text"] = statements.resign_now_line(points)
    finished = None
    if state.is_over:
        finished = (game, state)
    elif game.number > 1 and last_action is not None and last_action.kind == "opening_roll":
        # The next game started at once (its clock runs); the one just finished is said
        # until the new game's first move.
        previous = match.games.filter(number=game.number - 1).first()
        if previous is not None and previous.is_over and previous.result_kind != Game.VOID:
            finished = (previous, state_from_dict(previous.state))
    if finished is not None:
        words["banner"] = statements.game_over_banner(finished[0], finished[1], names, my_index)
        words["banner_game"] = finished[0]
    if match.status == Match.Status.FINISHED and match.winner_id is not None:
        winner = 0 if match.winner_id == match.player1_id else 1
        words["match_won_text"] = statements.match_won_line(
            winner, (match.score1, match.score2), names, my_index, money=match.is_money
        )
    return words


def _last_move(moves: list[dict[str, Any]], my_index: int | None) -> str | None:
    """The opponent's last play in notation (a visitor: the last play of either)."""
    for line in reversed(moves):
        if line.get("player") is None or not line["dice"]:
            continue
        if my_index is not None and line["player"] == my_index:
            continue
        return _("%(name)s played %(dice)s: %(play)s") % {
            "name": line["who"],
            "dice": "-".join(line["dice"]),
            "play": line["text"],
        }
    return None


def game_result_label(game: Game) -> str:
    """How a game ended, for the match's games table: a dropped double as a drop, a
    resignation and a loss on time as such, a game played out by what it was won as
    (single game, gammon, backgammon); empty while it is played."""
    if not game.is_over:
        return ""
    if game.result_kind == Game.VOID:
        return _("not played (the session ended)")
    result = (game.state or {}).get("result") or {}
    kind = _RESULT_KINDS.get(result.get("kind", game.result_kind), "")
    reason = result.get("reason")
    if reason == "drop":
        return _("double dropped")
    if reason == "resign":
        return _("resigned (%(kind)s)") % {"kind": kind} if kind else _("resigned")
    if reason == "timeout":
        if result.get("match_forfeit") or result.get("kind") == "match":
            return _("lost on time: the match")
        return _("lost on time (%(kind)s)") % {"kind": kind} if kind else _("lost on time")
    return str(kind)


def _clock_display(clock: dict[str, Any] | None) -> list[dict[str, Any]] | None:
    """Each player's clock as the page shows it: reserve (and the running player's
    delay) as m:ss, computed by the server from the stored state (R12)."""
    if clock is None:
        return None
    shown = []
    for index in (0, 1):
        running = clock["running"] == index
        shown.append(
            {
                "running": running,
                "reserve": _mmss(clock["reserves_ms"][index]),
                "reserve_ms": clock["reserves_ms"][index],
                "delay": _mmss(clock["delay_left_ms"]) if running else None,
                "delay_ms": clock["delay_left_ms"] if running else None,
                "flagged": clock["flagged"] == index,
            }
        )
    return shown


def _mmss(milliseconds: int | None) -> str:
    seconds = max(0, -(-(milliseconds or 0) // 1000))  # a started second still shows
    return f"{seconds // 60}:{seconds % 60:02d}"


@never_cache
@require_GET
def game_board_page(request: HttpRequest, game_id: int) -> HttpResponse:
    """The board of a game as an SVG image, with ``?position=`` (a Position ID) on it:
    the game's current position or one on the way through the roll being played (the
    match page shows these while a player arranges a play). Read-only; what the match
    page shows anyone: the same dice, cube and orientation (``?home=left|right``)."""
    try:
        game = selectors.game_get(game_id=game_id)
    except NotFound:
        raise Http404 from None
    state = state_from_dict(game.state)
    try:
        position = position_on_the_way(state, request.GET.get("position", ""))
    except EngineError:
        return _bad_request(_("That is not a Position ID."))
    if position is None:
        return _bad_request(_("That position is not on the way through this turn."))
    my_index, home = _viewer(request, game.match)[1:]
    svg = _board_svg(game=game, state=state, position=position, my_index=my_index, home=home)
    return HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")


def _bad_request(text: str) -> HttpResponse:
    return HttpResponseBadRequest(text, content_type="text/plain; charset=utf-8")


@login_required
@require_POST
def match_create_page(request: HttpRequest) -> HttpResponse:
    """The lobby's form: invite the chosen opponent to a match (the match starts when
    they accept it). Refused, the lobby comes back (400) with the form as typed and the
    field at fault marked."""
    post = request.POST
    typed = {name: post.get(name, "") for name in _MATCH_FIELDS}
    try:
        me = Player.of_user_or_refuse(request.user)
        terms = _match_terms(post)
        opponent = _player_field(post, "opponent", _("Choose an opponent."))
        invitation = invitations.invitation_send(
            inviter=me,
            invitee=opponent,
            **terms,
            created_by=request.user,
            bot_level=post.get("bot_level", "") if opponent.bot else "",
        )
    except ApplicationError as exc:
        return _lobby(request, typed=typed, refused=exc)
    if opponent.bot:
        messages.success(
            request, _("%(name)s accepted: the match has started.") % {"name": opponent.name}
        )
        return redirect("games:match", match_id=invitation.match_id)
    messages.success(
        request,
        _("%(name)s is invited: the match starts when they accept.") % {"name": opponent.name},
    )
    return redirect("games:match", match_id=invitation.match_id)


def _player_field(post: Any, field: str, missing: str) -> Player:
    """The player chosen in the form's ``field`` (400 ``invalid_<field>``, 404 with the
    field marked)."""
    try:
        player_id = int(post.get(field, ""))
    except ValueError:
        raise ValidationFailed(f"invalid_{field}", missing, extra={"field": field}) from None
    try:
        return players_selectors.player_get(player_id=player_id)
    except NotFound as exc:
        exc.extra = {"field": field}
        raise


def _match_terms(post: Any) -> dict[str, Any]:
    """A new match's length, rules, clock and timeout claim from the lobby's forms."""
    try:
        length = int(post.get("length", "5"))
    except ValueError:
        raise ValidationFailed(
            "invalid_length",
            _("The match length must be a number."),
            extra={"field": "length"},
        ) from None
    rules: dict[str, Any] = {}
    if post.get("variant") in ("nackgammon", "acey-deucey"):
        rules["variant"] = post["variant"]
    clock = post.get("clock") or None
    if clock is not None and post.get("timeout_result") == "match":
        rules["timeout_result"] = "match"
    if length == 0:
        for option in ("jacoby", "beavers"):
            if post.get(option):
                rules[option] = True
    return {
        "length": length,
        "rules": rules,
        "clock": clock,
        "timeout_claim": post.get("timeout_claim", "claim") == "claim",
    }


#: The staff's arrange form's fields, given back as typed when the match is refused.
_ARRANGE_FIELDS = ("player1", "player2", "length", "variant", "clock", "start")


@login_required
@require_POST
def match_arrange_page(request: HttpRequest) -> HttpResponse:
    """The lobby's form for staff: arrange a match between two players, as the API's
    ``POST /api/v1/matches/`` does (no invitation; started at once when asked). Staff
    need no player of their own; others get 403. Refused, the lobby comes back (400)
    with the form as typed and the field at fault marked."""
    if not request.user.is_staff:
        raise DjangoPermissionDenied
    post = request.POST
    typed = {name: post.get(name, "") for name in _ARRANGE_FIELDS}
    try:
        player1 = _player_field(post, "player1", _("Choose the first player."))
        player2 = _player_field(post, "player2", _("Choose the second player."))
        match = services.match_arrange(
            player1=player1,
            player2=player2,
            start=bool(post.get("start")),
            **_match_terms(post),
            created_by=request.user,
        )
    except ApplicationError as exc:
        return _lobby(request, arrange_typed=typed, arrange_refused=exc)
    messages.success(
        request,
        _("The match of %(player1)s and %(player2)s is arranged.")
        % {"player1": player1.name, "player2": player2.name},
    )
    return redirect("games:match", match_id=match.pk)


@login_required
@require_POST
def invitation_accept_page(request: HttpRequest, invitation_id: int) -> HttpResponseRedirect:
    """Accept an invitation: to the match, which has started."""
    return act_and_redirect(
        request,
        lambda: invitations.invitation_accept(
            invitation_id=invitation_id, by=Player.of_user_or_refuse(request.user)
        ),
        to=reverse("games:lobby"),
        then=lambda done: reverse("games:match", kwargs={"match_id": done[0].match_id}),
    )


@login_required
@require_POST
def invitation_decline_page(request: HttpRequest, invitation_id: int) -> HttpResponseRedirect:
    """Decline an invitation: back to the lobby."""
    return act_and_redirect(
        request,
        lambda: invitations.invitation_decline(
            invitation_id=invitation_id, by=Player.of_user_or_refuse(request.user)
        ),
        to=reverse("games:lobby"),
        success=lambda invitation: (
            _("You declined the invitation of %(name)s.") % {"name": invitation.inviter.name}
        ),
    )


@login_required
@require_POST
def invitation_withdraw_page(request: HttpRequest, invitation_id: int) -> HttpResponseRedirect:
    """Withdraw an invitation nobody answered: back to the lobby."""
    return act_and_redirect(
        request,
        lambda: invitations.invitation_withdraw(
            invitation_id=invitation_id, by=Player.of_user_or_refuse(request.user)
        ),
        to=reverse("games:lobby"),
        success=lambda invitation: (
            _("Your invitation to %(name)s is withdrawn.") % {"name": invitation.invitee.name}
        ),
    )


@login_required
@require_POST
def game_action_page(request: HttpRequest, game_id: int) -> HttpResponseRedirect:
    """A form post from the match page, carried out by the same services as the API."""
    game = selectors.game_get(game_id=game_id)
    target = reverse("games:match", kwargs={"match_id": game.match_id})
    post = request.POST
    try:
        me = Player.of_user_or_refuse(request.user)
        common = {"game_id": game_id, "player": me, "expected_version": int(post["version"])}
        kind = post.get("action", "")
        if kind == "roll":
            services.game_roll(**common)
        elif kind == "play":
            services.game_play(**common, result_position_id=post.get("position_id", ""))
        elif kind == "choose_double":
            services.game_choose_double(**common, value=int(post.get("value", "0")))
        elif kind == "double":
            services.cube_offer(**common)
        elif kind == "take":
            services.cube_take(**common)
        elif kind == "drop":
            services.cube_drop(**common)
        elif kind == "beaver":
            services.cube_beaver(**common)
        elif kind == "resign":
            services.resign_offer(**common, kind=post.get("kind") or None)
        elif kind == "accept_resignation":
            services.resign_accept(**common)
        elif kind == "decline_resignation":
            services.resign_decline(**common)
        elif kind == "claim_timeout":
            services.game_claim_timeout(**common)
        else:
            messages.error(request, _("Unknown action."))
    except (KeyError, ValueError):
        messages.error(request, _("The form was incomplete: reload the page and try again."))
    except ApplicationError as exc:
        show_refusal(request, exc)
    return HttpResponseRedirect(target)


@login_required
@require_POST
def match_rematch_page(request: HttpRequest, match_id: int) -> HttpResponseRedirect:
    """Invite the other player of a finished match to a new one with the same settings:
    to the new match's page, which waits for their answer."""
    return act_and_redirect(
        request,
        lambda: invitations.match_rematch(
            match_id=match_id, by=Player.of_user_or_refuse(request.user), created_by=request.user
        ),
        to=reverse("games:match", kwargs={"match_id": match_id}),
        then=lambda invitation: reverse("games:match", kwargs={"match_id": invitation.match_id}),
        success=lambda invitation: (
            _("%(name)s is invited to a rematch: it starts when they accept.")
            % {"name": invitation.invitee.name}
        ),
    )


@login_required
@require_POST
def match_end_session_page(request: HttpRequest, match_id: int) -> HttpResponseRedirect:
    """End a money session between games (the same service as the API)."""
    return act_and_redirect(
        request,
        lambda: services.match_end_session(
            match_id=match_id, by=Player.of_user_or_refuse(request.user)
        ),
        to=reverse("games:match", kwargs={"match_id": match_id}),
    )


def match_export_page(request: HttpRequest, match_id: int) -> HttpResponse:
    """The match as a ``.mat`` file download (for gnubg, XG and other programs)."""
    match = selectors.match_get(match_id=match_id)
    try:
        text = match_export_mat(match=match)
    except ApplicationError as exc:
        show_refusal(request, exc)
        return redirect("games:match", match_id=match_id)
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="match-{match.pk}.mat"'
    return response


@login_required
def match_import_page(request: HttpRequest) -> HttpResponse:
    """Record a match played elsewhere from its ``.mat`` file, every move checked. Who may
    and what a file may hold: :func:`games.play.interchange.match_import_mat`; a refusal
    is shown in the page (400, 403 for someone who may not import it) with the form as
    it was typed."""
    context: dict[str, Any] = {
        "can_import_any": interchange.match_import_can_any(user=request.user)
    }
    status = 200
    if request.method == "POST":
        text = ""
        try:
            text = request.POST.get("text", "")
            upload = request.FILES.get("file")
            if upload is not None:
                # Its size first: a file over the limit is never read into memory (Django
                # keeps a large upload in a temporary file until then).
                interchange.mat_check_size(size=upload.size or 0)
                try:
                    text = upload.read().decode("utf-8-sig")
                except UnicodeDecodeError:
                    raise ValidationFailed(
                        "mat_not_text", _("The file is not UTF-8 text."), extra={"field": "file"}
                    ) from None
            match = interchange.match_import_mat(
                text=text,
                player1_name=request.POST.get("player1") or None,
                player2_name=request.POST.get("player2") or None,
                by=request.user,
            )
        except ApplicationError as exc:
            context["error"] = exc.detail
            context["error_code"] = exc.code
            context["error_field"] = exc.extra.get("field") if exc.extra else None
            status = exc.status
        else:
            messages.success(request, _("The match was recorded."))
            return redirect("games:match", match_id=match.pk)
        context["text"] = text if len(text) <= _KEEP_TEXT else ""
        context["player1"] = request.POST.get("player1", "")
        context["player2"] = request.POST.get("player2", "")
    return render(request, "games/import.html", context, status=status)

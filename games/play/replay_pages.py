"""The replay page of a game (issue 27): ``/matches/<match id>/replay/<game number>/``
with ``?move=K`` for any step (``games/play/replay.py``), open to whoever may see the
match page (anyone).

Addresses: a match or a game number the match does not have is 404; ``move`` missing is
the starting position, ``last`` the last step, a number beyond either end the nearest
step (so a link into a game still being played stays good), anything else 404.

Without JavaScript the buttons (first, previous, next, last) and every line of the move
list are plain links. With it, ``static/games/replay.js`` steps with the arrow keys too
and swaps the page's ``data-replay-region`` for the step it fetches, without loading the
page: one step's board is ~15 KB of SVG, so a page with every step of a 60-move game
drawn in it would weigh about a megabyte, while a step fetched is one board.

An analysed match (issue 28) has GNU Backgammon's errors marked: the step's own in the
panel in words ("Bad move (-0.083): best was 13/7 8/7", a roll's luck too), and every
marked step in the move list with its sign (``?!``, ``?``, ``??``), for the players whose
figures the viewer may see (:func:`games.ratings.performance.pr_visible`).
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET

from games.errors import NotFound
from games.play import analysiswords, replay
from games.play.pages import _viewer
from games.ratings import performance


@require_GET
def game_replay_page(request: HttpRequest, match_id: int, number: int) -> HttpResponse:
    try:
        match, game = replay.replay_game_get(match_id=match_id, number=number)
    except NotFound:
        raise Http404 from None
    steps = replay.game_replay_steps(game=game)
    current = replay.step_index(request.GET.get("move"), len(steps))
    if current is None:
        raise Http404
    _me, my_index, home = _viewer(request, match)
    viewer = 0 if my_index is None else my_index
    names = (match.player1.name, match.player2.name)
    step = steps[current]
    state = step.state
    base = reverse("games:game-replay", kwargs={"match_id": match.pk, "number": game.number})
    suffix = "&home=left" if request.GET.get("home") == "left" else ""
    if request.GET.get("home") == "right":
        suffix = "&home=right"

    def link(index: int) -> str:
        return f"{base}?move={index}{suffix}"

    pips = state.board_of(0).pip_count()
    value, owner = step.cube
    # Issue 28: the errors GNU Backgammon marked, on their steps (the players whose
    # figures the viewer may see; nothing for a match not analysed).
    figures = performance.match_figures(match=match, viewer=request.user)
    marks: dict[int, list[dict[str, object]]] = {}
    if figures.has_figures:
        decisions = performance.match_decisions(figures=figures, game_number=game.number)
        marks = analysiswords.step_marks(steps, decisions)
    lines = [
        {
            "index": s.index,
            # A play is "name dice: notation"; every other step is a sentence with the name.
            "who": names[s.player] if s.kind == "play" and s.player is not None else "",
            "dice": replay.dice_text(s.dice),
            "text": s.play if s.kind == "play" else replay.step_text(s, names),
            "url": link(s.index),
            "current": s.index == current,
            "marks": [m for m in marks.get(s.index, []) if m["sign"]],
        }
        for s in steps[1:]
    ]
    games = list(match.games.all())
    context = {
        "match": match,
        "game": game,
        "games": games,
        "names": names,
        "step": step,
        "count": len(steps) - 1,
        "text": replay.step_text(step, names),
        "result": replay.result_text(state, names),
        "dice": replay.dice_text(step.dice),
        "cube_value": value,
        "cube_owner": None if owner is None else names[owner],
        "cube_offered": state.phase == "doubled",
        "pips": pips,
        "score": state.match.score,
        "crawford": state.match.crawford,
        "board_svg": mark_safe(  # noqa: S308 - built by render_board, text escaped
            replay.step_board_svg(step, viewer=viewer, home=home, names=names, number=game.number)
        ),
        "lines": lines,
        "marks": marks.get(current, []),
        "analysed": figures.has_figures,
        "first_url": link(0),
        "prev_url": link(max(current - 1, 0)) if current > 0 else None,
        "next_url": link(current + 1) if current < len(steps) - 1 else None,
        "last_url": link(len(steps) - 1),
        "home": home,
        "flip_url": f"{base}?move={current}&home={'right' if home == 'left' else 'left'}",
    }
    return render(request, "games/replay.html", context)

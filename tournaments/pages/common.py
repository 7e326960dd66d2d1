"""What the tournament pages share: the words for parts and match states, the result
typed into a form (read the same way for a player's report and a director's entry), the
match of an event by id, and how a service's refusal is worded."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.errors import ApplicationError, ValidationFailed
from games.web import act_and_redirect
from tournaments import bracketview
from tournaments.models import OPEN, Event, TournamentMatch

#: Cube values offered on the game-by-game form.
CUBES = (1, 2, 4, 8, 16, 32, 64)


#: The tie-breaks' names (:data:`tournaments.pairing.TIEBREAKS`), for headings and forms.
TIEBREAK_LABELS = {
    "wins": gettext_lazy("Wins"),
    "buchholz": gettext_lazy("Buchholz"),
    "point_difference": gettext_lazy("Point difference"),
    "head_to_head": gettext_lazy("Head-to-head"),
}


def part_title(part: str) -> str:
    """The name of a part of a flight, for headings."""
    return {
        "main": _("Main draw"),
        "consolation": _("Consolation"),
        "last_chance": _("Last chance"),
        "winners": _("Winners' bracket"),
        "losers": _("Losers' bracket"),
        "final": _("Grand final"),
        "": _("Rounds"),
    }.get(part, part)


def status_text(row: TournamentMatch) -> str:
    if row.status in OPEN and row.online_match_id:
        return _("playing online")
    if row.status == TournamentMatch.Status.REPORTED:
        return _("reported")
    if row.status == TournamentMatch.Status.DISPUTED:
        return _("disputed")
    return ""


def result_sentence(result: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """A result of the correction log in words: "Kiss Anna won 9-2", "Kiss Anna won by
    walkover", "Kiss Anna had a bye", "no result". ``names``: ``"a"``/``"b"`` -> the
    player of each side (of the result's own entries)."""
    winner = result.get("winner") or ""
    status = result.get("status")
    name = names.get(winner, "")
    if status == TournamentMatch.Status.WALKOVER and name:
        return _("%(name)s won by walkover") % {"name": name}
    if status == TournamentMatch.Status.BYE and name:
        return _("%(name)s had a bye") % {"name": name}
    if status == TournamentMatch.Status.CONFIRMED and name:
        mine, theirs = (
            (result.get("score_a"), result.get("score_b"))
            if winner == "a"
            else (result.get("score_b"), result.get("score_a"))
        )
        if mine is None or theirs is None:
            return _("%(name)s won") % {"name": name}
        # The score's en dash is written as the character, not "\u2013": xgettext does
        # not decode escapes, and the catalogue's msgid must be the string looked up.
        sentence = _("%(name)s won %(won)s–%(lost)s")  # noqa: RUF001
        return sentence % {"name": name, "won": mine, "lost": theirs}
    return _("no result")


def explain_refusal(exc: ApplicationError) -> str:
    """A service's refusal as the pages show it (``explain`` of :mod:`games.web`): its
    message, and the details people need (the later matches a correction would
    change)."""
    text = str(exc.detail)
    slots = exc.extra.get("slots")
    if exc.code == "later_results_depend" and isinstance(slots, list):
        text += " " + _("Matches: %(slots)s.") % {"slots": ", ".join(map(str, slots))}
    return text


def act(request: HttpRequest, action: Callable[[], Any], **options: Any) -> HttpResponseRedirect:
    """:func:`games.web.act_and_redirect` with the tournaments' wording of a refusal
    (:func:`explain_refusal`)."""
    return act_and_redirect(request, action, explain=explain_refusal, **options)


def game_rows(length: int) -> range:
    """Enough game lines for the longest match to ``length`` (a point a game)."""
    return range(1, min(max(2 * length - 1, 1), 49) + 1)


def game_lines(
    length: int,
    post: Mapping[str, str] | None = None,
    *,
    error_game: int | None = None,
    error: str = "",
) -> list[dict[str, Any]]:
    """The lines of the game-by-game form (:func:`game_rows`), each with what ``post``
    (a refused post) had in it, and ``error`` on the line of game ``error_game``: a
    refusal shows the form again as it was typed, the wrong game marked."""
    post = post or {}
    return [
        {
            "n": n,
            "winner": post.get(f"game-{n}-winner", ""),
            "points": post.get(f"game-{n}-points", ""),
            "cube": post.get(f"game-{n}-cube", "1"),
            "error": error if n == error_game else "",
        }
        for n in game_rows(length)
    ]


def refused_game(exc: ApplicationError) -> int | None:
    """The game a refused game-by-game sheet names (``extra["game"]``), if any."""
    game = exc.extra.get("game")
    return game if isinstance(game, int) and not isinstance(game, bool) else None


def optional_int(value: str, *, required: bool = False) -> int | None:
    value = (value or "").strip()
    if not value:
        if required:
            raise ValueError(value)
        return None
    return int(value)


def result_input(request: HttpRequest, *, walkover: bool = False) -> dict[str, Any]:
    """The result typed into the form: the final score, or game lines (``game-N-winner``,
    ``game-N-points``, ``game-N-cube``; a line without a winner is left out), or (for a
    director) a walkover. The services check it against the match rules."""
    post = request.POST
    try:
        if walkover and post.get("walkover") in ("a", "b"):
            return {"walkover_winner": post["walkover"]}
        games = []
        for number in range(1, 50):
            winner = post.get(f"game-{number}-winner", "")
            if winner not in ("1", "2"):
                continue
            cube = optional_int(post.get(f"game-{number}-cube", "")) or 1
            points = optional_int(post.get(f"game-{number}-points", "")) or cube
            games.append({"winner": int(winner), "points": points, "cube": cube})
        score_a = optional_int(post.get("score_a", ""))
        score_b = optional_int(post.get("score_b", ""))
    except ValueError:
        raise ValidationFailed(
            "invalid_number", _("Scores, points and cubes are whole numbers.")
        ) from None
    return {"score_a": score_a, "score_b": score_b, "games": games or None}


def posted_version(request: HttpRequest) -> int | None:
    try:
        return optional_int(request.POST.get("version", ""))
    except ValueError:
        return None


def match_of(event: Event, match_id: int) -> TournamentMatch:
    return get_object_or_404(
        TournamentMatch.objects.select_related("flight"), pk=match_id, flight__event=event
    )


def round_title(name: bracketview.RoundName) -> str:
    """A bracket column's title, translated (:data:`bracketview.RoundTitle`)."""
    if name.code == "final":
        return _("Final")
    if name.code == "semi_final":
        return _("Semi-final")
    if name.code == "quarter_final":
        return _("Quarter-final")
    if name.code == "reset":
        return _("Second final")
    return _("Round %(number)d") % {"number": name.number}


def dispute_sentence(old: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """The two reports of a dispute a director decided (the ``old`` of its audit row,
    issue 29) in words: "Kiss Anna reported 5-3, Nagy Béla reported 3-5" (each score side
    a first, as the match page shows reports)."""
    lines = []
    for side in ("a", "b"):
        report = old.get(f"report_{side}")
        if isinstance(report, Mapping):
            # The en dash as the character (see result_sentence).
            sentence = _("%(name)s reported %(a)s–%(b)s")  # noqa: RUF001
            lines.append(
                sentence
                % {
                    "name": names.get(side, ""),
                    "a": report.get("score_a"),
                    "b": report.get("score_b"),
                }
            )
    return ", ".join(lines) or _("no result")


def unpublished(request: HttpRequest) -> HttpResponse:
    """A draft event's page seen by someone who does not direct it (issue 29): still a
    404 (a draft is not shown), but saying why, for a player who got the link early."""
    return render(request, "tournaments/event_unpublished.html", status=404)


def later_matches(row: TournamentMatch, refused: ApplicationError | None) -> list[dict[str, Any]]:
    """The later matches a refused correction names (``later_results_depend``), each with
    its players, for links to their pages beside the refusal (issue 29)."""
    slots = refused.extra.get("slots") if refused is not None else None
    if refused is None or refused.code != "later_results_depend" or not isinstance(slots, list):
        return []
    order = {slot: i for i, slot in enumerate(slots)}
    rows = TournamentMatch.objects.filter(
        flight_id=row.flight_id, slot_key__in=slots
    ).select_related("entry_a__player", "entry_b__player")
    out = []
    for m in sorted(rows, key=lambda m: order[m.slot_key]):
        names = [e.player.name if e is not None else "—" for e in (m.entry_a, m.entry_b)]
        label = _("%(slot)s (%(part)s, round %(number)d): %(a)s – %(b)s") % {  # noqa: RUF001
            "slot": m.slot_key,
            "part": part_title(m.part) if m.part else _("Round"),
            "number": m.round,
            "a": names[0],
            "b": names[1],
        }
        out.append({"pk": m.pk, "label": label})
    return out

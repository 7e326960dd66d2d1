"""The notification kinds of tournaments (registered from ``TournamentsConfig.ready``).

* ``match_ready``: "your match vs X is ready (at table 7)", to both players of a match
  whose two sides became known; subject ``tmatch:<id>:<entry a>-<entry b>``, so a match
  whose sides change after a correction is announced again, and a repeated call is not.
* ``result_to_confirm``: the opponent reported a result; confirm it (or tell the director).
* ``result_disputed`` (issue 29): the two players' reports differ; to both players and
  the event's directors: the director decides. ``dispute_resolved``: a director decided
  it; to both players. Subject ``tmatch:<id>:dispute:<version>`` / ``...:resolved:...``.
* ``registration_confirmed``, ``registration_refused``: a director confirmed or refused the
  player's own registration for a flight (:mod:`tournaments.services.registration`);
* ``registration_promoted``: a place became free and the player moved up from the
  waitlist (the director still confirms). Subject ``entry:<id>:<kind>``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.notifications.services import register_kind


def _render_match_ready(context: Mapping[str, Any]) -> tuple[str, str]:
    opponent = context.get("opponent") or _("your opponent")
    table = context.get("table")
    if table:
        title = _("Your match vs %(opponent)s is ready at table %(table)s") % {
            "opponent": opponent,
            "table": table,
        }
    else:
        title = _("Your match vs %(opponent)s is ready") % {"opponent": opponent}
    body = _("%(event)s, %(flight)s: a match to %(length)s points.") % {
        "event": context.get("event", ""),
        "flight": context.get("flight", ""),
        "length": context.get("length", "?"),
    }
    return title, body


def _render_result_to_confirm(context: Mapping[str, Any]) -> tuple[str, str]:
    title = _("%(reporter)s reported your match: please confirm") % {
        "reporter": context.get("reporter") or _("Your opponent")
    }
    score = context.get("score") or ["?", "?"]
    body = _(
        "%(event)s, %(flight)s: %(a)s-%(b)s. If this is not right, report your own result "
        "or tell the director."
    ) % {
        "event": context.get("event", ""),
        "flight": context.get("flight", ""),
        "a": score[0],
        "b": score[1],
    }
    return title, body


def _flight_words(context: Mapping[str, Any]) -> dict[str, Any]:
    return {"event": context.get("event", ""), "flight": context.get("flight", "")}


def _render_registration_confirmed(context: Mapping[str, Any]) -> tuple[str, str]:
    title = _("You are in %(flight)s") % _flight_words(context)
    body = _("%(event)s: the director confirmed your registration for %(flight)s.") % (
        _flight_words(context)
    )
    return title, body


def _render_registration_refused(context: Mapping[str, Any]) -> tuple[str, str]:
    title = _("Your registration for %(flight)s was not accepted") % _flight_words(context)
    body = _("%(event)s: the director refused your registration for %(flight)s.") % (
        _flight_words(context)
    )
    return title, body


def _render_registration_promoted(context: Mapping[str, Any]) -> tuple[str, str]:
    title = _("A place in %(flight)s is yours") % _flight_words(context)
    body = _(
        "%(event)s: a place became free and you moved up from the waitlist of %(flight)s; "
        "the director confirms your registration."
    ) % _flight_words(context)
    return title, body


def _flight_link(context: Mapping[str, Any]) -> str:
    """The flight page, where the match is listed (and reported); older rows without
    the ids link nowhere."""
    slug, flight_id = context.get("event_slug"), context.get("flight_id")
    if not slug or not flight_id:
        return ""
    return reverse("tournaments:flight", kwargs={"slug": slug, "flight_id": flight_id})


register_kind(
    "match_ready",
    label=gettext_lazy("Tournament match ready"),
    default_channels=("in_app", "email"),
    render=_render_match_ready,
    link=_flight_link,
)
register_kind(
    "result_to_confirm",
    label=gettext_lazy("Tournament result to confirm"),
    default_channels=("in_app",),
    render=_render_result_to_confirm,
    link=_flight_link,
)
register_kind(
    "registration_confirmed",
    label=gettext_lazy("Tournament registration confirmed"),
    default_channels=("in_app", "email"),
    render=_render_registration_confirmed,
    link=_flight_link,
)
register_kind(
    "registration_refused",
    label=gettext_lazy("Tournament registration refused"),
    default_channels=("in_app", "email"),
    render=_render_registration_refused,
    link=_flight_link,
)
register_kind(
    "registration_promoted",
    label=gettext_lazy("Tournament place from the waitlist"),
    default_channels=("in_app", "email"),
    render=_render_registration_promoted,
    link=_flight_link,
)


# ---------------------------------------------------------------------- disputes (issue 29)
def _pair(value: Any) -> tuple[Any, Any]:
    return (
        (value[0], value[1]) if isinstance(value, list | tuple) and len(value) == 2 else ("?", "?")
    )


def _render_result_disputed(context: Mapping[str, Any]) -> tuple[str, str]:
    a = context.get("player_a") or _("side A")
    b = context.get("player_b") or _("side B")
    title = _("Disputed result: %(a)s vs %(b)s") % {"a": a, "b": b}
    ra, rb = _pair(context.get("report_a")), _pair(context.get("report_b"))
    body = _(
        "%(event)s, %(flight)s: %(a)s reported %(a1)s-%(a2)s, %(b)s reported %(b1)s-%(b2)s. "
        "Both reports are kept; the director decides."
    ) % {
        **_flight_words(context),
        "a": a,
        "b": b,
        "a1": ra[0],
        "a2": ra[1],
        "b1": rb[0],
        "b2": rb[1],
    }
    return title, body


def _render_dispute_resolved(context: Mapping[str, Any]) -> tuple[str, str]:
    a = context.get("player_a") or _("side A")
    b = context.get("player_b") or _("side B")
    score = _pair(context.get("score"))
    title = _("The director decided your match: %(a)s %(s1)s-%(s2)s %(b)s") % {
        "a": a,
        "b": b,
        "s1": score[0],
        "s2": score[1],
    }
    body = _("%(event)s, %(flight)s: the result stands. The director's reason: %(reason)s") % {
        **_flight_words(context),
        "reason": context.get("reason", ""),
    }
    return title, body


def _dispute_link(context: Mapping[str, Any]) -> str:
    """A director's notice: the match's page, where they decide it; a player's: the
    flight page."""
    slug, match_id = context.get("event_slug"), context.get("tournament_match_id")
    if context.get("director") and slug and match_id:
        return reverse("tournaments:match-manage", kwargs={"slug": slug, "match_id": match_id})
    return _flight_link(context)


register_kind(
    "result_disputed",
    label=gettext_lazy("Tournament result disputed"),
    default_channels=("in_app",),
    render=_render_result_disputed,
    link=_dispute_link,
)
register_kind(
    "dispute_resolved",
    label=gettext_lazy("Tournament dispute decided"),
    default_channels=("in_app",),
    render=_render_dispute_resolved,
    link=_flight_link,
)

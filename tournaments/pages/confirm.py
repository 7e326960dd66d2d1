"""The confirmations of a director's irreversible acts (issue 29, item 2): the first post
of "Make the draw", "Draw the checked-in players only", "Withdraw", the desk's "No-show:
withdraw" and "Undo the draw" is answered with a page saying exactly what will happen,
with Confirm (the same post again with ``confirm=1``: only that one acts) and Cancel
(``templates/tournaments/confirm.html``). No JavaScript is needed; the API acts directly
(an API client confirms by calling)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.web import next_or
from tournaments.models import OPEN, Entry, Event, Flight, TournamentMatch
from tournaments.services.undraw import match_label

#: The posted fields a confirmation carries over to its Confirm post.
KEPT_FIELDS = ("seed", "publish", "next", "version")


def confirmed(request: HttpRequest) -> bool:
    """Whether this post is the confirmation's (``confirm=1``): only that one acts."""
    return request.POST.get("confirm") == "1"


def confirm_page(
    request: HttpRequest,
    *,
    title: str,
    lines: Iterable[str],
    button: str,
    back: str,
    back_label: str,
) -> HttpResponse:
    """The confirmation of an irreversible act: what will happen (``lines``), Confirm
    (this post again, with ``confirm=1`` and the fields of :data:`KEPT_FIELDS`) and
    Cancel (``back``)."""
    return render(
        request,
        "tournaments/confirm.html",
        {
            "title": title,
            "lines": [line for line in lines if line],
            "button": button,
            "back": back,
            "back_label": back_label,
            "action": request.path,
            "fields": [(k, request.POST[k]) for k in KEPT_FIELDS if request.POST.get(k)],
        },
    )


def manage_url(event: Event, flight_id: int) -> str:
    return reverse("tournaments:flight-manage", kwargs={"slug": event.slug, "flight_id": flight_id})


def names_of(people: Sequence[Entry]) -> str:
    return ", ".join(e.player.name for e in people)


# ====================================================================== the draw
def draw_confirmation(
    request: HttpRequest, event: Event, flight: Flight, *, checked_in_only: bool
) -> HttpResponse:
    """What "Make the draw" (or "Draw the checked-in players only") will do: how many
    players are drawn, who is left out, the seeding, what is published."""
    active = list(
        flight.entries.filter(status=Entry.Status.ACTIVE)
        .select_related("player")
        .order_by("created_at", "pk")
    )
    here = [e for e in active if e.checked_in_at is not None]
    absent = [e for e in active if e.checked_in_at is None]
    drawn = here if checked_in_only else active
    lines = [
        ngettext(
            "Draw %(count)d player of %(flight)s.",
            "Draw %(count)d players of %(flight)s.",
            len(drawn),
        )
        % {"count": len(drawn), "flight": flight.name}
    ]
    if checked_in_only and absent:
        lines.append(
            ngettext(
                "%(count)d registered player who has not checked in will be withdrawn "
                "and left out: %(names)s.",
                "%(count)d registered players who have not checked in will be withdrawn "
                "and left out: %(names)s.",
                len(absent),
            )
            % {"count": len(absent), "names": names_of(absent)}
        )
    elif here and absent:
        lines.append(
            ngettext(
                "%(count)d of them has not checked in: %(names)s.",
                "%(count)d of them have not checked in: %(names)s.",
                len(absent),
            )
            % {"count": len(absent), "names": names_of(absent)}
        )
    method = flight.get_seeding_display()
    seed = request.POST.get("seed", "").strip()
    if flight.seeding == Flight.SeedingMethod.RANDOM and seed:
        lines.append(
            _("Seeding: %(method)s, random seed %(seed)s.") % {"method": method, "seed": seed}
        )
    else:
        lines.append(_("Seeding: %(method)s.") % {"method": method})
    publish = {
        "first": _("Round 1 is published now; the next rounds when the round before is complete."),
        "all": _("Every round is published now."),
        "none": _("No round is published yet: you publish them."),
    }.get(request.POST.get("publish", "first"), "")
    lines.append(publish)
    waiting = flight.entries.filter(
        status__in=(Entry.Status.PENDING, Entry.Status.WAITLISTED)
    ).count()
    if waiting:
        lines.append(
            ngettext(
                "%(count)d registration still to confirm or on the waitlist is not in the draw.",
                "%(count)d registrations still to confirm or on the waitlist are not in the draw.",
                waiting,
            )
            % {"count": waiting}
        )
    lines.append(_("Until the first result you can undo the draw on the flight's page."))
    return confirm_page(
        request,
        title=_("Make the draw of %(flight)s?") % {"flight": flight.name},
        lines=lines,
        button=_("Draw the checked-in players only") if checked_in_only else _("Make the draw"),
        back=next_or(request, manage_url(event, flight.pk)),
        back_label=flight.name,
    )


# ====================================================================== withdrawing
def _opponent(row: TournamentMatch, entry: Entry) -> Entry | None:
    return row.entry_b if row.entry_a_id == entry.pk else row.entry_a


def withdraw_confirmation(
    request: HttpRequest, event: Event, entry: Entry, *, back: str
) -> HttpResponse:
    """What "Withdraw" (or the desk's "No-show: withdraw") will do: who is withdrawn
    from which flight, and who gets a walkover (or the waitlist's first a place)."""
    flight = entry.flight
    name = entry.player.name
    lines = []
    if flight.status == Flight.Status.REGISTRATION or entry.status != Entry.Status.ACTIVE:
        lines.append(
            _("%(name)s is withdrawn from %(flight)s.") % {"name": name, "flight": flight.name}
        )
        if flight.entries.filter(status=Entry.Status.WAITLISTED).exists():
            lines.append(_("Their place goes to the first player on the waitlist."))
        lines.append(_("You can reinstate them before the draw if a place is free."))
    else:
        lines.append(
            _("%(name)s is withdrawn from %(flight)s and plays no more matches in it.")
            % {"name": name, "flight": flight.name}
        )
        rows = flight.matches.filter(
            Q(entry_a=entry) | Q(entry_b=entry), status__in=OPEN
        ).select_related("entry_a__player", "entry_b__player")
        for row in rows.order_by("part", "round", "index"):
            other = _opponent(row, entry)
            if other is not None:
                lines.append(
                    _("%(opponent)s wins %(match)s by walkover.")
                    % {"opponent": other.player.name, "match": match_label(row)}
                )
        lines.append(
            _(
                "You can reinstate them while their place is untouched (the opponent who "
                "got the walkover has not played on)."
            )
        )
    return confirm_page(
        request,
        title=_("Withdraw %(name)s?") % {"name": name},
        lines=lines,
        button=_("Withdraw %(name)s") % {"name": name},
        back=back,
        back_label=flight.name,
    )

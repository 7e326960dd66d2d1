"""The night's money on the pages (issue 17): the director's money settings of a flight
(entry fee, house cut, split, the event's currency) with its side pools, and the payout
page: the event's directors always (a preview "if it ended as it stands" while the flight
runs), anyone once the flight is finished. Amounts are shown in the event's currency,
formatted for the page's language (:func:`games.money.format.money_text`). Writes go through
:mod:`tournaments.services.money`; a refused settings form renders again with what was
typed and the refusal on its field."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from games.errors import ApplicationError
from games.money.format import money_text
from tournaments import live, payouts, prizes
from tournaments.models import Event, Flight, SidePool
from tournaments.pages.common import act, optional_int, part_title
from tournaments.pages.director import director_required
from tournaments.services import money


def percent_text(value: Decimal) -> str:
    value = value.quantize(Decimal("0.01"))
    digits = 0 if value == value.to_integral_value() else 2
    return number_format(value, decimal_pos=digits, use_l10n=True) + "\u00a0%"


def ranking_title(ranking: str) -> str:
    return _("Standings") if ranking == "" else part_title(ranking)


def _split_field(ranking: str) -> str:
    return f"split_{ranking or 'standings'}"


def _split_text(pcts: Any) -> str:
    return " / ".join(str(p) for p in pcts)


def _split_parse(text: str) -> list[str]:
    """``"40 / 25 / 10"`` (or with commas, spaces, semicolons) as its percentages; the
    decimal mark may be a comma when the parts are parted by slashes."""
    text = (text or "").strip()
    if not text:
        return []
    if "/" in text or ";" in text:
        return [p.strip().replace(",", ".") for p in re.split(r"[/;]", text) if p.strip()]
    return [p for p in re.split(r"[\s,]+", text) if p]


class MoneyForm(forms.Form):
    """The money settings; amounts and percentages are text, checked by the service
    (one set of rules for the page and the API)."""

    currency = forms.ChoiceField(
        label=gettext_lazy("Currency (of the whole event)"),
        choices=[(c, c) for c in payouts.CURRENCIES],
    )
    fee = forms.CharField(label=gettext_lazy("Entry fee"), max_length=20)
    house_percent = forms.CharField(
        label=gettext_lazy("House cut (percent of the fees)"), max_length=10, required=False
    )
    house_fixed = forms.CharField(
        label=gettext_lazy("House cut (fixed amount)"), max_length=20, required=False
    )

    def __init__(self, *args: Any, rankings: tuple[str, ...], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.rankings = rankings
        for ranking in rankings:
            self.fields[_split_field(ranking)] = forms.CharField(
                label=_("Split: %(part)s (percent for place 1, 2, ...)")
                % {"part": ranking_title(ranking)},
                max_length=400,
                required=False,
                help_text=gettext_lazy("For example 40 / 25. All the parts together: 100."),
            )

    def service_kwargs(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "currency": data["currency"],
            "fee": data["fee"].strip().replace(",", "."),
            "house_percent": (data.get("house_percent") or "0").strip().replace(",", "."),
            "house_fixed": (data.get("house_fixed") or "0").strip().replace(",", "."),
            "split": {r: _split_parse(data.get(_split_field(r), "")) for r in self.rankings},
        }

    def add_refusal(self, exc: ApplicationError) -> None:
        """The refusal on the field it names (``split:<ranking>``, ``split``: the first
        split field), or the whole form."""
        name = str(exc.extra.get("field", ""))
        if name.startswith("split"):
            ranking = name.partition(":")[2]
            name = _split_field(ranking if name != "split" else self.rankings[0])
        self.add_error(name if name in self.fields else None, str(exc.detail))


def _money_form(flight: Flight, data: Any = None) -> MoneyForm:
    settings = prizes.money_settings(flight=flight)
    initial: dict[str, Any] = {
        "currency": settings.currency,
        "fee": str(settings.fee),
        "house_percent": str(settings.house_percent),
        "house_fixed": str(settings.house_fixed),
    }
    for ranking in prizes.flight_rankings(flight):
        initial[_split_field(ranking)] = _split_text(settings.split.get(ranking, ()))
    return MoneyForm(data, initial=initial, rankings=prizes.flight_rankings(flight))


class SidePoolForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=80)
    fee = forms.CharField(label=gettext_lazy("Fee"), max_length=20)
    split = forms.CharField(
        label=gettext_lazy("Split (percent for place 1, 2, ... among its players)"),
        max_length=400,
        initial="70 / 30",
    )


def _flight_of(event: Event, flight_id: int) -> Flight:
    return get_object_or_404(Flight.objects.select_related("event"), pk=flight_id, event=event)


def _money_url(event: Event, flight_id: int) -> str:
    return reverse("tournaments:flight-money", kwargs={"slug": event.slug, "flight_id": flight_id})


def _pool_rows(view: prizes.PoolView, currency: str) -> list[dict[str, Any]]:
    return [
        {
            "ranking": ranking_title(line.payout.ranking),
            "place": line.payout.label,
            "name": line.entry.player.name,
            "percent": percent_text(line.payout.percent),
            "amount": money_text(line.payout.amount, currency),
            "final": line.payout.final,
        }
        for line in view.lines
    ]


def _grouped(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The prize rows by part, in order (a heading row each on the page)."""
    groups: list[dict[str, Any]] = []
    for row in rows:
        if not groups or groups[-1]["ranking"] != row["ranking"]:
            groups.append({"ranking": row["ranking"], "rows": []})
        groups[-1]["rows"].append(row)
    return groups


def _pool_facts(view: prizes.PoolView, currency: str) -> dict[str, Any]:
    r = view.result
    return {
        "name": view.name,
        "pool": view.pool,
        "fee": money_text(r.fee, currency),
        "paid": r.paid,
        "collected": money_text(r.collected, currency),
        "house": money_text(r.house, currency) if r.house else "",
        "prize_pool": money_text(r.prize_pool, currency),
        "unclaimed": money_text(r.unclaimed, currency) if r.unclaimed else "",
        "remainder": money_text(r.remainder, currency) if r.remainder else "",
        "split": [
            {
                "ranking": ranking_title(ranking),
                "places": [
                    {"place": i, "percent": percent_text(p), "amount": money_text(a, currency)}
                    for i, (p, a) in enumerate(
                        zip(pcts, r.shares.get(ranking, ()), strict=False), start=1
                    )
                ],
            }
            for ranking, pcts in view.split.items()
        ],
        "rows": (rows := _pool_rows(view, currency)),
        "groups": _grouped(rows),
        "unpaid": view.unpaid,
        "members": view.members,
    }


def _payout_context(flight: Flight) -> dict[str, Any]:
    found = prizes.flight_payouts(flight=flight)
    currency = found.currency
    return {
        "flight": flight,
        "event": flight.event,
        "payouts": found,
        "final": found.final,
        "is_set": found.settings.is_set,
        "main": _pool_facts(found.main, currency),
        "side_pools": [_pool_facts(view, currency) for view in found.side_pools],
    }


def _render_manage(
    request: HttpRequest,
    event: Event,
    flight: Flight,
    form: MoneyForm | None = None,
    pool_form: SidePoolForm | None = None,
    status: int = 200,
) -> HttpResponse:
    context = _payout_context(flight)
    entries = list(flight.entries.select_related("player").order_by("player__name"))
    for pool in context["side_pools"]:
        inside = {m.entry_id for m in pool["members"]}
        pool["others"] = [e for e in entries if e.pk not in inside]
        pool["unpaid_members"] = [m for m in pool["members"] if m.paid_at is None]
    form = form or _money_form(flight)
    if flight.status == Flight.Status.FINISHED:
        for field in form.fields.values():
            field.disabled = True
    context.update(
        form=form,
        pool_form=pool_form or SidePoolForm(),
        locked=flight.status == Flight.Status.FINISHED,
        live_topics=live.desk_topic(event.pk),
    )
    return render(request, "tournaments/flight_money.html", context, status=status)


@director_required
def flight_money(request: HttpRequest, event: Event, flight_id: int) -> HttpResponse:
    """The director's money page of a flight: the settings form (a post saves it), the
    side pools, and the payouts as they stand."""
    flight = _flight_of(event, flight_id)
    if request.method != "POST":
        return _render_manage(request, event, flight)
    form = _money_form(flight, request.POST)
    if form.is_valid():
        try:
            money.flight_money_set(flight_id=flight.pk, by=request.user, **form.service_kwargs())
        except ApplicationError as exc:
            form.add_refusal(exc)
        else:
            messages.success(request, _("The money settings were saved."))
            return redirect(_money_url(event, flight.pk))
    flight.refresh_from_db()
    return _render_manage(request, event, flight, form=form, status=400)


@director_required
@require_POST
def side_pool_create(request: HttpRequest, event: Event, flight_id: int) -> HttpResponse:
    flight = _flight_of(event, flight_id)
    form = SidePoolForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        ranking = prizes.flight_rankings(flight)[0]
        try:
            money.side_pool_create(
                flight_id=flight.pk,
                by=request.user,
                name=data["name"],
                fee=data["fee"].strip().replace(",", "."),
                split={ranking: _split_parse(data["split"])},
            )
        except ApplicationError as exc:
            field = str(exc.extra.get("field", "")).partition(":")[0]
            form.add_error(field if field in form.fields else None, str(exc.detail))
        else:
            messages.success(request, _("The side pool was created."))
            return redirect(_money_url(event, flight.pk))
    return _render_manage(request, event, flight, pool_form=form, status=400)


def _pool_of(event: Event, pool_id: int) -> SidePool:
    return get_object_or_404(SidePool, pk=pool_id, flight__event=event)


@director_required
@require_POST
def side_pool_act(request: HttpRequest, event: Event, pool_id: int) -> HttpResponseRedirect:
    """One post for a side pool's entrants: ``action`` ``enter`` (``entry``, ``paid``),
    ``leave``, ``paid``, ``unpaid``, or ``delete`` the pool."""
    pool = _pool_of(event, pool_id)
    action = request.POST.get("action", "")
    try:
        entry_id = optional_int(request.POST.get("entry", "")) or 0
    except ValueError:
        entry_id = 0
    by = request.user
    calls = {
        "enter": lambda: money.side_pool_enter(
            pool_id=pool.pk, by=by, entry_id=entry_id, paid=request.POST.get("paid") == "on"
        ),
        "leave": lambda: money.side_pool_leave(pool_id=pool.pk, by=by, entry_id=entry_id),
        "paid": lambda: money.side_pool_paid_set(
            pool_id=pool.pk, by=by, entry_id=entry_id, paid=True
        ),
        "unpaid": lambda: money.side_pool_paid_set(
            pool_id=pool.pk, by=by, entry_id=entry_id, paid=False
        ),
        "delete": lambda: money.side_pool_delete(pool_id=pool.pk, by=by),
    }
    if action not in calls:
        raise Http404
    return act(
        request,
        calls[action],
        to=_money_url(event, pool.flight_id),
        success=_("The side pool was saved."),
    )


def flight_payouts(request: HttpRequest, slug: str, flight_id: int) -> HttpResponse:
    """The payout page: the event's directors always, anyone once the flight is
    finished (before: 404 to the public)."""
    event = get_object_or_404(Event, slug=slug)
    flight = _flight_of(event, flight_id)
    is_director = event.is_director(request.user)
    if not is_director and (
        flight.status != Flight.Status.FINISHED or event.status == Event.Status.DRAFT
    ):
        raise Http404
    context = _payout_context(flight)
    context["is_director"] = is_director
    context["live_topics"] = live.flight_topic(flight.pk)  # the preview follows the results
    return render(request, "tournaments/flight_payouts.html", context)


@director_required
@require_POST
def side_pool_enter_many(request: HttpRequest, event: Event, pool_id: int) -> HttpResponseRedirect:
    """Issue 29: the ticked players (``entry``) into the side pool and the ticked
    ``paid`` boxes marked paid, in one post (all or none)."""
    pool = _pool_of(event, pool_id)

    def ids(name: str) -> list[int]:
        return [int(v) for v in request.POST.getlist(name) if v.strip().isdigit()]

    return act(
        request,
        lambda: money.side_pool_enter_many(
            pool_id=pool.pk, by=request.user, entry_ids=ids("entry"), paid_ids=ids("paid")
        ),
        to=_money_url(event, pool.flight_id),
        success=lambda changed: (
            _("The side pool was saved (%(count)d players).") % {"count": len(changed)}
        ),
    )

"""Notification pages: a player's list (mark read, mark all read) and their choice of
channels per kind; for the director, the deliveries that failed, with a retry button.

Plain forms, no JavaScript needed; every write goes through the services in
:mod:`games.notifications.services`, as the API's do. The list follows the player's own
``user:<id>`` topic live (:mod:`games.notifications.live`; every page of a logged-in
user does, for the header's count): a new notification appears without a reload.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.errors import ApplicationError
from games.models import Notification, NotificationChannel, Player, Webhook
from games.notifications import services as notifications
from games.web import act_and_redirect, show_refusal

PAGE_SIZE = 50

View = Callable[..., HttpResponse]


def _no_player(request: HttpRequest) -> HttpResponse:
    return render(request, "games/notifications/no_player.html", status=403)


def staff_required(view: View) -> View:
    """Logged-in staff only: others get 403 (anonymous visitors the login page)."""

    @login_required
    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_staff:
            raise PermissionDenied
        return view(request, *args, **kwargs)

    return wrapped


# ====================================================================== the player
@login_required
def notification_list_page(request: HttpRequest) -> HttpResponse:
    """The player's notifications. An account without a player (staff, say) receives
    none: the page says so, with an empty list, rather than refusing (403)."""
    me = Player.of_user(request.user)
    unread_only = request.GET.get("unread") == "1"
    found = (
        Notification.objects.none()
        if me is None
        else notifications.notification_list(player=me, unread_only=unread_only)
    )
    page = Paginator(found, PAGE_SIZE).get_page(request.GET.get("page"))
    items = [(n, notifications.notification_text(n)) for n in page]
    return render(
        request,
        "games/notifications/list.html",
        {"page": page, "items": items, "unread_only": unread_only, "no_player": me is None},
    )


@login_required
@require_POST
def notification_read_page(request: HttpRequest, notification_id: int) -> HttpResponse:
    """Mark one read; with ``open`` in the form, go on to the page it points to."""
    me = Player.of_user(request.user)
    if me is None:
        return _no_player(request)
    try:
        notification = notifications.notification_mark_read(
            notification_id=notification_id, player=me
        )
    except ApplicationError as exc:
        show_refusal(request, exc)
        return redirect("notifications:list")
    if request.POST.get("open"):
        url = notifications.notification_text(notification).url
        if url:
            return HttpResponseRedirect(url)  # built by the kind's link, not from the form
    return redirect("notifications:list")


@login_required
@require_POST
def notification_read_all_page(request: HttpRequest) -> HttpResponse:
    me = Player.of_user(request.user)
    if me is None:
        return _no_player(request)
    notifications.notification_mark_all_read(player=me)
    return redirect("notifications:list")


@login_required
def notification_settings_page(request: HttpRequest) -> HttpResponse:
    """A grid of checkboxes, kinds by channels; each checkbox is named after its kind
    and carries the channel as its value."""
    me = Player.of_user(request.user)
    if me is None:
        return _no_player(request)
    kinds = notifications.notification_kinds()
    if request.method == "POST":
        chosen = {kind.code: request.POST.getlist(kind.code) for kind in kinds}
        try:
            notifications.player_set_notification_channels(player=me, channels=chosen)
        except ApplicationError as exc:
            show_refusal(request, exc)
        else:
            messages.success(request, _("Your notification settings were saved."))
            return redirect("notifications:settings")
    current = notifications.player_notification_channels(me)
    rows = [
        {
            "kind": kind,
            "cells": [
                {
                    "channel": channel,
                    "label": NotificationChannel(channel).label,
                    "checked": channel in current[kind.code],
                }
                for channel in notifications.CHANNELS
            ],
        }
        for kind in kinds
    ]
    return render(
        request,
        "games/notifications/settings.html",
        {
            "channels": [NotificationChannel(c).label for c in notifications.CHANNELS],
            "rows": rows,
            "has_email": bool(request.user.email),
            "has_webhook": Webhook.objects.filter(is_active=True).exists(),
        },
    )


# ====================================================================== the director
@staff_required
def notification_failures_page(request: HttpRequest) -> HttpResponse:
    failures = list(notifications.notification_delivery_failures())
    return render(request, "games/notifications/failures.html", {"failures": failures})


@staff_required
@require_POST
def delivery_retry_page(request: HttpRequest, delivery_id: int) -> HttpResponse:
    return act_and_redirect(
        request,
        lambda: notifications.notification_delivery_retry(delivery_id=delivery_id),
        to=reverse("notifications:failures"),
        success=_("The notification will be sent again."),
    )

"""The notification kind of sign-up: staff who are players are told in the app that a
sign-up waits for them (registered when the app is ready, as every kind)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.notifications.services import IN_APP, register_kind


def _render(context: Mapping[str, Any]) -> tuple[str, str]:
    name = context.get("name", "?")
    title = _("Sign-up waiting: %(name)s") % {"name": name}
    body = _("%(name)s (%(username)s) signed up and waits for staff's approval.") % {
        "name": name,
        "username": context.get("username", "?"),
    }
    return title, body


def _link(context: Mapping[str, Any]) -> str:
    return reverse("signup-list")


def register() -> None:
    register_kind(
        "signup_waiting",
        label=gettext_lazy("Sign-up waiting for approval"),
        default_channels=(IN_APP,),
        render=_render,
        link=_link,
    )

"""Helpers the apps' server-rendered pages share (games, tournaments, chouette).

A page that changes something posts a form, calls one service and redirects. On a
refusal (an :class:`~games.errors.ApplicationError`) the user is sent back with the
service's own message, and nothing has changed: the service refused inside its
transaction. This is that shape, once, so that every page tells a refusal the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django.contrib import messages
from django.http import HttpRequest, HttpResponseRedirect
from django.utils.http import url_has_allowed_host_and_scheme

from games.errors import ApplicationError

T = TypeVar("T")

#: How a page words a refusal: the message by default; an app may add the details its
#: people need (e.g. the opponent's report when two reports disagree).
Explain = Callable[[ApplicationError], str]


def refusal_text(exc: ApplicationError) -> str:
    """A service's refusal as people read it: its human message."""
    return str(exc.detail)


def show_refusal(
    request: HttpRequest, exc: ApplicationError, *, explain: Explain = refusal_text
) -> None:
    """Put the refusal on the next page the user sees."""
    messages.error(request, explain(exc))


def act_and_redirect(
    request: HttpRequest,
    action: Callable[[], T],
    *,
    to: str,
    success: str | Callable[[T], str] | None = None,
    then: Callable[[T], str] | None = None,
    explain: Explain = refusal_text,
) -> HttpResponseRedirect:
    """Run ``action`` (one service call); redirect to ``to``.

    Done: show ``success`` (a text, or a function of the result) and go to ``then(result)``
    when given, else ``to``. Refused: show the service's message (through ``explain``)
    and go to ``to``.
    """
    try:
        result = action()
    except ApplicationError as exc:
        show_refusal(request, exc, explain=explain)
        return HttpResponseRedirect(to)
    if success is not None:
        messages.success(request, success(result) if callable(success) else success)
    return HttpResponseRedirect(then(result) if then is not None else to)


def next_or(request: HttpRequest, default: str) -> str:
    """The form's ``next`` when it is an address on this site, else ``default``: where
    a form posted from several pages sends its user back to."""
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return default

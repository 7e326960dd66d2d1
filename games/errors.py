"""The application's error hierarchy.

Services raise these; the API's exception handler (``config.api``) turns each into JSON
``{"code": ..., "detail": ...}`` with the class's HTTP status, and the web pages show the
detail. ``code`` is stable (clients branch on it); ``detail`` is a translated,
human-readable sentence. Raising one inside a service's transaction rolls it back, so a
refused write changes nothing.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


class ApplicationError(Exception):
    """A request the application refuses, with a stable code and a message for people."""

    status = 400

    def __init__(self, code: str, detail: str | Promise, *, extra: dict[str, object] | None = None):
        super().__init__(f"{code}: {detail}")
        self.code = code
        self.detail = detail
        self.extra = extra or {}


class ValidationFailed(ApplicationError):
    """The input is malformed or breaks a rule (HTTP 400)."""

    status = 400


class PermissionDenied(ApplicationError):
    """The user may not do this (HTTP 403)."""

    status = 403


class NotFound(ApplicationError):
    """The thing asked for does not exist (HTTP 404)."""

    status = 404


class Conflict(ApplicationError):
    """The request is valid but the state has moved on: stale version, not your turn,
    already finished (HTTP 409)."""

    status = 409


class Unavailable(ApplicationError):
    """A service the request needs is not available here (HTTP 503): e.g. GNU
    Backgammon for the practice opponent."""

    status = 503


class ServiceUnavailable(Unavailable):
    """A service the server itself needs does not answer (HTTP 503
    ``service_unavailable``): Redis, where the throttles count attempts, down for a
    moment. The request changed nothing; the same request succeeds once it is back.
    Raised for a ``redis.RedisError`` by the throttles (games.api.throttles), by the
    API's exception handler and by the pages' middleware (config.api), so that a
    Redis outage is never a 500."""

    def __init__(self) -> None:
        super().__init__(
            "service_unavailable",
            _("The server cannot serve this request right now. Please try again in a minute."),
        )

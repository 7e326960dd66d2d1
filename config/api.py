"""The single mapping from errors to API responses.

Every error leaves the API as ``{"code": <stable code>, "detail": <human message>}``:
our :class:`games.errors.ApplicationError` hierarchy with its own status, and DRF's and
Django's errors (validation, authentication, 404, throttling) with their DRF codes, so
that a client needs exactly one way to read a refusal. Field-level validation errors keep
their per-field messages under ``"errors"``.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games.errors import ApplicationError


def _first_message(detail: Any) -> str:
    """The first human-readable message in a DRF error detail structure."""
    if isinstance(detail, dict):
        for value in detail.values():
            return _first_message(value)
    if isinstance(detail, list) and detail:
        return _first_message(detail[0])
    return str(detail)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ApplicationError):
        body: dict[str, Any] = {"code": exc.code, "detail": str(exc.detail), **exc.extra}
        return Response(body, status=exc.status)

    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()

    response = drf_exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        return response  # an unexpected error: Django's 500 handling and logging apply

    if isinstance(exc, exceptions.ValidationError):
        response.data = {
            "code": "invalid",
            "detail": _("The request is not valid: %(reason)s")
            % {"reason": _first_message(exc.detail)},
            "errors": exc.detail,
        }
        response.status_code = status.HTTP_400_BAD_REQUEST
    else:
        codes = exc.get_codes()
        code = codes if isinstance(codes, str) else exc.default_code
        response.data = {"code": code, "detail": str(exc.detail)}
    return response

"""The single mapping from errors to API responses.

Every error leaves the API as ``{"code": <stable code>, "detail": <human message>}``:
our :class:`games.errors.ApplicationError` hierarchy with its own status, and DRF's and
Django's errors (validation, authentication, 404, throttling) with their DRF codes, so
that a client needs exactly one way to read a refusal. Field-level validation errors keep
their per-field messages under ``"errors"``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import redis
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views import defaults
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games.errors import ApplicationError, ServiceUnavailable, Unavailable

logger = logging.getLogger(__name__)


def _first_message(detail: Any) -> str:
    """The first human-readable message in a DRF error detail structure."""
    if isinstance(detail, dict):
        for value in detail.values():
            return _first_message(value)
    if isinstance(detail, list) and detail:
        return _first_message(detail[0])
    return str(detail)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, redis.RedisError):
        # Redis down (the throttles count there; the cache): a moment's outage, not our
        # bug -- 503 service_unavailable, as the pages' middleware below answers.
        logger.warning("Redis did not answer: %s", exc)
        exc = ServiceUnavailable()
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


# ---------------------------------------------------------------------------- Django's errors
# What never reaches a DRF view -- a path no URL matches (``/api/v1/matches/abc/``), a
# body over DATA_UPLOAD_MAX_MEMORY_SIZE, an unexpected error -- is answered by Django's
# handler404/400/403/500 (config.urls). Under /api/ they answer in the API's shape too;
# every other page keeps Django's HTML error pages.
def _is_api(request: HttpRequest) -> bool:
    return request.path_info.startswith("/api/")


def _error(code: str, detail: str, status_code: int) -> JsonResponse:
    return JsonResponse({"code": code, "detail": detail}, status=status_code)


def handler404(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        return _error("not_found", str(exceptions.NotFound.default_detail), 404)
    return defaults.page_not_found(request, exception)


def handler400(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        if isinstance(exception, RequestDataTooBig):
            return _error("request_too_large", _("The request body is too large."), 413)
        return _error("bad_request", _("The request could not be understood."), 400)
    return defaults.bad_request(request, exception)


def handler403(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        return _error("permission_denied", str(exceptions.PermissionDenied.default_detail), 403)
    return defaults.permission_denied(request, exception)


def handler500(request: HttpRequest) -> HttpResponse:
    if _is_api(request):
        return _error("server_error", _("Something went wrong on the server."), 500)
    return defaults.server_error(request)


# ---------------------------------------------------------------------------- 503
class ServiceUnavailableMiddleware:
    """A page that needs a service the server cannot reach right now -- Redis, where the
    login page's and the code pages' throttles count -- answers a 503 page saying to try
    again (``503.html``), not Django's 500. Under /api/ DRF's views answer through
    :func:`exception_handler`; what escapes them answers in the API's shape."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, redis.RedisError):
            logger.warning("Redis did not answer: %s", exception)
            exception = ServiceUnavailable()
        if not isinstance(exception, Unavailable):
            return None
        if _is_api(request):
            return _error(exception.code, str(exception.detail), 503)
        return render(request, "503.html", {"detail": exception.detail}, status=503)

"""``GET /healthz``: does this process reach its database and its Redis?

Load balancers and the deploy script poll it. 200 when every configured part answers,
503 naming the part that does not. The local one-command run has no Redis configured;
it reports Redis as ``"not configured"`` rather than pretending it answered.
"""

from __future__ import annotations

import time

import redis
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

#: How long a health check may wait for Redis before calling it down.
REDIS_TIMEOUT_SECONDS = 2.0


def _check_database() -> dict[str, object]:
    started = time.perf_counter()
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any failure means "down"; say which
        return {"status": "down", "vendor": connection.vendor, "error": type(exc).__name__}
    return {
        "status": "ok",
        "vendor": connection.vendor,
        "ms": round((time.perf_counter() - started) * 1000, 1),
    }


def _check_redis() -> dict[str, object]:
    if not settings.REDIS_URL:
        return {"status": "not configured"}
    started = time.perf_counter()
    client = redis.Redis.from_url(
        settings.REDIS_URL,
        socket_connect_timeout=REDIS_TIMEOUT_SECONDS,
        socket_timeout=REDIS_TIMEOUT_SECONDS,
    )
    try:
        client.ping()
    except redis.RedisError as exc:
        return {"status": "down", "error": type(exc).__name__}
    finally:
        client.close()
    return {"status": "ok", "ms": round((time.perf_counter() - started) * 1000, 1)}


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    checks = {"database": _check_database(), "redis": _check_redis()}
    failing = [name for name, check in checks.items() if check["status"] == "down"]
    body = {"status": "down" if failing else "ok", "failing": failing, **checks}
    return JsonResponse(body, status=503 if failing else 200)


@require_GET
def favicon(request: HttpRequest) -> HttpResponse:
    """No icon, answered empty. A browser asks for /favicon.ico on its first visit (no page
    names an icon); a 404 page there renders the base template's CSRF token and sets a new
    ``csrftoken`` cookie, racing the page that asked: a login form just loaded would then be
    refused (403 CSRF) on its first submit."""
    return HttpResponse(status=204, headers={"Cache-Control": "public, max-age=86400"})

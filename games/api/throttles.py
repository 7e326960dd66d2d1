"""The project's throttles: attempts counted atomically (issue 30), and the throttles of
short codes typed by people (issue 17, issue 19).

DRF's :class:`~rest_framework.throttling.SimpleRateThrottle` reads a client's history
from the cache, decides, and writes it back: two requests at once both read the same
history and both pass (a production probe got 14 of 50 simultaneous chouette joins
through a limit of 10). :class:`AtomicRateThrottle` keeps DRF's rule -- at most
``num_requests`` in any ``duration`` seconds, a refused attempt not counted, Retry-After
the time until the oldest counted attempt leaves the window -- but decides it in one
step: on Redis (production, CI) a Lua script over a sorted set of the attempts' times,
which Redis runs alone; on the in-process cache of the local run (one process) under a
lock. Every throttle of the project derives from it (a test checks the views').

When Redis does not answer, the throttle cannot count, and it refuses rather than letting
every attempt through: 503 ``service_unavailable`` (games.errors.ServiceUnavailable),
never a 500.

A code of 6 letters of 31 is found by trying unless the attempts are counted:
:class:`CodeThrottle` counts per user, or without a login per client address; each app
names its scope (a rate of ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``), and its pages
and API count together through :func:`attempt_allowed`."""

from __future__ import annotations

import secrets
import threading
from typing import Any

import redis
from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from rest_framework.throttling import SimpleRateThrottle

from games.errors import ServiceUnavailable

#: One attempt, decided inside Redis. KEYS[1]: the sorted set of the counted attempts
#: (member: unique, score: time in seconds); ARGV: now, duration, limit, the new member.
#: Drops the attempts out of the window (as DRF: at or before now - duration), then
#: counts this one if there is room. Answers "" when it is allowed, else the oldest
#: attempt's time (as text: a Lua number would reach Python as a truncated integer).
_SLIDING_LOG = """
local now = tonumber(ARGV[1])
local duration = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - duration)
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[3]) then
  redis.call('ZADD', KEYS[1], now, ARGV[4])
  redis.call('EXPIRE', KEYS[1], math.ceil(duration))
  return ''
end
return redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2]
"""

#: The local run's in-process cache lives in one process: a lock there makes the
#: read-decide-write of the history one step.
_IN_PROCESS = threading.Lock()


def client_ip(request: Any) -> str | None:
    """The client's address as every throttle and django-axes count it: REMOTE_ADDR, or
    behind ``TRUSTED_PROXY_COUNT`` proxies the address in X-Forwarded-For that the
    outermost one added. With no proxy counted the header is the client's own words, and
    ignored: DRF's ``get_ident`` would read it whole, so a client naming a new address
    each time would never be throttled."""
    count = settings.TRUSTED_PROXY_COUNT
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if count and forwarded:
        addresses = [a.strip() for a in forwarded.split(",")]
        return addresses[-min(count, len(addresses))] or None
    return request.META.get("REMOTE_ADDR")


class AtomicRateThrottle(SimpleRateThrottle):
    """DRF's rate throttle with the count decided atomically. Subclasses set ``scope``
    and ``get_cache_key``; a refusal is DRF's (429 ``throttled`` with Retry-After)."""

    def get_ident(self, request: Any) -> str:
        return client_ip(request) or ""

    #: The time of the oldest counted attempt when this one was refused, else None.
    oldest: float | None = None

    def allow_request(self, request: Any, view: Any) -> bool:
        if self.rate is None:
            return True
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        self.now = self.timer()
        backend = caches["default"]
        try:
            if isinstance(backend, RedisCache):
                self.oldest = self._count_in_redis(backend, self.key)
            else:
                self.oldest = self._count_in_process(backend, self.key)
        except redis.RedisError as exc:
            raise ServiceUnavailable() from exc
        return self.oldest is None

    def _count_in_redis(self, backend: RedisCache, key: str) -> float | None:
        full_key = backend.make_and_validate_key(key)
        # Django's RedisCache has no public door to a script: its client, as the
        # suite's cleanup reaches it (tests/conftest.py).
        client = backend._cache.get_client(full_key, write=True)
        member = f"{self.now!r}-{secrets.token_hex(6)}"
        answer = client.register_script(_SLIDING_LOG)(
            keys=[full_key], args=[repr(self.now), self.duration, self.num_requests, member]
        )
        if isinstance(answer, bytes):
            answer = answer.decode()
        return float(answer) if answer else None

    def _count_in_process(self, backend: Any, key: str) -> float | None:
        with _IN_PROCESS:
            history: list[float] = backend.get(key, [])
            while history and history[-1] <= self.now - self.duration:
                history.pop()
            if len(history) >= self.num_requests:
                return history[-1]
            history.insert(0, self.now)
            backend.set(key, history, self.duration)
            return None

    def wait(self) -> float | None:
        """Seconds until the oldest counted attempt leaves the window (DRF's
        Retry-After): then this one would be allowed. At most the window: an attempt
        at once with this one may have read the clock a moment later and be counted."""
        if self.oldest is None:
            return None
        return min(self.duration, max(0.001, self.duration - (self.now - self.oldest)))


class CodeThrottle(AtomicRateThrottle):
    """Subclasses set ``scope``."""

    def get_cache_key(self, request: Any, view: Any) -> str:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            ident = f"user-{user.pk}"
        else:
            ident = f"addr-{self.get_ident(request)}"
        return self.cache_format % {"scope": self.scope, "ident": ident}


def attempt_allowed(request: Any, throttle: type[AtomicRateThrottle]) -> tuple[bool, int]:
    """For a page: whether this attempt may go on (it is counted), else the seconds to
    wait. Redis down: :class:`~games.errors.ServiceUnavailable` (the pages' 503)."""
    counter = throttle()
    if counter.allow_request(request, None):
        return True, 0
    return False, max(1, round(counter.wait() or 1))

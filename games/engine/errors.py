"""Errors raised by the rules engine.

Every rule violation is an :class:`EngineError` carrying a stable, machine-readable
``code`` (for example ``illegal_play`` or ``crawford_no_double``) and an English
``message`` for logs. The engine never translates: the application maps the code to a
translated text and an HTTP status at its edge.
"""

from __future__ import annotations


class EngineError(Exception):
    """A rule was broken or an input could not be understood.

    ``code`` is stable and part of the public contract (the API returns it); ``message``
    is a developer-facing explanation in English; ``field``, when given, names the input
    that was refused (e.g. ``reserve_ms`` of clock settings).
    """

    def __init__(self, code: str, message: str, *, field: str | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.field = field

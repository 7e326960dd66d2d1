"""What every app's API shares: the shape of a refusal and its OpenAPI description.

Errors leave the API as ``{"code": ..., "detail": ...}`` (``config.api`` maps the
application errors to their HTTP status once); views name the statuses they can answer
with :func:`error_responses`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers

#: The statuses a write endpoint may refuse with (README: bad input gets a clear error).
WRITE_STATUSES = (400, 401, 403, 404, 409)


class ErrorOutput(serializers.Serializer):
    """Every refusal: a stable code to branch on and a sentence for people."""

    code = serializers.CharField()
    detail = serializers.CharField()


def error_responses(
    statuses: Iterable[int] | Mapping[int, str] = WRITE_STATUSES,
    *,
    schema: Any = ErrorOutput,
) -> dict[int, Any]:
    """The ``responses`` entries of an endpoint's refusals: ``{status: ErrorOutput}``, or,
    given ``{status: description}``, each with its description (the codes it answers)."""
    if isinstance(statuses, Mapping):
        return {
            status: OpenApiResponse(schema, description=description)
            for status, description in statuses.items()
        }
    return dict.fromkeys(statuses, schema)

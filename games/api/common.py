"""What every app's API shares: the shape of a refusal and its OpenAPI description, the
shapes of a player, and the player behind a request.

Errors leave the API as ``{"code": ..., "detail": ...}`` (``config.api`` maps the
application errors to their HTTP status once); views name the statuses they can answer
with :func:`error_responses`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers
from rest_framework.request import Request

from games.models import Player

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


class PlayerOutput(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "name", "country", "club", "rating", "experience", "is_active"]
        read_only_fields = fields


class PlayerRef(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "name"]
        read_only_fields = fields


def request_player(request: Request) -> Player:
    """The player behind the logged-in user (403 ``no_player`` when there is none)."""
    return Player.of_user_or_refuse(request.user)

"""What every app's API shares: the shape of a refusal and its OpenAPI description, the
shapes of a player, and the player behind a request.

Errors leave the API as ``{"code": ..., "detail": ...}`` (``config.api`` maps the
application errors to their HTTP status once); views name the statuses they can answer
with :func:`error_responses`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import serializers
from rest_framework.parsers import BaseParser
from rest_framework.request import Request
from rest_framework.settings import api_settings

from games.errors import ValidationFailed
from games.models import Player

#: The statuses a write endpoint may refuse with (README: bad input gets a clear error).
WRITE_STATUSES = (400, 401, 403, 404, 409)


#: The page parameters of a list paginated by hand (a view that is not a generic list
#: view, whose paginator drf-spectacular cannot see).
#: Their bounds are :class:`games.api.pagination.Pagination`'s (a limit from 1, served
#: as at most 200; an offset from 0).
PAGE_PARAMETERS = [
    OpenApiParameter(
        "limit",
        {"type": "integer", "minimum": 1},
        description="Rows a page: 50 by default, at most 200 (a larger limit is served "
        "as that many).",
    ),
    OpenApiParameter(
        "offset",
        {"type": "integer", "minimum": 0},
        description="Where the page starts (0: the first).",
    ),
]


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


def json_parsers() -> list[type[BaseParser]]:
    """The API's JSON parsers alone (the configured ones, with their limits): for an input
    of nested objects, which a form cannot carry (a form field holding JSON text would
    be read as an empty object and accepted)."""
    return [p for p in api_settings.DEFAULT_PARSER_CLASSES if p.media_type == "application/json"]


def request_player(request: Request) -> Player:
    """The player behind the logged-in user (403 ``no_player`` when there is none)."""
    return Player.of_user_or_refuse(request.user)


def query_choice(
    request: Request, name: str, choices: Iterable[str], *, default: str | None = None
) -> str | None:
    """The query parameter ``name``, one of ``choices`` (``default`` when not given): a
    value out of them is refused (400 ``invalid_<name>``), never ignored."""
    value = request.query_params.get(name)
    if value is None:
        return default
    allowed = list(choices)
    if value not in allowed:
        raise ValidationFailed(
            f"invalid_{name}",
            _("%(name)s must be one of: %(choices)s.")
            % {"name": name, "choices": ", ".join(allowed)},
        )
    return value


#: How a boolean query parameter may be written (as DRF's BooleanField reads it).
_FLAGS = {"true": True, "1": True, "false": False, "0": False}


def query_flag(request: Request, name: str) -> bool:
    """The boolean query parameter ``name`` (false when not given): ``true``/``false``
    or ``1``/``0``, any case; anything else is refused (400 ``invalid_<name>``)."""
    value = request.query_params.get(name)
    if value is None:
        return False
    if value.lower() not in _FLAGS:
        raise ValidationFailed(
            f"invalid_{name}", _("%(name)s must be true or false.") % {"name": name}
        )
    return _FLAGS[value.lower()]

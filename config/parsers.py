"""The API's JSON parser: DRF's, refusing what would break or hold up the code behind it.

* JSON nested about 1,000 levels deep exhausted Python's recursion limit in the decoder:
  a ``RecursionError``, so a 500, on every JSON endpoint (issue 16). Such a body is now a
  400 ``parse_error``, and so is one nested deeper than :data:`MAX_DEPTH` that the
  decoder could still read (the serializers, the JSON columns and the encoder all recurse
  too; no request of this API nests more than a few levels).
* DRF reads a JSON body straight from the socket, past Django's
  ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (which guards only ``request.body`` and forms): a body
  over that size is refused here, 413 ``request_too_large``, as Django refuses a form.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import exceptions, parsers, status
from rest_framework.utils import json

MAX_DEPTH = 32


class RequestTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "request_too_large"
    default_detail = gettext_lazy("The request body is too large.")


def _too_deep(data: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether ``data`` nests lists and objects more than ``limit`` deep (no recursion)."""
    level: list[Any] = [data]
    for _depth in range(limit + 1):
        level = [
            child
            for value in level
            if isinstance(value, dict | list)
            for child in (value.values() if isinstance(value, dict) else value)
        ]
        if not level:
            return False
    return True


class JSONParser(parsers.JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        raw = stream.read() if limit is None else stream.read(limit + 1)
        if limit is not None and len(raw) > limit:
            raise RequestTooLarge()
        encoding = parsers.get_encoding(parser_context or {})
        try:
            text = raw.decode(encoding)
            data = json.loads(text, parse_constant=json.strict_constant if self.strict else None)
        except RecursionError:
            data, too_deep = None, True
        except ValueError as exc:  # also UnicodeDecodeError
            raise exceptions.ParseError(
                _("JSON parse error - %(error)s") % {"error": exc}
            ) from None
        else:
            too_deep = _too_deep(data)
        if too_deep:
            raise exceptions.ParseError(
                _("JSON parse error: nested more than %(max)d levels deep.") % {"max": MAX_DEPTH}
            )
        return data

"""The API's paginated lists: ``?limit=`` (default 50) and ``?offset=`` (issue 16).

At most :data:`MAX_PAGE_SIZE` rows a page: a larger ``limit`` is served as that many (the
``next`` link goes on from there), so no request can ask for the whole table -- nor send
PostgreSQL a LIMIT beyond its bigint, which was a 500. Anything else that is not a
positive ``limit`` or a non-negative ``offset`` (``0``, ``-1``, ``abc``) is refused, 400
``invalid_limit`` / ``invalid_offset``, rather than quietly read as the default; an offset
past the end is an empty page. Every list of the API uses this class
(``DEFAULT_PAGINATION_CLASS``, or a subclass).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request

from games.errors import ValidationFailed

MAX_PAGE_SIZE = 200
DEFAULT_PAGE_SIZE = 50


#: Digits past which a number is read as this "more than any table" value: Python's
#: int() refuses a string of more than 4,300 digits (a ValueError, which was a 500), and
#: no limit or offset needs more than 20.
_LONGEST = 20
_HUGE = 10**_LONGEST


def _whole_number(text: str) -> int | None:
    """``text`` as a non-negative integer, ``None`` if it is not one (digits only); a
    number of more than :data:`_LONGEST` digits is read as :data:`_HUGE` (a limit is
    capped, an offset past the end is an empty page either way)."""
    if not (text.isascii() and text.isdigit()):
        return None
    digits = text.lstrip("0") or "0"
    return _HUGE if len(digits) > _LONGEST else int(digits)


class Pagination(LimitOffsetPagination):
    default_limit = DEFAULT_PAGE_SIZE
    max_limit = MAX_PAGE_SIZE

    def get_limit(self, request: Request) -> int:
        text = request.query_params.get(self.limit_query_param)
        if text is None:
            return self.default_limit
        limit = _whole_number(text)
        if limit is None or limit < 1:
            raise ValidationFailed(
                "invalid_limit",
                _("limit is a whole number from 1 (at most %(max)d rows are sent).")
                % {"max": self.max_limit},
            )
        return min(limit, self.max_limit)

    def get_offset(self, request: Request) -> int:
        text = request.query_params.get(self.offset_query_param)
        if text is None:
            return 0
        offset = _whole_number(text)
        if offset is None:
            raise ValidationFailed("invalid_offset", _("offset is a whole number from 0."))
        return offset

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.limit_query_param:
                parameter["schema"]["minimum"] = 1
                parameter["description"] = (
                    f"Rows a page: {DEFAULT_PAGE_SIZE} by default, at most {MAX_PAGE_SIZE} "
                    "(a larger limit is served as that many)."
                )
            elif parameter["name"] == self.offset_query_param:
                parameter["schema"]["minimum"] = 0
        return parameters

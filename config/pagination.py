"""The API's paginated lists: ``?limit=`` (default 50) and ``?offset=``.

At most :data:`MAX_PAGE_SIZE` rows a page: a larger ``limit`` is served as that many (the
``next`` link goes on from there), so no request can ask for the whole table -- nor send
PostgreSQL a LIMIT beyond its bigint, which was a 500 (issue 16). A missing, malformed or
non-positive ``limit`` is the default; a malformed or negative ``offset`` is 0, and an
offset past the end is an empty page (DRF's reading of both).
"""

from __future__ import annotations

from typing import Any

from rest_framework.pagination import LimitOffsetPagination

MAX_PAGE_SIZE = 200
DEFAULT_PAGE_SIZE = 50


class Pagination(LimitOffsetPagination):
    default_limit = DEFAULT_PAGE_SIZE
    max_limit = MAX_PAGE_SIZE

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

"""The OpenAPI schema's generator (``REST_FRAMEWORK["DEFAULT_SCHEMA_CLASS"]``): every
operation also declares the refusals its view can give by the way it is built, which the
views need not repeat (issue 16: the probe found the schema silent about them):

- 400 for a write, and for a read that takes query parameters (a value out of its
  choices or range is refused, never ignored);
- 401 wherever a request is authenticated: a token that is not valid is refused on every
  operation, a missing login where one is needed;
- 403 for a write that needs a login (a permission, or the CSRF check of a session);
- 404 for an operation with an id in its path;
- 413 and 415 for an operation that takes a body (over the upload limit, or not one of
  the parsers' media types);
- 429 where the view has a throttle, and 503 ``service_unavailable`` there too (the
  throttle counts in Redis, and refuses while Redis does not answer).

Each is ``{"code", "detail"}`` (:class:`games.api.common.ErrorOutput`); what a view
declares itself (with its codes) is kept as it is."""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiResponse
from rest_framework import permissions

from games.api.common import ErrorOutput

#: The refusals a view's own make-up implies, with what they say in the schema.
DESCRIPTIONS = {
    400: "`invalid` (each field's reasons in `errors`), or the rule's own code.",
    401: "Not logged in, or the token is not valid.",
    403: "Not allowed: the code says why.",
    404: "Not found.",
    413: "The body is over the size limit.",
    415: "The body is not of a supported media type.",
    429: "Too many requests: wait and try again.",
    503: "`service_unavailable`: the server cannot count attempts right now; try again.",
}

_OPEN = (permissions.AllowAny,)
_OPEN_FOR_READING = (permissions.IsAuthenticatedOrReadOnly,)


class ClubAutoSchema(AutoSchema):
    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        responses: dict[str, Any] = super()._get_response_bodies(direction)
        for status in self.implied_refusals():
            responses.setdefault(
                str(status),
                self._get_response_for_code(
                    OpenApiResponse(ErrorOutput, description=DESCRIPTIONS[status]),
                    str(status),
                    direction=direction,
                ),
            )
        return responses

    def implied_refusals(self) -> list[int]:
        view = self.view
        write = self.method not in permissions.SAFE_METHODS
        has_body = write and self._get_request_body() is not None
        has_query = any(p.get("in") == "query" for p in self._get_parameters())
        checks = [type(p) for p in view.get_permissions()]
        needs_login = any(
            not issubclass(p, _OPEN) and not (issubclass(p, _OPEN_FOR_READING) and not write)
            for p in checks
        )
        statuses = []
        if write or has_query:
            statuses.append(400)
        if view.get_authenticators():
            statuses.append(401)
        if write and needs_login:
            statuses.append(403)
        if "{" in self.path:
            statuses.append(404)
        if has_body:
            statuses += [413, 415]
        if view.get_throttles():
            statuses += [429, 503]
        return statuses

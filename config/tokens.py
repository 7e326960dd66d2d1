"""``POST /api/v1/auth/token/``: a user's API token for their username and password,
guarded against brute force (issue 16).

Throttled per client address (the ``auth_token`` rate: 429 ``throttled`` with
Retry-After; 503 ``service_unavailable`` while Redis, where it counts, is down) before
the password is hashed. Each failure counts for django-axes: after
AXES_FAILURE_LIMIT failures of one username from one address, that pair is refused for
the cool-off with 429 ``locked_out`` -- also with the right password, and without hashing
it (axes' backend stops the login before Django's checks the password). Its own module:
``config.authentication`` is imported while DRF itself loads.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings

from config.security import TokenThrottle, cool_off_seconds, lockout_message
from games.api.common import ErrorOutput


class TokenOutput(serializers.Serializer):
    token = serializers.CharField()


class TokenApi(ObtainAuthToken):
    """Issue (or return) the user's token."""

    throttle_classes = [TokenThrottle]
    parser_classes = api_settings.DEFAULT_PARSER_CLASSES

    @extend_schema(
        responses={
            200: TokenOutput,
            400: OpenApiResponse(ErrorOutput, description="invalid, parse_error"),
            413: OpenApiResponse(ErrorOutput, description="request_too_large"),
            429: OpenApiResponse(ErrorOutput, description="throttled, locked_out"),
        },
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        serializer = self.get_serializer(data=request.data)
        valid = serializer.is_valid()
        # axes' backend flags the request it was handed: DRF's, so AxesMiddleware (which
        # sees Django's) does not answer for us.
        if getattr(request, "axes_locked_out", False):
            return Response(
                {"code": "locked_out", "detail": lockout_message()},
                status=status.HTTP_429_TOO_MANY_REQUESTS,
                headers={"Retry-After": str(cool_off_seconds())},
            )
        if not valid:
            raise exceptions.ValidationError(serializer.errors)
        token, _created = Token.objects.get_or_create(user=serializer.validated_data["user"])
        return Response({"token": token.key})

"""The notifications API: the requester's list with its unread count, mark read, and
their channel choices per kind. Every write goes through ``games.notifications.services``; errors
leave as ``{"code", "detail"}`` (``config.api``)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.common import (
    PAGE_PARAMETERS,
    ErrorOutput,
    error_responses,
    json_parsers,
    query_flag,
    request_player,
)
from games.api.pagination import Pagination
from games.models import Notification, Player
from games.notifications import services as notifications


# ====================================================================== shapes
class NotificationOutput(serializers.ModelSerializer):
    """Title, body and link in the requester's language (``Accept-Language``)."""

    title = serializers.SerializerMethodField()
    body = serializers.SerializerMethodField()
    url = serializers.SerializerMethodField()
    read = serializers.SerializerMethodField()

    class Meta:
        model = Notification
        fields = [
            "id",
            "kind",
            "subject",
            "title",
            "body",
            "url",
            "context",
            "created_at",
            "read",
            "read_at",
        ]
        read_only_fields = fields

    def _text(self, notification: Notification) -> notifications.NotificationText:
        cache = self.context.setdefault("_texts", {})
        if notification.pk not in cache:
            cache[notification.pk] = notifications.notification_text(notification)
        return cache[notification.pk]

    def get_title(self, notification: Notification) -> str:
        return self._text(notification).title

    def get_body(self, notification: Notification) -> str:
        return self._text(notification).body

    def get_url(self, notification: Notification) -> str:
        return self._text(notification).url

    def get_read(self, notification: Notification) -> bool:
        return notification.read_at is not None


class NotificationPageOutput(serializers.Serializer):
    count = serializers.IntegerField()
    unread_count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = NotificationOutput(many=True)


class MarkAllReadOutput(serializers.Serializer):
    marked = serializers.IntegerField()
    unread_count = serializers.IntegerField()


class KindOutput(serializers.Serializer):
    code = serializers.CharField()
    label = serializers.CharField()
    default_channels = serializers.ListField(child=serializers.CharField())


class ChannelsOutput(serializers.Serializer):
    channels = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text="The channels of each kind: {kind: [channel, ...]}.",
    )
    kinds = KindOutput(many=True)
    available_channels = serializers.ListField(child=serializers.CharField())


class ChannelsInput(serializers.Serializer):
    channels = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField(max_length=20)),
        help_text="{kind: [channel, ...]} replaces every choice; a kind left out goes back "
        "to its default. Unknown kinds and channels are refused "
        "(unknown_notification_kind, unknown_notification_channel).",
    )


ERRORS = error_responses({401: "Not logged in.", 403: "`no_player`: the account has no player."})


# ====================================================================== views
class NotificationPagination(Pagination):
    default_limit = 50
    max_limit = 200


class NotificationListApi(APIView):
    """The requester's notifications, newest first, with how many are unread. An
    account without a player (staff, say) has none: an empty page, not a refusal."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        parameters=[
            OpenApiParameter("unread", bool, description="Only the unread ones."),
            *PAGE_PARAMETERS,
        ],
        responses={200: NotificationPageOutput, **error_responses({401: "Not logged in."})},
    )
    def get(self, request: Request) -> Response:
        me = Player.of_user(request.user)
        unread_only = query_flag(request, "unread")
        paginator = NotificationPagination()
        found = (
            Notification.objects.none()
            if me is None
            else notifications.notification_list(player=me, unread_only=unread_only)
        )
        page = paginator.paginate_queryset(found, request, self)
        results = NotificationOutput(page, many=True).data
        return Response(
            {
                "count": paginator.count,
                "unread_count": (
                    0 if me is None else notifications.notification_unread_count(player=me)
                ),
                "next": paginator.get_next_link(),
                "previous": paginator.get_previous_link(),
                "results": results,
            }
        )


class NotificationReadApi(APIView):
    """Mark one of the requester's notifications read (again is harmless)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=None,
        responses={
            200: NotificationOutput,
            **ERRORS,
            404: OpenApiResponse(ErrorOutput, description="`notification_not_found`"),
        },
    )
    def post(self, request: Request, notification_id: int) -> Response:
        notification = notifications.notification_mark_read(
            notification_id=notification_id, player=request_player(request)
        )
        return Response(NotificationOutput(notification).data)


class NotificationReadAllApi(APIView):
    """Mark every notification of the requester read."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={200: MarkAllReadOutput, **ERRORS})
    def post(self, request: Request) -> Response:
        me = request_player(request)
        marked = notifications.notification_mark_all_read(player=me)
        return Response({"marked": marked, "unread_count": 0})


class NotificationChannelsApi(APIView):
    """Which channels (``in_app``, ``email``, ``webhook``) each kind reaches the
    requester on; PUT replaces the choice."""

    permission_classes = [permissions.IsAuthenticated]
    parser_classes = json_parsers()

    def _body(self, channels: dict[str, list[str]]) -> dict[str, Any]:
        return {
            "channels": channels,
            "kinds": [
                {
                    "code": kind.code,
                    "label": str(kind.label),
                    "default_channels": list(kind.default_channels),
                }
                for kind in notifications.notification_kinds()
            ],
            "available_channels": list(notifications.CHANNELS),
        }

    @extend_schema(responses={200: ChannelsOutput, **ERRORS})
    def get(self, request: Request) -> Response:
        me = request_player(request)
        return Response(self._body(notifications.player_notification_channels(me)))

    @extend_schema(
        request=ChannelsInput,
        responses={
            200: ChannelsOutput,
            400: OpenApiResponse(
                ErrorOutput,
                description="`invalid`, `unknown_notification_kind`, "
                "`unknown_notification_channel`; nothing is changed.",
            ),
            **ERRORS,
        },
    )
    def put(self, request: Request) -> Response:
        me = request_player(request)
        data = ChannelsInput(data=request.data)
        data.is_valid(raise_exception=True)
        channels = notifications.player_set_notification_channels(
            player=me, channels=data.validated_data["channels"]
        )
        return Response(self._body(channels))

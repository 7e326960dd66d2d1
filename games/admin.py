from typing import Any

from django import forms
from django.contrib import admin
from django.db import models
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.errors import ApplicationError
from games.models import (
    ClubResult,
    Notification,
    NotificationDelivery,
    Player,
    RatedResult,
    Webhook,
)
from games.players.names import player_name_clean


class PlayerForm(forms.ModelForm):
    """A player added or renamed here: the name is checked as everywhere a name is typed
    (:func:`games.players.names.player_name_clean`). No ``Meta``: the admin builds the
    form's fields, as for its own default form."""

    def clean_name(self) -> str:
        try:
            return player_name_clean(name=self.cleaned_data.get("name") or "")
        except ApplicationError as exc:
            raise forms.ValidationError(str(exc.detail), code=exc.code) from None


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    form = PlayerForm
    list_display = ["name", "rating", "experience", "is_active", "user"]
    list_filter = ["is_active"]
    search_fields = ["name", "search_name"]
    # Ratings move only through rated results, never by hand.
    readonly_fields = ["rating", "experience", "created_at"]


# ====================================================================== notifications
def _https_by_default(db_field: models.Field, **kwargs: Any) -> forms.Field | None:
    """A URL typed without a scheme means https (Django 6's default, asked for now)."""
    if isinstance(db_field, models.URLField):
        kwargs["assume_scheme"] = "https"
    return db_field.formfield(**kwargs)


class WebhookForm(forms.ModelForm):
    """The kinds a webhook receives, picked from the registry (an open set: kinds that
    other apps register appear here too)."""

    kinds = forms.MultipleChoiceField(
        label=_("kinds"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("The kinds of notification sent here."),
    )

    class Meta:
        model = Webhook
        fields = ["name", "url", "kinds", "secret", "is_active"]
        formfield_callback = _https_by_default

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        from games.notifications.services import notification_kinds

        self.fields["kinds"].choices = [(k.code, k.label) for k in notification_kinds()]


@admin.register(Webhook)
class WebhookAdmin(admin.ModelAdmin):
    form = WebhookForm
    list_display = ["name", "url", "is_active", "created_at"]
    list_filter = ["is_active"]

    def formfield_for_dbfield(
        self, db_field: models.Field, request: HttpRequest, **kwargs: Any
    ) -> forms.Field | None:
        if isinstance(db_field, models.URLField):
            kwargs["assume_scheme"] = "https"
        return super().formfield_for_dbfield(db_field, request, **kwargs)


class DeliveryInline(admin.TabularInline):
    model = NotificationDelivery
    extra = 0
    can_delete = False
    fields = ["channel", "webhook", "status", "attempts", "last_error", "sent_at"]
    readonly_fields = fields


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ["created_at", "recipient", "kind", "subject", "title", "read_at"]
    list_filter = ["kind"]
    search_fields = ["recipient__name", "subject", "title"]
    list_select_related = ["recipient"]
    inlines = [DeliveryInline]
    readonly_fields = [
        "recipient",
        "kind",
        "subject",
        "context",
        "title",
        "body",
        "in_app",
        "created_at",
        "read_at",
    ]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # made by the services only (notify)


@admin.register(NotificationDelivery)
class NotificationDeliveryAdmin(admin.ModelAdmin):
    list_display = [
        "created_at",
        "notification",
        "channel",
        "webhook",
        "status",
        "attempts",
        "last_error",
    ]
    list_filter = ["status", "channel"]
    list_select_related = ["notification__recipient", "webhook"]
    readonly_fields = [
        "notification",
        "channel",
        "webhook",
        "status",
        "attempts",
        "last_error",
        "created_at",
        "last_attempt_at",
        "sent_at",
    ]
    actions = ["send_again"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.action(description=_("Send the selected notifications again"))
    def send_again(self, request: HttpRequest, queryset: QuerySet[NotificationDelivery]) -> None:
        from games.notifications.services import notification_delivery_retry

        sent_again = 0
        for delivery_id in queryset.exclude(status=NotificationDelivery.Status.SENT).values_list(
            "pk", flat=True
        ):
            notification_delivery_retry(delivery_id=delivery_id)
            sent_again += 1
        message = ngettext(
            "%(count)d notification will be sent again.",
            "%(count)d notifications will be sent again.",
            sent_again,
        )
        self.message_user(request, message % {"count": sent_again})


class ReadOnlyAdmin(admin.ModelAdmin):
    """For what changes only through its services (the rating ledger: ``games.ratings.services``
    and ``games.ratings.club_results`` replay what follows a change; chouette's ledger): the
    admin shows it."""

    def has_add_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False

    def has_delete_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False


@admin.register(RatedResult)
class RatedResultAdmin(ReadOnlyAdmin):
    list_display = ["source_key", "source", "at", "player1", "player2", "length", "winner", "rated"]
    list_filter = ["source", "rated"]
    list_select_related = ["player1", "player2", "winner"]
    search_fields = ["source_key", "player1__name", "player2__name"]
    date_hierarchy = "at"


@admin.register(ClubResult)
class ClubResultAdmin(ReadOnlyAdmin):
    list_display = [
        "source_key",
        "played_at",
        "player1",
        "player2",
        "winner",
        "entered_by",
        "voided_at",
    ]
    list_select_related = ["player1", "player2", "winner", "entered_by"]
    search_fields = ["source_key", "player1__name", "player2__name"]

from typing import Any

from django import forms
from django.conf import settings
from django.contrib import admin
from django.contrib.messages import ERROR
from django.db import models, transaction
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponseRedirect
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.errors import ApplicationError
from games.models import (
    ClubResult,
    ClubSettings,
    DecisionAnalysis,
    MatchAnalysis,
    Notification,
    NotificationDelivery,
    Player,
    PlayerAnalysis,
    RatedResult,
    SignUp,
    Webhook,
)
from games.notifications.transports import DeliveryError
from games.players import logins
from games.players.names import player_name_clean
from games.players.signup import selectors as signup_selectors
from games.players.signup import services as signup_services

#: The login fields of the player form -> the field a refusal of
#: :func:`games.players.logins.player_login_check` names.
LOGIN_FIELDS = {
    "username": "login_username",
    "email": "login_email",
    "password": "login_password",
}
#: The login fields, in the order the form shows them.
LOGIN = ["login_username", "login_email", "login_password", "login_invite"]


class PlayerForm(forms.ModelForm):
    """A player added or renamed here: the name is checked as everywhere a name is typed
    (:func:`games.players.names.player_name_clean`). No ``Meta``: the admin builds the
    form's fields, as for its own default form.

    A player without a login gets one in the same step (issue 18): a username, an e-mail
    and a password, or an invitation e-mail with a link to choose the password
    (:mod:`games.players.logins`). Left empty, no login is made."""

    login_username = forms.CharField(
        label=_("Username"),
        max_length=150,
        required=False,
        help_text=_("To make this player a login: what they type to log in."),
    )
    login_email = forms.EmailField(label=_("E-mail address"), required=False)
    login_password = forms.CharField(
        label=_("Password"),
        required=False,
        strip=False,
        widget=forms.PasswordInput(render_value=False, attrs={"autocomplete": "new-password"}),
        help_text=_("Leave it empty to send an invitation instead."),
    )
    login_invite = forms.BooleanField(
        label=_("Send an invitation e-mail"),
        required=False,
        help_text=_("An e-mail with the username and a link to choose a password."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.user_id is not None:  # one login a player: none more offered
            for name in LOGIN:
                del self.fields[name]

    def clean_name(self) -> str:
        try:
            return player_name_clean(name=self.cleaned_data.get("name") or "")
        except ApplicationError as exc:
            raise forms.ValidationError(str(exc.detail), code=exc.code) from None

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        username = (data.get("login_username") or "").strip()
        wanted = username or data.get("login_password") or data.get("login_invite")
        if not wanted:
            return data
        if data.get("user") is not None and self.instance.user_id is None:
            self.add_error(
                "login_username",
                forms.ValidationError(
                    _("Choose an existing user account or make a new login, not both."),
                    code="login_and_user",
                ),
            )
            return data
        player = self.instance if self.instance.pk is not None else None
        try:
            logins.player_login_check(
                player=player,
                username=username,
                email=(data.get("login_email") or "").strip(),
                password=data.get("login_password") or "",
                invite=bool(data.get("login_invite")),
            )
        except ApplicationError as exc:
            field = LOGIN_FIELDS.get(str(exc.extra.get("field")), "login_username")
            self.add_error(field, forms.ValidationError(str(exc.detail), code=exc.code))
        return data


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    form = PlayerForm
    list_display = ["name", "rating", "experience", "is_active", "user"]
    list_filter = ["is_active"]
    search_fields = ["name", "search_name"]
    # Ratings move only through rated results, never by hand.
    readonly_fields = ["rating", "experience", "settings_version", "created_at"]
    actions = ["send_invitation"]

    def get_fieldsets(self, request: HttpRequest, obj: Player | None = None) -> Any:
        fields = [f for f in super().get_fieldsets(request, obj)[0][1]["fields"] if f not in LOGIN]
        fieldsets: list[Any] = [(None, {"fields": fields})]
        if obj is None or obj.user_id is None:
            fieldsets.append(
                (
                    _("Login"),
                    {
                        "fields": list(LOGIN),
                        "description": _(
                            "Make the player's login here, in one step: a username, and a "
                            "password or an invitation e-mail. (Or pick an existing user "
                            "account above.)"
                        ),
                    },
                )
            )
        return fieldsets

    def save_model(self, request: HttpRequest, obj: Player, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        data = form.cleaned_data
        username = (data.get("login_username") or "").strip()
        if not username or obj.user_id is not None:
            return
        try:
            user = logins.player_login_create(
                player_id=obj.pk,
                username=username,
                email=data.get("login_email") or "",
                password=data.get("login_password") or "",
                invite=bool(data.get("login_invite")),
            )
        except ApplicationError as exc:
            # Checked by the form a moment ago; only a username taken meanwhile gets
            # here. Nothing of this save stays.
            transaction.set_rollback(True)
            self.message_user(
                request, _("Nothing was saved: %(reason)s") % {"reason": exc.detail}, ERROR
            )
            return
        obj.user = user
        self.message_user(
            request,
            _("%(name)s can log in as “%(username)s”.")
            % {"name": obj.name, "username": user.get_username()},
        )
        if data.get("login_invite"):
            # Sent by changeform_view once the save is committed: an e-mail about a login
            # that was rolled back would lead nowhere.
            request._player_invitation = obj  # type: ignore[attr-defined]

    def changeform_view(self, request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
        response = super().changeform_view(request, *args, **kwargs)  # its transaction ends
        invited = getattr(request, "_player_invitation", None)
        if invited is not None:
            self._invite(request, invited, settings.SITE_URL or request.build_absolute_uri("/"))
        return response

    def _invite(self, request: HttpRequest, player: Player, site_url: str) -> None:
        """Send one invitation and say how it went."""
        try:
            address = logins.player_invitation_send(player_id=player.pk, site_url=site_url)
        except ApplicationError as exc:
            self.message_user(request, str(exc.detail), ERROR)
        except DeliveryError as exc:
            self.message_user(
                request,
                _(
                    "The invitation to %(name)s could not be sent (%(error)s): send it "
                    "again with the action “Send an invitation e-mail”."
                )
                % {"name": player.name, "error": exc},
                ERROR,
            )
        else:
            self.message_user(
                request,
                _("An invitation was sent to %(address)s.") % {"address": address},
            )

    @admin.action(description=_("Send an invitation e-mail (a link to choose a password)"))
    def send_invitation(self, request: HttpRequest, queryset: QuerySet[Player]) -> None:
        site_url = settings.SITE_URL or request.build_absolute_uri("/")
        for player in queryset.order_by("name"):
            self._invite(request, player, site_url)


# ====================================================================== sign-up (issue 30)
@admin.register(ClubSettings)
class ClubSettingsAdmin(admin.ModelAdmin):
    """The club's one settings row: the list opens it, none is added or deleted."""

    list_display = ["__str__", "signup", "updated_at"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def changelist_view(self, request: HttpRequest, extra_context: Any = None) -> Any:
        row = ClubSettings.load()
        return HttpResponseRedirect(reverse("admin:games_clubsettings_change", args=[row.pk]))


class SignUpForm(forms.ModelForm):
    """The one field staff edit, checked as every name typed for a player."""

    def clean_name(self) -> str:
        try:
            return player_name_clean(name=self.cleaned_data.get("name") or "")
        except ApplicationError as exc:
            raise forms.ValidationError(str(exc.detail)) from None


@admin.register(SignUp)
class SignUpAdmin(admin.ModelAdmin):
    form = SignUpForm
    """Sign-ups, decided here as on /accounts/signups/ (the same services). Only the name
    may be edited: a name taken since the sign-up is renamed before approving."""

    list_display = ["name", "username", "email", "state", "claim", "created_at", "decided_at"]
    list_filter = ["state"]
    search_fields = ["name", "username", "email"]
    fields = [
        "name",
        "username",
        "email",
        "state",
        "claim",
        "claim_record",
        "player",
        "user",
        "language",
        "created_at",
        "confirmed_at",
        "decided_at",
        "decided_by",
    ]
    readonly_fields = [f for f in fields if f != "name"]
    actions = ["approve", "refuse"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.display(description=_("the claimed player's record"))
    def claim_record(self, obj: SignUp) -> str:
        record = signup_selectors.claim_records([obj]).get(obj.claim_id)
        if record is None:
            return "-"
        return format_html(
            '<a href="{}">{}</a>: {} {}, {} {}, {} {}, {} {}',
            reverse("games:player", args=[record.player.pk]),
            record.player.name,
            _("rating"),
            record.player.rating,
            _("experience"),
            record.player.experience,
            _("rated results"),
            record.rated_results,
            _("online matches"),
            record.online_matches,
        )

    def _decide(self, request: HttpRequest, queryset: QuerySet[SignUp], action: Any) -> None:
        site_url = settings.SITE_URL or request.build_absolute_uri("/")
        for signup in queryset.order_by("created_at"):
            try:
                done = action(signup_id=signup.pk, by=request.user, site_url=site_url)
            except ApplicationError as exc:
                self.message_user(request, f"{signup.name}: {exc.detail}", ERROR)
            else:
                self.message_user(request, f"{done.name}: {done.get_state_display()}")

    @admin.action(description=_("Approve the selected sign-ups"))
    def approve(self, request: HttpRequest, queryset: QuerySet[SignUp]) -> None:
        self._decide(request, queryset, signup_services.signup_approve)

    @admin.action(description=_("Refuse the selected sign-ups (their logins are deleted)"))
    def refuse(self, request: HttpRequest, queryset: QuerySet[SignUp]) -> None:
        self._decide(request, queryset, signup_services.signup_refuse)


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


# ====================================================================== analysis (issue 28)
class PlayerAnalysisInline(admin.TabularInline):
    """Both players' figures, as gnubg gave them (stored by the run, never typed)."""

    model = PlayerAnalysis
    extra = 0
    can_delete = False
    fields = [
        "index",
        "player",
        "pr",
        "error_rate_memg",
        "unforced_moves",
        "close_cube_decisions",
        "error_total_emg",
        "snowie_error_rate",
        "luck_rate_memg",
        "luck_adjusted_result",
        "rating_words",
        "luck_words",
        "counts",
    ]
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class DecisionAnalysisInline(admin.TabularInline):
    """The decisions gnubg marked (its errors); the rest are in the API."""

    model = DecisionAnalysis
    extra = 0
    can_delete = False
    verbose_name_plural = _("marked decisions")
    fields = ["game_number", "ordinal", "player_index", "kind", "dice", "played", "best"]
    fields += ["equity_lost", "mark"]
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_queryset(self, request: HttpRequest) -> QuerySet[DecisionAnalysis]:
        return super().get_queryset(request).exclude(mark="")


@admin.register(MatchAnalysis)
class MatchAnalysisAdmin(ReadOnlyAdmin):
    """The analysis jobs: failed ones with their reason, and "Analyse again" for the
    selected (games.analysis.services.analysis_request, again)."""

    list_display = [
        "match_link",
        "status",
        "progress",
        "plies",
        "attempts",
        "failure_code",
        "failure_reason",
        "requested_at",
        "finished_at",
    ]
    list_filter = ["status", "plies", "failure_code"]
    list_select_related = ["match__player1", "match__player2"]
    search_fields = ["match__player1__name", "match__player2__name", "failure_reason"]
    date_hierarchy = "requested_at"
    inlines = [PlayerAnalysisInline, DecisionAnalysisInline]
    actions = ["analyse_again"]

    @admin.display(description=_("match"), ordering="match_id")
    def match_link(self, obj: MatchAnalysis) -> str:
        url = reverse("games:match", kwargs={"match_id": obj.match_id})
        return format_html('<a href="{}">{}</a>', url, obj.match)

    @admin.action(description=_("Analyse the selected matches again"))
    def analyse_again(self, request: HttpRequest, queryset: QuerySet[MatchAnalysis]) -> None:
        from games.analysis.services import analysis_request

        queued = 0
        for match_id in queryset.values_list("match_id", flat=True):
            analysis_request(match_id=match_id, requested_by=request.user, again=True)
            queued += 1
        message = ngettext(
            "%(count)d match is queued to be analysed again.",
            "%(count)d matches are queued to be analysed again.",
            queued,
        )
        self.message_user(request, message % {"count": queued})

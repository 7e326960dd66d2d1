"""Chouette in the admin: sessions to look at, not to edit. The ledger changes only
through the services (``chouette.services``), which keep it zero-sum and versioned."""

from django.contrib import admin

from games.admin import ReadOnlyAdmin

from .models import (
    ChouetteEvent,
    ChouetteLine,
    ChouetteOnlineAction,
    ChouetteOnlineGame,
    ChouetteParticipant,
    ChouetteSession,
    ChouetteTeamMessage,
)


class ParticipantInline(admin.TabularInline):
    model = ChouetteParticipant
    extra = 0
    can_delete = False
    readonly_fields = [f.name for f in ChouetteParticipant._meta.fields]


@admin.register(ChouetteSession)
class ChouetteSessionAdmin(ReadOnlyAdmin):
    list_display = ["name", "status", "started_at", "stake_per_point", "currency"]
    list_filter = ["status"]
    search_fields = ["name"]
    inlines = [ParticipantInline]


@admin.register(ChouetteEvent)
class ChouetteEventAdmin(ReadOnlyAdmin):
    #: A correction (issue 27) names the game it corrects and takes its place; a seating
    #: set by hand is a seat change whose data holds the seating before and after.
    list_display = [
        "session",
        "seq",
        "place",
        "kind",
        "corrects",
        "undone",
        "created_by",
        "created_at",
    ]
    list_filter = ["kind", "undone"]


@admin.register(ChouetteLine)
class ChouetteLineAdmin(ReadOnlyAdmin):
    list_display = ["session", "event", "player", "points"]


class OnlineActionInline(admin.TabularInline):
    """The online game's append-only log, as it was written (no add, change or delete)."""

    model = ChouetteOnlineAction
    extra = 0
    can_delete = False
    fields = ["seq", "kind", "actor", "by_player", "data", "created_at"]
    readonly_fields = fields
    ordering = ["seq"]
    show_change_link = False

    def has_add_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False


class TeamMessageInline(admin.TabularInline):
    """The team's chat of the game (staff look at a disputed game; nobody edits it)."""

    model = ChouetteTeamMessage
    extra = 0
    can_delete = False
    fields = ["created_at", "author", "text", "play"]
    readonly_fields = fields
    ordering = ["id"]

    def has_add_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False


@admin.register(ChouetteOnlineGame)
class ChouetteOnlineGameAdmin(ReadOnlyAdmin):
    """An online game to look at (a dispute): its table, clock, log and the team's chat.
    It changes only through ``chouette.online.services``."""

    list_display = ["session", "number", "status", "version", "started_at", "ended_at"]
    list_filter = ["status"]
    list_select_related = ["session"]
    search_fields = ["session__name"]
    date_hierarchy = "started_at"
    readonly_fields = [f.name for f in ChouetteOnlineGame._meta.fields]
    inlines = [OnlineActionInline, TeamMessageInline]

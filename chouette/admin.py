"""Chouette in the admin: sessions to look at, not to edit. The ledger changes only
through the services (``chouette.services``), which keep it zero-sum and versioned."""

from django.contrib import admin

from games.admin import ReadOnlyAdmin

from .models import ChouetteEvent, ChouetteLine, ChouetteParticipant, ChouetteSession


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
    list_display = ["session", "seq", "kind", "undone", "created_at"]
    list_filter = ["kind", "undone"]


@admin.register(ChouetteLine)
class ChouetteLineAdmin(ReadOnlyAdmin):
    list_display = ["session", "event", "player", "points"]

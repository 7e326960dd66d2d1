from typing import Any

from django import forms
from django.contrib import admin
from django.db import models
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from .models import (
    Entry,
    Event,
    Flight,
    FlightMoney,
    FlightRound,
    ResultCorrection,
    SidePool,
    SidePoolEntry,
    TournamentMatch,
)
from .pages.common import result_sentence
from .pages.forms import clock_choices


class PresetByLabel:
    """The ``clock_preset`` of flights and rounds as a menu of the presets by the names
    people read ("club (11 s + 1:30)", :mod:`games.play.presets`), not a box to type
    ``seed002`` in."""

    def formfield_for_dbfield(
        self, db_field: models.Field, request: HttpRequest, **kwargs: Any
    ) -> forms.Field | None:
        if db_field.name == "clock_preset":
            return forms.ChoiceField(
                label=db_field.verbose_name,
                choices=clock_choices,
                required=False,
                help_text=db_field.help_text,
            )
        return super().formfield_for_dbfield(db_field, request, **kwargs)  # type: ignore[misc]


class FlightInline(admin.TabularInline):
    model = Flight
    fields = ["name", "format", "status", "match_length"]
    readonly_fields = ["status"]
    extra = 0
    show_change_link = True


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "starts_on", "location", "status", "rated", "check_in_code"]
    list_filter = ["status", "rated"]
    search_fields = ["name", "slug", "location"]
    filter_horizontal = ["directors"]
    # Changed on the director's page, which refuses it once results are rated.
    readonly_fields = ["rated"]
    inlines = [FlightInline]


class FlightRoundInline(PresetByLabel, admin.TabularInline):
    model = FlightRound
    extra = 0


@admin.register(Flight)
class FlightAdmin(PresetByLabel, admin.ModelAdmin):
    list_display = [
        "name",
        "event",
        "format",
        "status",
        "match_length",
        "self_registration",
        "capacity",
    ]
    list_filter = ["format", "status"]
    search_fields = ["name", "event__name"]
    # The draw and the results move only through the services (they keep the bracket,
    # the seeds and the matches in step): shown, not edited here.
    readonly_fields = ["seed", "bracket", "status", "version"]
    inlines = [FlightRoundInline]


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = [
        "player",
        "flight",
        "seed",
        "rating",
        "status",
        "late",
        "place_label",
        "checked_in_at",
        "paid_at",
    ]
    list_filter = ["status", "late", "checked_in_at", "paid_at"]
    search_fields = ["player__name", "player__search_name", "flight__name"]
    raw_id_fields = ["player", "flight"]
    # Places are written by the services from the results.
    # Check-in and payment are the desk's (tournaments.services.desk: the one writer).
    readonly_fields = [
        "seed",
        "place",
        "place_label",
        "side_part",
        "side_place_label",
        "checked_in_at",
        "paid_at",
    ]


@admin.register(TournamentMatch)
class TournamentMatchAdmin(admin.ModelAdmin):
    list_display = ["slot_key", "flight", "entry_a", "entry_b", "status", "score_a", "score_b"]
    list_filter = ["status"]
    search_fields = ["flight__name", "entry_a__player__name", "entry_b__player__name"]
    list_select_related = ["flight", "entry_a__player", "entry_b__player"]
    raw_id_fields = ["flight", "entry_a", "entry_b", "online_match"]
    # Results are corrected through the director's pages (audited), not here.
    readonly_fields = [
        "winner",
        "score_a",
        "score_b",
        "games",
        "status",
        "report_a",
        "report_b",
        "decided_by",
        "decided_at",
        "version",
    ]


@admin.register(ResultCorrection)
class ResultCorrectionAdmin(admin.ModelAdmin):
    list_display = ["match", "by", "at", "reason"]
    # Each result in words, as on the director's match page, then as stored.
    readonly_fields = ["match", "by", "at", "old_result", "new_result", "old", "new", "reason"]
    list_select_related = ["match__flight", "by"]

    @admin.display(description=_("old result"))
    def old_result(self, obj: ResultCorrection) -> str:
        return _in_words(obj, obj.old)

    @admin.display(description=_("new result"))
    def new_result(self, obj: ResultCorrection) -> str:
        return _in_words(obj, obj.new)

    def has_add_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False

    def has_delete_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False


def _in_words(correction: ResultCorrection, result: dict[str, Any]) -> str:
    """A stored result as the correction log says it ("Kiss Anna won 9-2"), with the
    players of the result's own entries (the match's, for corrections stored before)."""
    match = correction.match
    sides = {
        "a": result.get("entry_a", match.entry_a_id),
        "b": result.get("entry_b", match.entry_b_id),
    }
    ids = [pk for pk in sides.values() if isinstance(pk, int)]
    names = dict(Entry.objects.filter(pk__in=ids).values_list("pk", "player__name"))
    return result_sentence(result, {side: names.get(pk, "") for side, pk in sides.items()})


# Money (issue 17): set on the director's money page (its checks: split, unit, finished).
@admin.register(FlightMoney)
class FlightMoneyAdmin(admin.ModelAdmin):
    list_display = ["flight", "fee", "house_percent", "house_fixed", "updated_at"]
    search_fields = ["flight__name", "flight__event__name"]
    raw_id_fields = ["flight"]


class SidePoolEntryInline(admin.TabularInline):
    model = SidePoolEntry
    raw_id_fields = ["entry"]
    extra = 0


@admin.register(SidePool)
class SidePoolAdmin(admin.ModelAdmin):
    list_display = ["name", "flight", "fee"]
    search_fields = ["name", "flight__name", "flight__event__name"]
    raw_id_fields = ["flight"]
    inlines = [SidePoolEntryInline]

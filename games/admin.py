from django.contrib import admin

from .models import Player


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "rating", "experience", "is_active", "user"]
    list_filter = ["is_active"]
    search_fields = ["name"]
    # Ratings move only through rated results, never by hand.
    readonly_fields = ["rating", "experience", "created_at"]

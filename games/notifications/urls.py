"""Notification pages: the player's list and channel choices, the director's failures."""

from django.urls import path

from games.notifications import pages

app_name = "notifications"

urlpatterns = [
    # the player
    path("", pages.notification_list_page, name="list"),
    path("<int:notification_id>/read/", pages.notification_read_page, name="read"),
    path("read-all/", pages.notification_read_all_page, name="read-all"),
    path("settings/", pages.notification_settings_page, name="settings"),
    # the director
    path("failed/", pages.notification_failures_page, name="failures"),
    path("deliveries/<int:delivery_id>/retry/", pages.delivery_retry_page, name="retry"),
]

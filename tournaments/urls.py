"""Tournament pages (included at ``events/``), split by audience like Tabbycat's
``urls_public.py``: what anyone reads, a player's posts on their own matches, and the
director's pages and posts (only the event's directors)."""

from django.urls import path

from .pages import director, player, public

app_name = "tournaments"

public = [
    path("", public.event_list, name="event-list"),
    path("<slug:slug>/", public.event_page, name="event"),
    path("<slug:slug>/flights/<int:flight_id>/", public.flight_page, name="flight"),
    path(
        "<slug:slug>/flights/<int:flight_id>/finishing-order.csv",
        public.flight_finishing_order_csv,
        name="flight-finishing-order-csv",
    ),
]

player = [
    path("<slug:slug>/matches/<int:match_id>/report/", player.match_report, name="match-report"),
    path("<slug:slug>/matches/<int:match_id>/confirm/", player.match_confirm, name="match-confirm"),
    path(
        "<slug:slug>/matches/<int:match_id>/online/",
        player.match_start_online,
        name="match-online",
    ),
]

director = [
    path("new/", director.event_create, name="event-create"),
    path("<slug:slug>/manage/", director.event_manage, name="event-manage"),
    path("<slug:slug>/manage/settings/", director.event_update, name="event-update"),
    path("<slug:slug>/manage/flights/", director.flight_create, name="flight-create"),
    path(
        "<slug:slug>/manage/publish/",
        director.event_status,
        {"action": "publish"},
        name="event-publish",
    ),
    path(
        "<slug:slug>/manage/finish/",
        director.event_status,
        {"action": "finish"},
        name="event-finish",
    ),
    path(
        "<slug:slug>/manage/reopen/",
        director.event_status,
        {"action": "reopen"},
        name="event-reopen",
    ),
    path("<slug:slug>/manage/directors/", director.event_add_director, name="event-add-director"),
    path(
        "<slug:slug>/manage/flights/<int:flight_id>/",
        director.flight_manage,
        name="flight-manage",
    ),
    path(
        "<slug:slug>/manage/flights/<int:flight_id>/rounds/",
        director.flight_round_set,
        name="flight-round-set",
    ),
    path(
        "<slug:slug>/manage/flights/<int:flight_id>/entries/",
        director.entry_register,
        name="entry-register",
    ),
    path(
        "<slug:slug>/manage/flights/<int:flight_id>/draw/",
        director.flight_draw,
        name="flight-draw",
    ),
    path(
        "<slug:slug>/manage/flights/<int:flight_id>/publish/",
        director.round_publish,
        name="round-publish",
    ),
    path(
        "<slug:slug>/manage/entries/<int:entry_id>/withdraw/",
        director.entry_withdraw,
        name="entry-withdraw",
    ),
    path("<slug:slug>/manage/matches/<int:match_id>/", director.match_manage, name="match-manage"),
    path(
        "<slug:slug>/manage/matches/<int:match_id>/result/",
        director.match_enter,
        name="match-enter",
    ),
    path(
        "<slug:slug>/manage/matches/<int:match_id>/correct/",
        director.match_correct,
        name="match-correct",
    ),
    path(
        "<slug:slug>/manage/matches/<int:match_id>/table/",
        director.match_set_table,
        name="match-table",
    ),
]

# "new/" before "<slug:slug>/": an event cannot be called "new" by its address.
urlpatterns = director[:1] + public + player + director[1:]

from django.urls import path

from . import views

app_name = "tournaments-api"

urlpatterns = [
    path("events/", views.EventListApi.as_view(), name="event-list"),
    path("events/<int:event_id>/", views.EventDetailApi.as_view(), name="event-detail"),
    path(
        "events/<int:event_id>/directors/",
        views.EventDirectorsApi.as_view(),
        name="event-directors",
    ),
    path("events/<int:event_id>/publish/", views.EventPublishApi.as_view(), name="event-publish"),
    path("events/<int:event_id>/finish/", views.EventFinishApi.as_view(), name="event-finish"),
    path("events/<int:event_id>/reopen/", views.EventReopenApi.as_view(), name="event-reopen"),
    path("events/<int:event_id>/flights/", views.EventFlightsApi.as_view(), name="event-flights"),
    path("flights/<int:flight_id>/", views.FlightDetailApi.as_view(), name="flight-detail"),
    path("flights/<int:flight_id>/rounds/", views.FlightRoundsApi.as_view(), name="flight-rounds"),
    path(
        "flights/<int:flight_id>/entries/",
        views.FlightEntriesApi.as_view(),
        name="flight-entries",
    ),
    path("flights/<int:flight_id>/draw/", views.FlightDrawApi.as_view(), name="flight-draw"),
    path(
        "flights/<int:flight_id>/publish/",
        views.FlightPublishApi.as_view(),
        name="flight-publish",
    ),
    path(
        "flights/<int:flight_id>/standings/",
        views.FlightStandingsApi.as_view(),
        name="flight-standings",
    ),
    path(
        "flights/<int:flight_id>/finishing-order/",
        views.FlightFinishingOrderApi.as_view(),
        name="flight-finishing-order",
    ),
    path(
        "entries/<int:entry_id>/withdraw/",
        views.EntryWithdrawApi.as_view(),
        name="entry-withdraw",
    ),
    path(
        "tournament-matches/<int:match_id>/",
        views.TournamentMatchDetailApi.as_view(),
        name="match-detail",
    ),
    path(
        "tournament-matches/<int:match_id>/result/",
        views.ResultEnterApi.as_view(),
        name="match-result",
    ),
    path(
        "tournament-matches/<int:match_id>/report/",
        views.ResultReportApi.as_view(),
        name="match-report",
    ),
    path(
        "tournament-matches/<int:match_id>/confirm/",
        views.ResultConfirmApi.as_view(),
        name="match-confirm",
    ),
    path(
        "tournament-matches/<int:match_id>/correct/",
        views.ResultCorrectApi.as_view(),
        name="match-correct",
    ),
    path(
        "tournament-matches/<int:match_id>/table/",
        views.MatchTableApi.as_view(),
        name="match-table",
    ),
    path(
        "tournament-matches/<int:match_id>/start-online/",
        views.MatchStartOnlineApi.as_view(),
        name="match-start-online",
    ),
]

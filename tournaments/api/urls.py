from django.urls import path

from . import bulk, desk, disputes, lateness, mats, money, night, play_ahead, undo, views

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
        "flights/<int:flight_id>/lateness/",
        lateness.FlightLatenessApi.as_view(),
        name="flight-lateness",
    ),
    path(
        "entries/<int:entry_id>/withdraw/",
        views.EntryWithdrawApi.as_view(),
        name="entry-withdraw",
    ),
    # The night's desk and self-registration (issue 17: tournaments.api.desk).
    path("events/<int:event_id>/desk/", desk.EventDeskApi.as_view(), name="event-desk"),
    path("events/<int:event_id>/check-in/", desk.EventCheckInApi.as_view(), name="event-check-in"),
    path("entries/<int:entry_id>/check-in/", desk.EntryCheckInApi.as_view(), name="entry-check-in"),
    path("entries/<int:entry_id>/paid/", desk.EntryPaidApi.as_view(), name="entry-paid"),
    path("entries/<int:entry_id>/confirm/", desk.EntryConfirmApi.as_view(), name="entry-confirm"),
    path("entries/<int:entry_id>/refuse/", desk.EntryRefuseApi.as_view(), name="entry-refuse"),
    path(
        "entries/<int:entry_id>/withdraw-own/",
        desk.EntryWithdrawOwnApi.as_view(),
        name="entry-withdraw-own",
    ),
    path(
        "flights/<int:flight_id>/register/",
        desk.FlightRegisterApi.as_view(),
        name="flight-register",
    ),
    path(
        "flights/<int:flight_id>/registrations/",
        desk.FlightRegistrationsApi.as_view(),
        name="flight-registrations",
    ),
    path(
        "flights/<int:flight_id>/draw-checked-in/",
        desk.FlightDrawCheckedInApi.as_view(),
        name="flight-draw-checked-in",
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
    # Issue 28 (tournaments.api.mats): a board match's .mat file, a flight's PR table.
    path(
        "tournament-matches/<int:match_id>/mat/",
        mats.MatchMatApi.as_view(),
        name="match-mat",
    ),
    path(
        "flights/<int:flight_id>/analysis/",
        mats.FlightAnalysisApi.as_view(),
        name="flight-analysis",
    ),
    path(
        "tournament-matches/<int:match_id>/lateness/",
        lateness.MatchLatenessApi.as_view(),
        name="match-lateness",
    ),
    path("flights/<int:flight_id>/money/", money.FlightMoneyApi.as_view(), name="flight-money"),
    path(
        "flights/<int:flight_id>/side-pools/",
        money.FlightSidePoolsApi.as_view(),
        name="flight-side-pools",
    ),
    path(
        "flights/<int:flight_id>/payouts/",
        money.FlightPayoutsApi.as_view(),
        name="flight-payouts",
    ),
    path("side-pools/<int:pool_id>/", money.SidePoolDetailApi.as_view(), name="side-pool"),
    path(
        "side-pools/<int:pool_id>/entries/",
        money.SidePoolEntriesApi.as_view(),
        name="side-pool-entries",
    ),
    path(
        "side-pools/<int:pool_id>/entries/<int:entry_id>/",
        money.SidePoolEntryApi.as_view(),
        name="side-pool-entry",
    ),
    # A disputed match decided by a director (issue 29: tournaments.api.disputes).
    path(
        "tournament-matches/<int:match_id>/dispute/",
        disputes.MatchDisputeApi.as_view(),
        name="match-dispute",
    ),
    # The director's night (issue 29: tournaments.api.night).
    path("events/<int:event_id>/night/", night.EventNightApi.as_view(), name="event-night"),
    # Routine work in one request (issue 29, item 11: tournaments.api.bulk); every
    # round's settings at once is the PUT of flights/<id>/rounds/.
    path(
        "flights/<int:flight_id>/entries/bulk/",
        bulk.FlightEntriesBulkApi.as_view(),
        name="flight-entries-bulk",
    ),
    path(
        "side-pools/<int:pool_id>/entries/bulk/",
        bulk.SidePoolEntriesBulkApi.as_view(),
        name="side-pool-entries-bulk",
    ),
    # Issue 29: play ahead (a flight's setting).
    path(
        "flights/<int:flight_id>/play-ahead/",
        play_ahead.FlightPlayAheadApi.as_view(),
        name="flight-play-ahead",
    ),
    # Issue 29, nothing irreversible (tournaments.api.undo): undo a draw, reinstate, seeds.
    path("flights/<int:flight_id>/undraw/", undo.FlightUndrawApi.as_view(), name="flight-undraw"),
    path(
        "entries/<int:entry_id>/reinstate/",
        undo.EntryReinstateApi.as_view(),
        name="entry-reinstate",
    ),
    path("flights/<int:flight_id>/seeds/", undo.FlightSeedsApi.as_view(), name="flight-seeds"),
]

"""Tournament pages (included at ``events/``), split by audience like Tabbycat's
``urls_public.py``: what anyone reads, a player's posts on their own matches, and the
director's pages and posts (only the event's directors)."""

from django.urls import path

from .pages import (
    bulkentry,
    desk,
    director,
    disputes,
    eventwall,
    lateness,
    matchmanage,
    mats,
    money,
    night,
    paper,
    player,
    public,
    roundgrid,
    tiebreaks,
    undo,
)

app_name = "tournaments"

public = [
    path("", public.event_list, name="event-list"),
    path("<slug:slug>/", public.event_page, name="event"),
    path("<slug:slug>/flights/<int:flight_id>/", public.flight_page, name="flight"),
    # Issue 29: the event wall, every running flight in turn (tournaments.pages.eventwall).
    path("<slug:slug>/wall/", eventwall.event_wall, name="event-wall"),
    path(
        "<slug:slug>/flights/<int:flight_id>/finishing-order.csv",
        public.flight_finishing_order_csv,
        name="flight-finishing-order-csv",
    ),
    # Paper (tournaments.pages.paper): what the public page shows, as PDF.
    path(
        "<slug:slug>/flights/<int:flight_id>/draw.pdf",
        paper.flight_draw_pdf,
        name="flight-draw-pdf",
    ),
    path(
        "<slug:slug>/flights/<int:flight_id>/rounds/<int:number>/sheets.pdf",
        paper.flight_round_pdf,
        name="flight-round-pdf",
    ),
    path(
        "<slug:slug>/flights/<int:flight_id>/standings.pdf",
        paper.flight_standings_pdf,
        name="flight-standings-pdf",
    ),
    path(
        "<slug:slug>/flights/<int:flight_id>/payouts/", money.flight_payouts, name="flight-payouts"
    ),
]

player = [
    path("<slug:slug>/check-in/", desk.check_in, name="check-in"),
    path(
        "<slug:slug>/flights/<int:flight_id>/register/",
        desk.flight_register,
        name="flight-register",
    ),
    path(
        "<slug:slug>/entries/<int:entry_id>/withdraw/",
        desk.registration_withdraw,
        name="registration-withdraw",
    ),
    path("<slug:slug>/matches/<int:match_id>/report/", player.match_report, name="match-report"),
    path("<slug:slug>/matches/<int:match_id>/confirm/", player.match_confirm, name="match-confirm"),
    # The .mat file of a match played at the board (issue 28: tournaments.pages.mats).
    path("<slug:slug>/matches/<int:match_id>/mat/", mats.match_mat, name="match-mat"),
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
    path(
        "<slug:slug>/manage/matches/<int:match_id>/", matchmanage.match_manage, name="match-manage"
    ),
    # The check-in desk (issue 17: tournaments.pages.desk).
    path("<slug:slug>/manage/desk/", desk.desk_page, name="desk"),
    path("<slug:slug>/manage/desk/code/", desk.desk_new_code, name="desk-new-code"),
    path(
        "<slug:slug>/manage/desk/<int:entry_id>/check-in/",
        desk.desk_check_in,
        name="desk-check-in",
    ),
    path("<slug:slug>/manage/desk/<int:entry_id>/paid/", desk.desk_paid, name="desk-paid"),
    path("<slug:slug>/manage/desk/<int:entry_id>/confirm/", desk.desk_confirm, name="desk-confirm"),
    path("<slug:slug>/manage/desk/<int:entry_id>/refuse/", desk.desk_refuse, name="desk-refuse"),
    path(
        "<slug:slug>/manage/desk/<int:entry_id>/withdraw/",
        desk.desk_withdraw,
        name="desk-withdraw",
    ),
    path(
        "<slug:slug>/manage/flights/<int:flight_id>/registration/",
        desk.flight_registration,
        name="flight-registration",
    ),
    path(
        "<slug:slug>/manage/flights/<int:flight_id>/draw-checked-in/",
        desk.flight_draw_checked_in,
        name="flight-draw-checked-in",
    ),
    path(
        "<slug:slug>/manage/matches/<int:match_id>/result/",
        matchmanage.match_enter,
        name="match-enter",
    ),
    path(
        "<slug:slug>/manage/matches/<int:match_id>/correct/",
        matchmanage.match_correct,
        name="match-correct",
    ),
    path(
        "<slug:slug>/manage/matches/<int:match_id>/table/",
        matchmanage.match_set_table,
        name="match-table",
    ),
    path(
        "<slug:slug>/manage/matches/<int:match_id>/lateness/",
        lateness.match_lateness,
        name="match-lateness",
    ),
    path(
        "<slug:slug>/manage/flights/<int:flight_id>/lateness/",
        lateness.flight_lateness,
        name="flight-lateness",
    ),
    # Issue 29: a Swiss or round robin flight's tie-break order.
    path(
        "<slug:slug>/manage/flights/<int:flight_id>/tiebreaks/",
        tiebreaks.flight_tiebreaks,
        name="flight-tiebreaks",
    ),
    path(
        "<slug:slug>/manage/flights/<int:flight_id>/money/",
        money.flight_money,
        name="flight-money",
    ),
    path(
        "<slug:slug>/manage/flights/<int:flight_id>/side-pools/",
        money.side_pool_create,
        name="side-pool-create",
    ),
    path("<slug:slug>/manage/side-pools/<int:pool_id>/", money.side_pool_act, name="side-pool-act"),
    # A disputed match decided by a director (issue 29: tournaments.pages.disputes).
    path(
        "<slug:slug>/manage/matches/<int:match_id>/dispute/",
        disputes.match_dispute,
        name="match-dispute",
    ),
    # The director's phone view of the night (issue 29: tournaments.pages.night).
    path("<slug:slug>/manage/night/", night.night_page, name="night"),
    # Routine work in one step (issue 29, item 11): every round's settings in one grid
    # (tournaments.pages.roundgrid), many players entered at once
    # (tournaments.pages.bulkentry), many players put in a side pool at once.
    path(
        "<slug:slug>/manage/flights/<int:flight_id>/round-settings/",
        roundgrid.flight_rounds,
        name="flight-rounds",
    ),
    path(
        "<slug:slug>/manage/flights/<int:flight_id>/entries/add/",
        bulkentry.entries_add,
        name="entries-add",
    ),
    path(
        "<slug:slug>/manage/side-pools/<int:pool_id>/enter/",
        money.side_pool_enter_many,
        name="side-pool-enter-many",
    ),
    # Issue 29: play ahead (a flight's setting).
    path(
        "<slug:slug>/manage/flights/<int:flight_id>/play-ahead/",
        director.flight_play_ahead,
        name="flight-play-ahead",
    ),
    # Issue 29, nothing irreversible in one tap (tournaments.pages.undo): undo a draw,
    # reinstate a withdrawn entry, the seeds by hand.
    path(
        "<slug:slug>/manage/flights/<int:flight_id>/undraw/",
        undo.flight_undraw,
        name="flight-undraw",
    ),
    path(
        "<slug:slug>/manage/entries/<int:entry_id>/reinstate/",
        undo.entry_reinstate,
        name="entry-reinstate",
    ),
    path(
        "<slug:slug>/manage/flights/<int:flight_id>/seeds/",
        undo.flight_seeds,
        name="flight-seeds",
    ),
]

# "new/" before "<slug:slug>/": an event cannot be called "new" by its address.
urlpatterns = director[:1] + public + player + director[1:]

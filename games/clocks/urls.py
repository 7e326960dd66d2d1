"""Table clock pages (over-the-board play): the director's list, a new clock, the tablet
page and its form posts."""

from django.urls import path

from games.clocks import pages

app_name = "tableclocks"

urlpatterns = [
    path("", pages.table_clock_list_page, name="list"),
    path("new/", pages.table_clock_create_page, name="create"),
    path("<int:clock_id>/", pages.table_clock_page, name="detail"),
    path("<int:clock_id>/start/", pages.table_clock_start_page, name="start"),
    path("<int:clock_id>/tap/", pages.table_clock_tap_page, name="tap"),
    path("<int:clock_id>/pause/", pages.table_clock_pause_page, name="pause"),
    path("<int:clock_id>/resume/", pages.table_clock_resume_page, name="resume"),
    path("<int:clock_id>/finish/", pages.table_clock_finish_page, name="finish"),
]

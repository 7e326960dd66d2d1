"""Club results pages (issue 8, the club's directors): the list with the form that types
in a club match result, and voiding one."""

from django.urls import path

from games.ratings import pages

app_name = "club-results"

urlpatterns = [
    path("", pages.club_results_page, name="list"),
    path("<int:result_id>/void/", pages.club_result_void_page, name="void"),
]

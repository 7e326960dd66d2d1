"""The sign-up's pages, under ``/accounts/`` beside Django's login pages (no namespace,
as theirs: ``signup``, ``signup-sent``, ...)."""

from django.urls import path

from games.players.signup import pages

urlpatterns = [
    path("signup/", pages.signup_page, name="signup"),
    path("signup/sent/", pages.signup_sent_page, name="signup-sent"),
    path("signup/resend/", pages.signup_resend_page, name="signup-resend"),
    path("signup/confirm/<str:token>/", pages.signup_confirm_page, name="signup-confirm"),
    path("signups/", pages.signup_list_page, name="signup-list"),
    path("signups/<int:signup_id>/approve/", pages.signup_approve_page, name="signup-approve"),
    path("signups/<int:signup_id>/refuse/", pages.signup_refuse_page, name="signup-refuse"),
]

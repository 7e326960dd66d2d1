"""The sign-up's API routes, under ``/api/v1/`` (config.urls), namespace ``signup-api``:
included from config rather than ``games.api_urls``, since ``auth/signup/`` sits beside
``auth/token/``."""

from django.urls import path

from games.players.signup import api

app_name = "signup-api"

urlpatterns = [
    path("auth/signup/", api.SignupApi.as_view(), name="signup"),
    path("auth/signup/resend/", api.SignupResendApi.as_view(), name="signup-resend"),
    path("signups/", api.SignupListApi.as_view(), name="signup-list"),
    path(
        "signups/<int:signup_id>/approve/",
        api.SignupApproveApi.as_view(),
        name="signup-approve",
    ),
    path(
        "signups/<int:signup_id>/refuse/",
        api.SignupRefuseApi.as_view(),
        name="signup-refuse",
    ),
]

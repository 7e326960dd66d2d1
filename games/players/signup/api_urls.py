"""The sign-up's API routes, under ``/api/v1/`` (config.urls): not in ``games.api_urls``'
namespace, since ``auth/signup/`` sits beside ``auth/token/``."""

from django.urls import path

from games.players.signup import api

urlpatterns = [
    path("auth/signup/", api.SignupApi.as_view(), name="api-signup"),
    path("auth/signup/resend/", api.SignupResendApi.as_view(), name="api-signup-resend"),
    path("signups/", api.SignupListApi.as_view(), name="api-signup-list"),
    path(
        "signups/<int:signup_id>/approve/",
        api.SignupApproveApi.as_view(),
        name="api-signup-approve",
    ),
    path(
        "signups/<int:signup_id>/refuse/",
        api.SignupRefuseApi.as_view(),
        name="api-signup-refuse",
    ),
]

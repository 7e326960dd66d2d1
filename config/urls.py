from csp.constants import UNSAFE_INLINE
from csp.decorators import csp_update
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from games import views as games_views

from .health import favicon, healthz
from .passwords import PasswordResetApi, PasswordResetConfirmView, PasswordResetView
from .security import LoginView
from .tokens import TokenApi

urlpatterns = [
    path("", games_views.home, name="home"),
    path("healthz", healthz, name="healthz"),
    path("favicon.ico", favicon, name="favicon"),
    path("i18n/", include("django.conf.urls.i18n")),
    # Django's login page, throttled per address (config.security); the rest as Django's.
    path("accounts/login/", LoginView.as_view(), name="login"),
    # A forgotten password, throttled and mailed as ours (config.passwords).
    path("accounts/password_reset/", PasswordResetView.as_view(), name="password_reset"),
    path(
        "accounts/reset/<uidb64>/<token>/",
        PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    # Players' own sign-up and staff's decisions (issue 30: games.players.signup).
    path("accounts/", include("games.players.signup.urls")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("ratings/club-results/", include("games.ratings.urls")),
    path("", include("games.urls")),
    path("notifications/", include("games.notifications.urls")),
    path("clocks/", include("games.clocks.urls")),
    path("events/", include("tournaments.urls")),
    path("chouette/", include("chouette.urls")),
    path("admin/", admin.site.urls),
    path("api/v1/auth/token/", TokenApi.as_view(), name="api-token"),
    path("api/v1/auth/password-reset/", PasswordResetApi.as_view(), name="api-password-reset"),
    path("api/v1/", include("games.players.signup.api_urls")),
    path("api/v1/", include("games.api_urls")),
    path("api/v1/", include("tournaments.api.urls")),
    path("api/v1/", include("chouette.api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves Swagger UI's set-up as a script file of its own, not inline:
    # the Content-Security-Policy (settings) allows no inline script. Its page is
    # templates/api/swagger_ui.html: drf-spectacular's, with the page's language named.
    path(
        "api/docs/",
        csp_update({"style-src": [UNSAFE_INLINE]})(
            SpectacularSwaggerSplitView.as_view(
                url_name="api-schema", template_name="api/swagger_ui.html"
            )
        ),
        name="api-docs",
    ),
]

# Under /api/ these answer {"code", "detail"} like the API; elsewhere Django's pages.
handler400 = "config.api.handler400"
handler403 = "config.api.handler403"
handler404 = "config.api.handler404"
handler500 = "config.api.handler500"

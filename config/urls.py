from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from games import views as games_views

from .health import healthz

urlpatterns = [
    path("", games_views.home, name="home"),
    path("healthz", healthz, name="healthz"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("ratings/club-results/", include("games.ratings.urls")),
    path("", include("games.urls")),
    path("notifications/", include("games.notifications.urls")),
    path("clocks/", include("games.clocks.urls")),
    path("events/", include("tournaments.urls")),
    path("chouette/", include("chouette.urls")),
    path("admin/", admin.site.urls),
    path("api/v1/", include("games.api_urls")),
    path("api/v1/", include("tournaments.api.urls")),
    path("api/v1/", include("chouette.api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
]

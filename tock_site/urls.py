"""Top-level URLs."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

from tock_site import views
from tournaments import views as tournament_views

urlpatterns = [
    path("", tournament_views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/", include("tournaments.api.urls")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("tournaments.urls")),
]

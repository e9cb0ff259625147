"""Top-level URLs."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt
from django.views.i18n import set_language
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from tock_site import views
from tock_site.accounts import views as account_views
from tock_site.accounts.mail import mail_required
from tock_site.accounts.set_password import StaffSetPasswordView
from tournaments import views as tournament_views

# django.contrib.auth.urls, with password reset only while the site can send mail
# (404 otherwise, and no link on the login page: tock_site.accounts.mail).
account_urls = [
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password_change/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path(
        "password_change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    *[
        path(route, mail_required(view.as_view()), name=name)
        for route, view, name in (
            ("password_reset/", auth_views.PasswordResetView, "password_reset"),
            ("password_reset/done/", auth_views.PasswordResetDoneView, "password_reset_done"),
            (
                "reset/<uidb64>/<token>/",
                auth_views.PasswordResetConfirmView,
                "password_reset_confirm",
            ),
            ("reset/done/", auth_views.PasswordResetCompleteView, "password_reset_complete"),
        )
    ],
    path("unlock/", account_views.unlock, name="login-unlock"),
    # One-time link of a staff account created by an organizer (no mail needed).
    path(
        "set-password/<uidb64>/<token>/",
        StaffSetPasswordView.as_view(),
        name="staff-set-password",
    ),
]

urlpatterns = [
    path("", tournament_views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("healthz/live", views.healthz_live, name="healthz-live"),
    path("admin/", admin.site.urls),
    path("favicon.ico", views.favicon, name="favicon"),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # Swagger UI from our own static files (drf-spectacular-sidecar): works offline.
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/", include("tournaments.api.urls")),
    path("accounts/", include(account_urls)),
    # The language switcher (Django's set_language), without CSRF protection: all a forged
    # request can do is switch a visitor's language cookie, and a switcher form without a
    # token keeps every public page the same for all anonymous visitors (cacheable, no
    # csrftoken cookie on every page; tock_site.page_cache). ``next`` stays on the site.
    path("i18n/setlang/", csrf_exempt(set_language), name="set_language"),
    path("", include("tournaments.urls")),
]

# JSON under /api/, templates/500.html elsewhere (DEBUG off); 404/403 use the templates.
handler500 = "tock_site.error_views.server_error"

"""Site-level views: the health endpoint, the favicon."""

from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect, JsonResponse
from django.templatetags.static import static
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from tock_site import health


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """``{"status": "ok"|"degraded"|"down", "database": ..., "redis": ..., "worker": ...}``.

    200 while the database answers (even when Redis or the workers are gone), 503 when
    it does not, so a load balancer takes only a really broken web process out.
    """
    report = health.report()
    return JsonResponse(report, status=503 if report["status"] == "down" else 200)


@never_cache
@require_GET
def healthz_live(request: HttpRequest) -> HttpResponse:
    """``/healthz/live``: liveness only. The process answers requests; nothing else is
    touched (no database, no Redis, no session, no template), so it stays cheap and
    says "alive" even while PostgreSQL is down (``/healthz`` says "ready")."""
    return HttpResponse(b"ok", content_type="text/plain")


@require_GET
def favicon(request: HttpRequest) -> HttpResponsePermanentRedirect:
    """``/favicon.ico``, which browsers ask for by themselves: to ``static/favicon.svg``
    (pages name it in a ``<link rel="icon">`` too)."""
    return HttpResponsePermanentRedirect(static("favicon.svg"))

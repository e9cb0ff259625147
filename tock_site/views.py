"""Site-level views: the health endpoint, the favicon."""

from django.http import HttpRequest, HttpResponsePermanentRedirect, JsonResponse
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


@require_GET
def favicon(request: HttpRequest) -> HttpResponsePermanentRedirect:
    """``/favicon.ico``, which browsers ask for by themselves: to ``static/favicon.svg``
    (pages name it in a ``<link rel="icon">`` too)."""
    return HttpResponsePermanentRedirect(static("favicon.svg"))

"""Site-level views: the health endpoint."""

from django.http import HttpRequest, JsonResponse
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

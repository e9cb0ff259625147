"""The site's error answers when ``DEBUG`` is off (``handler500`` in :mod:`tock_site.urls`).

Every answer under ``/api/`` is JSON: a crash there answers
``{"detail": "Server error.", "code": "server_error"}`` with status 500, like the API's
other errors (:mod:`tock_site.api_errors`). Elsewhere ``templates/500.html``, rendered
without a request context, context processors or the database (the failure may be the
database itself). 404 and 403 pages are Django's defaults with our templates
(``templates/404.html``, ``templates/403.html``); unknown ``/api/`` paths already answer
the JSON 404 (``tournaments.api.base.api_not_found``).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseServerError, JsonResponse
from django.template import loader
from django.views.decorators.csrf import requires_csrf_token


def is_api_path(path: str) -> bool:
    return path == "/api" or path.startswith("/api/")


@requires_csrf_token
def server_error(request: HttpRequest, template_name: str = "500.html") -> HttpResponse:
    """500: JSON under ``/api/``, the plain 500 page elsewhere. Uses nothing that could
    fail again (no translation of the JSON text, no database, no context processors)."""
    if is_api_path(request.path):
        return JsonResponse({"detail": "Server error.", "code": "server_error"}, status=500)
    template = loader.get_template(template_name)
    return HttpResponseServerError(template.render())

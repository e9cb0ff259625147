"""The site's URLs plus views that crash, for tests/web/test_error_pages.py."""

from django.http import HttpRequest, HttpResponse
from django.urls import path
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tock_site.urls import handler500
from tock_site.urls import urlpatterns as site_urlpatterns


def boom(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("secret detail of a crash")


class BoomApi(APIView):
    def get(self, request: Request) -> Response:
        raise RuntimeError("secret detail of an API crash")


urlpatterns = [
    path("boom/", boom),
    path("api/boom", BoomApi.as_view()),
    path("api/boom-plain", boom),
    *site_urlpatterns,
]

__all__ = ["handler500", "urlpatterns"]

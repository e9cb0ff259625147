"""An API answer is freed by reference counting once it is rendered and sent
(tournaments/api/base.py ``_let_go``): DRF's view/response reference cycles no longer
keep its data for the cyclic collector, which the web processes run rarely."""

from __future__ import annotations

import gc
import json
import weakref

from django.test import RequestFactory
from rest_framework.response import Response

from tournaments.api.base import ApiView


class Rows(list):
    """Stands for a big answer's data (a list that can be weakly referenced)."""


class HeldRowsApi(ApiView):
    authentication_classes: list = []
    permission_classes: list = []
    held: weakref.ref | None = None

    def get(self, request):
        rows = Rows([{"rank": 1}, {"rank": 2}])
        HeldRowsApi.held = weakref.ref(rows)
        return Response(rows)


def test_a_rendered_answer_is_freed_without_the_collector():
    gc.disable()
    try:
        response = HeldRowsApi.as_view()(RequestFactory().get("/x"))
        response.render()
        assert json.loads(response.content) == [{"rank": 1}, {"rank": 2}]
        del response
        assert HeldRowsApi.held() is None
    finally:
        gc.enable()

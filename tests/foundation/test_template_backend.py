"""The template backend frees what a render's context held as soon as the page is
rendered (tock_site/template_backend.py): by reference counting, not by the cyclic
collector, which the web processes run rarely."""

from __future__ import annotations

import gc
import weakref

from django.template import engines
from django.test import RequestFactory


class Held:
    """Stands for what a view puts in the context (rows, model instances)."""

    def __str__(self) -> str:
        return "held"


def test_a_render_lets_go_of_its_context_without_the_collector():
    template = engines["django"].from_string("{% with x=held %}{{ x }}{% endwith %}")
    request = RequestFactory().get("/")
    held = Held()
    alive = weakref.ref(held)
    gc.disable()
    try:
        html = template.render({"held": held}, request)
        del held
        assert alive() is None
    finally:
        gc.enable()
    assert html == "held"


def test_a_context_is_still_readable_by_the_test_client(client, db):
    response = client.get("/")
    assert response.status_code == 200
    assert "leagues" in response.context

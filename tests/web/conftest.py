"""Fixtures shared by the web page tests.

``demo_world``: the ``demo`` command's data (the demo league, a finished and a running
event, their players and games), built once per test module instead of once per test:
building it replays hundreds of games (~7 s), and some 40 page tests read it.

It is made inside a transaction opened for the module and rolled back at its end, so
nothing outlives the module. Each test's own transaction (the ``db`` fixture) nests in
it as a savepoint, and is rolled back after the test as usual: what a test writes is
gone for the next one, the demo data stays. A module using it must not hold
transactional tests (``django_db(transaction=True)``), which would flush the data.
Tests of such a module that do not use it run first (``pytest_collection_modifyitems``
below), so they never see the demo's players and events.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.management import call_command
from django.db import transaction


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Within each module, the tests that use ``demo_world`` last (otherwise in the
    order written): once built, the demo data stays until the module ends."""

    def module(item: pytest.Item) -> str:
        return item.nodeid.split("::")[0]

    order: dict[str, int] = {}
    for item in items:
        order.setdefault(module(item), len(order))
    items.sort(key=lambda i: (order[module(i)], "demo_world" in getattr(i, "fixturenames", ())))


@pytest.fixture(scope="module")
def demo_world(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    with django_db_blocker.unblock(), transaction.atomic():
        call_command("demo", stdout=io.StringIO())
        with django_db_blocker.block():  # the tests open the database as usual (``db``)
            yield
        transaction.set_rollback(True)

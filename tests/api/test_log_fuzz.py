"""Damaged logs through the upload API: always a JSON 2xx/4xx, never a 500, and all or
nothing (a refused upload stores no event). Bounded: a fixed number of derandomized
examples."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games.engine as engine
from games.models import GameEvent

pytestmark = pytest.mark.django_db

LOG = engine.simulate(game="tock", players=["ann", "bob", "cat", "dan"], seed=31)

#: Raw JSON text put in place of a value: what the probe found, and friends.
POISON = [
    "[" * 5000 + "]" * 5000,
    "[" * 900 + "]" * 900,
    '{"a":' * 300 + "1" + "}" * 300,
    '"\\ud800"',
    '"\\udfff\\ud800"',
    '"a\\u0000b"',
    "1e999",
    "-1e999",
    "1" + "0" * 400,
    "18446744073709551616",
    '"' + "x" * 100_000 + '"',
    "NaN",
    "null",
    "[]",
    "{}",
]


@st.composite
def damaged_logs(draw) -> str:
    events = [dict(e) for e in LOG[: draw(st.integers(1, len(LOG)))]]
    poisons: dict[str, str] = {}
    for i in range(draw(st.integers(1, 3))):
        event = events[draw(st.integers(0, len(events) - 1))]
        key = draw(st.sampled_from(sorted(event) + ["players", "card", "_note", "to"]))
        marker = f"__POISON_{i}__"
        event[key] = marker
        poisons[marker] = draw(st.sampled_from(POISON))
    text = "\n".join(json.dumps(e) for e in events) + "\n"
    for marker, raw in poisons.items():
        text = text.replace(f'"{marker}"', raw)
    return text


@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(text=damaged_logs())
def test_a_damaged_log_is_refused_cleanly_or_stored_whole(game, as_user, text):
    before = GameEvent.objects.filter(game=game).count()
    response = as_user("scorekeeper").post(
        reverse("api:game-log", args=[game.pk]), data=text, content_type="text/plain"
    )
    assert response.status_code in (200, 201, 400, 409, 413, 422), response.content[:300]
    body = response.json()
    assert body
    if response.status_code >= 400:
        assert body.get("detail") or body.get("reason")
        assert GameEvent.objects.filter(game=game).count() == before
    else:
        stored = GameEvent.objects.filter(game=game).count()
        assert stored == len(text.splitlines())


def test_a_ten_megabyte_line_is_refused_in_json(game, as_user):
    line = json.dumps({**LOG[0], "_note": "x" * (10 * 1024 * 1024)})
    response = as_user("scorekeeper").post(
        reverse("api:game-log", args=[game.pk]), data=line + "\n", content_type="text/plain"
    )
    assert response.status_code in (400, 413)
    assert response.json()["detail"]
    assert GameEvent.objects.filter(game=game).count() == 0

"""The venue screen (issue 23) at 1920 x 1080: every player of the round by name with
table and seat, the clock counting down from the server's deadline (Playwright's clock:
no waiting), and the same in Spanish and German."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.utils import timezone

from tests.browser import scenes
from tournaments.models import Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _seconds(text: str) -> int:
    parts = [int(p) for p in re.findall(r"\d+", text)]
    return sum(v * 60**i for i, v in enumerate(reversed(parts)))


def test_the_screen_lists_everyone_and_counts_down(make_context: Any, shot: Any) -> None:
    from playwright.sync_api import expect

    scene = scenes.running_tournament(players=12)
    Round.objects.filter(tournament=scene.tournament).update(
        deadline=timezone.now() + dt.timedelta(minutes=25)
    )
    context = make_context("desktop", viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    page.clock.install()
    page.goto(f"/tournaments/{scene.tournament.pk}/screen/")
    assert page.locator("[data-player]").count() == 12
    clock = page.locator("#clock")
    expect(clock).not_to_have_text("–:––")
    before = _seconds(clock.inner_text())
    assert 23 * 60 < before <= 25 * 60
    page.clock.fast_forward("02:00")
    after = _seconds(clock.inner_text())
    assert before - 125 <= after <= before - 115
    shot(page, "en-screen")
    for locale in ("es-ES", "de-DE"):
        other = make_context("desktop", locale=locale, viewport={"width": 1920, "height": 1080})
        seen = other.new_page()
        seen.goto(f"/tournaments/{scene.tournament.pk}/screen/")
        assert seen.locator("[data-player]").count() == 12
        shot(seen, f"{locale[:2]}-screen")

"""``make bench-score``: simulated games played through the score page as a scorekeeper
plays them on a phone (issue 22, "Measured"), one kind after the other.

Not part of the suite (the file name does not match ``test_*.py``): ``make
bench-score`` runs it with pytest, so that it uses the browser tests' served site,
Chromium and sign-in (tests/browser/conftest.py).

For each kind, a simulated game's events after the start are tapped through the page
at 390 x 844: the element whose ``data-event`` is the next event, its opener first when
it is folded away (tests/browser/score_pad.py). An event the page offers no target for
(a bot's event in a form the engine would offer otherwise, a card to name in an
unseeded deal) is recorded through the service instead and counted as "not offered".
Printed per kind: events tapped, taps per event and per turn (a turn: the events up to
the next change of the player to act), events that needed a scroll, distinct targets
under 44 x 44 px, and the time from a tap to the updated page (p50, p95). Baseline: the
issue's figures for the page before the card pad (TOCK: about one tap plus a scroll per
event, 35 of 42 targets off-screen when needed).

    make bench-score                  # every kind, BENCH_EVENTS events each (default 120)
    BENCH_KINDS=tock make bench-score
"""

from __future__ import annotations

import os
import statistics
import time
from typing import Any

import pytest

import games.engine as engine
from games.models import Game, GameEvent
from tests.browser.score_pad import layout_problems, tap_event
from tests.web.kind_fixtures import kind_tournament, seated_game, staff
from tournaments.models import Role
from tournaments.permissions import SYSTEM
from tournaments.services import game_record_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

EVENTS = int(os.environ.get("BENCH_EVENTS", "120"))
KINDS = [k for k in os.environ.get("BENCH_KINDS", "tock,uno,casino").split(",") if k]
SIMULATED = {
    "tock": {"seed": 5, "mistakes": 0.0, "knocks": 0.0},
    "uno": {"seed": 5},
    "casino": {"seed": 5},
}


def _sequence_shown(page: Any) -> int:
    return page.evaluate(
        "(() => { const el = document.querySelector('[data-event][data-sequence]');"
        " return el ? parseInt(el.dataset.sequence, 10) : -1; })()"
    )


def _play(kind: str, make_context: Any, log_in: Any) -> dict[str, Any]:
    handles = [f"{kind}{n}" for n in range(1, 5)]
    log = engine.simulate(game=kind, players=handles, **SIMULATED[kind])
    tournament = kind_tournament(kind, name=f"{kind} bench")
    game = seated_game(tournament, {h: h.title() for h in handles})
    keeper = staff(tournament, Role.SCOREKEEPER, f"{kind}-keeper")
    game_record_event(game=game.pk, event=log[0], expected_sequence=1, user=SYSTEM)
    context = make_context("phone")
    log_in(context, keeper)
    page = context.new_page()
    page.goto(f"/games/{game.pk}/score/")
    taps, tapped, missing, scrolled, small = 0, 0, 0, 0, set()
    waits: list[float] = []
    turns, last_actor = 0, None
    for sequence, event in enumerate(log[1 : EVENTS + 1], start=2):
        problems = layout_problems(page)
        if any(p.startswith("scrolls") for p in problems):
            scrolled += 1
        small.update(p for p in problems if p.startswith("small"))
        actor = event.get("player") or event.get("by")
        if actor != last_actor:
            turns, last_actor = turns + 1, actor
        try:
            started = time.perf_counter()
            taps += tap_event(page, event)
            page.wait_for_function(
                "(n) => { const el = document.querySelector('[data-event][data-sequence]');"
                " return !el || parseInt(el.dataset.sequence, 10) > n; }",
                arg=sequence,
            )
            waits.append(time.perf_counter() - started)
            tapped += 1
        except AssertionError:  # no target for it: recorded as the bench, not the page
            game_record_event(game=game.pk, event=event, expected_sequence=sequence, user=SYSTEM)
            missing += 1
            page.reload()
        if Game.objects.get(pk=game.pk).is_over:
            break
    stored = [e.data for e in GameEvent.objects.filter(game=game).order_by("sequence")]
    assert stored == log[: len(stored)], f"{kind}: the stored log differs from the simulated one"
    waits.sort()
    return {
        "kind": kind,
        "events": tapped + missing,
        "tapped": tapped,
        "not offered": missing,
        "taps/event": round(taps / tapped, 3) if tapped else None,
        "taps/turn": round(taps / max(1, turns), 2),
        "scrolled": scrolled,
        "small targets": len(small),
        "p50 s": round(statistics.median(waits), 3) if waits else None,
        "p95 s": round(waits[int(0.95 * (len(waits) - 1))], 3) if waits else None,
    }


def test_bench_score(make_context: Any, log_in: Any) -> None:
    rows = [_play(kind, make_context, log_in) for kind in KINDS]
    print()
    for row in rows:
        print("  ".join(f"{k}: {v}" for k, v in row.items()))

"""Driving the score page by its ``data-event`` contract (issue 22): every tap target
carries the exact JSON event it records, so a test taps "the element whose data-event
is the next event" without knowing the layout; an event behind a pad key's choice or
under "Something else" is reached by tapping the opener first. Also what the phone
layout promises: nothing to scroll, every target at least 44 x 44 CSS pixels."""

from __future__ import annotations

import re
from typing import Any

#: The selector of the target of ``wanted`` (by its data-event, so that it survives a
#: live swap of the region) and of what opens it first ("" when it shows already), or
#: null when the page has no such target.
_FIND = """(wanted) => {
  const canon = (v) => JSON.stringify(v, Object.keys(v).sort());
  const shown = (el) => el.checkVisibility();
  const all = [...document.querySelectorAll('#score-moves [data-event]')].filter((el) => {
    try { return canon(JSON.parse(el.dataset.event)) === canon(wanted); }
    catch (e) { return false; }
  });
  if (!all.length) return null;
  const target = all.find(shown) || all[0];
  const selector = `#score-moves [data-event="${CSS.escape(target.dataset.event)}"]`;
  if (shown(target)) return {selector, opener: ''};
  const choice = target.closest('[hidden][id]');
  if (choice) return {selector, opener: `[data-pick="${choice.id}"]`};
  const fold = target.closest('details');
  if (fold && fold.id) return {selector, opener: `#${fold.id} > summary`};
  return null;
}"""

#: Problems of the phone layout now: the page scrolls, or a visible target is small.
_LAYOUT = """() => {
  const out = [];
  const doc = document.documentElement;
  const high = window.innerHeight;
  if (doc.scrollHeight > high) out.push(`scrolls: ${doc.scrollHeight} > ${high}`);
  if (doc.scrollWidth > window.innerWidth) out.push(`scrolls sideways: ${doc.scrollWidth}`);
  for (const el of document.querySelectorAll('[data-event], [data-pick]')) {
    const r = el.getBoundingClientRect();
    if (!el.checkVisibility()) continue;
    const size = `${Math.round(r.width)}x${Math.round(r.height)}`;
    if (r.width < 44 || r.height < 44) out.push(`small ${size}: ${el.outerHTML.slice(0, 120)}`);
  }
  return out;
}"""


def find_target(page: Any, event: dict[str, Any]) -> dict[str, str] | None:
    """``{"selector": ..., "opener": ...}`` of ``event``'s target ("" opener when it
    shows already), or None when the page offers none."""
    return page.evaluate(_FIND, event)


def tap_event(page: Any, event: dict[str, Any]) -> int:
    """Tap ``event`` through the page (its opener first when it is folded away); the
    number of taps it took. Fails when the page offers no target for it."""
    found = page.evaluate(_FIND, event)
    assert found is not None, f"no target for {event}"
    taps = 1
    if found["opener"]:
        page.locator(found["opener"]).click()
        taps += 1
    page.locator(found["selector"]).locator("visible=true").click()
    return taps


def layout_problems(page: Any) -> list[str]:
    """What breaks the phone layout now (an empty list when nothing)."""
    return page.evaluate(_LAYOUT)


#: Swaps the score page's regions with a fresh copy fetched apart (``?copy``), as live.js
#: shows a message about an event; answers the sequence of the next event shown.
_LIVE_COPY = """async () => {
  const answer = await fetch(location.pathname + "?copy=1", {headers: {Accept: "text/html"}});
  const html = await answer.text();
  const doc = new DOMParser().parseFromString(html, "text/html");
  const regions = ["#score-head", "#score-moves", "#score-state", "#score-result"];
  const swapped = window.TockRegions.swapIn(doc, regions);
  document.dispatchEvent(new CustomEvent("tock:live-updated", {detail: swapped}));
  return document.querySelector("#score-moves .score-moves").dataset.sequence;
}"""

_MARK = "() => document.querySelector('#score-moves').append(document.createElement('hr'))"


def _until_held(page: Any, held: list[Any], failure: str) -> None:
    """Until a route handler has held a request (``held`` not empty), 10 s at most."""
    for _ in range(200):
        if held:
            return
        page.wait_for_timeout(50)  # lets Playwright deliver the route
    raise AssertionError(failure)


class OwnRefresh:
    """The order of a score page's two swaps after the scorekeeper's own event, chosen
    by the test: live.js is not loaded (its messages come when they come), the test
    shows its copy with :meth:`show_live_copy`, and score.js's own refresh (its fetch
    of the page) is held from :meth:`hold` until :meth:`release` swaps it in."""

    def __init__(self, page: Any, url: str) -> None:
        self.page, self.url, self.held = page, url, []
        page.route(re.compile(r"/js/live[.\w]*\.js"), lambda route: route.abort())

    def _handle(self, route: Any) -> None:
        if route.request.resource_type == "fetch" and "?" not in route.request.url:
            self.held.append(route)
        else:
            route.continue_()

    def hold(self) -> None:
        """Hold the page's next refresh (call before the tap that records)."""
        self.page.route(self.url + "*", self._handle)

    def wait(self) -> None:
        """Until score.js has asked for its refresh (held), 10 s at most."""
        _until_held(self.page, self.held, "score.js did not ask for its refresh after the event")

    def show_live_copy(self) -> str:
        """Swap in a fresh copy as live.js would; the next event's sequence shown."""
        return self.page.evaluate(_LIVE_COPY)

    def release(self) -> None:
        """Let the held refresh through and wait until it is swapped in."""
        self.page.evaluate(_MARK)  # the swap replaces the region's content
        for route in self.held:
            route.continue_()
        self.held = []
        self.page.unroute(self.url + "*")
        self.page.wait_for_function("() => !document.querySelector('#score-moves > hr')")


class HeldAnswer:
    """The answer to the page's event POSTs held by the test: each request reaches the
    server (the event is stored, live pages are told) through Playwright, and its answer
    reaches the page only at :meth:`release`: the page is still sending meanwhile."""

    def __init__(self, page: Any) -> None:
        self.page, self.held = page, []
        self.pattern = re.compile(r"/api/games/\d+/events$")
        page.route(self.pattern, self._handle)

    def _handle(self, route: Any) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        answer = route.fetch()
        self.held.append((route, answer.status, answer.headers, answer.body()))

    def wait(self) -> None:
        """Until an event was sent and stored (its answer held), 10 s at most."""
        _until_held(self.page, self.held, "the page sent no event")

    def release(self) -> None:
        """Let the held answers through, in order; later events go as usual."""
        self.page.unroute(self.pattern)
        for route, status, headers, body in self.held:
            route.fulfill(status=status, headers=headers, body=body)
        self.held = []

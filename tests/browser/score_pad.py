"""Driving the score page by its ``data-event`` contract (issue 22): every tap target
carries the exact JSON event it records, so a test taps "the element whose data-event
is the next event" without knowing the layout; an event behind a pad key's choice or
under "Something else" is reached by tapping the opener first. Also what the phone
layout promises: nothing to scroll, every target at least 44 x 44 CSS pixels."""

from __future__ import annotations

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

"""The cyclic garbage collector in the long-running processes (web and Celery workers).

A page of a big event or a round's progression allocates some hundred thousand
objects; with Python's default thresholds (700, 10, 10) the collector runs often, and
each full collection scans everything the process loaded at start (Django, the apps,
the URL conf): 70-90 ms landing inside a 1,000-player round's progression, about a
quarter of an uncached 1,000-player page. So each process, once loaded, freezes what it
holds (``gc.freeze``: never scanned again; still freed by reference counting) and
collects the youngest generation every :data:`GC_THRESHOLD` allocations. Garbage in
reference cycles waits longer, which is why the template backend and the API's base
view break the cycles they make (``tock_site.serve`` says more)."""

from __future__ import annotations

import gc

#: The collector's thresholds in the long-running processes (default ``700, 10, 10``).
GC_THRESHOLD = (50_000, 20, 10)


def settle_heap() -> None:
    """Freeze what the process loaded so far and set :data:`GC_THRESHOLD`. Call once
    the process has loaded what it runs (after Django's setup and the URL conf or the
    tasks), in each process (after a fork: the child's own heap)."""
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLD)

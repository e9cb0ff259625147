"""Test support for Celery's app object (no fixtures here: they live in conftest)."""

from __future__ import annotations

from typing import Any


def forget_result_backend(celery_app: Any) -> None:
    """Make ``celery_app`` build its result backend again from its configuration.

    Celery builds the backend on first use and keeps it (``_backend_cache``, or per thread
    in ``_local``), whatever ``result_backend`` says later: a task sent earlier in this
    process, by a test that ran before in the same xdist worker, left the backend of its
    time, and ``.get()`` then failed with "No result backend is configured" (which tests
    run before depends on how files fall to the workers)."""
    celery_app._backend_cache = None
    celery_app._local.__dict__.pop("backend", None)

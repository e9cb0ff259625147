"""The token endpoint's throttle: keyed on :func:`~tock_site.accounts.client.client_ip`,
and open (with a warning in the log) while the cache cannot be reached, so that Redis
being down does not turn every login into a 500. The login lock (axes, in the
database) still holds during that time."""

from __future__ import annotations

import logging
from typing import Any

from rest_framework.throttling import ScopedRateThrottle

from tock_site.accounts.client import client_ip

logger = logging.getLogger(__name__)


class ResilientScopedRateThrottle(ScopedRateThrottle):
    def get_ident(self, request: Any) -> str:
        return client_ip(request) or ""

    def allow_request(self, request: Any, view: Any) -> bool:
        try:
            return super().allow_request(request, view)
        except Exception as exc:  # the cache backend's own errors (redis, OSError, ...)
            logger.warning(
                "Throttle %r skipped: the cache is unreachable (%s: %s)",
                getattr(view, "throttle_scope", None),
                type(exc).__name__,
                exc,
            )
            return True

"""The client's address, for throttles and login locks.

``X-Forwarded-For`` is written by the client and by every proxy on the way, each
proxy appending the address it saw. Only the entries added by our own proxies can be
trusted, so with ``TRUSTED_PROXIES = n`` the client is the n-th entry from the right
(the last one our outermost proxy appended); with 0 (the default: daphne faces the
clients) the header is ignored and the client is the connection's address. This is
DRF's ``NUM_PROXIES`` rule; axes and the API throttle both call :func:`client_ip`.
"""

from __future__ import annotations

import ipaddress
from typing import Any

from django.conf import settings


def _valid(address: str) -> bool:
    try:
        ipaddress.ip_address(address)
    except ValueError:
        return False
    return True


def client_ip(request: Any) -> str | None:
    """The client's address of ``request`` (a Django or DRF request)."""
    meta = request.META
    remote = meta.get("REMOTE_ADDR") or None
    proxies = int(getattr(settings, "TRUSTED_PROXIES", 0) or 0)
    forwarded = meta.get("HTTP_X_FORWARDED_FOR", "")
    if proxies <= 0 or not forwarded:
        return remote
    entries = [entry.strip() for entry in forwarded.split(",") if entry.strip()]
    if not entries:
        return remote
    candidate = entries[-min(proxies, len(entries))]
    # A proxy appends a bare address; anything else (a port, garbage) is not trusted.
    return candidate if _valid(candidate) else remote

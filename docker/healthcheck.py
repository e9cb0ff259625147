"""Container health check: GET /healthz on the local web server, with a Host it accepts.

Exit 0 while the site answers 200 (database up; Redis or workers may be degraded).
"""

import os
import sys
import urllib.error
import urllib.request


def main() -> int:
    hosts = [h.strip() for h in os.environ.get("DJANGO_ALLOWED_HOSTS", "").split(",") if h.strip()]
    host = hosts[0].lstrip(".") if hosts else "localhost"
    if host == "*":
        host = "localhost"
    port = os.environ.get("PORT", "8000")
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/healthz",
        headers={"Host": host, "X-Forwarded-Proto": "https"},
    )
    try:
        with urllib.request.urlopen(request, timeout=4) as response:
            return 0 if response.status == 200 else 1
    except (urllib.error.URLError, OSError) as exc:
        print(f"unhealthy: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())

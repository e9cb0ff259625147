"""WSGI entry point: HTTP only, for synchronous workers (``gunicorn tock_site.wsgi``).

WebSockets (``/ws/``) need the ASGI application (:mod:`tock_site.asgi`); see
``docs/deploy.md`` for how the two are served side by side.
"""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tock_site.settings")
application = get_wsgi_application()

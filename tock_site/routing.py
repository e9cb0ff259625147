"""WebSocket routes. Each app contributes its own list; add it to ``websocket_urlpatterns``."""

from django.urls import path

from tock_site.consumers import PingConsumer

websocket_urlpatterns: list = [
    path("ws/ping/", PingConsumer.as_asgi(), name="ws-ping"),
]

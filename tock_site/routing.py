"""WebSocket routes. Each app contributes its own list."""

websocket_urlpatterns: list = []

"""WebSocket routes. Each app contributes its own list; add it to ``websocket_urlpatterns``."""

from django.urls import path

from tock_site.consumers import PingConsumer
from tournaments.consumers import GameConsumer, MyTablesConsumer, TournamentConsumer

websocket_urlpatterns: list = [
    path("ws/ping/", PingConsumer.as_asgi(), name="ws-ping"),
    # Live pages (docs/api.md, "Live updates").
    path("ws/games/<int:game_id>/", GameConsumer.as_asgi(), name="ws-game"),
    path("ws/tournaments/<int:tournament_id>/", TournamentConsumer.as_asgi(), name="ws-tournament"),
    path("ws/me/", MyTablesConsumer.as_asgi(), name="ws-me"),
]

"""Server-rendered pages (namespace ``tournaments``); the home page is ``home`` at ``/``."""

from django.urls import path

from tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("leagues/", views.league_list_page, name="league-list"),
    path("leagues/<slug:slug>/", views.league_detail, name="league-detail"),
    path("tournaments/<int:pk>/", views.tournament_detail, name="tournament-detail"),
    path("players/", views.player_list_page, name="player-list"),
    path("players/<slug:handle>/", views.player_detail, name="player-detail"),
    path("games/<int:pk>/", views.game_detail, name="game-detail"),
    path("rules/", views.rules, name="rules"),
    path("rules/<slug:kind>/", views.rules, name="rules-kind"),
]

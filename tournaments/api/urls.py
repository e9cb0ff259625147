"""URLs of the JSON API, mounted at ``/api/`` (namespace ``api``)."""

from django.urls import path, re_path

from tock_site.page_cache import page_cached
from tournaments.api import rulings, staff, views

app_name = "api"

urlpatterns = [
    path("auth/token", views.TokenObtainApi.as_view(), name="auth-token"),
    path("leagues", views.LeagueListApi.as_view(), name="league-list"),
    path("leagues/<slug:slug>", views.LeagueDetailApi.as_view(), name="league-detail"),
    path(
        "leagues/<slug:slug>/tournaments",
        views.LeagueTournamentListApi.as_view(),
        name="league-tournaments",
    ),
    path("tournaments", views.TournamentListApi.as_view(), name="tournament-list"),
    path(
        "tournaments/<int:tournament_id>",
        views.TournamentDetailApi.as_view(),
        name="tournament-detail",
    ),
    path(
        "tournaments/<int:tournament_id>/standings",
        # Kept by the page cache for anonymous readers until a result changes.
        page_cached(views.TournamentStandingsApi.as_view(), vary_accept=True),
        name="tournament-standings",
    ),
    path(
        "tournaments/<int:tournament_id>/rounds",
        views.TournamentRoundsApi.as_view(),
        name="tournament-rounds",
    ),
    path(
        "tournaments/<int:tournament_id>/players",
        views.TournamentPlayersApi.as_view(),
        name="tournament-players",
    ),
    path(
        "tournaments/<int:tournament_id>/players/<slug:handle>/check-in",
        views.PlayerCheckInApi.as_view(),
        name="tournament-player-check-in",
    ),
    path(
        "tournaments/<int:tournament_id>/players/<slug:handle>/drop",
        views.PlayerDropApi.as_view(),
        name="tournament-player-drop",
    ),
    path(
        "tournaments/<int:tournament_id>/players/<slug:handle>/reinstate",
        views.PlayerReinstateApi.as_view(),
        name="tournament-player-reinstate",
    ),
    path(
        "tournaments/<int:tournament_id>/players/<slug:handle>/no-show",
        views.PlayerNoShowApi.as_view(),
        name="tournament-player-no-show",
    ),
    path(
        "tournaments/<int:tournament_id>/start",
        views.TournamentStartApi.as_view(),
        name="tournament-start",
    ),
    path(
        "tournaments/<int:tournament_id>/rounds/next",
        views.TournamentNextRoundApi.as_view(),
        name="tournament-next-round",
    ),
    path(
        "tournaments/<int:tournament_id>/finish",
        views.TournamentFinishApi.as_view(),
        name="tournament-finish",
    ),
    path(
        "tournaments/<int:tournament_id>/audit",
        views.TournamentAuditApi.as_view(),
        name="tournament-audit",
    ),
    path(
        "tournaments/<int:tournament_id>/staff",
        staff.TournamentStaffApi.as_view(),
        name="tournament-staff",
    ),
    path(
        "tournaments/<int:tournament_id>/staff/<str:username>",
        staff.TournamentStaffMemberApi.as_view(),
        name="tournament-staff-member",
    ),
    path("rounds/<int:round_id>/reseat", views.RoundReseatApi.as_view(), name="round-reseat"),
    path("rounds/<int:round_id>/time-up", views.RoundTimeUpApi.as_view(), name="round-time-up"),
    path("players", views.PlayerListApi.as_view(), name="player-list"),
    path("players/<slug:handle>", views.PlayerDetailApi.as_view(), name="player-detail"),
    path("games/<int:game_id>", views.GameDetailApi.as_view(), name="game-detail"),
    path("games/<int:game_id>/events", views.GameEventsApi.as_view(), name="game-events"),
    path("games/<int:game_id>/state", views.GameStateApi.as_view(), name="game-state"),
    path("games/<int:game_id>/log", views.GameLogApi.as_view(), name="game-log"),
    path(
        "games/<int:game_id>/knock-preview",
        rulings.KnockPreviewApi.as_view(),
        name="game-knock-preview",
    ),
    path("games/<int:game_id>/rulings", rulings.GameRulingsApi.as_view(), name="game-rulings"),
    path(
        "tournaments/<int:tournament_id>/rulings",
        rulings.TournamentRulingsApi.as_view(),
        name="tournament-rulings",
    ),
    path(
        "games/<int:game_id>/placements",
        views.GamePlacementsApi.as_view(),
        name="game-placements",
    ),
    # Anything else under /api/ (a mistyped path, a non-numeric id) answers in JSON too.
    re_path(r"^.*$", views.api_not_found, name="not-found"),
]

"""URLs of the JSON API, mounted at ``/api/`` (namespace ``api``)."""

from django.urls import path, re_path

from tock_site.page_cache import page_cached
from tournaments.api import (
    auth,
    base,
    calls,
    games,
    league_staff,
    leagues,
    links,
    players,
    proposals,
    registrations,
    reports,
    rounds,
    rulings,
    seasons,
    tournaments,
)
from tournaments.staff import api as staff

app_name = "api"

urlpatterns = [
    path("auth/token", auth.TokenObtainApi.as_view(), name="auth-token"),
    path("leagues", leagues.LeagueListApi.as_view(), name="league-list"),
    path("leagues/<slug:slug>", leagues.LeagueDetailApi.as_view(), name="league-detail"),
    path("leagues/<slug:slug>/seasons", seasons.LeagueSeasonsApi.as_view(), name="league-seasons"),
    path("leagues/<slug:slug>/audit", leagues.LeagueAuditApi.as_view(), name="league-audit"),
    path("leagues/<slug:slug>/staff", league_staff.LeagueStaffApi.as_view(), name="league-staff"),
    path(
        "leagues/<slug:slug>/staff/<int:role_id>",
        league_staff.LeagueStaffDetailApi.as_view(),
        name="league-staff-detail",
    ),
    path(
        "leagues/<slug:slug>/standings",
        seasons.LeagueStandingsApi.as_view(),
        name="league-standings",
    ),
    path(
        "leagues/<slug:slug>/tournaments",
        leagues.LeagueTournamentListApi.as_view(),
        name="league-tournaments",
    ),
    path("tournaments", tournaments.TournamentListApi.as_view(), name="tournament-list"),
    path(
        "tournaments/<int:tournament_id>",
        tournaments.TournamentDetailApi.as_view(),
        name="tournament-detail",
    ),
    path(
        "tournaments/<int:tournament_id>/standings",
        # Kept by the page cache for anonymous readers until a result changes.
        page_cached(tournaments.TournamentStandingsApi.as_view(), vary_accept=True),
        name="tournament-standings",
    ),
    path(
        "tournaments/<int:tournament_id>/rounds",
        rounds.TournamentRoundsApi.as_view(),
        name="tournament-rounds",
    ),
    path(
        "tournaments/<int:tournament_id>/signup",
        registrations.TournamentSignupApi.as_view(),
        name="tournament-signup",
    ),
    path(
        "tournaments/<int:tournament_id>/players",
        registrations.TournamentPlayersApi.as_view(),
        name="tournament-players",
    ),
    path(
        "tournaments/<int:tournament_id>/players/<slug:handle>/link",
        links.TournamentPlayerLinkApi.as_view(),
        name="tournament-player-link",
    ),
    path(
        "tournaments/<int:tournament_id>/players/<slug:handle>/check-in",
        registrations.RegistrationActionApi.as_view(registration_action="check-in"),
        name="tournament-player-check-in",
    ),
    path(
        "tournaments/<int:tournament_id>/players/<slug:handle>/drop",
        registrations.RegistrationActionApi.as_view(registration_action="drop"),
        name="tournament-player-drop",
    ),
    path(
        "tournaments/<int:tournament_id>/players/<slug:handle>/reinstate",
        registrations.RegistrationActionApi.as_view(registration_action="reinstate"),
        name="tournament-player-reinstate",
    ),
    path(
        "tournaments/<int:tournament_id>/players/<slug:handle>/no-show",
        registrations.PlayerNoShowApi.as_view(),
        name="tournament-player-no-show",
    ),
    path(
        "tournaments/<int:tournament_id>/start",
        rounds.TournamentStartApi.as_view(),
        name="tournament-start",
    ),
    path(
        "tournaments/<int:tournament_id>/rounds/next",
        rounds.TournamentNextRoundApi.as_view(),
        name="tournament-next-round",
    ),
    path(
        "tournaments/<int:tournament_id>/finish",
        tournaments.TournamentFinishApi.as_view(),
        name="tournament-finish",
    ),
    path(
        "tournaments/<int:tournament_id>/audit",
        tournaments.TournamentAuditApi.as_view(),
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
    path("rounds/<int:round_id>/seating", rounds.RoundSeatingApi.as_view(), name="round-seating"),
    path("rounds/<int:round_id>/reseat", rounds.RoundReseatApi.as_view(), name="round-reseat"),
    path("rounds/<int:round_id>/time-up", rounds.RoundTimeUpApi.as_view(), name="round-time-up"),
    path("players", players.PlayerListApi.as_view(), name="player-list"),
    path("players/link", links.PlayerLinkApi.as_view(), name="player-link"),
    path("players/<slug:handle>/unlink", links.PlayerUnlinkApi.as_view(), name="player-unlink"),
    path("players/<slug:handle>", players.PlayerDetailApi.as_view(), name="player-detail"),
    path("games/<int:game_id>", games.GameDetailApi.as_view(), name="game-detail"),
    path("games/<int:game_id>/events", games.GameEventsApi.as_view(), name="game-events"),
    path("games/<int:game_id>/state", games.GameStateApi.as_view(), name="game-state"),
    path("games/<int:game_id>/log", games.GameLogApi.as_view(), name="game-log"),
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
    path("games/<int:game_id>/reports", reports.GameReportsApi.as_view(), name="game-reports"),
    path("games/<int:game_id>/calls", calls.GameCallsApi.as_view(), name="game-calls"),
    path(
        "tournaments/<int:tournament_id>/calls",
        calls.TournamentCallsApi.as_view(),
        name="tournament-calls",
    ),
    path("calls/<int:call_id>/claim", calls.CallClaimApi.as_view(), name="call-claim"),
    path("calls/<int:call_id>/close", calls.CallCloseApi.as_view(), name="call-close"),
    path(
        "games/<int:game_id>/reports/accept",
        reports.GameReportAcceptApi.as_view(),
        name="game-reports-accept",
    ),
    path(
        "games/<int:game_id>/proposal",
        proposals.GameProposalApi.as_view(),
        name="game-proposal",
    ),
    path(
        "games/<int:game_id>/proposal/confirm",
        proposals.GameProposalConfirmApi.as_view(),
        name="game-proposal-confirm",
    ),
    path(
        "games/<int:game_id>/proposal/reject",
        proposals.GameProposalRejectApi.as_view(),
        name="game-proposal-reject",
    ),
    path(
        "games/<int:game_id>/placements",
        games.GamePlacementsApi.as_view(),
        name="game-placements",
    ),
    # Anything else under /api/ (a mistyped path, a non-numeric id) answers in JSON too;
    # [\s\S], not ".": a path with a newline ("players/a%0A") is unknown too.
    re_path(r"^[\s\S]*$", base.api_not_found, name="not-found"),
]

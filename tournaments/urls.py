"""Server-rendered pages (namespace ``tournaments``); the home page is ``home`` at ``/``."""

from django.urls import path

from tournaments import (
    views,
    views_calls,
    views_links,
    views_organize,
    views_print,
    views_referee,
    views_report,
    views_score,
    views_screen,
    views_signup,
)
from tournaments.exports import views as export_views
from tournaments.staff import views as staff_views

app_name = "tournaments"

urlpatterns = [
    path("leagues/", views.league_list_page, name="league-list"),
    path("leagues/<slug:slug>/", views.league_detail, name="league-detail"),
    path("leagues/<slug:slug>/calendar.ics", export_views.league_calendar, name="league-calendar"),
    path(
        "leagues/<slug:slug>/seasons/<int:season_id>/",
        views.league_season,
        name="league-season",
    ),
    path(
        "leagues/<slug:slug>/seasons/<int:season_id>/standings.csv",
        export_views.season_standings_csv,
        name="league-season-csv",
    ),
    path("leagues/<slug:slug>/seasons/new/", views_organize.season_new, name="league-season-new"),
    path("leagues/<slug:slug>/staff/", views_organize.league_staff_action, name="league-staff"),
    path("tournaments/<int:pk>/", views.tournament_detail, name="tournament-detail"),
    # the organizer's pages (tournaments/views_organize.py)
    path(
        "leagues/<slug:slug>/tournaments/new/",
        views_organize.tournament_create_page,
        name="tournament-create",
    ),
    path("tournaments/<int:pk>/organize/", views_organize.organize, name="organize"),
    path("tournaments/<int:pk>/signup/", views_signup.tournament_signup, name="tournament-signup"),
    path(
        "tournaments/<int:pk>/check-in/",
        views_signup.tournament_check_in,
        name="tournament-check-in",
    ),
    path("tournaments/<int:pk>/print/pairings/", views_print.print_pairings, name="print-pairings"),
    path("tournaments/<int:pk>/print/slips/", views_print.print_slips, name="print-slips"),
    path(
        "tournaments/<int:pk>/print/standings/", views_print.print_standings, name="print-standings"
    ),
    *[
        path(f"tournaments/<int:pk>/organize/{route}", view, name=f"organize-{name}")
        for route, view, name in (
            ("audit/", views_organize.organize_audit, "audit"),
            ("settings/", views_organize.organize_settings, "settings"),
            ("players/", views_organize.organize_player_add, "player-add"),
            ("players/csv/", views_organize.organize_players_csv, "players-csv"),
            ("players/check-in-all/", views_organize.organize_check_in_all, "check-in-all"),
            ("players/check-in-open/", views_organize.organize_check_in_open, "check-in-open"),
            (
                "players/<slug:handle>/<slug:action>/",
                views_organize.organize_player_action,
                "player-action",
            ),
            ("start/", views_organize.organize_start, "start"),
            ("next-round/", views_organize.organize_next_round, "next-round"),
            ("reseat/", views_organize.organize_reseat, "reseat"),
            ("time-up/", views_organize.organize_time_up, "time-up"),
            ("finish/", views_organize.organize_finish, "finish"),
        )
    ],
    path(
        "tournaments/<int:pk>/organize/staff/",
        staff_views.organize_staff,
        name="organize-staff",
    ),
    path(
        "tournaments/<int:pk>/standings.csv",
        export_views.standings_csv,
        name="tournament-standings-csv",
    ),
    path(
        "tournaments/<int:pk>/results.csv", export_views.results_csv, name="tournament-results-csv"
    ),
    path(
        "tournaments/<int:pk>/players.csv", export_views.players_csv, name="tournament-players-csv"
    ),
    path("players/", views.player_list_page, name="player-list"),
    path("players/<slug:handle>/", views.player_detail, name="player-detail"),
    path("games/<int:pk>/", views.game_detail, name="game-detail"),
    path("games/<int:pk>/score/", views_score.game_score, name="game-score"),
    path("games/<int:pk>/report/", views_report.game_report_page, name="game-report"),
    path("games/<int:pk>/call/", views_calls.game_call, name="game-call"),
    path("link/", views_links.link_page, name="link"),
    path("link/<str:code>/", views_links.link_page, name="link-code"),
    path("tournaments/<int:pk>/print/codes/", views_links.print_codes, name="print-codes"),
    path("tournaments/<int:pk>/screen/", views_screen.venue_screen, name="venue-screen"),
    path(
        "calls/<int:pk>/claim/",
        views_calls.call_action,
        {"action": "claim"},
        name="call-claim",
    ),
    path(
        "calls/<int:pk>/close/",
        views_calls.call_action,
        {"action": "close"},
        name="call-close",
    ),
    # referees (tournaments/views_referee.py)
    path("games/<int:pk>/referee/", views_referee.game_referee, name="game-referee"),
    path("tournaments/<int:pk>/referee/", views_referee.referee_home, name="referee"),
    path("games/<int:pk>/proposal/", views_referee.game_proposal, name="game-proposal"),
    path("tournaments/<int:pk>/rulings/", views_referee.rulings_page, name="rulings"),
    path("tournaments/<int:pk>/rulings.csv", views_referee.rulings_csv, name="rulings-csv"),
    path("rules/", views.rules, name="rules"),
    path("rules/standings/", views.standings_rules, name="rules-standings"),
    path("rules/<slug:kind>/", views.rules, name="rules-kind"),
]

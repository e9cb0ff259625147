"""Print a tournament's standings (a table, or JSON with --json)."""

from __future__ import annotations

import json
from typing import Any

from tournaments.management.commands._base import DomainCommand
from tournaments.selectors import tournament_get_by_ref, tournament_standings


class Command(DomainCommand):
    help = "Print a tournament's standings. TOURNAMENT is an id or LEAGUE-SLUG/TOURNAMENT-SLUG."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("tournament")
        parser.add_argument("--json", action="store_true", help="print JSON")

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = tournament_get_by_ref(ref=options["tournament"])
        rows = tournament_standings(tournament=tournament)
        if options["json"]:
            payload = {
                "tournament": {"id": tournament.pk, "name": tournament.name},
                "tiebreaks": tournament.tiebreaks,
                "standings": [row.as_dict() for row in rows],
            }
            self.stdout.write(json.dumps(payload, indent=2))
            return
        self.stdout.write(f"{tournament.name} ({tournament.league.name})")
        header = f"{'#':>4}  {'player':<24} {'pts':>6} {'g':>3} {'1st':>3} {'buch':>6}"
        header += f" {'rating':>7}"
        self.stdout.write(header)
        for r in rows:
            mark = "?" if r.provisional else " "
            dropped = "  (dropped)" if r.dropped else ""
            self.stdout.write(
                f"{r.rank:>4}  {r.display_name[:24]:<24} {r.points:>6.2f} {r.games:>3} "
                f"{r.firsts:>3} {r.buchholz:>6.2f} {r.rating:>6.0f}{mark}{dropped}"
            )

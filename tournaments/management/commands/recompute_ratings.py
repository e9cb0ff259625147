"""Recompute Elo ratings from scratch (same numbers as the incremental updates)."""

from __future__ import annotations

import time
from typing import Any

from games.models import GameKind
from tournaments.management.commands._base import DomainCommand
from tournaments.services import ratings_recompute


class Command(DomainCommand):
    help = "Recompute every player's rating from all rated games, in the order they finished."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--kind", choices=GameKind.values, help="only this game kind")

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        done = ratings_recompute(kind=options["kind"])
        elapsed = time.perf_counter() - started
        for kind, count in done.items():
            self.stdout.write(f"{kind}: {count} rated games")
        self.stdout.write(f"recomputed in {elapsed:.2f}s")

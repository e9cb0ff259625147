"""Recompute Elo ratings from scratch (same numbers as the incremental updates)."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand

from games.kinds import game_kinds
from ratings.services import ratings_recompute


class Command(BaseCommand):
    help = "Recompute every player's rating from all rated games, in the order they finished."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--kind", choices=game_kinds(), help="only this game kind")

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        done = ratings_recompute(kind=options["kind"])
        elapsed = time.perf_counter() - started
        for kind, count in done.items():
            self.stdout.write(f"{kind}: {count} rated games")
        self.stdout.write(f"recomputed in {elapsed:.2f}s")

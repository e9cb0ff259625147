"""Attach a JSON Lines log file to a game, or create a friendly game from it."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from games.engine import jsonio
from tournaments.management.commands._base import DomainCommand
from tournaments.permissions import SYSTEM
from tournaments.services import friendly_game_create, game_record_log


class Command(DomainCommand):
    help = (
        "Attach a JSON Lines log to a game (--game ID), or create a friendly game from it. "
        "The log is validated completely before anything is stored."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("path", help="the log file ('-' for standard input)")
        parser.add_argument("--game", help="id of the game to attach the log to")
        parser.add_argument("--kind", default="tock", help="game kind of a friendly game")
        parser.add_argument(
            "--create-players",
            action="store_true",
            help="create players for unknown handles (friendly game only)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["path"]
        try:
            text = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
        except OSError as exc:
            self.fail(f"cannot read {path}: {exc.strerror or exc}")
        # Each service is all or nothing, in a transaction of its own.
        if options["game"]:
            outcome = game_record_log(game=options["game"], log=text, user=SYSTEM)
        else:
            outcome = friendly_game_create(
                kind=options["kind"],
                log=text,
                user=SYSTEM,
                create_players=options["create_players"],
            )
        game = outcome.game
        self.stdout.write(
            f"game {game.pk}: {outcome.events_added} events added, {game.last_sequence} in all, "
            f"status {game.status}, placements {jsonio.dumps(game.placements)}"
        )

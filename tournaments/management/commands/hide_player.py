"""Hide a player from public pages (or show them again with --show)."""

from __future__ import annotations

from typing import Any

from tournaments.management.commands._base import DomainCommand
from tournaments.permissions import SYSTEM
from tournaments.services import player_set_hidden


class Command(DomainCommand):
    help = (
        "Hide a player's profile from public pages (results stay, under a neutral name); "
        "--show makes it public again."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("handle")
        parser.add_argument("--show", action="store_true", help="make the profile public again")

    def handle(self, *args: Any, **options: Any) -> None:
        player = player_set_hidden(
            player=options["handle"], hidden=not options["show"], user=SYSTEM
        )
        state = "hidden" if player.hidden else "public"
        self.stdout.write(f"player {player.handle} is {state}")

"""Erase a player (GDPR): handle and name become a pseudonym everywhere, results stay."""

from __future__ import annotations

from typing import Any

from tournaments.management.commands._base import DomainCommand
from tournaments.permissions import SYSTEM
from tournaments.services import player_erase


class Command(DomainCommand):
    help = (
        "Erase a player: handle and display name become a pseudonym in every game log, "
        "standings and ratings stay; the user account is unlinked. Cannot be undone."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("handle")
        parser.add_argument("--yes", action="store_true", help="do not ask for confirmation")

    def handle(self, *args: Any, **options: Any) -> None:
        handle = options["handle"]
        if not options["yes"]:
            answer = input(f"Erase player {handle!r}? This cannot be undone. Type 'erase': ")
            if answer.strip() != "erase":
                self.fail("not erased")
        player = player_erase(player=handle, user=SYSTEM)
        # Never print the old name back: this output may end up in a log.
        self.stdout.write(f"player {player.pk} erased, now {player.handle}")

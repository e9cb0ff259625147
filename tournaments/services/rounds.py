"""Rounds and tables: seating players, finishing rounds.

Seating rules (:func:`round_create_next`):

* only checked-in, not dropped players are seated; a round can be seated when the
  previous one is finished and fewer than ``rounds_count`` rounds exist;
* ``n`` players go to ``ceil(n / table_size)`` tables as evenly as possible (some
  tables one seat short; never a table of one);
* **swiss**: from round 2 players are grouped by current standings (best players
  together); **random**, and round 1 of swiss: random groups;
* the seat order at each table is random; it is the game's clockwise order;
* randomness is seeded by tournament, round number and ``seed``, so seating is
  reproducible.
"""

from __future__ import annotations

import math
import random
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from games import services as game_services
from games.models import Game
from tournaments.errors import InvalidState
from tournaments.models import (
    Player,
    Registration,
    Round,
    RoundStatus,
    Seat,
    Table,
    Tournament,
    TournamentFormat,
    TournamentStatus,
)
from tournaments.permissions import ensure_can_manage_tournament
from tournaments.services.core import MAX_TABLE_SIZE


def split_sizes(n: int, size: int) -> list[int]:
    """Table sizes for ``n`` players at tables of ``size`` (largest first, all >= 2)."""
    if n < 2:
        return []
    k = math.ceil(n / size)
    while k > 1 and n // k < 2:
        k -= 1
    base, extra = divmod(n, k)
    sizes = [base + 1] * extra + [base] * (k - extra)
    if max(sizes) > MAX_TABLE_SIZE:
        raise InvalidState(_("These players cannot be seated at tables of %(n)d.") % {"n": size})
    return sizes


def _seat(tournament: Tournament, number: int, groups: list[list[Player]], user: Any) -> Round:
    rnd = Round.objects.create(tournament=tournament, number=number)
    games = game_services.game_create_batch(
        kind=tournament.league.kind, seatings=[[p.handle for p in g] for g in groups], user=user
    )
    tables = Table.objects.bulk_create(
        [Table(round=rnd, number=i, game=game) for i, game in enumerate(games, start=1)]
    )
    Seat.objects.bulk_create(
        [
            Seat(table=table, position=pos, player=player)
            for table, group in zip(tables, groups, strict=True)
            for pos, player in enumerate(group)
        ]
    )
    return rnd


def round_create_next(*, tournament: Tournament, user: Any, seed: Any = None) -> Round:
    """Seat the next round (organizers). See the module docstring for the rules."""
    from tournaments.selectors import tournament_standings

    ensure_can_manage_tournament(user=user, tournament=tournament)
    with transaction.atomic():
        tournament = (
            Tournament.objects.select_for_update().select_related("league").get(pk=tournament.pk)
        )
        if tournament.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
            raise InvalidState(_("The tournament is over."))
        last = tournament.rounds.order_by("-number").first()
        if last is not None and last.status != RoundStatus.FINISHED:
            raise InvalidState(
                _("Round %(n)d is not finished yet: every table needs a result.")
                % {"n": last.number}
            )
        number = (last.number if last else 0) + 1
        if number > tournament.rounds_count:
            raise InvalidState(
                _("All %(n)d rounds have been played.") % {"n": tournament.rounds_count}
            )
        players = [
            r.player
            for r in Registration.objects.filter(
                tournament=tournament, checked_in=True, dropped=False
            )
            .select_related("player")
            .order_by("player__handle")
        ]
        if len(players) < 2:
            raise InvalidState(_("At least two checked-in players are needed to seat a round."))
        rng = random.Random(f"{tournament.pk}:{number}:{seed}")
        if tournament.format == TournamentFormat.SWISS and number > 1:
            rank = {
                row.player_id: i
                for i, row in enumerate(tournament_standings(tournament=tournament))
            }
            players.sort(key=lambda p: rank.get(p.pk, len(rank)))
        else:
            rng.shuffle(players)
        groups = []
        start = 0
        for size in split_sizes(len(players), tournament.table_size):
            group = players[start : start + size]
            rng.shuffle(group)
            groups.append(group)
            start += size
        rnd = _seat(tournament, number, groups, user)
        if tournament.status != TournamentStatus.RUNNING:
            tournament.status = TournamentStatus.RUNNING
            tournament.save(update_fields=["status"])
    return rnd


def round_refresh_status(*, round_id: int) -> Round:
    """Finish a round whose tables all have a result (and the tournament after its last
    round). Idempotent; called by the recording services after a result changes."""
    rnd = Round.objects.select_related("tournament").get(pk=round_id)
    pending = Game.objects.filter(table__round=rnd, placements__isnull=True).exists()
    if not pending and rnd.status != RoundStatus.FINISHED:
        rnd.status = RoundStatus.FINISHED
        rnd.save(update_fields=["status"])
        t = rnd.tournament
        if rnd.number >= t.rounds_count and t.status == TournamentStatus.RUNNING:
            t.status = TournamentStatus.FINISHED
            t.save(update_fields=["status"])
    return rnd

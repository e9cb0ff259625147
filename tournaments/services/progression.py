"""Progression: the ONLY place that seats rounds and finishes rounds and tournaments.

Two services, both keyword-only, idempotent and safe to call from a Celery task (retried,
run twice at once) as well as from a request:

* :func:`round_create_next` seats the next round: its tables, seats and games;
* :func:`round_refresh_status` finishes a round whose tables all have a result, and the
  tournament after its last round (the recording choke point calls it after every
  result change, in the transaction of the change).

Both lock the tournament row (``SELECT ... FOR UPDATE``) before reading what they
decide on, tournament first and then the round: two results committed at once on the
last two tables of a round cannot both miss the other's, and two seatings at once
cannot both seat round ``n`` (nor can the unique round number per tournament).

Seating rules (the algorithm is :mod:`tournaments.seating`, pure and seeded):

* only checked-in, not dropped players are seated; a round can be seated when the
  previous one is finished and fewer than ``rounds_count`` rounds exist;
* ``n`` players go to ``ceil(n / table_size)`` tables as evenly as possible (some
  tables one seat short), never below the game's ``min_players`` nor above its
  ``max_players`` (from the league's game class, :func:`table_size_limits`);
* **swiss**: from round 2 players are grouped by current standings (best players
  together); **random**, and round 1 of swiss: random groups;
* the seat order at each table is random; it is the game's clockwise order;
* randomness is seeded by tournament, round number and ``seed``, so seating is
  reproducible.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from games import services as game_services
from games.models import Game
from tournaments import seating
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
from tournaments.services.core import table_size_limits

__all__ = ["round_create_next", "round_refresh_status"]


def _lock_tournament(tournament_id: int) -> Tournament:
    return Tournament.objects.select_for_update().select_related("league").get(pk=tournament_id)


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


def _seating_order(tournament: Tournament, number: int, players: list[Player]) -> list[Player]:
    """Players in the order the seating slices: standings order for swiss rounds after
    the first (players without a standings row last), else as given (to be shuffled)."""
    if tournament.format != TournamentFormat.SWISS or number == 1:
        return players
    from tournaments.selectors import tournament_standings

    rank = {row.player_id: i for i, row in enumerate(tournament_standings(tournament=tournament))}
    return sorted(players, key=lambda p: rank.get(p.pk, len(rank)))


def round_create_next(
    *, tournament: Tournament, user: Any, seed: Any = None, number: int | None = None
) -> Round:
    """Seat the next round (organizers, or :data:`~tournaments.permissions.SYSTEM`).
    See the module docstring for the rules.

    ``number`` (for tasks and retries): the round the caller means to seat. If that
    round exists already it is returned unchanged, so a retried or doubled call seats
    exactly one round; if another round is next, :class:`InvalidState`. Without
    ``number``, seating when the last round is not finished is :class:`InvalidState`.
    """
    ensure_can_manage_tournament(user=user, tournament=tournament)
    with transaction.atomic():
        tournament = _lock_tournament(tournament.pk)
        if number is not None:
            existing = Round.objects.filter(tournament=tournament, number=number).first()
            if existing is not None:
                return existing
        if tournament.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
            raise InvalidState(_("The tournament is over."))
        last = tournament.rounds.order_by("-number").first()
        if last is not None and last.status != RoundStatus.FINISHED:
            raise InvalidState(
                _("Round %(n)d is not finished yet: every table needs a result.")
                % {"n": last.number}
            )
        next_number = (last.number if last else 0) + 1
        if next_number > tournament.rounds_count:
            raise InvalidState(
                _("All %(n)d rounds have been played.") % {"n": tournament.rounds_count}
            )
        if number is not None and number != next_number:
            raise InvalidState(
                _("Round %(n)d cannot be seated: the next round is %(next)d.")
                % {"n": number, "next": next_number}
            )
        players = [
            r.player
            for r in Registration.objects.filter(
                tournament=tournament, checked_in=True, dropped=False
            )
            .select_related("player")
            .order_by("player__handle")
        ]
        lo, hi = table_size_limits(kind=tournament.league.kind)
        if len(players) < max(lo, 2):
            raise InvalidState(
                _("At least %(n)d checked-in players are needed to seat a round.")
                % {"n": max(lo, 2)}
            )
        order = _seating_order(tournament, next_number, players)
        by_id = {p.pk: p for p in order}
        try:
            request = seating.SeatingRequest.build(
                players=[p.pk for p in order],
                size=tournament.table_size,
                min_size=lo,
                max_size=hi,
                seed=f"{tournament.pk}:{next_number}:{seed}",
                shuffle=tournament.format != TournamentFormat.SWISS or next_number == 1,
            )
            tables = seating.seat_round(request)
        except seating.SeatingError as exc:
            raise InvalidState(
                _("%(count)d players cannot be seated at tables of %(n)d (%(min)d to %(max)d).")
                % {"count": len(players), "n": tournament.table_size, "min": lo, "max": hi}
            ) from exc
        groups = [[by_id[pk] for pk in table] for table in tables]
        rnd = _seat(tournament, next_number, groups, user)
        if tournament.status != TournamentStatus.RUNNING:
            tournament.status = TournamentStatus.RUNNING
            tournament.save(update_fields=["status"])
    return rnd


def round_refresh_status(*, round_id: int) -> Round:
    """Finish a round whose tables all have a result (and the tournament after its last
    round). Idempotent: nothing changes when there is nothing to finish; called by the
    recording services after a result changes, in the transaction of the change."""
    tournament_id = Round.objects.values_list("tournament_id", flat=True).get(pk=round_id)
    with transaction.atomic():
        tournament = _lock_tournament(tournament_id)  # tournament first, as when seating
        rnd = Round.objects.select_for_update().get(pk=round_id)
        rnd.tournament = tournament
        if rnd.status != RoundStatus.FINISHED:
            pending = Game.objects.filter(table__round=rnd, placements__isnull=True).exists()
            if pending:
                return rnd
            rnd.status = RoundStatus.FINISHED
            rnd.save(update_fields=["status"])
        if rnd.number >= tournament.rounds_count and tournament.status == TournamentStatus.RUNNING:
            tournament.status = TournamentStatus.FINISHED
            tournament.save(update_fields=["status"])
    return rnd

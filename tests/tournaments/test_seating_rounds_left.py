"""The round services tell the seating how many rounds of the stage are left (issue 9):
the Swiss rounds left, or the elimination rounds the players seated lead to."""

from __future__ import annotations

from tests.tournaments.factories import PlayerFactory, RegistrationFactory, TournamentFactory
from tournaments import services
from tournaments.models import Round, Stage
from tournaments.permissions import SYSTEM
from tournaments.services.draw import rounds_left as _rounds_left


def _play(rnd):
    for table in rnd.tables.select_related("game").order_by("number"):
        players = table.game.players
        services.game_record_placements(
            game=table.game.pk, placements={h: i for i, h in enumerate(players, 1)}, user=SYSTEM
        )


def _rounds_of(t, players: int) -> list[tuple[str, int | None]]:
    for _ in range(players):
        RegistrationFactory(tournament=t, player=PlayerFactory(), checked_in=True)
    rnd = services.tournament_start(tournament=t, user=SYSTEM)
    left = []
    while rnd is not None:
        left.append((rnd.stage, _rounds_left(t, rnd, _seated(rnd))))
        _play(rnd)
        rnd = services.round_progress(round_id=rnd.pk)
    return left


def _seated(rnd) -> int:
    return sum(len(table.game.players) for table in rnd.tables.select_related("game"))


def test_swiss_rounds_count_down_then_the_elimination_rounds(db):
    t = TournamentFactory(format="swiss_cut", swiss_rounds=3, cut=4, table_sizes=[4, 3])
    assert _rounds_of(t, 16) == [("swiss", 3), ("swiss", 2), ("swiss", 1), ("elimination", 1)]


def test_elimination_rounds_count_down_to_the_final(db):
    t = TournamentFactory(format="elimination", advance=2, table_sizes=[4, 3])
    # 16 players: 4 tables, 8 go on; 2 tables, 4 go on; the final table
    assert _rounds_of(t, 16) == [("elimination", 3), ("elimination", 2), ("elimination", 1)]
    # 10 players at [4, 3]: tables of 4, 3, 3 send 6 on; 2 tables of 3 send 4; the final
    t = TournamentFactory(format="elimination", advance=2, table_sizes=[4, 3])
    assert _rounds_of(t, 10) == [("elimination", 3), ("elimination", 2), ("elimination", 1)]
    # nobody would go out (everyone at a table advances): not told
    t = TournamentFactory(format="elimination", advance=4, table_sizes=[4])
    assert _rounds_left(t, Round(tournament=t, number=1, stage=Stage.ELIMINATION), 8) is None

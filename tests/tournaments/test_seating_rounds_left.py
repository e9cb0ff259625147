"""The round services tell the seating how many Swiss rounds are left (issue 9)."""

from __future__ import annotations

from tests.tournaments.factories import PlayerFactory, RegistrationFactory, TournamentFactory
from tournaments import services
from tournaments.models import Round, Stage
from tournaments.permissions import SYSTEM
from tournaments.services.progression import _rounds_left


def _play(rnd):
    for table in rnd.tables.select_related("game").order_by("number"):
        players = table.game.players
        services.game_record_placements(
            game=table.game.pk, placements={h: i for i, h in enumerate(players, 1)}, user=SYSTEM
        )


def test_swiss_rounds_count_down_and_elimination_rounds_do_not_say(db):
    t = TournamentFactory(format="swiss_cut", swiss_rounds=3, cut=4, table_sizes=[4, 3])
    for _ in range(16):
        RegistrationFactory(tournament=t, player=PlayerFactory(), checked_in=True)
    rnd = services.tournament_start(tournament=t, user=SYSTEM)
    left = []
    while rnd is not None:
        left.append((rnd.stage, _rounds_left(t, rnd)))
        _play(rnd)
        rnd = services.round_progress(round_id=rnd.pk)
    assert left == [("swiss", 3), ("swiss", 2), ("swiss", 1), ("elimination", None)]
    assert _rounds_left(t, Round(tournament=t, number=2, stage=Stage.ELIMINATION)) is None

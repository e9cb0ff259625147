"""One whole event: 40 players, 5 Swiss rounds, a cut of 8 to an elimination stage and a
final table; every game played by the engine's bots and recorded as a log through the
recording services; progression automatic (outbox, Celery eager in tests)."""

from __future__ import annotations

import pytest

import games.engine as engine
from ratings.models import Rating
from ratings.services import ratings_recompute
from tests.tournaments.factories import PlayerFactory, RegistrationFactory, TournamentFactory
from tournaments import selectors, services
from tournaments.models import Round
from tournaments.permissions import SYSTEM


@pytest.mark.django_db
def test_forty_players_swiss_then_cut_to_a_final_table(django_capture_on_commit_callbacks):
    t = TournamentFactory(
        format="swiss_cut",
        swiss_rounds=5,
        cut=8,
        advance=2,
        table_sizes=[4, 3, 5],
        auto_progress=True,
        status="registration",
    )
    for i in range(40):
        RegistrationFactory(tournament=t, player=PlayerFactory(handle=f"bot{i:02d}"))
    services.tournament_start(tournament=t, user=SYSTEM, seed=9)
    seed = 0
    for _ in range(12):
        t.refresh_from_db()
        if t.status == "finished":
            break
        rnd = Round.objects.filter(tournament=t).order_by("-number").first()
        for table in rnd.tables.select_related("game").order_by("number"):
            seed += 1
            log = engine.simulate(game="tock", players=table.game.players, seed=seed)
            with django_capture_on_commit_callbacks(execute=True):
                services.game_record_log(game=table.game.pk, log=log, user=SYSTEM)
    t.refresh_from_db()
    assert t.status == "finished"
    rounds = list(Round.objects.filter(tournament=t).order_by("number"))
    assert [r.stage for r in rounds] == ["swiss"] * 5 + ["elimination"] * 2
    assert [r.tables.count() for r in rounds] == [10] * 5 + [2, 1]
    rows = selectors.tournament_standings(tournament=t)
    assert len(rows) == 40 and len({r.handle for r in rows}) == 40
    assert [r.stage for r in rows] == ["elimination"] * 8 + ["swiss"] * 32
    final = rounds[-1].tables.get().game
    by_place = sorted(final.placements, key=final.placements.get)
    assert [r.handle for r in rows[:4]] == by_place and rows[0].rank == 1
    assert all(r.games == 5 for r in rows[8:]) and all(r.games == 7 for r in rows[:4])
    # the cut took the top 8 of the Swiss standings
    cut = set(rounds[5].tables.values_list("seats__player__handle", flat=True))
    assert cut == {r.handle for r in rows[:8]}
    # ratings updated game by game equal a recomputation from scratch
    live = dict(Rating.objects.filter(kind="tock").values_list("player__handle", "value"))
    ratings_recompute(kind="tock")
    again = dict(Rating.objects.filter(kind="tock").values_list("player__handle", "value"))
    assert live.keys() == again.keys() and len(live) == 40
    assert all(live[h] == pytest.approx(again[h]) for h in live)

"""Demo data: a TOCK league of 24 players, a finished and a running tournament; an UNO
league and a Casino league, each with a finished evening of 8 of those players (so that
every game the engine plays has pages, standings and ratings to look at).

Games are played by the engine's bots (``engine.simulate``). Idempotent: when the demo
league exists nothing is created again (users are still ensured). Users (password =
username): ``demo`` (organizer of the league and both tournaments), ``referee`` and
``scorekeeper`` (their roles in both tournaments).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

import games.engine as engine
from games.models import Game
from ratings.services import ratings_recompute
from tournaments.management.commands._base import DomainCommand
from tournaments.models import League, Player, Role, Round, Tournament
from tournaments.permissions import SYSTEM
from tournaments.selectors import round_tables
from tournaments.services import (
    game_record_event,
    game_record_log,
    game_record_placements,
    league_create,
    player_create,
    registration_create,
    round_create_next,
    tournament_create,
    tournament_role_add,
)

LEAGUE_SLUG = "demo-tock"
#: The other kinds' demo leagues: (kind, league name, slug, event name, event slug).
OTHER_LEAGUES = [
    ("uno", "Demo UNO League", "demo-uno", "UNO Night", "uno-night"),
    ("casino", "Demo Casino League", "demo-casino", "Casino Evening", "casino-evening"),
]
#: Players of the UNO and Casino evenings (the first of the TOCK league's players).
OTHER_PLAYERS = 8
NAMES = [
    "Ada Berg",
    "Ben Cole",
    "Cleo Diaz",
    "Dan Evans",
    "Eva Fox",
    "Finn Gray",
    "Gia Hale",
    "Hugo Ives",
    "Ines Jung",
    "Jon Kerr",
    "Kai Lund",
    "Lea Moss",
    "Max Nash",
    "Nia Ortiz",
    "Otto Park",
    "Pia Quinn",
    "Raj Rios",
    "Sara Stone",
    "Tom Tate",
    "Uma Vale",
    "Vic West",
    "Wen Xu",
    "Yara Young",
    "Zoe Zorn",
]


def _user(username: str, **extra: Any) -> Any:
    user_model = get_user_model()
    user, created = user_model.objects.get_or_create(username=username, defaults=extra)
    if created:
        user.set_password(username)
        user.save()
    return user


def _backdate(rnd: Round, day: dt.date) -> None:
    """Date the games of a past event's round on the event's day (round 1 at 10:00 UTC,
    one round an hour, tables a few minutes apart), so that they do not look played
    today. Demo history only: no service records the past, so the rows are dated here,
    in the demo's transaction, before ratings are computed from them."""
    start = dt.datetime.combine(day, dt.time(10, 0), tzinfo=dt.UTC)
    start += dt.timedelta(hours=rnd.number - 1)
    for table in round_tables(round=rnd):
        played = start + dt.timedelta(minutes=3 * table.number)
        Game.objects.filter(pk=table.game_id).update(
            played_at=played, finished_at=played + dt.timedelta(minutes=35)
        )


class Command(DomainCommand):
    help = "Create demo data (idempotent): league, 24 players, a finished and a running event."

    def handle(self, *args: Any, **options: Any) -> None:
        say = self.stdout.write if options["verbosity"] > 0 else (lambda _msg: None)
        with transaction.atomic():
            demo = _user("demo", first_name="Demo", last_name="Organizer")
            referee = _user("referee")
            scorekeeper = _user("scorekeeper")
            if League.objects.filter(slug=LEAGUE_SLUG).exists():
                say("demo data already present; nothing to do")
                return
            self._create(demo, referee, scorekeeper)
        for kind in ("tock", *(other[0] for other in OTHER_LEAGUES)):
            ratings_recompute(kind=kind)
        say("demo data created: users demo/demo, referee/referee, scorekeeper/scorekeeper")

    def _create(self, demo: Any, referee: Any, scorekeeper: Any) -> None:
        league = league_create(
            name="Demo TOCK League", slug=LEAGUE_SLUG, kind="tock", organizers=[demo], user=SYSTEM
        )
        players = []
        for name in NAMES:
            handle = name.split()[0].lower()
            player = Player.objects.filter(handle=handle).first()
            players.append(player or player_create(handle=handle, display_name=name, user=SYSTEM))
        today = dt.date.today()
        finished = tournament_create(
            league=league,
            name="Winter Open",
            slug="winter-open",
            starts_on=today - dt.timedelta(days=60),
            ends_on=today - dt.timedelta(days=60),
            venue="Community Hall",
            rounds=3,
            user=demo,
        )
        running = tournament_create(
            league=league,
            name="Spring Cup",
            slug="spring-cup",
            starts_on=today,
            venue="Café Tock",
            rounds=3,
            user=demo,
        )
        for tournament in (finished, running):
            tournament_role_add(tournament=tournament, member=referee, role=Role.REFEREE, user=demo)
            tournament_role_add(
                tournament=tournament, member=scorekeeper, role=Role.SCOREKEEPER, user=demo
            )
            for player in players:
                registration_create(
                    tournament=tournament, player=player, checked_in=True, user=demo
                )
        for _number in range(1, 4):
            rnd = round_create_next(tournament=finished, user=demo, seed="demo")
            self._play_round(rnd, scorekeeper)
            _backdate(rnd, finished.starts_on)
        rnd = round_create_next(tournament=running, user=demo, seed="demo")
        self._play_round(rnd, scorekeeper)
        rnd = round_create_next(tournament=running, user=demo, seed="demo")
        self._play_round(rnd, scorekeeper, partial=True)
        for kind, name, slug, event_name, event_slug in OTHER_LEAGUES:
            self._other_league(
                kind=kind,
                name=name,
                slug=slug,
                event_name=event_name,
                event_slug=event_slug,
                players=players[:OTHER_PLAYERS],
                demo=demo,
                scorekeeper=scorekeeper,
                day=today - dt.timedelta(days=30),
            )

    def _other_league(
        self,
        *,
        kind: str,
        name: str,
        slug: str,
        event_name: str,
        event_slug: str,
        players: list[Player],
        demo: Any,
        scorekeeper: Any,
        day: dt.date,
    ) -> None:
        """A league of ``kind`` with one finished two-round evening at tables of 4."""
        league = league_create(name=name, slug=slug, kind=kind, organizers=[demo], user=SYSTEM)
        evening = tournament_create(
            league=league,
            name=event_name,
            slug=event_slug,
            starts_on=day,
            ends_on=day,
            venue="Café Tock",
            rounds=2,
            table_sizes=[4],
            user=demo,
        )
        tournament_role_add(
            tournament=evening, member=scorekeeper, role=Role.SCOREKEEPER, user=demo
        )
        for player in players:
            registration_create(tournament=evening, player=player, checked_in=True, user=demo)
        for _number in range(1, 3):
            rnd = round_create_next(tournament=evening, user=demo, seed="demo")
            self._play_round(rnd, scorekeeper)
            _backdate(rnd, day)

    def _play_round(self, rnd: Round, user: Any, partial: bool = False) -> None:
        for table in round_tables(round=rnd):
            game: Game = table.game
            seed = f"{rnd.tournament.slug}-{rnd.number}-{table.number}"
            log = engine.simulate(game=game.kind, players=list(game.players), seed=seed)
            if not partial or table.number <= 2:
                game_record_log(game=game, log=log, user=user, within=True)
            elif table.number == 3:  # being scored live
                for sequence, event in enumerate(log[:40], start=1):
                    game_record_event(
                        game=game, event=event, expected_sequence=sequence, user=user, within=True
                    )
            elif table.number == 4:  # log lost: placements only, unverified
                places = engine.replay(log).placements()
                game_record_placements(game=game, placements=places, user=user, within=True)
            elif table.number == 5:  # just started
                game_record_event(
                    game=game, event=log[0], expected_sequence=1, user=user, within=True
                )


__all__ = ["Command", "Tournament"]

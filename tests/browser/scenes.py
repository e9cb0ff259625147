"""Small, fast data for the browser tests, made through the services as the site would.

``manage.py demo`` makes thousands of event rows and computes ratings: seconds a test
on this machine. A browser test needs one league, a running tournament seated by the
progression service, and a played game or two, so :func:`running_tournament` makes
just that (placements are cheap, a real log is recorded where a test needs one).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

import games.engine as engine
from games.models import Game
from tests.tournaments.factories import UserFactory
from tournaments.models import League, Player, Round, Table, Tournament
from tournaments.permissions import SYSTEM
from tournaments.selectors import round_tables
from tournaments.services import (
    game_record_log,
    game_record_placements,
    league_create,
    player_create,
    registration_create,
    tournament_create,
    tournament_start,
)

PASSWORD = "a-long-password-1"

#: Display names of the players, "First Last"; the handle is the first name, lowercased.
NAMES = [
    "Ada Berg", "Ben Cole", "Cleo Diaz", "Dan Evans", "Eva Fox", "Finn Gray",
    "Gia Hale", "Hugo Ives", "Ines Jung", "Jon Kerr", "Kai Lund", "Lea Moss",
    "Max Nash", "Nia Ortiz", "Otto Park", "Pia Quinn", "Raj Rios", "Sara Stone",
    "Tom Tate", "Uma Vale", "Vic West", "Wen Xu", "Yara Young", "Zoe Zorn",
]  # fmt: skip


def user_with_password(username: str, **extra: Any) -> Any:
    """A user who can log in through the form with :data:`PASSWORD`."""
    user = UserFactory(username=username, **extra)
    user.set_password(PASSWORD)
    user.save()
    return user


@dataclass
class Scene:
    """What a test needs to know of the data it made."""

    league: League
    tournament: Tournament
    organizer: Any
    players: list[Player] = field(default_factory=list)
    round: Round | None = None

    @property
    def tables(self) -> list[Table]:
        return list(round_tables(round=self.round)) if self.round else []

    def game(self, table_number: int) -> Game:
        return next(t.game for t in self.tables if t.number == table_number)


def league(*, organizer: Any = None, slug: str = "city-league", name: str = "City League") -> Any:
    """A public TOCK league whose organizer is ``organizer`` (a new user by default)."""
    organizer = organizer or user_with_password("organizer")
    made = league_create(name=name, slug=slug, kind="tock", organizers=[organizer], user=SYSTEM)
    return made, organizer


def running_tournament(
    *, players: int = 8, placements: int = 0, name: str = "Spring Cup", rounds: int = 3
) -> Scene:
    """A running tournament of ``players`` checked-in players (tables of 4), round 1
    seated by :func:`tournament_start`; the first ``placements`` tables have a result
    (placements in seat order). Progression is by hand, so results never seat round 2."""
    made, organizer = league()
    tournament = tournament_create(
        league=made,
        name=name,
        slug="spring-cup",
        starts_on=dt.date.today(),
        venue="Café Tock",
        rounds=rounds,
        table_sizes=[4],
        auto_progress=False,
        user=organizer,
    )
    roster = []
    for full_name in NAMES[:players]:
        player = player_create(
            handle=full_name.split()[0].lower(), display_name=full_name, user=SYSTEM
        )
        registration_create(tournament=tournament, player=player, checked_in=True, user=SYSTEM)
        roster.append(player)
    scene = Scene(league=made, tournament=tournament, organizer=organizer, players=roster)
    scene.round = tournament_start(tournament=tournament, user=organizer, seed="browser")
    for table in scene.tables[:placements]:
        record_placements(table.game, organizer)
    return scene


def seat_order(game: Game) -> list[str]:
    return list(game.players)


def record_placements(game: Game, user: Any) -> None:
    """The table's result: places in seat order (first seat wins)."""
    handles = seat_order(game)
    places = {handle: place for place, handle in enumerate(handles, start=1)}
    game_record_placements(game=game, placements=places, user=user)


def played_log(game: Game, seed: str = "browser", *, real_cards: bool = False) -> list[dict]:
    """A whole TOCK game for ``game``'s players, played by the engine's bots.

    ``real_cards``: the start event without the seed, as a scorekeeper's start button
    records it (a game with real cards); every draw names its card, so the log is the
    same game either way."""
    log = engine.simulate(game=game.kind, players=seat_order(game), seed=seed)
    if real_cards:
        log[0] = {key: value for key, value in log[0].items() if key != "seed"}
    return log


def record_log(game: Game, user: Any, seed: str = "browser") -> list[dict]:
    log = played_log(game, seed)
    game_record_log(game=game, log=log, user=user)
    return log

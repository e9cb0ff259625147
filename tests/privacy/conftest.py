"""A league with a finished two-round tournament of 8 players (real logs, one
placements-only table), a friendly game, and ratings computed from all of it."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.contrib.auth import get_user_model

import games.engine as engine
from games import services as game_services
from ratings.services import ratings_recompute
from tests.tournaments.factories import (
    PlayerFactory,
    RegistrationFactory,
    RoundFactory,
    TournamentFactory,
    TournamentRoleFactory,
    UserFactory,
    seat_table,
)
from tournaments import seating
from tournaments.models import Player, Role, RoundSeating, Tournament
from tournaments.services.draw import seating_record

#: The player whose data is hidden or erased: names nobody else's text contains.
SECRET_HANDLE = "maria-garcia"
SECRET_NAME = "María García Bonet"


@dataclass
class World:
    tournament: Tournament
    maria: Player
    others: list[Player]
    organizer: object
    referee: object
    stranger: object
    maria_user: object
    superuser: object
    friendly_id: int
    game_ids: list[int]


@pytest.fixture
def world(db) -> World:
    tournament = TournamentFactory(name="Madrid Open", status="running", rounds_count=2)
    maria_user = UserFactory(username="maria")
    maria = PlayerFactory(handle=SECRET_HANDLE, display_name=SECRET_NAME, user=maria_user)
    others = [
        PlayerFactory(handle=h, display_name=h.title())
        for h in ("ann", "bob", "cat", "dan", "eve", "fay", "gus")
    ]
    everyone = [maria, *others]
    for p in everyone:
        RegistrationFactory(tournament=tournament, player=p, checked_in=True)
    organizer = TournamentRoleFactory(
        tournament=tournament, role=Role.ORGANIZER, user=UserFactory(username="org")
    ).user
    referee = TournamentRoleFactory(
        tournament=tournament, role=Role.REFEREE, user=UserFactory(username="ref")
    ).user
    stranger = UserFactory(username="stranger")
    superuser = get_user_model().objects.create_superuser("root", "root@example.org", "pw")
    game_ids = []
    seatings = {1: [everyone[:4], everyone[4:]], 2: [everyone[::2], everyone[1::2]]}
    for number, tables in seatings.items():
        rnd = RoundFactory(tournament=tournament, number=number)
        for i, seated in enumerate(tables, start=1):
            table = seat_table(rnd, seated, number=i)
            handles = [p.handle for p in seated]
            if number == 2 and i == 2:  # a placements-only result (no log)
                game_services.game_set_placements(
                    game=table.game,
                    placements={h: n for n, h in enumerate(handles, start=1)},
                    user=organizer,
                )
            else:
                log = engine.simulate(game="tock", players=handles, seed=number * 10 + i)
                # a scorekeeper's free-text note naming the player, ignored by the engine
                log[1] = {**log[1], "_note": f"{SECRET_NAME} ({SECRET_HANDLE}) was late"}
                game_services.game_attach_log(game=table.game, log=log, user=referee)
            game_ids.append(table.game_id)
        # the seating request the round keeps (issue 25), with every handle in it
        request = seating.SeatingRequest(
            players=tuple(seating.SeatingPlayer(p.pk, 1.0) for p in everyone),
            table_sizes=(4,),
            met={frozenset((everyone[0].pk, everyone[1].pk)): 1},
            seed=number,
        )
        record = seating_record(
            request,
            seating.seat_round_explained(request),
            handle_of={p.pk: p.handle for p in everyone},
        )
        RoundSeating.objects.update_or_create(
            round=rnd, defaults={"request": record.pop("request"), "record": record}
        )
    friendly = game_services.game_create(kind="tock", players=[SECRET_HANDLE, "ann"], user=None)
    game_services.game_attach_log(
        game=friendly,
        log=engine.simulate(game="tock", players=[SECRET_HANDLE, "ann"], seed=99),
        user=None,
    )
    game_ids.append(friendly.pk)
    ratings_recompute()
    return World(
        tournament=tournament,
        maria=maria,
        others=others,
        organizer=organizer,
        referee=referee,
        stranger=stranger,
        maria_user=maria_user,
        superuser=superuser,
        friendly_id=friendly.pk,
        game_ids=game_ids,
    )


def fetch_texts(client, urls: list[str]) -> dict[str, str]:
    """Each URL's body for ``client`` (each must answer 200), streamed ones joined."""
    texts = {}
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        body = b"".join(response.streaming_content) if response.streaming else response.content
        texts[url] = body.decode()
    return texts

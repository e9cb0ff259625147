"""Set-up shared by the game page, score page, privacy and browser tests of every kind:
a running tournament in a league of the kind with one seated, registered table, its staff,
recording a log through the recording service, fetching the game page as a role sees
it, and the score page's move buttons and event form."""

from __future__ import annotations

import html as html_lib
import json
import re
from typing import Any

from django.urls import reverse

import games.engine as engine
from games.models import Game
from tests.tournaments.factories import (
    LeagueFactory,
    PlayerFactory,
    RegistrationFactory,
    RoundFactory,
    TournamentFactory,
    TournamentRoleFactory,
    UserFactory,
    seat_table,
)
from tournaments import services
from tournaments.models import Tournament
from tournaments.permissions import SYSTEM


def kind_tournament(kind: str, *, name: str, league: str | None = None) -> Tournament:
    """A running tournament ``name`` in a new league of ``kind`` (named ``league`` if
    given)."""
    league_names = {"name": league} if league else {}
    return TournamentFactory(
        league=LeagueFactory(kind=kind, **league_names), name=name, status="running"
    )


def seated_game(tournament: Tournament, names: dict[str, str]) -> Game:
    """Round 1's game: new players (handle -> display name, in seat order), registered."""
    players = [PlayerFactory(handle=h, display_name=n) for h, n in names.items()]
    for p in players:
        RegistrationFactory(tournament=tournament, player=p)
    return seat_table(RoundFactory(tournament=tournament, number=1), players).game


def staff(tournament: Tournament, role: str, username: str) -> Any:
    """A new user holding ``role`` in ``tournament``."""
    return TournamentRoleFactory(
        tournament=tournament, role=role, user=UserFactory(username=username)
    ).user


def record(game: Game, events: list[dict], first: int = 1) -> None:
    """Record ``events`` as the system, the first one at sequence ``first``."""
    for n, event in enumerate(events, start=first):
        services.game_record_event(game=game.pk, event=event, expected_sequence=n, user=SYSTEM)


def page(client: Any, game: Game, **params: Any) -> str:
    """The game page's HTML (entities unescaped) for ``client``; it must answer 200."""
    response = client.get(reverse("tournaments:game-detail", args=[game.pk]), params)
    assert response.status_code == 200
    return html_lib.unescape(response.content.decode())


def start_pages(client: Any, kind: str, handles: list[str]) -> tuple[str, str]:
    """The game pages of two friendly games of ``kind`` with only their start line: a
    score sheet's (``"sheet": true``) and a full game's (the players must exist)."""
    pages = []
    for extra in ({"sheet": True}, {}):
        start = {"type": "start", "game": kind, "players": handles, **extra}
        game = services.friendly_game_create(kind=kind, log=[start], user=SYSTEM).game
        pages.append(page(client, game))
    return pages[0], pages[1]


def page_segment_ends(html: str) -> dict[int, str]:
    """The log lines of a game or score page that end a hand or round: event number ->
    its sentence, in event order."""
    found = re.findall(
        r'<li value="(\d+)"[^>]*>(?:(?!</li>).)*?<span class="segment-end">([^<]*)</span>',
        html,
        flags=re.S,
    )
    return dict(sorted((int(n), text) for n, text in found))


def engine_segment_ends(log: list[dict], key: str) -> list[int]:
    """The events of ``log`` after which the summary's ``key`` list (``hand_results``,
    ``round_scores``) grows: where each hand or round ends, as the engine says."""
    game = engine.replay(log[:1])
    ends, done = [], 0
    for n, event in enumerate(log[1:], start=2):
        game.push(event)
        now = len(game.summary()[key])
        if now > done:
            ends.append(n)
            done = now
    return ends


def checked_segment_ends(
    client: Any, game: Game, log: list[dict], key: str
) -> tuple[dict[int, str], list[Any]]:
    """Record ``log`` on ``game`` and check its page marks a hand or round end exactly
    where the engine's ``key`` list grows; the marks (event -> sentence) and the list."""
    record(game, log)
    results = engine.replay(log).summary()[key]
    ends = page_segment_ends(page(client, game))
    assert list(ends) == engine_segment_ends(log, key) and len(ends) == len(results)
    return ends, results


def check_latest_events_ends(
    client: Any, game: Game, scorekeeper: Any, log: list[dict], key: str
) -> None:
    """Record ``log`` (a whole game) and check the score page's latest events mark the
    hand or round ends within them as the game page does (the last one at least)."""
    from tournaments.views_score import RECENT_EVENTS

    ends, _results = checked_segment_ends(client, game, log, key)
    client.force_login(scorekeeper)
    html = html_lib.unescape(client.get(score_url(game)).content.decode())
    shown = {n: text for n, text in ends.items() if n > len(log) - RECENT_EVENTS}
    assert shown and page_segment_ends(html) == shown  # the last play ended the last one


def score_url(game: Game) -> str:
    """The scorekeeper's page of ``game``."""
    return reverse("tournaments:game-score", args=[game.pk])


def move_forms(html: str) -> list[dict]:
    """The move buttons of the score page: event, sequence, key, data-move, group, label
    (the button's accessible name: its aria-label when it shows a short text, else its
    text). A button's data-event, when it has one, is the event its form posts."""
    forms = []
    for form in re.findall(r'<form[^>]*class="move-form"[^>]*>(.*?)</form>', html, re.S):
        event = re.search(r'name="event" value="([^"]*)"', form)
        if event is None:
            continue
        data = json.loads(html_lib.unescape(event.group(1)))
        button = re.search(r"<button([^>]*)>(.*?)</button>", form, re.S)
        named = re.search(r'aria-label="([^"]*)"', button.group(1))
        text = named.group(1) if named else re.sub(r"<[^>]+>", "", button.group(2))
        tagged = re.search(r'data-event="([^"]*)"', button.group(1))
        if tagged is not None:
            assert json.loads(html_lib.unescape(tagged.group(1))) == data
        forms.append(
            {
                "event": data,
                "sequence": int(re.search(r'name="sequence" value="(\d+)"', form).group(1)),
                "key": re.search(r'name="key" value="([^"]+)"', form).group(1),
                "move": re.search(r'data-move="([^"]*)"', form).group(1),
                "group": re.search(r'data-group="([^"]*)"', form).group(1),
                "label": html_lib.unescape(text).strip(),
            }
        )
    return forms


def post(client: Any, game: Game, event: dict, sequence: int, key: str = "k-1") -> Any:
    """Submit one event through the score page's event form."""
    return client.post(
        score_url(game),
        {"action": "event", "event": json.dumps(event), "sequence": sequence, "key": key},
    )

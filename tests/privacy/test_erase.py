"""Erasure: the player's names vanish from every stored text, nobody else's results move."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from django.apps import apps
from django.contrib.admin.models import ADDITION, LogEntry
from django.contrib.auth.models import AnonymousUser
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.db import models
from rest_framework.test import APIClient

import games.engine as engine
from games.erasure import game_rename_player
from games.models import Game, GameEvent
from games.selectors import game_replay
from ratings.models import Rating, RatingChange
from ratings.services import ratings_recompute
from tests.privacy.conftest import SECRET_HANDLE, SECRET_NAME
from tournaments.errors import NotAllowed
from tournaments.models import Player
from tournaments.selectors import tournament_standings
from tournaments.services import player_erase

pytestmark = pytest.mark.django_db

TEXT_FIELDS = (models.CharField, models.TextField, models.JSONField)
APPS = ("tournaments", "games", "ratings", "outbox", "admin", "auth")


def _every_text() -> list[tuple[str, str, str]]:
    """(table, column, value as text) for every text or JSON column of the apps' tables."""
    found = []
    for label in APPS:
        try:
            config = apps.get_app_config(label)
        except LookupError:
            continue
        for model in config.get_models():
            fields = [f for f in model._meta.concrete_fields if isinstance(f, TEXT_FIELDS)]
            if not fields:
                continue
            for row in model._default_manager.values_list(*[f.attname for f in fields]):
                for field, value in zip(fields, row, strict=True):
                    text = (
                        value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
                    )
                    found.append((model._meta.db_table, field.attname, text))
    return found


def _mentions(text: str) -> bool:
    lower = text.lower()
    return SECRET_HANDLE in lower or SECRET_NAME.lower() in lower or "maría" in lower


def _placements_by_seat() -> dict[int, list]:
    return {
        g.pk: [(g.placements or {}).get(p) for p in g.players] + [g.status, g.result_version]
        for g in Game.objects.all()
    }


def _ratings() -> dict:
    return {
        "ratings": sorted(Rating.objects.values_list("player_id", "kind", "value", "games")),
        "changes": sorted(
            RatingChange.objects.values_list("player_id", "game_id", "before", "after")
        ),
    }


def _points(world) -> dict[int, tuple]:
    return {
        r.player_id: (r.points, r.games, r.buchholz, r.places)
        for r in tournament_standings(tournament=world.tournament)
    }


def test_erase_leaves_no_trace_and_changes_no_result(world):
    LogEntry.objects.create(
        user_id=world.superuser.pk,
        content_type_id=ContentType.objects.get_for_model(Player).pk,
        object_id=str(world.maria.pk),
        object_repr=str(world.maria),
        action_flag=ADDITION,
    )
    assert any(_mentions(t) for *_, t in _every_text())  # the test sees the names before
    before_places = _placements_by_seat()
    before_points = _points(world)
    before_ratings = _ratings()

    erased = player_erase(player=world.maria, user=world.superuser)

    assert erased.pk == world.maria.pk
    assert erased.handle.startswith("erased-") and erased.display_name == erased.handle
    assert erased.user is None
    leaks = [(table, column) for table, column, text in _every_text() if _mentions(text)]
    # the user account is not the player's data: it is unlinked, not deleted
    assert leaks == [] or set(leaks) <= {("auth_user", "username")}, leaks
    assert _placements_by_seat() == before_places
    assert _points(world) == before_points
    assert _ratings() == before_ratings
    ratings_recompute()
    assert _ratings() == before_ratings
    for game in Game.objects.filter(pk__in=world.game_ids):
        replayed = game_replay(game=game)
        if replayed is None:  # the placements-only table
            continue
        assert list(replayed.players) == game.players
        if game.result_source == "log":
            assert replayed.placements() == game.placements
            assert game.state == replayed.cache_state() and game.summary == replayed.summary()
    assert sum(erased.handle in g.players for g in Game.objects.all()) == 3
    # the note written by a scorekeeper keeps its sense, under the pseudonym
    notes = (
        [e.data["_note"] for e in GameEvent.objects.filter(data__has_key="_note")]
        if GameEvent.objects.exists()
        else []
    )
    assert notes and all(n == f"{erased.handle} ({erased.handle}) was late" for n in notes)


def test_downloaded_log_replays_with_the_engine_cli(world, tmp_path):
    erased = player_erase(player=world.maria.handle, user=world.superuser)
    client = APIClient()
    response = client.get(f"/api/games/{world.friendly_id}/log")
    assert response.status_code == 200
    text = b"".join(response.streaming_content) if response.streaming else response.content
    assert SECRET_HANDLE.encode() not in text and erased.handle.encode() in text
    path = tmp_path / "game.jsonl"
    path.write_bytes(text)
    run = subprocess.run(
        [sys.executable, "-m", "games.engine", "replay", str(path), "--json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    assert erased.handle in run.stdout


def test_only_superusers_erase(world):
    for user in (AnonymousUser(), world.stranger, world.organizer, world.maria_user):
        with pytest.raises(NotAllowed):
            player_erase(player=world.maria, user=user)
    assert Player.objects.get(pk=world.maria.pk).handle == SECRET_HANDLE


def test_erasing_twice_is_a_no_op(world):
    first = player_erase(player=world.maria, user=world.superuser)
    again = player_erase(player=first.handle, user=world.superuser)
    assert again.handle == first.handle


def test_rename_refuses_a_change_of_result_and_stores_nothing(world):
    game = Game.objects.get(pk=world.game_ids[0])
    other = game.players[1]
    events = list(GameEvent.objects.filter(game=game).values_list("data", flat=True))
    with pytest.raises(Exception):  # noqa: B017  a name already seated
        game_rename_player(game=game, old=SECRET_HANDLE, new=other)
    assert list(GameEvent.objects.filter(game=game).values_list("data", flat=True)) == events
    # a name the engine reserves would not replay
    from games.errors import ResultConflict

    with pytest.raises(ResultConflict):
        game_rename_player(game=game, old=SECRET_HANDLE, new="center")
    assert Game.objects.get(pk=game.pk).players == game.players
    assert engine.replay(events).players == tuple(game.players)


def test_erase_player_command(world, capsys):
    call_command("erase_player", SECRET_HANDLE, "--yes")
    out = capsys.readouterr().out
    assert SECRET_HANDLE not in out
    player = Player.objects.get(pk=world.maria.pk)
    assert player.handle.startswith("erased-") and player.handle in out


def test_erase_reaches_rulings_proposals_calls_and_the_audit_log(world):
    """The records kept beside the games name players by handle (a knock's ruling, a
    proposed or reported result and its votes, the audit log's details) or in free text
    (notes, a call's reason): erasure rewrites them all, and what they mean stays."""
    from tournaments.models import (
        RefereeCall,
        ResultProposal,
        Ruling,
        TournamentAudit,
    )
    from tournaments.services.core import audit_write

    game = Game.objects.get(pk=world.game_ids[0])
    others = [h for h in game.players if h != SECRET_HANDLE]
    places = {h: n for n, h in enumerate(game.players, start=1)}
    Ruling.objects.create(
        game=game,
        tournament=world.tournament,
        referee=world.referee,
        sequence=3,
        knocker=SECRET_HANDLE,
        against=others[0],
        engine_verdict="correct",
        engine_code="fits",
        ruling="incorrect",
        applied="incorrect",
        note=f"{SECRET_NAME} knocked too late",
        position={"player": SECRET_HANDLE, "hands": {SECRET_HANDLE: 3, others[0]: 2}},
    )
    Ruling.objects.create(
        game=game,
        tournament=world.tournament,
        referee=world.referee,
        sequence=0,
        engine_verdict="",
        engine_code="",
        ruling="correction",
        applied="correction",
        note="swapped",
        placements={**places, SECRET_HANDLE: 2, others[0]: 1},
        previous_placements=places,
    )
    ResultProposal.objects.create(
        game=game,
        tournament=world.tournament,
        origin="players",
        placements=places,
        votes={SECRET_HANDLE: {"placements": places, "at": "2026-12-04T10:00:00+00:00"}},
        status="confirmed",
        note=f"as {SECRET_NAME} reported",
    )
    RefereeCall.objects.create(
        tournament=world.tournament, game=game, reason=f"{SECRET_NAME} dropped a card"
    )
    audit_write(
        tournament=world.tournament,
        user=world.organizer,
        action="checked_in",
        player=SECRET_HANDLE,
        players=[SECRET_HANDLE, *others],
        placements=places,
    )
    assert any(_mentions(t) for *_, t in _every_text())

    erased = player_erase(player=world.maria, user=world.superuser)

    leaks = [(table, column) for table, column, text in _every_text() if _mentions(text)]
    assert leaks == [] or set(leaks) <= {("auth_user", "username")}, leaks
    new = erased.handle
    knock = Ruling.objects.get(game=game, sequence=3)
    assert (knock.knocker, knock.against) == (new, others[0])
    assert knock.note == f"{new} knocked too late"
    assert knock.position == {"player": new, "hands": {new: 3, others[0]: 2}}
    renamed = {new if h == SECRET_HANDLE else h: n for h, n in places.items()}
    correction = Ruling.objects.get(game=game, sequence=0)
    assert correction.previous_placements == renamed
    assert correction.placements == {**renamed, new: 2, others[0]: 1}
    proposal = ResultProposal.objects.get(game=game)
    assert proposal.placements == renamed
    assert proposal.votes == {new: {"placements": renamed, "at": "2026-12-04T10:00:00+00:00"}}
    audit = TournamentAudit.objects.filter(action="checked_in").get()
    assert audit.details == {"player": new, "players": [new, *others], "placements": renamed}
    assert RefereeCall.objects.get(game=game).reason == f"{new} dropped a card"

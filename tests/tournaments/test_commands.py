"""Management commands: demo (idempotent), standings, import_log, recompute_ratings."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

import games.engine as engine
from games.engine import jsonio
from games.models import Game, GameEvent
from ratings.models import Rating
from tests.tournaments.factories import PlayerFactory
from tournaments.models import League, Player, Registration, Role, TournamentRole
from tournaments.permissions import user_can_manage_tournament

pytestmark = pytest.mark.django_db


def _run(*args):
    out, err = StringIO(), StringIO()
    try:
        call_command(*args, stdout=out, stderr=err)
    except SystemExit:  # pragma: no cover - show why
        raise AssertionError(err.getvalue()) from None
    return out.getvalue(), err.getvalue()


def _fail(*args):
    err = StringIO()
    with pytest.raises(SystemExit) as exc:
        call_command(*args, stdout=StringIO(), stderr=err)
    assert exc.value.code == 1
    return err.getvalue()


def test_demo_is_idempotent(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        _run("demo")
    counts = (
        League.objects.count(),
        Player.objects.count(),
        Game.objects.count(),
        GameEvent.objects.count(),
        Registration.objects.count(),
        get_user_model().objects.count(),
    )
    assert counts[:2] == (3, 24)  # TOCK, UNO and Casino leagues
    out, _ = _run("demo")
    assert "already" in out
    assert counts == (
        League.objects.count(),
        Player.objects.count(),
        Game.objects.count(),
        GameEvent.objects.count(),
        Registration.objects.count(),
        get_user_model().objects.count(),
    )
    league = League.objects.get(kind="tock")
    finished, running = (
        league.tournaments.get(slug="winter-open"),
        league.tournaments.get(slug="spring-cup"),
    )
    assert finished.status == "finished" and running.status == "running"
    demo = get_user_model().objects.get(username="demo")
    assert demo.check_password("demo")
    assert user_can_manage_tournament(user=demo, tournament=running)
    assert TournamentRole.objects.filter(user__username="referee", role=Role.REFEREE).count() == 2
    assert Game.objects.filter(status="in_progress").exists()
    assert Game.objects.filter(result_source="placements").exists()
    assert Rating.objects.filter(kind="tock").count() == 24
    # The UNO and Casino evenings: finished, every game played through, rated per kind.
    for kind, slug in (("uno", "uno-night"), ("casino", "casino-evening")):
        evening = League.objects.get(kind=kind).tournaments.get(slug=slug)
        assert evening.status == "finished"
        games = Game.objects.filter(kind=kind)
        assert games.count() == 4 and not games.exclude(status="finished").exists()
        assert Rating.objects.filter(kind=kind).count() == 8
    out, _ = _run("standings", "demo-tock/winter-open", "--json")
    rows = json.loads(out)["standings"]
    assert len(rows) == 24 and rows[0]["rank"] == 1 and rows[0]["games"] == 3
    out, _ = _run("standings", str(running.pk))
    assert "Spring Cup" in out


def test_standings_unknown_tournament():
    assert _fail("standings", "nope/nothing").startswith("error: ")
    assert _fail("standings", "12345").startswith("error: ")


def test_import_log(tmp_path):
    log = engine.simulate(game="tock", players=["ann", "bob", "cat"], seed=3)
    path = tmp_path / "game.jsonl"
    path.write_text("".join(jsonio.dumps(e) + "\n" for e in log))
    err = _fail("import_log", str(path))
    assert "Unknown player handles" in err and not Game.objects.exists()
    out, _ = _run("import_log", str(path), "--create-players")
    game = Game.objects.get()
    assert f"game {game.pk}" in out and game.last_sequence == len(log)
    assert game.placements == engine.replay(log).placements()
    out, _ = _run("import_log", str(path), "--game", str(game.pk))
    assert "0 events added" in out
    bad = tmp_path / "bad.jsonl"
    bad.write_text(path.read_text().replace('"type":"draw"', '"type":"dr4w"', 1))
    assert "line 2" in _fail("import_log", str(bad), "--game", str(game.pk))
    assert "error: " in _fail("import_log", str(tmp_path / "missing.jsonl"))
    assert "error: " in _fail("import_log", str(path), "--game", "999999")
    PlayerFactory(handle="dan")
    other = Game.objects.create(kind="tock", players=["ann", "bob", "dan"])
    assert "differ" in _fail("import_log", str(path), "--game", str(other.pk))
    assert not GameEvent.objects.filter(game=other).exists()


def test_recompute_ratings_command():
    out, _ = _run("recompute_ratings", "--kind", "tock")
    assert "tock: 0 rated games" in out

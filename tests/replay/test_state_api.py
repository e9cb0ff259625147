"""``GET /api/games/<id>/state?at=N``: the engine's summary after event N, exactly what
``python -m games.engine replay --json`` prints for the log cut after line N."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse

import games.engine as engine
from games.engine.cli import main as engine_cli
from tests.replay.conftest import cut_with_pending_infraction
from tournaments.permissions import SYSTEM
from tournaments.services import game_record_log

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def state_url(game, at=None) -> str:
    url = reverse("api:game-state", args=[game.pk])
    return url if at is None else f"{url}?at={at}"


def cli_json(lines: list[str], tmp_path: Path, n: int) -> dict:
    """The CLI's ``replay --json`` output for the first ``n`` lines, in-process."""
    path = tmp_path / f"cut-{n}.jsonl"
    path.write_text("".join(lines[:n]), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    assert engine_cli(["replay", str(path), "--json"], out=out, err=err) == 0, err.getvalue()
    return json.loads(out.getvalue())


def test_state_equals_the_cli_for_the_log_cut_at_n(anon, game, tock_log, tmp_path):
    game_record_log(game=game, log=tock_log, user=SYSTEM)
    log = anon.get(reverse("api:game-log", args=[game.pk])).content.decode()
    lines = log.splitlines(keepends=True)
    assert len(lines) == len(tock_log)
    last = len(lines)
    for n in sorted({1, 2, 3, 17, last // 2, last - 1, last}):
        response = anon.get(state_url(game, n))
        assert response.status_code == 200, response.content
        assert response.json() == cli_json(lines, tmp_path, n), n
    # default: the last event
    assert anon.get(state_url(game)).json() == cli_json(lines, tmp_path, last)


def test_state_equals_the_cli_run_as_a_process(anon, game, tock_log, tmp_path):
    game_record_log(game=game, log=tock_log, user=SYSTEM)
    n = len(tock_log) // 3
    path = tmp_path / "cut.jsonl"
    path.write_text(engine.format_log(tock_log[:n]), encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "games.engine", "replay", str(path), "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert anon.get(state_url(game, n)).json() == json.loads(run.stdout)


@pytest.mark.parametrize("at", ["0", "-1", "abc", "1.5", "99999", "1e3", " ", "٣"])
def test_a_bad_event_number_is_a_400_with_a_reason(anon, game, tock_log, at):
    game_record_log(game=game, log=tock_log[:20], user=SYSTEM)
    response = anon.get(reverse("api:game-state", args=[game.pk]), {"at": at})
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "bad_event_number"
    assert "20" in body["detail"]


def test_a_game_without_a_log_is_a_400(anon, game):
    response = anon.get(state_url(game, 1))
    assert response.status_code == 400
    assert response.json()["detail"]


def test_a_hidden_game_is_a_404(anon, as_user, game, tournament, tock_log):
    game_record_log(game=game, log=tock_log[:20], user=SYSTEM)
    tournament.is_public = False
    tournament.save()
    assert anon.get(state_url(game, 5)).status_code == 404
    assert as_user("stranger").get(state_url(game, 5)).status_code == 404
    assert as_user("scorekeeper").get(state_url(game, 5)).status_code == 200
    assert anon.get(reverse("api:game-state", args=[999999])).status_code == 404


def test_the_public_does_not_see_infractions_nobody_knocked_on(anon, as_user, game, tock_log):
    n = cut_with_pending_infraction(tock_log)
    game_record_log(game=game, log=tock_log[:n], user=SYSTEM)
    full = engine.replay(tock_log[:n]).summary()
    hidden = [i for i in full["infractions"] if not i["penalized"]]
    assert hidden

    public = anon.get(state_url(game, n)).json()
    assert all(i["penalized"] for i in public["infractions"])
    assert public["infractions"] == [i for i in full["infractions"] if i["penalized"]]
    assert all("engine_correct" not in k for k in public["knocks"])
    assert {k: v for k, v in public.items() if k not in ("infractions", "knocks")} == {
        k: v for k, v in full.items() if k not in ("infractions", "knocks")
    }
    for role in ("organizer", "referee", "scorekeeper"):
        assert as_user(role).get(state_url(game, n)).json() == full, role
    assert as_user("stranger").get(state_url(game, n)).json() == public
    assert as_user("other_scorekeeper").get(state_url(game, n)).json() == public

    # The game API's summary too.
    detail = anon.get(reverse("api:game-detail", args=[game.pk])).json()
    assert detail["summary"] == public
    staff_detail = as_user("referee").get(reverse("api:game-detail", args=[game.pk])).json()
    assert staff_detail["summary"] == full


def test_everyone_sees_everything_once_the_game_is_over(anon, game, tock_log):
    game_record_log(game=game, log=tock_log, user=SYSTEM)
    final = engine.replay(tock_log)
    assert final.is_over
    summary = final.summary()
    assert any(not i["penalized"] for i in summary["infractions"])
    assert anon.get(state_url(game)).json() == summary
    assert anon.get(reverse("api:game-detail", args=[game.pk])).json()["summary"] == summary
    # Also at an event where the game was still in progress.
    n = cut_with_pending_infraction(tock_log)
    assert anon.get(state_url(game, n)).json() == engine.replay(tock_log[:n]).summary()

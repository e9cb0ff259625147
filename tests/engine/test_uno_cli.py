"""The command line for UNO: ``python -m games.engine replay|simulate --game uno``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import games.engine as engine
from tests.engine.cli_helpers import cli, inproc, write_logs


@pytest.fixture(scope="module")
def logs(tmp_path_factory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("uno")
    full = engine.simulate("uno", players=3, seed=4, deck="2018", target=120)
    bad = [*full[:5], {"type": "play", "player": "zed", "card": "R1"}]
    sheet = [
        {"type": "start", "game": "uno", "players": ["a", "b", "c"], "sheet": True},
        {"type": "hand", "winner": "b", "points": 320},
        {"type": "hand", "winner": "c", "points": 500},
    ]
    return write_logs(d, full=full, cut=full[:30], bad=bad, sheet=sheet)


def test_replay_json_is_the_summary(logs):
    r = cli("replay", str(logs["full"]), "--json")
    assert r.returncode == 0, r.stderr
    summary = json.loads(r.stdout)
    assert summary == engine.replay_text(logs["full"].read_text()).summary()
    assert summary["game"] == "uno" and summary["status"] == "finished"
    assert list(summary) == [
        "game", "players", "status", "events", "hand", "dealer", "turn", "direction", "top",
        "color", "hands", "draw_pile", "hand_results", "scores", "challenges", "catches",
        "placements", "end", "corrections",
    ]  # fmt: skip


def test_replay_text_and_several_files(logs):
    code, out, err = inproc("replay", str(logs["cut"]))
    assert code == 0 and "game: uno  status: in_progress  events: 30" in out and not err
    code, out, err = inproc(
        "replay", str(logs["full"]), str(logs["bad"]), str(logs["sheet"]), "--json"
    )
    assert code == 1
    rows = [json.loads(line) for line in out.splitlines()]
    assert rows[0]["file"] == str(logs["full"]) and rows[0]["status"] == "finished"
    assert rows[1] == {"file": str(logs["bad"]), "error": "line 6: unknown player 'zed'", "line": 6}
    assert rows[2]["scores"] == {"a": 0, "b": 320, "c": 500}
    assert rows[2]["placements"] == {"a": 3, "b": 2, "c": 1} and rows[2]["turn"] is None
    assert f"{logs['bad']}: line 6: unknown player 'zed'" in err


def test_simulate_one_game_and_many(tmp_path):
    code, out, _ = inproc("simulate", "--game", "uno", "--players", "5", "--seed", "3")
    assert code == 0
    game = engine.replay_text(out)
    assert game.is_over and len(game.players) == 5
    assert max(game.summary()["scores"].values()) >= 500
    code, out, _ = inproc(
        "simulate", "--game", "uno", "--players", "10", "--seed", "1", "--count", "2",
        "--deck", "2018", "--target", "100",
    )  # fmt: skip
    games = [json.loads(line) for line in out.splitlines()]
    assert [g[0]["seed"] for g in games] == [1, 2]
    assert all(g[0]["deck"] == "2018" and g[0]["target"] == 100 for g in games)
    code, _, _ = inproc(
        "simulate", "--game", "uno", "--seed", "8", "--count", "2", "--out", str(tmp_path)
    )
    assert code == 0 and sorted(p.name for p in tmp_path.iterdir()) == [
        "uno-8.jsonl",
        "uno-9.jsonl",
    ]
    assert engine.replay_text((tmp_path / "uno-8.jsonl").read_text()).is_over


def test_simulate_is_deterministic_and_refuses_foreign_options():
    assert (
        inproc("simulate", "--game", "uno", "--seed", "5")[1]
        == inproc("simulate", "--game", "uno", "--seed", "5")[1]
    )
    code, out, err = inproc("simulate", "--game", "uno", "--mistakes", "0.1")
    assert code == 1 and not out and "uno does not take --mistakes" in err
    code, _, err = inproc("simulate", "--game", "uno", "--players", "11")
    assert code == 1 and "2 to 10 players" in err

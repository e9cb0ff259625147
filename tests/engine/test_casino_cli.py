"""The command line for Casino: ``python -m games.engine replay|simulate --game casino``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import games.engine as engine
from tests.engine.cli_helpers import cli, inproc, write_logs


@pytest.fixture(scope="module")
def logs(tmp_path_factory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("casino")
    full = engine.simulate("casino", players=3, seed=4)
    bad = [*full[:5], {"type": "trail", "player": "zed", "card": "AS"}]
    sheet = [
        {"type": "start", "game": "casino", "players": ["a", "b"], "sheet": True},
        {"type": "round", "scores": {"a": {"cards": 3, "aces": 3, "big_casino": 2},
                                     "b": {"spades": 1, "little_casino": 1, "aces": 1}}},
    ]  # fmt: skip
    return write_logs(d, full=full, cut=full[:20], bad=bad, sheet=sheet)


def test_replay_json_is_the_summary(logs):
    r = cli("replay", str(logs["full"]), "--json")
    assert r.returncode == 0, r.stderr
    summary = json.loads(r.stdout)
    assert summary == engine.replay_text(logs["full"].read_text()).summary()
    assert summary["game"] == "casino" and summary["status"] == "finished"
    assert list(summary) == [
        "game", "players", "status", "events", "round", "dealer", "turn", "center", "hands",
        "captured", "last_capture", "round_scores", "scores", "placements", "end",
        "corrections",
    ]  # fmt: skip
    assert summary["turn"] is None and max(summary["scores"].values()) >= 21
    assert sum(summary["captured"].values()) + len(summary["center"]["cards"]) == 52
    assert set(summary["round_scores"][0]["ana"]) == {
        "cards", "spades", "big_casino", "little_casino", "aces", "total",
    }  # fmt: skip


def test_replay_text_and_several_files(logs):
    code, out, err = inproc("replay", str(logs["cut"]))
    assert code == 0 and not err
    assert "game: casino  status: in_progress  events: 20" in out and "round: 1" in out
    code, out, err = inproc(
        "replay", str(logs["full"]), str(logs["bad"]), str(logs["sheet"]), "--json"
    )
    assert code == 1
    rows = [json.loads(line) for line in out.splitlines()]
    assert rows[0]["file"] == str(logs["full"]) and rows[0]["status"] == "finished"
    assert rows[1] == {"file": str(logs["bad"]), "error": "line 6: unknown player 'zed'", "line": 6}
    assert rows[2]["scores"] == {"a": 8, "b": 3} and rows[2]["status"] == "in_progress"
    assert rows[2]["turn"] is None and rows[2]["round"] == 1
    assert f"{logs['bad']}: line 6: unknown player 'zed'" in err


def test_simulate_one_game_and_many(tmp_path):
    code, out, _ = inproc("simulate", "--game", "casino", "--players", "4", "--seed", "3")
    assert code == 0
    game = engine.replay_text(out)
    assert game.is_over and len(game.players) == 4
    assert max(game.summary()["scores"].values()) >= 21
    code, out, _ = inproc(
        "simulate", "--game", "casino", "--players", "2", "--seed", "1", "--count", "2",
        "--target", "11",
    )  # fmt: skip
    games = [json.loads(line) for line in out.splitlines()]
    assert [g[0]["seed"] for g in games] == [1, 2] and all(g[0]["target"] == 11 for g in games)
    assert all(engine.replay(g).is_over for g in games)
    code, _, _ = inproc(
        "simulate", "--game", "casino", "--seed", "8", "--count", "2", "--out", str(tmp_path)
    )
    assert code == 0 and sorted(p.name for p in tmp_path.iterdir()) == [
        "casino-8.jsonl",
        "casino-9.jsonl",
    ]
    assert engine.replay_text((tmp_path / "casino-8.jsonl").read_text()).is_over


def test_simulate_is_deterministic_and_refuses_foreign_options():
    assert (
        inproc("simulate", "--game", "casino", "--seed", "5")[1]
        == inproc("simulate", "--game", "casino", "--seed", "5")[1]
    )
    code, out, err = inproc("simulate", "--game", "casino", "--deck", "2018")
    assert code == 1 and not out and "casino does not take --deck" in err
    code, _, err = inproc("simulate", "--game", "casino", "--players", "5")
    assert code == 1 and "2 to 4 players" in err

"""Hostile logs through the command line: every file gets an answer (``line N: reason``),
never a traceback, and the run goes on with the next file."""

from __future__ import annotations

import json

import games.engine as engine
from games.engine.log import MAX_DEPTH
from tests.engine.cli_helpers import cli

START = {"type": "start", "game": "tock", "players": ["ann", "bob"], "seed": 1}


def test_deep_nesting_is_refused_on_its_line_and_later_files_still_answer(tmp_path):
    deep = tmp_path / "deep.jsonl"
    deep.write_text(
        json.dumps(START)
        + "\n"
        + '{"type": "draw", "player": "ann", "card": '
        + "[" * 1000
        + "]" * 1000
        + "}\n"
    )
    good = tmp_path / "good.jsonl"
    good.write_text(engine.format_log(engine.simulate(game="tock", players=2, seed=3)))
    proc = cli("replay", "--json", str(deep), str(good))
    assert "Traceback" not in proc.stderr and "RecursionError" not in proc.stdout + proc.stderr
    answers = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [a["file"] for a in answers] == [str(deep), str(good)]
    assert answers[0]["line"] == 2 and "nested too deeply" in answers[0]["error"]
    assert answers[1]["status"] in ("finished", "stalemate")
    assert proc.returncode == 1


def test_the_depth_the_rules_need_is_accepted():
    # TOCK nests two levels (players, placements); the limit leaves room for other kinds.
    assert MAX_DEPTH >= 4
    log = engine.simulate(game="tock", players=3, seed=4)
    assert engine.parse_log(engine.format_log(log)) == log

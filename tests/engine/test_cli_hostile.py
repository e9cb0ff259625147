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


def _nested(levels: int) -> object:
    """A value that, inside an event (level 1), nests ``levels`` more levels."""
    value: object = 1
    for k in range(levels - 1):
        value = [value] if k % 2 else {"k": value}
    return value


def test_the_depth_limit_holds_among_lines_with_many_brackets():
    # A 4-player UNO deal holds more than MAX_DEPTH opening brackets, so the depth check
    # walks such lines; the limit is exact, for str and bytes, on any line.
    log = engine.simulate(game="uno", players=4, seed=2)
    text = engine.format_log(log)
    for raw in (text, text.encode()):
        assert engine.parse_log(raw) == log
    lines = text.splitlines()
    for at in (2, len(lines) // 2, len(lines) + 1):
        for levels, ok in ((MAX_DEPTH - 1, True), (MAX_DEPTH, False)):
            event = {"type": "pass", "player": "ana", "_x": _nested(levels)}
            bad = "\n".join([*lines[: at - 1], json.dumps(event), *lines[at - 1 :]]) + "\n"
            for raw in (bad, bad.encode()):
                if ok:
                    assert len(engine.parse_log(raw)) == len(lines) + 1
                else:
                    try:
                        engine.parse_log(raw)
                    except engine.LogError as exc:
                        assert exc.line == at and "nested too deeply" in str(exc)
                    else:
                        raise AssertionError(f"depth {levels + 1} accepted at line {at}")


def test_brackets_inside_strings_do_not_hide_or_fake_nesting():
    ok = {"type": "pass", "player": "ana", "_note": "[[[[[[[[{{{{{{{{ ]]]]]]]]"}
    deep = {"type": "pass", "player": "ana", "_note": "]]]]]]]]}}}}}}}}", "_x": _nested(MAX_DEPTH)}
    start = json.dumps(START)
    assert len(engine.parse_log(start + "\n" + json.dumps(ok) + "\n")) == 2
    try:
        engine.parse_log(start + "\n" + json.dumps(deep) + "\n")
    except engine.LogError as exc:
        assert exc.line == 2
    else:
        raise AssertionError("a deep event hidden by closing brackets in a string was accepted")


def test_wide_lines_pass_and_deep_ones_are_found_after_brackets_in_strings():
    # A line with MAX_DEPTH openers side by side (like a four-player deal) is judged by
    # its outline, found from the openers before it; a line whose strings hold brackets
    # throws that count off, and the lines after it are still judged right.
    odd = {"type": "pass", "player": "ana", "_note": "[[[[{{{{ ]]"}
    wide = {"type": "pass", "player": "ana", "_x": {k: [1] for k in "abcdef"}}
    deep = {"type": "pass", "player": "ana", "_x": _nested(MAX_DEPTH)}
    for before in ([], [odd], [odd, wide]):
        events = [START, *before, wide, wide]
        text = "\n".join(json.dumps(e) for e in events) + "\n"
        assert len(engine.parse_log(text)) == len(events)
        try:
            engine.parse_log(text + json.dumps(deep) + "\n")
        except engine.LogError as exc:
            assert exc.line == len(events) + 1 and "nested too deeply" in str(exc)
        else:
            raise AssertionError("a deep event after wide lines was accepted")

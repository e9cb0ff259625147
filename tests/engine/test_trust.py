"""Player names are checked once, by the engine, for every caller (CLI and site alike);
which events are a referee's matter is the kind's decision."""

from __future__ import annotations

import json

import pytest

import games.engine as engine
from games.engine import InvalidEvent, TockGame
from tests.engine.cli_helpers import cli

START = {"type": "start", "game": "tock", "players": ["ann", "bob"]}


@pytest.mark.parametrize("name", ["a\x00b", "tab\there", "new\nline", "\x7f", "\ud800x"])
def test_names_with_control_characters_or_surrogates_are_refused(name):
    with pytest.raises(InvalidEvent, match="control character or is not valid Unicode"):
        engine.start({**START, "players": ["ann", name]})


@pytest.mark.parametrize("name", ["José", "Zoë Müller", "李", "a b"])
def test_ordinary_names_in_any_script_are_fine(name):
    assert engine.start({**START, "players": ["ann", name]}).players == ("ann", name)


def test_the_cli_refuses_an_escaped_nul_in_a_name_like_the_server(tmp_path):
    path = tmp_path / "nul.jsonl"
    path.write_text(json.dumps({**START, "players": ["ann", "b\u0000b"]}) + "\n")
    proc = cli("replay", str(path))
    assert proc.returncode == 1
    assert proc.stderr.startswith("line 1: player name") and "Traceback" not in proc.stderr


@pytest.mark.parametrize(
    ("event", "needs"),
    [
        ({"type": "end", "reason": "time"}, False),
        ({"type": "end", "reason": "time", "placements": {"ann": 1, "bob": 2}}, True),
        ({"type": "end", "reason": "adjudicated"}, True),
        ({"type": "tock", "player": "ann", "ruling": "correct"}, True),
        ({"type": "tock", "player": "ann"}, False),
        ({"type": "draw", "player": "ann"}, False),
        ("not an event", False),
    ],
)
def test_what_needs_a_referee(event, needs):
    assert TockGame.event_needs_referee(event) is needs

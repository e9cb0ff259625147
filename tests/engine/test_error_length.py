"""Whatever a caller passes in, an engine error is one line of a readable length that
still names the broken rule: a huge value is quoted cut (saying how long it was), an
integer too long for Python to print is described, never a ``ValueError`` of Python's
own (``sys.get_int_max_str_digits``), and ``push`` still changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

import games.engine as engine
from games.engine.errors import MAX_MESSAGE, MAX_SHOWN, one_line, shown

HUGE_TEXT = "x" * 100_000
HUGE_INT = 10**5000  # more digits than Python prints by default


def _started(kind: str) -> engine.Game:
    return engine.start({"type": "start", "game": kind, "players": ["a", "b", "c"], "seed": 1})


def _bad_events(game: engine.Game) -> list[dict[str, Any]]:
    """Events whose every field the engine reads is a huge value."""
    turn = game.turn or "a"
    out = []
    for value in (HUGE_TEXT, HUGE_INT, [HUGE_TEXT], {"k": HUGE_INT}):
        out.append({"type": value})
        for field in ("card", "player", "color", "cards", "build", "items", "mode"):
            out.append({"type": "play", "player": turn, field: value})
        out.append({"type": "end", "reason": value})
        out.append({"type": "end", "reason": "adjudicated", "placements": {"a": value}})
    out.append({"type": "end", "reason": "adjudicated", "placements": {HUGE_TEXT: 1}})
    return out


@pytest.mark.parametrize("kind", engine.game_kinds())
def test_huge_values_give_short_one_line_errors_and_change_nothing(kind):
    game = _started(kind)
    for event in _bad_events(game):
        before = game.to_state()
        with pytest.raises(engine.EngineError) as info:
            game.push(event)
        message = str(info.value)
        assert message and "\n" not in message
        assert len(message) <= MAX_MESSAGE, message
        assert game.to_state() == before


@pytest.mark.parametrize("kind", engine.game_kinds())
def test_a_huge_value_in_a_log_is_refused_as_line_n_with_a_short_reason(kind):
    start = {"type": "start", "game": kind, "players": ["a", "b"], "seed": 1}
    for value in (HUGE_TEXT, HUGE_INT):
        with pytest.raises(engine.LogError) as info:
            engine.replay([start, {"type": value}])
        assert info.value.line == 2
        assert str(info.value) == f"line 2: {info.value.reason}"
        assert len(info.value.reason) <= MAX_MESSAGE
        assert "type" in info.value.reason  # the rule is still named


def test_shown_quotes_short_values_whole_and_cuts_long_ones_saying_their_length():
    assert shown("ace") == "'ace'"
    assert shown(21) == "21"
    cut = shown("y" * 1000)
    assert len(cut) <= MAX_SHOWN + 20 and cut.startswith("'yyy") and "1,002 characters" in cut
    assert shown(HUGE_INT) == f"<an integer of {HUGE_INT.bit_length()} bits>"


def test_one_line_keeps_the_start_and_the_end_of_a_long_message():
    text = "the rule\n is named here: " + "z" * 5000 + " and the value ends here"
    line = one_line(text)
    assert len(line) <= MAX_MESSAGE + 40
    assert line.startswith("the rule is named here: ") and line.endswith("ends here")
    assert "characters ...]" in line
    assert one_line("short\tmessage") == "short message"

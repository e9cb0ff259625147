"""Event logs: JSON Lines parsing and replay.

A log is one JSON object a line, the start event first; line ``N`` (1-based) is the
game's event ``N``. Blank lines are not allowed (they would shift the numbering),
except trailing whitespace at the very end of the text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from . import jsonio
from .base import Game, start
from .errors import EngineError, LogError

_ONLY_DICTS = {dict}
#: Deepest nesting an event may have (the event object is level 1; TOCK needs 2: a
#: list of players, a mapping of placements). Deeper input is refused before anything
#: walks it, so no recursion (a ``repr`` in an error message, a check) can blow up.
MAX_DEPTH = 6
# Two objects on one line, ``}`` then ``,`` then ``{`` (JSON whitespace between, no
# newline): see parse_log().
_TWO_ON_A_LINE = re.compile(r"\}[ \t\r]*,[ \t\r]*\{")
_TWO_ON_A_LINE_B = re.compile(rb"\}[ \t\r]*,[ \t\r]*\{")
# Every byte but a newline and the opening brackets (dropped by _check_depths()), and a
# line with MAX_DEPTH of those or more (only such a line can nest deeper than allowed).
_NOT_OPENERS = bytes(b for b in range(256) if b not in b"\n[{")
_DEEP_LINE = re.compile(rb"[^\n]{%d,}" % MAX_DEPTH)


def parse_log(text: str | bytes) -> list[dict[str, Any]]:
    """Parse JSON Lines into event dicts; raises :class:`LogError` naming the bad line.

    Fast path: the whole text is parsed as one JSON array (one parser call instead of
    one per line); only if that fails, or the line count does not match, the text is
    parsed line by line to find and report the first bad line.

    The line count alone does not prove that every line held exactly one object: a
    line with two objects (``{..},{..``) can make up for an object spread over two
    lines (the newline turned into a comma inside a string or a nested value). Such
    a text has a top-level ``}``, ``,``, ``{`` on one line, which is looked for
    (a regular expression, at C speed); if found, the slow path decides.
    """
    if isinstance(text, bytes | bytearray):
        body = bytes(text).rstrip()
        sep, nl = b",", b"\n"
        wrapped: str | bytes = b"[" + body.replace(nl, sep) + b"]"
        two_on_a_line = _TWO_ON_A_LINE_B.search(body) is not None
    else:
        body = text.rstrip()
        sep, nl = ",", "\n"
        wrapped = "[" + body.replace(nl, sep) + "]"
        two_on_a_line = _TWO_ON_A_LINE.search(body) is not None
    if not body:
        raise LogError(1, "empty log: the first line must be a start event")
    try:
        events = jsonio.loads(wrapped)
    except jsonio.JSONDecodeError:
        events = None
    # A JSON array of one object a line; set(map(type, ...)) checks all at C speed.
    if (
        type(events) is list
        and not two_on_a_line
        and len(events) == body.count(nl) + 1
        and set(map(type, events)) == _ONLY_DICTS
    ):
        _check_depths(events, body, len(events))
        return events
    return _parse_slow(body)


def _check_depths(events: list[dict[str, Any]], body: str | bytes, lines: int) -> None:
    """Refuse an event nested deeper than :data:`MAX_DEPTH` (``LogError`` on its line).

    A line with ``k`` opening brackets nests at most ``k + 1`` levels (its innermost
    values count), so only a line holding ``MAX_DEPTH`` of them or more can be too deep.
    Each line holds at least one (its object), so if the whole text has fewer than
    ``lines + MAX_DEPTH - 1``, no line can: two C-level counts settle the usual log
    without looking at any event. Otherwise the same test line by line, at C speed
    (``translate`` keeps the brackets and newlines, a regular expression finds the lines
    holding that many: an UNO deal at three players or more), and only their events
    are walked.
    """
    is_bytes = isinstance(body, bytes)
    square, curly = (b"[", b"{") if is_bytes else ("[", "{")
    openers = body.count(square) + body.count(curly)
    if openers - lines < MAX_DEPTH - 1:
        return
    # The text's brackets and newlines only (C speed): each line's opening brackets
    # become a run between newlines, and a run longer than MAX_DEPTH is such a line.
    compact = (body if is_bytes else body.encode()).translate(None, _NOT_OPENERS)
    for match in _DEEP_LINE.finditer(compact):
        line = compact.count(b"\n", 0, match.start())
        check_depth(events[line], line + 1)


def check_depth(event: Any, line: int) -> None:
    """Raise ``LogError(line)`` if ``event`` nests deeper than :data:`MAX_DEPTH` (an
    iterative walk that stops at the limit, so any input is safe to check)."""
    # Only containers go on the stack (a value inside a container at MAX_DEPTH, scalar
    # or not, is one level too deep), so a deal's card codes cost no stack entry.
    stack = [(event, 1)] if type(event) is dict or type(event) is list else []
    while stack:
        value, depth = stack.pop()
        children = value.values() if type(value) is dict else value
        if depth >= MAX_DEPTH and children:
            raise LogError(line, f"nested too deeply (events nest at most {MAX_DEPTH} levels)")
        stack += [(v, depth + 1) for v in children if type(v) is dict or type(v) is list]


def _parse_slow(body: str | bytes) -> list[dict[str, Any]]:
    events = []
    for n, line in enumerate(body.split(b"\n" if isinstance(body, bytes) else "\n"), 1):
        if not line.strip():
            raise LogError(n, "blank line (every line must be one JSON event)")
        if isinstance(line, bytes):
            try:
                line = line.decode("utf-8")
            except UnicodeDecodeError:
                raise LogError(n, "not valid UTF-8") from None
        try:
            event = jsonio.loads(line)
        except jsonio.JSONDecodeError as exc:
            reason = str(exc).splitlines()[0] if str(exc) else "syntax error"
            raise LogError(n, f"malformed JSON ({reason})") from None
        if type(event) is not dict:
            raise LogError(n, f"an event must be a JSON object, not {type(event).__name__}")
        check_depth(event, n)
        events.append(event)
    return events


#: The order of keys in a written log line: what a person reads first comes first.
#: Keys not listed follow in their own order. Storage may reorder keys (PostgreSQL's
#: jsonb does), so writing a log always goes through :func:`format_event`.
KEY_ORDER = (
    "type", "game", "players", "first", "mode", "seed",
    "player", "card", "to", "series", "ruling", "referee", "reason", "placements",
)  # fmt: skip
_KEY_RANK = {key: rank for rank, key in enumerate(KEY_ORDER)}


def format_event(event: dict[str, Any]) -> str:
    """One log line for ``event`` (no newline), its keys in :data:`KEY_ORDER`."""
    ordered = dict(sorted(event.items(), key=lambda kv: _KEY_RANK.get(kv[0], len(KEY_ORDER))))
    return jsonio.dumps(ordered)


def format_log(events: Iterable[dict[str, Any]]) -> str:
    """JSON Lines text for ``events``, one :func:`format_event` line each."""
    return "".join(format_event(event) + "\n" for event in events)


def replay(events: Iterable[dict[str, Any]]) -> Game:
    """Replay events (start event first) and return the game; raises :class:`LogError`.

    A log that stops mid-game is valid: the game is returned in progress.
    """
    it = iter(events)
    first = next(it, None)
    if first is None:
        raise LogError(1, "empty log: the first line must be a start event")
    try:
        game = start(first)
    except EngineError as exc:
        raise LogError(1, str(exc), exc) from None
    # The failing event is line ``event_count + 1`` (the start line counts).
    game.push_many(it)
    return game


def replay_text(text: str | bytes) -> Game:
    """Parse and replay a JSON Lines log; :class:`LogError` carries the bad line."""
    return replay(parse_log(text))

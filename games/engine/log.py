"""Event logs: JSON Lines parsing and replay.

A log is one JSON object a line, the start event first; line ``N`` (1-based) is the
game's event ``N``. Blank lines are not allowed (they would shift the numbering),
except trailing whitespace at the very end of the text.
"""

from __future__ import annotations

import functools
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
# The log's bracket outline (see parse_log): every byte but a newline and a bracket
# dropped. From it, each ``[`` kept as a ``{`` and the closing brackets dropped, the
# openers' outline that _check_depths() reads: a line with MAX_DEPTH openers or more
# (only such a line can nest deeper than allowed) is a run of MAX_DEPTH ``{`` there.
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"\n[{}]")
_OPENERS_AS_BRACES = bytes.maketrans(b"[", b"{")
_DEEP_RUN = b"{" * MAX_DEPTH
# (spelt as a literal run, which the regular expression engine looks for as a string:
# 3.5 times as fast as ``[^\n]{6,}`` on the UNO benchmark's four-player logs)
_DEEP_LINE = re.compile(re.escape(_DEEP_RUN) + b"+")
# A line of the outline (matched from its start) on which MAX_DEPTH openers come before
# MAX_DEPTH closers: only such a line can nest MAX_DEPTH deep (see _check_depths). Each
# repeat skips what is not its bracket possessively: no backtracking.
_DEEP_SHAPE = re.compile(
    rb"(?:[^\n{\[]*+[{\[]){%d}(?:[^\n}\]]*+[}\]]){%d}" % (MAX_DEPTH, MAX_DEPTH)
)
#: The types of the JSON values that hold no other (a container of only these nests no
#: deeper: check_depth() pushes none of them).
_SCALARS = frozenset({str, int, float, bool, type(None)})


def parse_log(text: str | bytes) -> list[dict[str, Any]]:
    """Parse JSON Lines into event dicts; raises :class:`LogError` naming the bad line.

    Fast path: the whole text is parsed as one JSON array (one parser call instead of
    one per line); only if that fails, or the line count does not match, the text is
    parsed line by line to find and report the first bad line.

    The line count alone does not prove that every line held exactly one object: a
    line with two objects (``{..},{..``) can make up for an object spread over two
    lines (the newline turned into a comma inside a string or a nested value). Such
    a line holds a top-level ``}``, ``,``, ``{`` with JSON whitespace between, which
    shows as ``}{`` in the text's bracket outline (only its newlines and brackets
    kept: one ``translate`` at C speed); if the outline holds a ``}{`` at all
    (also the sign of two objects in a row inside an event, or of braces in a string:
    neither is in the usual log), the slow path decides. (The outline replaced a
    regular expression search of the text for ``}``, ``,``, ``{``: 1.8% fewer
    instructions in the UNO benchmark's replay at two players, 2.7% at four.)

    The lines are counted, and the depth checked (:func:`_check_depths`), on the
    outline (a log's lines hold few brackets).
    """
    if isinstance(text, bytes | bytearray):
        body = bytes(text).rstrip()
        wrapped: str | bytes = b"[" + body.replace(b"\n", b",") + b"]"
        raw = body
    else:
        body = text.rstrip()
        wrapped = "[" + body.replace("\n", ",") + "]"
        raw = body.encode("utf-8", "surrogatepass")
    if not body:
        raise LogError(1, "empty log: the first line must be a start event")
    outline = raw.translate(None, _NOT_BRACKETS)  # newlines and brackets
    lines = outline.count(b"\n") + 1
    try:
        events = jsonio.loads(wrapped)
    except jsonio.JSONDecodeError:
        events = None
    # A JSON array of one object a line; set(map(type, ...)) checks all at C speed.
    if (
        type(events) is list
        and len(events) == lines
        and set(map(type, events)) == _ONLY_DICTS
        and b"}{" not in outline  # (no line holds two objects: see above)
    ):
        _check_depths(events, outline, lines)
        return events
    return _parse_slow(body)


def _check_depths(events: list[dict[str, Any]], outline: bytes, lines: int) -> None:
    """Refuse an event nested deeper than :data:`MAX_DEPTH` (``LogError`` on its line).

    ``outline``: the log's newlines and brackets only, in order; ``compact``, made from
    it, its newlines and opening brackets. A line with ``k`` opening brackets nests at
    most ``k + 1`` levels (its innermost values count), so only a line holding
    ``MAX_DEPTH`` of them or more can be too deep. Each line holds at least one (its
    object), so if the whole text has fewer than ``lines + MAX_DEPTH - 1``, no line
    can: a length settles the usual log without looking at any event, and so does a
    substring search when no line holds that many (``[`` is a ``{`` in ``compact``: a
    run of ``MAX_DEPTH`` of them, at C speed). Otherwise a regular expression finds the
    lines holding that many (a Casino or UNO deal at four players) in ``compact``.

    Such a line is judged by its outline before its event is walked: its real brackets
    (those outside strings) are balanced, so a container ``MAX_DEPTH`` deep has
    ``MAX_DEPTH`` openers up to its own and ``MAX_DEPTH`` closers from its own on, and
    a bracket in a string only adds to what the outline shows. A line whose outline has
    no such place (:data:`_DEEP_SHAPE` does not match from its start: a deal, whose
    hands are side by side) is deep enough; any other event is walked, knowing its
    line's count (the length of the run: :func:`check_depth` stops early). The line's
    start in the outline, without a walk over the lines before it: when each of them
    holds as many closers as openers (the usual log: no bracket in a string), its start
    in ``compact`` plus the openers before it; that guess is checked by the newlines
    before it (counted as we go), and a line whose guess is wrong is walked.
    (At four players this takes 5% off the Casino benchmark's replay, which walked
    every deal.)
    """
    compact = outline.translate(_OPENERS_AS_BRACES, b"}]")
    openers = len(compact) - (lines - 1)
    if openers - lines < MAX_DEPTH - 1 or _DEEP_RUN not in compact:
        return
    # Each line's opening brackets are a run between newlines, and a run of MAX_DEPTH or
    # more is such a line (its number: the newlines before it, counted as we go).
    line = start = 0
    at = newlines = 0  # a place in the outline, and the newlines before it
    for match in _DEEP_LINE.finditer(compact):
        line += compact.count(b"\n", start, match.start())
        start = match.start()
        guess = 2 * start - line  # start - line openers before it, as many closers
        if guess >= at:
            newlines += outline.count(b"\n", at, guess)
            at = guess
            if newlines == line and (guess == 0 or outline[guess - 1] == 10):  # (a newline)
                end = outline.find(b"\n", guess)
                if not _may_nest_too_deep(outline[guess:end] if end >= 0 else outline[guess:]):
                    continue
        check_depth(events[line], line + 1, match.end() - start)


@functools.lru_cache(maxsize=64)
def _may_nest_too_deep(shape: bytes) -> bool:
    """Whether a line whose outline is ``shape`` has ``MAX_DEPTH`` openers before
    ``MAX_DEPTH`` closers (:data:`_DEEP_SHAPE`). Cached: a log's deep lines have a few
    shapes (a deal's: as many hands as players), and a lookup costs a fifth of a match."""
    return _DEEP_SHAPE.match(shape) is not None


def check_depth(event: Any, line: int, openers: int | None = None) -> None:
    """Raise ``LogError(line)`` if ``event`` nests deeper than :data:`MAX_DEPTH` (a walk
    a level at a time that stops at the limit, so any input is safe to check).

    ``openers``, if given: the number of opening brackets on the event's line, at least
    its number of containers (a bracket in a string is counted too). Then the walk stops
    as soon as it proves the rest shallow enough: a path through the ``seen``
    containers of the first ``depth`` levels goes on through at most
    ``openers - seen`` more, so nothing is too deep while ``depth + openers - seen``
    is under :data:`MAX_DEPTH`. (A deal holding a list of cards a player is settled
    once the lists are counted, without looking into them.)"""
    # Only containers are walked (a value inside a container at MAX_DEPTH, scalar or
    # not, is one level too deep), so a deal's card codes cost no step.
    level = [event] if type(event) is dict or type(event) is list else []
    seen = depth = len(level)
    while level:
        if openers is not None and depth + openers - seen < MAX_DEPTH:
            return
        if depth >= MAX_DEPTH:
            if any(level):  # a container at MAX_DEPTH holding anything
                raise LogError(line, f"nested too deeply (events nest at most {MAX_DEPTH} levels)")
            return
        below: list[Any] = []
        for value in level:
            children = value.values() if type(value) is dict else value
            # (a container of scalars only, such as a hand of cards, is settled at C speed)
            if not _SCALARS.issuperset(map(type, children)):
                below += [v for v in children if type(v) is dict or type(v) is list]
        level = below
        seen += len(below)
        depth += 1


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

"""iCalendar (RFC 5545) text from plain data: no Django, no dependency.

:func:`render_calendar` writes one ``VCALENDAR`` with a ``VEVENT`` per
:class:`CalendarEvent`. The rules it keeps (and the tests check):

* lines end with CRLF, also the last one;
* content lines longer than 75 octets (UTF-8) are folded: CRLF and one space, never
  inside a multi-byte character, so every physical line is at most 75 octets;
* TEXT values (``SUMMARY``, ``DESCRIPTION``, ``LOCATION``, the calendar name) escape
  backslash, semicolon, comma and newlines (``\\\\``, ``\\;``, ``\\,``, ``\\n``); the
  ``URL`` is a URI and is written as it is (without line breaks);
* every event has ``UID``, ``DTSTAMP`` (the ``now`` given, UTC) and ``DTSTART``; a
  :class:`datetime.date` is an all-day value (``;VALUE=DATE``) and its ``DTEND`` is the
  day after the last day (exclusive, as the RFC says); a datetime is written in UTC
  (``...Z``), a naive one is taken as UTC.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass

CRLF = "\r\n"
MAX_OCTETS = 75
PRODID = "-//TOCK tournaments//Calendar//EN"


@dataclass(frozen=True)
class CalendarEvent:
    """One ``VEVENT``. ``end`` is exclusive (for dates: the day after the last day);
    ``None`` leaves ``DTEND`` out. ``status``: ``CONFIRMED``, ``TENTATIVE`` or
    ``CANCELLED`` (or ``None``)."""

    uid: str
    summary: str
    start: dt.date | dt.datetime
    end: dt.date | dt.datetime | None = None
    url: str = ""
    description: str = ""
    location: str = ""
    status: str | None = None


def escape_text(value: str) -> str:
    """A TEXT property value (RFC 5545 3.3.11)."""
    return (
        value.replace("\\", "\\\\")
        .replace(";", "\\;")
        .replace(",", "\\,")
        .replace("\r\n", "\\n")
        .replace("\r", "\\n")
        .replace("\n", "\\n")
    )


def fold_line(line: str) -> str:
    """``line`` folded at 75 octets (RFC 5545 3.1), without its final CRLF: every piece
    after the first starts with a space, and no UTF-8 character is split."""
    pieces: list[str] = []
    current = ""
    size = 0
    limit = MAX_OCTETS
    for char in line:
        octets = len(char.encode("utf-8"))
        if size + octets > limit:
            pieces.append(current)
            current, size, limit = " ", 1, MAX_OCTETS
        current += char
        size += octets
    pieces.append(current)
    return CRLF.join(pieces)


def format_value(value: dt.date | dt.datetime) -> tuple[str, str]:
    """(parameters, value) of a DATE or DATE-TIME: ``(";VALUE=DATE", "20260110")`` or
    ``("", "20260110T183000Z")`` (UTC)."""
    if isinstance(value, dt.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(dt.UTC)
        return "", value.strftime("%Y%m%dT%H%M%SZ")
    return ";VALUE=DATE", value.strftime("%Y%m%d")


def _one_line(value: str) -> str:
    return value.replace("\r", "").replace("\n", "")


def _event_lines(event: CalendarEvent, stamp: str) -> list[str]:
    lines = [
        "BEGIN:VEVENT",
        f"UID:{_one_line(event.uid)}",
        f"DTSTAMP:{stamp}",
    ]
    params, value = format_value(event.start)
    lines.append(f"DTSTART{params}:{value}")
    if event.end is not None:
        params, value = format_value(event.end)
        lines.append(f"DTEND{params}:{value}")
    lines.append(f"SUMMARY:{escape_text(event.summary)}")
    if event.description:
        lines.append(f"DESCRIPTION:{escape_text(event.description)}")
    if event.location:
        lines.append(f"LOCATION:{escape_text(event.location)}")
    if event.url:
        lines.append(f"URL:{_one_line(event.url)}")
    if event.status:
        lines.append(f"STATUS:{event.status}")
    lines.append("END:VEVENT")
    return lines


def render_calendar(
    *,
    events: Iterable[CalendarEvent],
    now: dt.datetime,
    name: str = "",
    prodid: str = PRODID,
) -> str:
    """The calendar as text (CRLF line endings, folded lines). ``now`` is every event's
    ``DTSTAMP`` (when this copy was made)."""
    stamp = format_value(now if isinstance(now, dt.datetime) else dt.datetime.now(dt.UTC))[1]
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        f"PRODID:{_one_line(prodid)}",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
    ]
    if name:
        lines.append(f"X-WR-CALNAME:{escape_text(name)}")
    for event in events:
        lines.extend(_event_lines(event, stamp))
    lines.append("END:VCALENDAR")
    return "".join(fold_line(line) + CRLF for line in lines)

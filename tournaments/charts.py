"""The rating history chart of the player page, drawn by the server as inline SVG.

Pure presentation over the rating changes a selector already read
(:func:`ratings.selectors.player_rating_histories`): no query, no JavaScript, no
library. The x axis is the order of the games (one step per game, so games of the same
day do not pile up), labelled with the date where it changes; the y axis is the rating,
with round ticks. Each game is a point with a ``<title>`` (the browser's tooltip: date,
game, rating change); the template also prints the same data as a table, for screen
readers and for anyone who prefers numbers.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils import formats, timezone
from django.utils.translation import gettext as _

#: The drawing's coordinate system (the SVG scales to the page's width).
WIDTH = 400
HEIGHT = 220
LEFT, RIGHT, TOP, BOTTOM = 44, 10, 10, 30
#: Most date labels on the x axis (more would collide on a phone).
MAX_DATE_TICKS = 4


@dataclass(frozen=True)
class Tick:
    at: float  # position along the axis, in drawing units
    label: str
    anchor: str = "middle"  # SVG text-anchor: labels near an edge stay inside


@dataclass(frozen=True)
class ChartPoint:
    x: float
    y: float
    game_id: int
    date: dt.datetime | None
    before: float
    after: float

    @property
    def change(self) -> float:
        return self.after - self.before

    @property
    def title(self) -> str:
        """The tooltip: date, game and rating change."""
        return _("%(date)s · game %(game)d · %(before)d → %(after)d (%(change)+d)") % {
            "date": _date_label(self.date),
            "game": self.game_id,
            "before": round(self.before),
            "after": round(self.after),
            "change": round(self.change),
        }


@dataclass(frozen=True)
class RatingChart:
    width: int
    height: int
    left: int
    right: int  # x of the plot's right edge
    top: int
    bottom: int  # y of the plot's bottom edge (the x axis)
    points: list[ChartPoint]
    x_ticks: list[Tick]
    y_ticks: list[Tick]
    polyline: str
    low: float
    high: float
    first_date: dt.datetime | None
    last_date: dt.datetime | None


def _date_label(value: dt.datetime | dt.date | None) -> str:
    if value is None:
        return _("undated")
    if isinstance(value, dt.datetime) and timezone.is_aware(value):
        value = timezone.localtime(value)
    return formats.date_format(value, "SHORT_DATE_FORMAT")


def _nice_step(span: float, ticks: int = 4) -> float:
    """A round step (1, 2, 2.5 or 5 times a power of ten) giving about ``ticks`` ticks."""
    raw = max(span, 1.0) / ticks
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 2.5, 5, 10):
        if factor * power >= raw:
            return factor * power
    return 10 * power  # pragma: no cover (the loop always returns)


def rating_chart(
    history: Sequence[Mapping[str, Any]], *, date_key: str = "date"
) -> RatingChart | None:
    """The chart of one kind's rating changes in order (each with ``game_id``,
    ``before``, ``after`` and the game's date under ``date_key``); ``None`` without any.
    The line starts at the rating before the first game (no point there)."""
    if not history:
        return None
    values = [float(history[0]["before"])] + [float(h["after"]) for h in history]
    step = _nice_step(max(values) - min(values))
    low = math.floor(min(values) / step) * step
    high = math.ceil(max(values) / step) * step
    if high == low:
        low, high = low - step, high + step
    right, bottom = WIDTH - RIGHT, HEIGHT - BOTTOM
    dx = (right - LEFT) / len(history)

    def y_of(value: float) -> float:
        return round(bottom - (value - low) / (high - low) * (bottom - TOP), 1)

    points = [
        ChartPoint(
            x=round(LEFT + dx * (i + 1), 1),
            y=y_of(float(h["after"])),
            game_id=int(h["game_id"]),
            date=h.get(date_key),
            before=float(h["before"]),
            after=float(h["after"]),
        )
        for i, h in enumerate(history)
    ]
    line = [(float(LEFT), y_of(values[0]))] + [(p.x, p.y) for p in points]
    y_ticks = []
    value = low
    while value <= high + step / 1000:
        y_ticks.append(Tick(at=y_of(value), label=f"{value:g}"))
        value += step
    return RatingChart(
        width=WIDTH,
        height=HEIGHT,
        left=LEFT,
        right=right,
        top=TOP,
        bottom=bottom,
        points=points,
        x_ticks=_date_ticks(points),
        y_ticks=y_ticks,
        polyline=" ".join(f"{x:g},{y:g}" for x, y in line),
        low=min(values),
        high=max(values),
        first_date=points[0].date,
        last_date=points[-1].date,
    )


def _date_ticks(points: list[ChartPoint]) -> list[Tick]:
    """A label at the first game of each day, thinned to at most MAX_DATE_TICKS evenly
    chosen ones (the first day always labelled)."""
    firsts: list[ChartPoint] = []
    seen: set[Any] = set()
    for p in points:
        day = _date_label(p.date)
        if day not in seen:
            seen.add(day)
            firsts.append(p)
    if len(firsts) > MAX_DATE_TICKS:
        stride = (len(firsts) - 1) / (MAX_DATE_TICKS - 1)
        firsts = [firsts[round(i * stride)] for i in range(MAX_DATE_TICKS)]

    def anchor(x: float) -> str:
        if x > WIDTH - RIGHT - 36:
            return "end"
        return "start" if x < LEFT + 36 else "middle"

    return [Tick(at=p.x, label=_date_label(p.date), anchor=anchor(p.x)) for p in firsts]

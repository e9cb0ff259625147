"""The score sheet's pad (issue 22): one line per hand or round of a score-sheet game
(UNO's ``hand``, Casino's ``round``; start event ``"sheet": true``), entered on one
phone screen by taps, then checked by the engine like any event.

A kind's presenter describes its line as a :class:`SheetForm` (``sheet_form``): the
event every line starts from (``base``) and the rows of the pad. Each row sets one
place of the event, and nothing here knows a game's rules (the engine judges the
line, with its one-line reason):

* ``choice``: one of ``options`` (value, words); the chosen value is written at
  ``path`` -- or, with ``award``, ``award`` is written at ``path`` with ``{}``
  replaced by the chosen value ("the player who gets the 3 points for cards"); an
  empty value (``none_label``: "nobody") writes nothing;
* ``number``: a whole number typed on the pad, written at ``path``.

Paths are dotted (``scores.ann.aces``). :func:`build_sheet_event` builds the event from
posted fields (the page without JavaScript, and the server's check); ``static/js/
sheet.js`` builds the same event in the browser from the same description (the
form's ``data-base`` and each input's ``data-path``/``data-award``) and keeps it on the
Record button's ``data-event``, so score.js sends it like any tap.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from games.errors import MalformedInput

#: Longest number typed on the pad (digits).
MAX_DIGITS = 6


@dataclass(frozen=True)
class SheetRow:
    kind: str  # "choice" | "number"
    name: str
    label: str
    path: str
    options: Sequence[tuple[str, str]] = ()
    award: Any = None
    none_label: str = ""
    #: a small count (an ace count 0-4): shown with the others under the form's
    #: ``counts_title``, one small picker each, its value written as a number
    compact: bool = False
    #: short words for the row, shown beside its buttons on a phone (the label is the
    #: accessible name)
    short: str = ""


@dataclass(frozen=True)
class SheetForm:
    base: dict[str, Any]
    rows: Sequence[SheetRow] = field(default_factory=tuple)
    title: str = ""
    #: the heading of the compact rows (shown together, one small picker each: the
    #: players' aces)
    counts_title: str = ""

    @property
    def wide_rows(self) -> list[SheetRow]:
        return [r for r in self.rows if not r.compact]

    @property
    def count_rows(self) -> list[SheetRow]:
        return [r for r in self.rows if r.compact]

    @property
    def base_json(self) -> str:
        return json.dumps(self.base, separators=(",", ":"), ensure_ascii=False)


def _set(event: dict[str, Any], path: str, value: Any) -> None:
    keys = path.split(".")
    here = event
    for key in keys[:-1]:
        here = here.setdefault(key, {})
    here[keys[-1]] = value


def build_sheet_event(form: SheetForm, posted: Mapping[str, str]) -> dict[str, Any]:
    """The line's event from the posted fields (see the module). A choice outside its
    options or a number that is not one: :class:`MalformedInput` (400) naming the row;
    a row left empty writes nothing (the engine then names what is missing)."""
    event = copy.deepcopy(form.base)
    for row in form.rows:
        value = (posted.get(row.name) or "").strip()
        if not value:
            continue
        if row.kind == "choice":
            if value not in {v for v, _label in row.options}:
                raise MalformedInput(
                    _("%(row)s: choose one of the offered answers.") % {"row": row.label}
                )
            if row.award is not None:
                _set(event, row.path.format(value), row.award)
            else:
                _set(event, row.path, int(value) if value.isdigit() and row.compact else value)
        else:
            if not (value.isascii() and value.isdigit() and len(value) <= MAX_DIGITS):
                raise MalformedInput(_("%(row)s: a whole number.") % {"row": row.label})
            _set(event, row.path, int(value))
    return event

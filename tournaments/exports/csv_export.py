"""CSV text for the exports: UTF-8, a header row, CRLF rows (RFC 4180), and safe to open
in a spreadsheet.

Formula injection: a text cell starting with ``=``, ``+``, ``-``, ``@`` (or a tab or
carriage return, which some spreadsheets skip before reading a formula) gets a leading
apostrophe, so a player named ``=HYPERLINK(...)`` is shown as text, never evaluated.
Numbers are written as numbers (a negative number is not text and stays as it is).
Booleans are ``true``/``false``, ``None`` an empty cell.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from typing import Any

FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> str:
    """One cell as text (see the module's rules)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if value != value:  # NaN
            return ""
        return f"{value + 0.0:.4f}".rstrip("0").rstrip(".")
    text = str(value)
    if text.startswith(FORMULA_PREFIXES):
        return "'" + text
    return text


def csv_text(*, header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """The whole file: the header row, then one row per item, CRLF line endings."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([csv_cell(h) for h in header])
    for row in rows:
        writer.writerow([csv_cell(v) for v in row])
    return out.getvalue()

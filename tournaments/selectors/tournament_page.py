"""What the public tournament page opens with: the podium of a finished event, the
"find my table" search of a running one, and whether the standings are provisional.

Pure data shaping over what the page's selectors already read
(:func:`~tournaments.selectors.tournament_rounds_detail`,
:func:`~tournaments.selectors.tournament_standings`,
:func:`~tournaments.selectors.round_seat_finder`): no query here, so the page's query
count does not depend on the number of players.
"""

from __future__ import annotations

import functools
import html
import unicodedata
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, NamedTuple

from django.conf import settings
from django.template.defaultfilters import floatformat
from django.utils.formats import get_format
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from games.models import OVER_STATUSES, GameStatus
from tournaments.models import Round, Tournament, TournamentFormat, TournamentStatus
from tournaments.selectors.standings import StandingRow
from tournaments.selectors.tournaments import SeatFinderRow, TableRow
from tournaments.templatetags.tock_web import get_item
from tournaments.templatetags.tock_web import points as points_text

#: Places on the podium.
PODIUM_PLACES = 3
#: Longest search text looked at (a name or a handle is shorter).
MAX_FIND = 60
#: Standings rows the page shows before "show all" (``?standings=all``).
STANDINGS_FIRST = 100
#: Tables of a round the page shows before "show all" (``?tables=all``); "find my
#: table" lists every seated player whatever the size.
TABLES_FIRST = 24


def asked_number(value: str | None) -> int | None:
    """A round number from the query string (``?round=N``); ``None`` when absent or not
    a small positive number (bad input shows the current round, never an error)."""
    text = (value or "").strip()
    if not text.isdigit() or len(text) > 4:
        return None
    return int(text) or None


@functools.lru_cache(maxsize=8192)
def fold(text: str) -> str:
    """``text`` for a forgiving search: case folded ("Weiß" -> "weiss"), accents dropped
    ("José" -> "jose"), spaces collapsed. The page's script folds what is typed the same way
    (``static/js/find-table.js``), so both answer alike. Memoised: the same names are
    folded on every visit of a big event's page."""
    decomposed = unicodedata.normalize("NFKD", text)
    # Every mark (category M), as the script's /\p{M}/u does, not only those with a
    # combining class: both sides must drop the same characters.
    plain = "".join(c for c in decomposed if not unicodedata.category(c).startswith("M"))
    return " ".join(plain.casefold().split())


#: ``html.escape`` memoised: a big event's page escapes the same thousands of names,
#: search texts and places on every visit (bounded, as :func:`fold`).
escape_name = functools.lru_cache(maxsize=8192)(html.escape)

#: ``Decimal`` exponents for 0, 1 and 2 decimal places.
_PLACES = {n: Decimal(1).scaleb(-n) for n in range(3)}
#: Largest number :func:`fixed` formats itself (beyond it, Django's filter).
_FIXED_MAX = 1e15


def fixed(value: Any, places: int, decimal_separator: str) -> str:
    """``value|floatformat:places`` (0 to 2 places) as the template filter prints it in
    the active language, whose decimal separator the caller read once (``get_format``):
    rounded half up from the number's shortest repr, no grouping. The filter itself
    costs some 20 microseconds (a ``Decimal``, then a localised ``number_format`` that
    looks the language's formats up again); the standings print two or three numbers a
    row. Negative numbers, non-finite ones, grouping (``USE_THOUSAND_SEPARATOR``) and
    anything but a float or an int go through the filter."""
    if (
        type(value) not in (float, int)
        or not 0 <= value < _FIXED_MAX
        or places not in _PLACES
        or settings.USE_THOUSAND_SEPARATOR
    ):
        return floatformat(value, places)
    text = str(Decimal(str(value)).quantize(_PLACES[places], ROUND_HALF_UP))
    return text.replace(".", decimal_separator) if places else text


class SeatMatch(NamedTuple):
    """One row of the find-my-table list: where a player sits, the text a search
    matches against (folded display name and handle, as the visitor sees them, so a
    hidden player is found only under the neutral name), whether it matches and the
    translated "Table T · seat S" (translated once per page, not once per row). A named
    tuple: a big round makes a thousand per page."""

    row: SeatFinderRow
    search: str
    shown: bool
    where: str = ""


@dataclass(frozen=True)
class SeatSearch:
    """The answer to ``?find=``: every seated player (the script filters them without
    asking the server), those not matching ``query`` marked not ``shown``."""

    query: str
    rows: list[SeatMatch]
    matches: int


def seat_search(*, rows: list[SeatFinderRow], query: str) -> SeatSearch:
    """Match ``query`` (part of a name or handle, any case, accents optional) against
    the seat finder's rows. An empty query shows everyone."""
    query = " ".join(str(query or "")[:MAX_FIND].split())
    wanted = fold(query)
    where = gettext("Table %(table)s · seat %(seat)s")
    matched = []
    for row in rows:
        search = fold(f"{row.display_name} {row.handle}")
        matched.append(
            SeatMatch(
                row, search, wanted in search, where % {"table": row.table, "seat": row.position}
            )
        )
    return SeatSearch(
        query=query, rows=matched, matches=sum(1 for m in matched if m.shown) if wanted else 0
    )


@dataclass(frozen=True)
class Podium:
    """The winners of a finished event: everyone ranked 1 to 3 (shared ranks share a
    step, so there may be more than three), best first."""

    winners: list[StandingRow]
    rows: list[StandingRow]


def tournament_podium(*, tournament: Tournament, standings: list[StandingRow]) -> Podium | None:
    """The podium of a finished tournament with results; ``None`` otherwise."""
    if tournament.status != TournamentStatus.FINISHED:
        return None
    rows = [r for r in standings if r.rank <= PODIUM_PLACES and r.games and not r.dropped]
    if not rows:
        return None
    return Podium(winners=[r for r in rows if r.rank == rows[0].rank], rows=rows)


@dataclass(frozen=True)
class Provisional:
    """The standings are provisional: tables of the current round are still playing."""

    round_number: int
    unfinished: int
    tables: int


def standings_provisional(*, tournament: Tournament, rounds: list[Round]) -> Provisional | None:
    """Whether the standings may still change within the current round (the newest of
    ``rounds``, prefetched with tables and games): some table's game is not over. A
    finished or cancelled tournament's standings are final."""
    if not rounds or tournament.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
        return None
    current = rounds[0]
    tables = list(current.tables.all())
    unfinished = sum(1 for t in tables if t.game.status not in OVER_STATUSES)
    if not unfinished:
        return None
    return Provisional(round_number=current.number, unfinished=unfinished, tables=len(tables))


def round_provisional(
    *, tournament: Tournament, round: Round | None, statuses: dict[int, str]
) -> Provisional | None:
    """:func:`standings_provisional` from the game status of each table of the current
    ``round`` (:func:`~tournaments.selectors.round_seats`), without its tables."""
    if round is None or tournament.status in (
        TournamentStatus.FINISHED,
        TournamentStatus.CANCELLED,
    ):
        return None
    unfinished = sum(1 for status in statuses.values() if status not in OVER_STATUSES)
    if not unfinished:
        return None
    return Provisional(round_number=round.number, unfinished=unfinished, tables=len(statuses))


def seat_rows_html(*, search: SeatSearch, game_prefix: str) -> SafeString:
    """The find-my-table rows as HTML, built here rather than in the template: a
    1,000-player round has 1,000 rows, and the template engine's per-variable cost
    dominated the page. Markup (kept in step with ``static/js/find-table.js`` and the
    browser tests): ``<li data-search="folded name handle" [hidden]><span
    class="who">Name</span> <a class="where" href="/games/ID/">Table T · seat S</a></li>``.
    Every text is escaped (``html.escape``, as Django's ``escape`` does, without its
    lazy-text wrapper, and memoised: :data:`escape_name`; a round's names, search texts
    and places are the same on every visit)."""
    prefix = html.escape(game_prefix)
    parts = []
    for row, text, shown, where in search.rows:
        parts.append(
            f'<li data-search="{escape_name(text)}"{"" if shown else " hidden"}>'
            f'<span class="who">{escape_name(row.display_name)}</span> '
            f'<a class="where" href="{prefix}{int(row.game_id)}/">{escape_name(where)}</a></li>'
        )
    return mark_safe("".join(parts))  # noqa: S308 - every value escaped above


def _slot(message: str, translated: str, name: str) -> str:
    # A translated label with "%s" where its value goes, as the template's
    # ``{% blocktranslate asvar ... with name="%s" %}`` made it (the untranslated text
    # when a translation lacks the placeholder, as blocktranslate falls back).
    try:
        return translated % {name: "%s"}
    except (KeyError, ValueError):
        return message % {name: "%s"}


def tables_html(*, tables: list[TableRow], game_prefix: str, player_prefix: str) -> SafeString:
    """The shown round's table cards as HTML, built here rather than in the template (as
    :func:`seat_rows_html`; ``?tables=all`` of a big round has 250 cards and 1,000
    seats). Markup: per table ``<li class="card">`` with its title linking to the game,
    the game's status badge, the verified/unverified badge of its result, and an
    ``<ol class="seats">`` of its players (a hidden one unlinked) with their place;
    each card followed by the template's line break. Every text is escaped."""
    table_label = _slot("Table %(number)s", gettext("Table %(number)s"), "number")
    place_label = _slot("#%(place)s", gettext("#%(place)s"), "place")
    badges = {
        "log": f' <span class="badge verified" title="'
        f'{html.escape(gettext("Result derived from the event log"))}">'
        f"{html.escape(gettext('verified'))}</span>",
        "placements": f' <span class="badge unverified" title="'
        f'{html.escape(gettext("Placements only, no event log"))}">'
        f"{html.escape(gettext('unverified'))}</span>",
    }
    status_labels = {value: html.escape(str(label)) for value, label in GameStatus.choices}
    games, players = html.escape(game_prefix), html.escape(player_prefix)
    parts = []
    for number, game_id, status, source, seats in tables:
        status_text = html.escape(str(status))
        parts.append(
            f'<li class="card"><a class="card-title" href="{games}{game_id}/">'
            f"{table_label.replace('%s', str(number), 1)}</a> "
            f'<span class="badge status-{status_text}">{status_labels.get(status, status_text)}'
            f'</span>{badges.get(source, "")}<ol class="seats">'
        )
        for handle, name, masked, place in seats:
            name = html.escape(name)
            parts.append(
                f'<li><span class="muted">{name}</span>'
                if masked
                else f'<li><a href="{players}{html.escape(handle)}/">{name}</a>'
            )
            if place:
                place = html.escape(str(place))
                label = place_label.replace("%s", place, 1)
                parts.append(f' <span class="place place-{place}">{label}</span>')
            parts.append("</li>")
        parts.append("</ol></li>\n          ")
    return mark_safe("".join(parts))  # noqa: S308 - every value escaped above


def standings_rows_html(
    *,
    rows: list[StandingRow],
    tiebreak_keys: set[str],
    show_stage: bool,
    round_numbers: list[int],
    player_prefix: str,
) -> SafeString:
    """The standings table's rows as HTML, built here rather than in the template (as
    :func:`seat_rows_html`): 100 rows of a dozen cells cost the template engine about
    as much as the rest of a big event's page. Markup: one ``<tr>`` per row, cells as
    the table's head announces them (rank, player, points, stage when shown, the
    tiebreak columns the tournament uses, games, a place per round); numbers formatted
    as the template's filters do (``points``, localised ``floatformat``). Every text
    is escaped."""
    dropped_word = escape(gettext("dropped"))
    cut_word, swiss_word = escape(gettext("cut")), escape(gettext("Swiss"))
    prov_title = escape(gettext("Provisional rating"))
    bye_word, bye_title = escape(gettext("bye")), escape(gettext("A bye: sat out this round"))
    late_word, late_title = escape(gettext("late")), escape(gettext("Joined after this round"))
    prefix = escape(player_prefix)
    buchholz, firsts = "buchholz" in tiebreak_keys, "firsts" in tiebreak_keys
    placement_sum, rating = "placement_sum" in tiebreak_keys, "rating" in tiebreak_keys
    opp_pct = "opponents_percentage" in tiebreak_keys
    best, h2h = "best_finish" in tiebreak_keys, "head_to_head" in tiebreak_keys
    parts = []
    separator = get_format("DECIMAL_SEPARATOR")
    for row in rows:
        name = escape_name(row.display_name)
        cells = [
            '<tr class="dropped">' if row.dropped else "<tr>",
            f'<td class="num sticky-1">{row.rank}</td><th class="sticky-2" scope="row">',
            f'<span class="muted">{name}</span>'
            if row.masked
            else f'<a href="{prefix}{escape_name(row.handle)}/">{name}</a>',
            f' <span class="badge">{dropped_word}</span>' if row.dropped else "",
            f'</th><td class="num strong sticky-3">{points_text(row.points)}</td>',
        ]
        if show_stage:
            word = cut_word if row.stage == "elimination" else swiss_word
            cells.append(f'<td class="stage stage-{escape(row.stage)}">{word}</td>')
        if buchholz:
            cells.append(f'<td class="num">{fixed(row.buchholz, 2, separator)}</td>')
        if opp_pct:
            cells.append(
                f'<td class="num">{fixed(row.opponents_percentage * 100, 1, separator)}</td>'
            )
        if firsts:
            cells.append(f'<td class="num">{row.firsts}</td>')
        if placement_sum:
            cells.append(f'<td class="num">{row.placement_sum}</td>')
        if best:
            best_text = "–" if row.best_finish is None else row.best_finish
            cells.append(f'<td class="num">{best_text}</td>')
        if h2h:
            cells.append(f'<td class="num">{_signed(row.head_to_head)}</td>')
        if rating:
            mark = f'<abbr class="prov" title="{prov_title}">?</abbr>' if row.provisional else ""
            cells.append(f'<td class="num">{fixed(row.rating, 0, separator)}{mark}</td>')
        cells.append(f'<td class="num">{row.games}</td>')
        places = row.places or {}
        for n in round_numbers:
            place = get_item(places, n)
            if n in row.byes:
                cells.append(f'<td class="num"><abbr title="{bye_title}">{bye_word}</abbr></td>')
                continue
            if n in row.late:
                cells.append(f'<td class="num"><abbr title="{late_title}">{late_word}</abbr></td>')
                continue
            cells.append(f'<td class="num">{"–" if place is None else escape(place)}</td>')
        cells.append("</tr>")
        parts.append("".join(cells))
    return mark_safe("\n            ".join(parts))  # noqa: S308 - every value escaped above


def _signed(value: int | None) -> str:
    # Head-to-head: "+2", "0", "−1" (a real minus sign); "–" for a row tied with nobody.
    if value is None:
        return "–"
    return f"+{value}" if value > 0 else ("0" if value == 0 else f"−{-value}")


def standings_show_stage(*, tournament: Tournament) -> bool:
    """Whether each standings row says its stage (Swiss or cut): format ``swiss_cut``."""
    return tournament.format == TournamentFormat.SWISS_CUT


__all__ = [
    "STANDINGS_FIRST",
    "TABLES_FIRST",
    "Podium",
    "Provisional",
    "SeatMatch",
    "SeatSearch",
    "asked_number",
    "escape_name",
    "fixed",
    "fold",
    "round_provisional",
    "seat_rows_html",
    "seat_search",
    "standings_provisional",
    "standings_rows_html",
    "standings_show_stage",
    "tables_html",
    "tournament_podium",
]

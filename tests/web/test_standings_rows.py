"""The standings rows of the tournament page, built as HTML in Python
(``tournaments.selectors.tournament_page.standings_rows_html``): escaped, the columns
the tournament uses, numbers as the template's filters print them."""

from __future__ import annotations

import random

import pytest
from django.template.defaultfilters import floatformat
from django.utils import translation
from django.utils.formats import get_format

from tournaments.selectors.standings import StandingRow
from tournaments.selectors.tournament_page import fixed, standings_rows_html


def _rows() -> list[StandingRow]:
    return [
        StandingRow(
            rank=1,
            player_id=1,
            handle="ann",
            display_name='Ann <b>"&"</b>',
            points=7.5,
            games=3,
            firsts=2,
            placement_sum=4,
            buchholz=4.125,
            rating=1523.6,
            provisional=True,
            places={1: 1, 2: 2},
            stage="elimination",
        ),
        StandingRow(
            rank=2,
            player_id=2,
            handle="hidden-2",
            display_name="Hidden player",
            points=3.0,
            games=2,
            dropped=True,
            masked=True,
            provisional=False,
            places={1: 3},
        ),
    ]


def test_every_text_is_escaped_and_rows_carry_their_marks():
    html = str(
        standings_rows_html(
            rows=_rows(),
            tiebreak_keys={"buchholz", "firsts", "placement_sum", "rating"},
            show_stage=True,
            round_numbers=[1, 2],
            player_prefix="/players/",
        )
    )
    first, second = (line.strip() for line in html.split("\n"))
    assert "<b>" not in html and "Ann &lt;b&gt;&quot;&amp;&quot;&lt;/b&gt;" in first
    assert first.startswith('<tr><td class="num sticky-1">1</td>')
    assert '<a href="/players/ann/">' in first
    assert '<td class="num strong sticky-3">7.5</td>' in first
    assert '<td class="stage stage-elimination">cut</td>' in first
    assert '<td class="num">4.13</td><td class="num">2</td><td class="num">4</td>' in first
    prov = '<abbr class="prov" title="Provisional rating">?</abbr>'
    assert f'<td class="num">1524{prov}</td>' in first
    assert first.endswith('<td class="num">3</td><td class="num">1</td><td class="num">2</td></tr>')
    # A masked, dropped player: no link, the badge; a round not played shows a dash.
    assert second.startswith('<tr class="dropped">')
    assert '<span class="muted">Hidden player</span> <span class="badge">dropped</span>' in second
    assert "/players/hidden-2/" not in second and "stage-swiss" in second
    assert second.endswith('<td class="num">3</td><td class="num">–</td></tr>')


def test_only_the_columns_in_use_and_numbers_in_the_language():
    with translation.override("de"):
        html = str(
            standings_rows_html(
                rows=_rows()[:1],
                tiebreak_keys={"buchholz"},
                show_stage=False,
                round_numbers=[1],
                player_prefix="/players/",
            )
        )
    assert "4,13" in html  # German decimal comma, as |floatformat prints it
    assert "stage-" not in html and "prov" not in html and "1524" not in html
    assert html.count("<td") == 5  # rank, points, Opp. avg., games, round 1


@pytest.mark.parametrize("language", ["en", "de", "es"])
def test_numbers_are_printed_as_the_floatformat_filter_prints_them(language):
    rng = random.Random(26)
    values = [0, 0.0, 1, 0.005, 0.015, 2.675, 4.125, 1523.5, 1524.5, 99.95, 1e-9, 12345678.9]
    values += [rng.uniform(0, 10) for _ in range(300)] + [
        rng.uniform(800, 2500) for _ in range(300)
    ]
    values += [round(rng.uniform(0, 10), 3) for _ in range(300)] + [-1.25, float("nan"), "7"]
    with translation.override(language):
        separator = get_format("DECIMAL_SEPARATOR")
        for value in values:
            for places in (0, 1, 2):
                assert fixed(value, places, separator) == floatformat(value, places), value

"""``{% game_rulings_section game %}``: the referees' rulings of a game, for its page.

Each ruled knock with the verdict applied and, for an override of the engine, the
referee's note (rulings are public, see :mod:`tournaments.views_referee`)."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments.selectors.rulings import game_rulings

register = template.Library()


@register.inclusion_tag("games/_rulings.html")
def game_rulings_section(game: Any, summary: Any = None) -> dict[str, Any]:
    """``summary``: the page's presented summary, whose knocks carry the players' names
    as this visitor may see them (hidden players masked), by event number."""
    knocks = {k.get("event"): k for k in (summary or {}).get("knocks") or [] if isinstance(k, dict)}
    rulings = sorted(game_rulings(game=game).values(), key=lambda r: r.sequence)
    return {
        "rulings": [
            {
                "sequence": r.sequence,
                "by": knocks.get(r.sequence, {}).get("by", r.knocker),
                "against": knocks.get(r.sequence, {}).get("against", r.against),
                "correct": r.applied == "correct",
                "override": r.is_override,
                "note": r.note,
                "referee": r.referee.get_username() if r.referee else "",
            }
            for r in rulings
        ]
    }

"""``{% game_rulings_section game %}``: the referees' rulings of a game, for its page;
``{% game_referee_link game %}``: the referee's way to the referee page.

Each ruled knock with the verdict applied and, for an override of the engine, the
referee's note, and each correction of the result after the end (who, the new places,
the note; read from the summary, no query) (rulings are public, see
:mod:`tournaments.views_referee`). The section is a live region of the game page
(:data:`tournaments.game_page.LIVE_REGIONS`), rendered once for every visitor who sees
the game alike, so it depends on nothing of the visitor but what
:func:`~tournaments.selectors.game_view_for` decided (the masked game, the summary); the
link, which depends on the visitor's roles, stays outside it."""

from __future__ import annotations

from typing import Any

from django import template

from games.kinds import rules_in_progress
from games.models import GameStatus
from games.presenters import placements_text
from tournaments.permissions import user_can_referee_game
from tournaments.selectors.privacy import mask_text
from tournaments.selectors.rulings import game_rulings, result_correctable

register = template.Library()


@register.inclusion_tag("games/_referee_link.html", takes_context=True)
def game_referee_link(context: Any, game: Any) -> dict[str, Any]:
    """Referees and organizers of a game in progress whose kind has rulings in play
    (TOCK's knocks), and of any game that has ended with a log (to correct its result),
    get a link to the referee page."""
    request = context.get("request")
    user = getattr(request, "user", None)
    may_rule = game.status == GameStatus.IN_PROGRESS and rules_in_progress(game.kind)
    may_correct = result_correctable(game=game)
    can_referee = (
        (may_rule or may_correct)
        and user is not None
        and user.is_authenticated
        and user_can_referee_game(user=user, game=game)
    )
    return {"game": game, "can_referee": can_referee, "correcting": may_correct and not may_rule}


@register.inclusion_tag("games/_rulings.html", takes_context=True)
def game_rulings_section(context: Any, game: Any, summary: Any = None) -> dict[str, Any]:
    """``summary``: the page's presented summary, whose knocks carry the players' names
    as this visitor may see them (hidden players masked), by event number."""
    view = context.get("view")  # the page's players table: handle -> display name
    names = {row.handle: row.name for row in getattr(view, "rows", None) or []}
    corrections = [
        {
            "sequence": c.get("event"),
            "referee": c.get("referee", ""),
            "places": placements_text(c.get("placements"), names),
            "note": c.get("note", ""),
        }
        for c in (summary or {}).get("corrections") or []
        if isinstance(c, dict)
    ]
    knocks = {k.get("event"): k for k in (summary or {}).get("knocks") or [] if isinstance(k, dict)}
    # only knocks a referee ruled on carry a "ruling": no query for a game without any
    ruled = any(k.get("ruling") for k in knocks.values())
    rulings = sorted(game_rulings(game=game).values(), key=lambda r: r.sequence) if ruled else []
    # the knock rulings (a correction is listed above from the log; a decision on a
    # proposed result is the log's end event and the rulings page's)
    rulings = [r for r in rulings if not (r.is_correction or r.is_proposal)]
    return {
        "game": game,
        "corrections": corrections,
        "rulings": [
            {
                "sequence": r.sequence,
                "by": knocks.get(r.sequence, {}).get("by", r.knocker),
                "against": knocks.get(r.sequence, {}).get("against", r.against),
                "correct": r.applied == "correct",
                "override": r.is_override,
                # hidden players' names as this visitor may see them (privacy.name_texts)
                "note": mask_text(r.note, getattr(game, "privacy_texts", None) or {}),
                "referee": r.referee.get_username() if r.referee else "",
            }
            for r in rulings
        ],
    }

"""Template tags of the organizer pages: whether the visitor organizes a league or a
tournament (to show the "New tournament" and "Organize" links). No query for anonymous
visitors; the pages' own views stay unchanged."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments.permissions import (
    user_can_manage_league,
    user_can_manage_tournament,
    user_is_signed_in,
)

register = template.Library()


@register.simple_tag(takes_context=True)
def organizes_league(context: Any, league: Any) -> bool:
    """Whether the signed-in visitor may create tournaments in ``league``."""
    user = getattr(context.get("request"), "user", None)
    return user_is_signed_in(user=user) and user_can_manage_league(user=user, league=league)


@register.simple_tag(takes_context=True)
def organizes_tournament(context: Any, tournament: Any) -> bool:
    """Whether the signed-in visitor organizes ``tournament`` (its league's organizers too)."""
    user = getattr(context.get("request"), "user", None)
    return user_is_signed_in(user=user) and user_can_manage_tournament(
        user=user, tournament=tournament
    )

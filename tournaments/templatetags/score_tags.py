"""Template tags of the scorekeeper's page: ``{% load score_tags %}``.

``{% user_may_record game as may_record %}`` -- whether the visitor may record the game
(:func:`tournaments.permissions.user_can_record_game`): the game page shows the link to
``/games/<pk>/score/`` only then. No query for anonymous visitors."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments.permissions import user_can_record_game, user_is_signed_in, user_plays_in_game

register = template.Library()


@register.simple_tag(takes_context=True)
def user_may_record(context: template.Context, game: Any) -> bool:
    request = context.get("request")
    user = getattr(request, "user", None)
    if game is None or user is None or not user_is_signed_in(user=user):
        return False
    return user_can_record_game(user=user, game=game)


@register.simple_tag(takes_context=True)
def user_may_report(context: template.Context, game: Any) -> bool:
    """Whether the visitor plays in ``game`` (a tournament game without a log and
    without a result): the game page then links to the table's report page."""
    request = context.get("request")
    user = getattr(request, "user", None)
    if game is None or user is None or not user_is_signed_in(user=user):
        return False
    if game.last_sequence or game.placements is not None or game.is_over:
        return False
    return user_plays_in_game(user=user, game=game)


@register.simple_tag(takes_context=True)
def my_registration_for(context: template.Context, tournament: Any) -> Any:
    """The visitor's own registration in ``tournament`` (sign up, waitlist, withdraw):
    :func:`tournaments.selectors.signup.my_registration`."""
    from tournaments.selectors.signup import my_registration

    request = context.get("request")
    return my_registration(tournament=tournament, user=getattr(request, "user", None))


@register.inclusion_tag("games/_call_box.html", takes_context=True)
def game_call_box(context: template.Context, game: Any) -> dict[str, Any]:
    """ "Call a referee" for the table's players and staff (signed in): the form, or the
    state of the table's call (waiting since..., a referee on the way)."""
    from tournaments.selectors.calls import game_open_call

    request = context.get("request")
    user = getattr(request, "user", None)
    shown = bool(
        game is not None
        and user is not None
        and user_is_signed_in(user=user)
        and getattr(game, "pk", None)
        and (user_plays_in_game(user=user, game=game) or user_can_record_game(user=user, game=game))
    )
    return {
        "shown": shown,
        "game": game,
        "call": game_open_call(game=game) if shown else None,
        "request": request,
        "csrf_token": context.get("csrf_token"),
    }


@register.simple_tag(takes_context=True)
def my_tables_now(context: template.Context, tournament: Any = None) -> Any:
    """The visitor's tables in running rounds ("my table now"):
    :func:`tournaments.selectors.signup.my_tables`."""
    from tournaments.selectors.signup import my_tables

    request = context.get("request")
    return my_tables(user=getattr(request, "user", None), tournament=tournament or None)

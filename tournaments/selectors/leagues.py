"""Leagues: lists, the visible league, and the league page/API data."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from django.db.models import Q, QuerySet

from ratings.selectors import LeaderboardEntry, top_ratings
from tournaments.errors import NotFound
from tournaments.models import League, Player
from tournaments.permissions import user_can_manage_league, user_is_signed_in, user_is_superuser
from tournaments.selectors.privacy import hidden_handle, hidden_label, viewer_player_id


@dataclass(frozen=True)
class LeagueDetail:
    """A league with its best-rated players (for the API)."""

    slug: str
    name: str
    kind: str
    description: str
    is_public: bool
    top_ratings: list[LeaderboardEntry]


def league_list(*, user: Any = None) -> QuerySet[League]:
    """Public leagues, plus those the user organizes (all for superusers)."""
    qs = League.objects.all()
    if user_is_superuser(user=user):
        return qs
    if user_is_signed_in(user=user):
        return qs.filter(Q(is_public=True) | Q(organizers=user)).distinct()
    return qs.filter(is_public=True)


def league_get_visible(*, slug: str, user: Any) -> League:
    """The league with ``slug`` if the user may see it (public, or organizer), else NotFound."""
    league = league_list(user=user).filter(slug=slug).first()
    if league is None:
        raise NotFound()
    return league


def league_top_ratings_shown(
    *, league: League, user: Any = None, limit: int = 10
) -> list[LeaderboardEntry]:
    """The league's best ratings, hidden players under their neutral names (unless the
    user is a superuser, the league's organizer or the player). 1 query (the hidden
    flag comes with the ratings), plus the organizer check when someone is hidden."""
    registered = Player.objects.filter(registrations__tournament__league=league).values("pk")
    entries = top_ratings(kind=league.kind, player_ids=registered, limit=limit)
    hidden = {e.handle: e.player_id for e in entries if e.hidden}
    if not hidden or user_is_superuser(user=user):
        return entries
    if user_can_manage_league(user=user, league=league):
        return entries
    own = viewer_player_id(user=user)
    return [
        replace(
            e,
            handle=hidden_handle(player_id=hidden[e.handle]),
            display_name=hidden_label(player_id=hidden[e.handle]),
        )
        if e.handle in hidden and hidden[e.handle] != own
        else e
        for e in entries
    ]


def league_detail(*, slug: str, user: Any, limit: int = 10) -> LeagueDetail:
    """The visible league with its ``limit`` best ratings (hidden players under their
    neutral names). 3 queries."""
    league = league_get_visible(slug=slug, user=user)
    return LeagueDetail(
        slug=league.slug,
        name=league.name,
        kind=league.kind,
        description=league.description,
        is_public=league.is_public,
        top_ratings=league_top_ratings_shown(league=league, user=user, limit=limit),
    )

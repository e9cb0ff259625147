"""Leagues: lists, the visible league, and the league page/API data."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Q, QuerySet

from ratings.selectors import LeaderboardEntry, league_top_ratings
from tournaments.errors import NotFound
from tournaments.models import League
from tournaments.permissions import user_is_signed_in, user_is_superuser


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


def league_get(*, slug: str) -> League:
    try:
        return League.objects.get(slug=slug)
    except League.DoesNotExist as exc:
        raise NotFound() from exc


def league_get_visible(*, slug: str, user: Any) -> League:
    """The league with ``slug`` if the user may see it (public, or organizer), else NotFound."""
    league = league_list(user=user).filter(slug=slug).first()
    if league is None:
        raise NotFound()
    return league


def league_detail(*, slug: str, user: Any, limit: int = 10) -> LeagueDetail:
    """The visible league with its ``limit`` best ratings. 2 queries."""
    league = league_get_visible(slug=slug, user=user)
    return LeagueDetail(
        slug=league.slug,
        name=league.name,
        kind=league.kind,
        description=league.description,
        is_public=league.is_public,
        top_ratings=league_top_ratings(league=league, limit=limit),
    )

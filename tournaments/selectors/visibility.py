"""Who may see which tournament, as a query filter: the one place that says it.

Public tournaments of public leagues are visible to everyone; private ones (or those of
private leagues) to their staff (any tournament role, the league's organizers) and to
superusers -- the same rule as :func:`tournaments.permissions.user_can_view_tournament`,
here as a :class:`~django.db.models.Q` so that lists, seats and games filter in SQL.
"""

from __future__ import annotations

from typing import Any

from django.db.models import BooleanField, Expression, ExpressionWrapper, Q, Value

from tournaments.models import Tournament
from tournaments.permissions import user_is_signed_in, user_is_superuser


def visible_tournaments_q(*, user: Any, prefix: str = "") -> Q:
    """The tournaments ``user`` may see, as a filter.

    ``prefix`` is the lookup path from the filtered model to the tournament, e.g.
    ``"table__round__tournament__"`` for seats (``""`` for tournaments). The filter
    never multiplies rows (staff roles are a subquery), so no ``distinct()`` is needed.
    Superusers get ``Q()`` (everything).
    """
    if user_is_superuser(user=user):
        return Q()
    public = Q(**{f"{prefix}is_public": True, f"{prefix}league__is_public": True})
    if not user_is_signed_in(user=user):
        return public
    staffed = Tournament.objects.filter(Q(roles__user=user) | Q(league__organizers=user))
    return public | Q(**{f"{prefix}pk__in": staffed.values("pk")})


def visible_tournament_expression(*, user: Any, prefix: str = "") -> Expression:
    """:func:`visible_tournaments_q` as a boolean column (for ``annotate``), to tell
    "hidden" from "missing" in the same query."""
    q = visible_tournaments_q(user=user, prefix=prefix)
    if not q:
        return Value(True, output_field=BooleanField())
    return ExpressionWrapper(q, output_field=BooleanField())

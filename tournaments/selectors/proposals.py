"""Reads for proposed results (:class:`~tournaments.models.ResultProposal`): the
referee list's "Proposed results", the score page's pending proposal, the API's."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from games.models import Game, GameStatus, ResultSource
from games.selectors import game_get
from tournaments.errors import NotFound
from tournaments.models import OPEN_STATUSES, Player, ResultProposal, Table, Tournament
from tournaments.permissions import ensure_can_record_game


@dataclass(frozen=True)
class ProposalRow:
    """A proposal as pages and the API show it. ``places``: ``(place, display name,
    handle)`` best first, for the pages."""

    id: int
    game: int
    status: str
    placements: dict[str, int]
    places: list[tuple[int, str, str]]
    sequence: int
    proposed_by: str
    created_at: datetime
    decided_by: str
    decided_at: datetime | None
    note: str
    table: int | None = None
    round: int | None = None
    #: the viewer plays in the game: they may not decide it (no confirm button)
    plays: bool = False
    #: the players' display names in seat order (the referee's replace form)
    seat_names: tuple[str, ...] = ()
    #: "staff" (a scorekeeper stopped live scoring) or "players" (a players' report)
    origin: str = "staff"
    #: a players' report: each version of the placements with who gave it,
    #: ``(names, places)`` (the report's own version first), so a referee sees who said what
    versions: tuple[tuple[tuple[str, ...], tuple[tuple[int, str, str], ...]], ...] = ()


def _row(
    proposal: ResultProposal,
    *,
    names: dict[str, str],
    table: Table | None = None,
    plays: bool = False,
) -> ProposalRow:
    placements = dict(proposal.placements or {})
    places = sorted((v, names.get(h, h), h) for h, v in placements.items())
    return ProposalRow(
        id=proposal.pk,
        game=proposal.game_id,
        status=proposal.status,
        placements=placements,
        places=places,
        sequence=proposal.sequence,
        proposed_by=proposal.proposed_by.get_username() if proposal.proposed_by else "",
        created_at=proposal.created_at,
        decided_by=proposal.decided_by.get_username() if proposal.decided_by else "",
        decided_at=proposal.decided_at,
        note=proposal.note,
        table=table.number if table else None,
        round=table.round.number if table else None,
        plays=plays,
        seat_names=tuple(names.get(h, h) for h in proposal.game.players or ()),
        origin=proposal.origin,
        versions=_versions(proposal, placements, names),
    )


def _versions(
    proposal: ResultProposal, placements: dict[str, int], names: dict[str, str]
) -> tuple[tuple[tuple[str, ...], tuple[tuple[int, str, str], ...]], ...]:
    """The versions of a players' report, the report's own first, each with who gave it."""
    groups: dict[str, tuple[dict[str, int], list[str]]] = {}
    for handle, vote in (proposal.votes or {}).items():
        given = dict(vote.get("placements") or {})
        key = repr(sorted(given.items()))
        groups.setdefault(key, (given, []))[1].append(names.get(handle, handle))
    ordered = sorted(groups.values(), key=lambda g: g[0] != placements)
    return tuple(
        (tuple(who), tuple(sorted((v, names.get(h, h), h) for h, v in given.items())))
        for given, who in ordered
    )


def _names(handles: set[str]) -> dict[str, str]:
    """Display names of the handles (staff pages: real names, as the referee page)."""
    return dict(Player.objects.filter(handle__in=handles).values_list("handle", "display_name"))


def tournament_pending_proposals(*, tournament: Tournament, user: Any) -> list[ProposalRow]:
    """The tournament's proposed results waiting for a referee, oldest first, for its
    referee list (the caller checks the role). ``plays``: ``user`` plays in that game.
    A proposal whose game got a result meanwhile (the round's time up, a correction...)
    is not listed: there is nothing left to confirm."""
    proposals = list(
        ResultProposal.objects.filter(
            tournament=tournament,
            status__in=OPEN_STATUSES,
            game__result_source=ResultSource.NONE,
            game__status__in=[GameStatus.PENDING, GameStatus.IN_PROGRESS],
        )
        .select_related("game", "proposed_by", "decided_by")
        .order_by("created_at", "id")
    )
    if not proposals:
        return []
    tables = {
        t.game_id: t
        for t in Table.objects.filter(game_id__in=[p.game_id for p in proposals]).select_related(
            "round"
        )
    }
    handles = {h for p in proposals for h in (p.game.players or ())}
    names = _names(handles)
    mine: set[str] = set()
    if getattr(user, "is_authenticated", False):
        mine = set(
            Player.objects.filter(user_id=user.pk, handle__in=handles).values_list(
                "handle", flat=True
            )
        )
    return [
        _row(
            p,
            names=names,
            table=tables.get(p.game_id),
            plays=bool(mine & set(p.game.players or ())),
        )
        for p in proposals
    ]


def game_pending_proposal(*, game: Game, names: dict[str, str] | None = None) -> ProposalRow | None:
    """The game's pending proposal (``None`` without one), for the score page (the
    caller checks the role)."""
    proposal = (
        ResultProposal.objects.filter(game=game, status__in=OPEN_STATUSES)
        .select_related("proposed_by", "decided_by")
        .first()
    )
    if proposal is None:
        return None
    return _row(proposal, names=names if names is not None else _names(set(game.players or ())))


def game_proposal_for(*, game_id: Any, user: Any) -> ProposalRow:
    """The game's latest proposal (pending or decided) for whoever may record the game
    (404 for those who may not see it, 403 for other users); :class:`NotFound` when the
    game never had one."""
    game = game_get(game_id=game_id)
    ensure_can_record_game(user=user, game=game)
    proposal = (
        ResultProposal.objects.filter(game=game)
        .select_related("proposed_by", "decided_by")
        .order_by("-created_at", "-id")
        .first()
    )
    if proposal is None:
        raise NotFound()
    return _row(proposal, names={})

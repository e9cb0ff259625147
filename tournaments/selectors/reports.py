"""Reads for the players' reports of a game's result (issue 23;
:mod:`tournaments.services.reports` holds the rules): the report's state as the players,
the table's QR page and the API show it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from games.models import Game
from games.selectors import game_get
from tournaments.errors import NotAllowed, NotFound
from tournaments.models import (
    NoShow,
    Player,
    ProposalOrigin,
    ProposalStatus,
    Registration,
    ResultProposal,
    Table,
)
from tournaments.permissions import user_can_record_game, user_can_view_game, user_is_signed_in
from tournaments.selectors.games import table_for_game


@dataclass(frozen=True)
class ReportState:
    """What the players (and the API) see of a game's report. ``status``: pending,
    disputed, accepted (the result was recorded from it) or rejected (a referee turned
    it down); ``agreed``: handles whose answer is the report's placements; ``waiting``:
    handles still to answer (pending only); ``disputed_by``: handle -> their placements
    (a dispute); ``reporter``: the handle who reported."""

    id: int
    game: int
    status: str
    placements: dict[str, int]
    agreed: list[str]
    waiting: list[str]
    disputed_by: dict[str, dict[str, int]]
    reporter: str
    needed: str


def voters(*, game: Game, table: Table) -> list[str]:
    """The players of the table whose answer counts, in seat order: linked to an
    account, not dropped from the event, not marked absent in the round."""
    players = list(game.players or ())
    linked = set(
        Player.objects.filter(handle__in=players, user__isnull=False).values_list(
            "handle", flat=True
        )
    )
    gone = set(
        Registration.objects.filter(
            tournament_id=table.round.tournament_id, player__handle__in=players, dropped=True
        ).values_list("player__handle", flat=True)
    ) | set(
        NoShow.objects.filter(round_id=table.round_id, player__handle__in=players).values_list(
            "player__handle", flat=True
        )
    )
    return [h for h in players if h in linked and h not in gone]


def report_state(*, proposal: ResultProposal, voters: list[str], rule: str) -> ReportState:
    """The report's state from its answers (pure: no query)."""
    placements = dict(proposal.placements or {})
    votes = dict(proposal.votes or {})
    agreed = [h for h, v in votes.items() if v.get("placements") == placements]
    disputed = {h: v["placements"] for h, v in votes.items() if v.get("placements") != placements}
    waiting = [h for h in voters if h not in votes]
    status = {
        ProposalStatus.CONFIRMED: "accepted",
        ProposalStatus.REJECTED: "rejected",
        ProposalStatus.DISPUTED: "disputed",
    }.get(proposal.status, "pending")
    if status in ("accepted", "rejected"):
        waiting = []
    reporter = next(iter(votes), "")
    return ReportState(
        id=proposal.pk,
        game=proposal.game_id,
        status=status,
        placements=placements,
        agreed=agreed,
        waiting=waiting,
        disputed_by=disputed,
        reporter=reporter,
        needed=rule,
    )


def game_report_for(*, game_id: Any, user: Any) -> ReportState:
    """The game's latest players' report (open or decided), for a player of the game or
    whoever may record it (404 for those who may not see the game, 403 for other users;
    404 when no player ever reported it)."""
    game = game_get(game_id=game_id)
    if not (user_plays(user=user, game=game) or user_can_record_game(user=user, game=game)):
        if not user_can_view_game(user=user, game=game):
            raise NotFound()
        raise NotAllowed(_("Only the table's players and its staff see its report."))
    proposal = (
        ResultProposal.objects.filter(game=game, origin=ProposalOrigin.PLAYERS)
        .order_by("-created_at", "-id")
        .first()
    )
    if proposal is None:
        raise NotFound(_("No player has reported this game's result."))
    table = table_for_game(game=game)
    if table is None:
        raise NotFound()
    return report_state(
        proposal=proposal,
        voters=voters(game=game, table=table),
        rule=table.round.tournament.report_agreement,
    )


def user_plays(*, user: Any, game: Game) -> str | None:
    """The handle of the player ``user`` is linked to, seated in ``game`` (``None``)."""
    if not user_is_signed_in(user=user) or not game.players:
        return None
    return (
        Player.objects.filter(user_id=user.pk, handle__in=list(game.players))
        .values_list("handle", flat=True)
        .first()
    )

"""How a game's derived state is shown on its page, per game kind.

The page itself is kind-independent: seats, players, places, who acts next and the
event log. What only one kind has (TOCK's piles, stocks and center) comes from that
kind's :class:`Presenter`: extra per-player columns and a detail template. A kind
without a presenter still gets the generic page.

Presenters read the engine's ``summary()`` (the ``replay --json`` object, see
``docs/engine-api.md``); they never replay or query anything.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class PlayerRow:
    """One seat of the players table. ``cells`` line up with :attr:`GameView.columns`."""

    position: int
    handle: str
    place: int | None
    to_move: bool
    cells: list[Any] = field(default_factory=list)


@dataclass(frozen=True)
class GameView:
    columns: list[Any]
    rows: list[PlayerRow]
    summary: dict[str, Any]
    detail_template: str | None


class Presenter:
    """The generic presenter: no extra columns, no detail section."""

    columns: tuple[Any, ...] = ()
    detail_template: str | None = None

    def turn(self, summary: dict[str, Any]) -> str | None:
        """Who acts next, as the summary says (``turn``)."""
        return summary.get("turn")

    def cells(self, summary: dict[str, Any], handle: str) -> list[Any]:
        return []


class TockPresenter(Presenter):
    """TOCK: each player's face-up discard (size and top card) and face-down stock;
    the center, the table and the knocks in the detail section."""

    columns = (_("Pile"), _("Top"), _("Stock"))
    detail_template = "games/kinds/tock.html"

    def cells(self, summary: dict[str, Any], handle: str) -> list[Any]:
        pile = (summary.get("piles") or {}).get(handle) or []
        stock = (summary.get("stocks") or {}).get(handle) or []
        return [len(pile), pile[-1] if pile else None, len(stock)]


_PRESENTERS: dict[str, Presenter] = {"tock": TockPresenter()}
_GENERIC = Presenter()


def game_view(*, state: dict[str, Any]) -> GameView:
    """The page model of a game from :func:`games.selectors.game_derived_state`."""
    summary = state.get("summary") or {}
    presenter = _PRESENTERS.get(state.get("kind"), _GENERIC) if summary else _GENERIC
    placements = state.get("placements") or {}
    turn = presenter.turn(summary)
    rows = [
        PlayerRow(
            position=position,
            handle=handle,
            place=placements.get(handle),
            to_move=turn == handle,
            cells=presenter.cells(summary, handle),
        )
        for position, handle in enumerate(state.get("players") or [], start=1)
    ]
    return GameView(
        columns=list(presenter.columns),
        rows=rows,
        summary=summary,
        detail_template=presenter.detail_template,
    )

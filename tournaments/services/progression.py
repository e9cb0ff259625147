"""Progression: the ONLY place that seats rounds and finishes rounds and tournaments.

Services (keyword-only; every one writes a :class:`~tournaments.models.TournamentAudit`
row in the transaction of its change, and raising means nothing was changed):

* :func:`tournament_start` -- seat round 1 (organizers);
* :func:`round_create_next` -- seat the next round by hand (organizers; when automatic
  progression is off);
* :func:`round_progress` -- the automatic step (tasks): when a round is complete, seat
  the next round or elimination stage, or finish the tournament. Idempotent;
* :func:`round_refresh_status` -- finish a round whose tables are all done, and the
  tournament after its final round (:mod:`tournaments.effects` calls it for every
  result change of one of its games, in the transaction of the change);
* :func:`round_reseat`, :func:`round_time_up`, :func:`registration_no_show`,
  :func:`tournament_finish` -- organizer controls;
* :func:`round_progress_from_outbox` (outbox topic :data:`ROUND_PROGRESS`) and
  :func:`progression_sweep` (Celery beat, every minute) -- automatic progression.

Locks: every service locks the tournament row (``SELECT ... FOR UPDATE``) first, then
the round, before reading what it decides on; round numbers are unique per tournament.
So two progressions at once (a task run twice, a retry, the sweep next to the outbox)
create exactly one next round, and two last results at once finish the round.

Formats (``Tournament.format``)
-------------------------------
* **swiss**: ``swiss_rounds`` rounds (the ``rounds`` setting); from round 2 players are
  seated in standings order (points, then the tournament's tiebreaks); the tournament
  finishes with its last round.
* **elimination**: every round is an elimination round: at every table the top
  ``advance`` players advance (a tie at the line, or a table closed without a result,
  is broken by the standings: points, then the tiebreaks); the survivors are seated
  again, until they fit at one table (at most the largest allowed size): that final
  table decides the winner and its end finishes the tournament.
* **swiss_cut**: ``swiss_rounds`` Swiss rounds, then the top ``cut`` of the standings
  (checked-in, not dropped) play an elimination stage as above.

Seating (the algorithm is :func:`tournaments.seating.seat_round`, pure and seeded)
---------------------------------------------------------------------------------
* only checked-in, not dropped players are seated (an elimination round: the survivors
  of the previous round, or the cut, who are not dropped);
* the request carries the players in standings order (round 1: by rating, best first,
  ties in a seeded random order, or shuffled when ``seeding`` is ``random``), their
  points, how often each sat in each position in this event, and the pairs who met;
* table sizes are the tournament's ``table_sizes`` (preferred first) within the game's
  ``min_players``/``max_players`` (:func:`table_size_limits`); a final table seats all
  the finalists;
* the request says how many rounds of its stage are left, this one included
  (``rounds_left``: the Swiss rounds left, or the elimination rounds its players lead
  to): small events choose the tables with the next round in view;
* randomness is seeded by tournament, round number and ``seed``: seating is reproducible.

Rounds get ``deadline = seated + round_minutes`` when the tournament sets a time limit.
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

from django.db import connection, transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext as _

from games.errors import DomainError
from games.models import OVER_STATUSES, Game, ResultSource
from outbox.services import outbox_record
from tock_site.compiled import CompiledQuery
from tournaments.errors import InvalidState
from tournaments.models import (
    OPEN_STATUSES,
    NoShow,
    Registration,
    ResultProposal,
    Round,
    RoundSeating,
    RoundStatus,
    Seat,
    Stage,
    Table,
    Tournament,
    TournamentStatus,
)
from tournaments.permissions import SYSTEM, ensure_can_manage_tournament
from tournaments.services import recording
from tournaments.services.core import audit_write
from tournaments.services.draw import (
    Entrant,
    Standings,
    active_players,
    is_final,
    min_players,
    plan_next,
    round_done,
    round_pending_games,
    seat_tables,
)

logger = logging.getLogger(__name__)

__all__ = [
    "ROUND_PROGRESS",
    "progression_sweep",
    "registration_no_show",
    "round_create_next",
    "round_progress",
    "round_progress_from_outbox",
    "round_refresh_status",
    "round_reseat",
    "round_time_up",
    "tournament_finish",
    "tournament_start",
]

#: Outbox topic recorded when a result completes a round (:func:`round_refresh_status`);
#: payload ``{"round_id": N}``, handled by :func:`round_progress_from_outbox`.
ROUND_PROGRESS = "tournaments.round_progress"

_OVER = (TournamentStatus.FINISHED, TournamentStatus.CANCELLED)


def _tournament_for_update(tournament_id: int) -> Any:
    # The tournament's row only (``of``): its league is read, not locked, so results of
    # the league's other events do not wait for this one's.
    return Tournament.objects.filter(pk=tournament_id).select_for_update(of=("self",))


def _lock_tournament(tournament_id: int) -> Tournament:
    return _tournament_for_update(tournament_id).select_related("league").get()


def _lock_round(
    round_id: int, tournament_id: int | None = None, *, with_done: bool = False
) -> tuple[Tournament, Round]:
    """The tournament's row locked, then the round's. ``with_done``: the round read with
    whether games of it still wait for a result (``round_has_pending``, which
    :func:`~tournaments.services.draw.round_done` answers from), in the same statement
    (a query less per result). That statement's snapshot is as fresh as a query after
    it: it starts once the tournament's lock is held, and the round's row is locked only
    here, always under its tournament's lock, so it waits for nobody.

    With ``with_done`` and the ``tournament_id`` (a result's effects,
    :func:`round_refresh_status`) the two statements go in one round trip
    (:func:`_after_tournament_lock`), the round's reading the tournament and its league
    too: every result of a round waits for this lock, which is held until the result
    commits, so what the holder does meanwhile bounds how many results a second a round
    takes (``bench/bench_event.py``); a round trip more was a wait more for the
    process's interpreter lock, among the other requests' threads."""
    if with_done and tournament_id is not None and _statements_share_a_round_trip():
        with connection.execute_wrapper(_after_tournament_lock(tournament_id)):
            found = _ROUND_WITH_DONE.run(round_id=round_id)
        if not found:
            raise Round.DoesNotExist("Round matching query does not exist.")
        rnd = found[0]
        if rnd.tournament_id != tournament_id:  # a caller's mistake: lock the right one
            return _lock_round(round_id, None, with_done=True)
        return rnd.tournament, rnd
    if tournament_id is None:
        tournament_id = Round.objects.values_list("tournament_id", flat=True).get(pk=round_id)
    tournament = _lock_tournament(tournament_id)  # tournament first, then the round
    rounds = Round.objects.select_for_update(of=("self",))
    if with_done:
        rounds = rounds.annotate(round_has_pending=Exists(round_pending_games(OuterRef("pk"))))
    rnd = rounds.get(pk=round_id)
    rnd.tournament = tournament
    return tournament, rnd


def _round_with_done(*, round_id: int) -> Any:
    rounds = Round.objects.filter(pk=round_id).select_for_update(of=("self",))
    rounds = rounds.select_related("tournament__league").order_by()
    return rounds.annotate(round_has_pending=Exists(round_pending_games(OuterRef("pk"))))[:1]


def _tournament_lock(*, tournament_id: int) -> Any:
    return _tournament_for_update(tournament_id).order_by().values_list("pk")


#: The two statements of a result's round lock (every result of a round sends them),
#: compiled once (:class:`~tock_site.compiled.CompiledQuery`).
_ROUND_WITH_DONE = CompiledQuery(_round_with_done, "round_id")
_TOURNAMENT_LOCK = CompiledQuery(_tournament_lock, "tournament_id")


def _statements_share_a_round_trip() -> bool:
    """Whether the database takes two statements in one query: PostgreSQL through
    psycopg's client-side cursors (Django's default; not with ``server_side_binding``,
    whose prepared statements hold one). SQLite, the embedded mode's, takes one at a
    time: there the lock and the read go one after the other."""
    options = connection.settings_dict.get("OPTIONS") or {}
    return connection.vendor == "postgresql" and not options.get("server_side_binding")


def _after_tournament_lock(tournament_id: int) -> Any:
    """An execute wrapper (``connection.execute_wrapper``) sending, before the query it
    wraps and in the same round trip, the statement that locks the tournament's row
    (``SELECT ... FOR UPDATE``, as :func:`_lock_tournament`); the query's results are
    then read. Two statements of one simple-protocol query (psycopg's client-side
    cursor, Django's default): each has its own snapshot, the second's taken once the
    first holds the lock, so the query reads what the lock's previous holder committed,
    as a query sent after the lock would."""
    lock_sql, lock_params = _TOURNAMENT_LOCK.sql_with_params(tournament_id=tournament_id)

    def execute(run: Any, sql: str, params: Any, many: bool, context: dict[str, Any]) -> Any:
        result = run(f"{lock_sql}; {sql}", (*lock_params, *(params or ())), many, context)
        context["cursor"].nextset()  # past the lock's row, to the query's
        return result

    return execute


def _last_round(tournament: Tournament) -> Round | None:
    return Round.objects.filter(tournament=tournament).order_by("-number").first()


def _deadline(tournament: Tournament) -> dt.datetime | None:
    if not tournament.round_minutes:
        return None
    return timezone.now() + dt.timedelta(minutes=tournament.round_minutes)


def _seat_round(
    tournament: Tournament,
    number: int,
    stage: str,
    players: list[Entrant],
    user: Any,
    seed: Any,
    standings: Standings,
) -> Round:
    if len(players) < min_players(tournament):
        raise InvalidState(
            _("At least %(n)d checked-in players are needed to seat a round.")
            % {"n": min_players(tournament)}
        )
    rnd = Round.objects.create(
        tournament=tournament, number=number, stage=stage, deadline=_deadline(tournament)
    )
    groups = seat_tables(tournament, rnd, players, user, seed, standings)
    if tournament.status != TournamentStatus.RUNNING:
        tournament.status = TournamentStatus.RUNNING
        tournament.save(update_fields=["status"])
    audit_write(
        tournament=tournament,
        user=user,
        round=rnd,
        action="round_seated",
        number=number,
        stage=stage,
        tables=[[p.handle for p in g] for g in groups],
    )
    return rnd


def _finish_tournament(tournament: Tournament, user: Any, rnd: Round | None, **details: Any):
    tournament.status = TournamentStatus.FINISHED
    tournament.save(update_fields=["status"])
    audit_write(tournament=tournament, user=user, round=rnd, action="finished", **details)


# -- services -----------------------------------------------------------------------------


def tournament_start(*, tournament: Tournament, user: Any, seed: Any = None) -> Round:
    """Start the tournament: seat round 1 (organizers, or SYSTEM).

    Rules: the tournament must not have a round yet and not be over (a second start is
    :class:`InvalidState`, 409); at least two checked-in, not dropped players (and the
    game's minimum) are needed; the players must fit the allowed table sizes. The
    tournament becomes ``running``. Audit: ``started`` and ``round_seated``.
    """
    ensure_can_manage_tournament(user=user, tournament=tournament)
    with transaction.atomic():
        tournament = _lock_tournament(tournament.pk)
        if tournament.status in _OVER:
            raise InvalidState(_("The tournament is over."))
        if Round.objects.filter(tournament=tournament).exists():
            raise InvalidState(_("The tournament has already started."))
        standings = Standings(tournament)
        stage, players = plan_next(tournament, None, standings)
        audit_write(tournament=tournament, user=user, action="started", players=len(players))
        return _seat_round(tournament, 1, stage, players, user, seed, standings)


def round_create_next(
    *, tournament: Tournament, user: Any, seed: Any = None, number: int | None = None
) -> Round:
    """Seat the next round by hand (organizers, or SYSTEM): the next Swiss round, the
    elimination stage after the cut, or the next elimination round (see the module
    docstring for the formats and seating rules). Round 1 too (as :func:`tournament_start`).

    ``number`` (for tasks and retries): the round the caller means to seat. If that
    round exists already it is returned unchanged, so a retried or doubled call seats
    exactly one round; if another round is next, :class:`InvalidState`. Without
    ``number``: a last round not finished, a tournament over, all rounds played, too few
    players or a count that cannot be split within the table sizes are
    :class:`InvalidState` (409).
    """
    ensure_can_manage_tournament(user=user, tournament=tournament)
    with transaction.atomic():
        tournament = _lock_tournament(tournament.pk)
        if number is not None:
            existing = Round.objects.filter(tournament=tournament, number=number).first()
            if existing is not None:
                return existing
        if tournament.status in _OVER:
            raise InvalidState(_("The tournament is over."))
        last = _last_round(tournament)
        if last is not None and last.status != RoundStatus.FINISHED:
            raise InvalidState(
                _("Round %(n)d is not finished yet: every table needs a result.")
                % {"n": last.number}
            )
        next_number = (last.number if last else 0) + 1
        standings = Standings(tournament)
        stage, players = plan_next(tournament, last, standings)
        if not stage:
            raise InvalidState(
                _("All %(n)d rounds have been played.") % {"n": last.number if last else 0}
            )
        if number is not None and number != next_number:
            raise InvalidState(
                _("Round %(n)d cannot be seated: the next round is %(next)d.")
                % {"n": number, "next": next_number}
            )
        return _seat_round(tournament, next_number, stage, players, user, seed, standings)


def _refresh(tournament: Tournament, rnd: Round, user: Any) -> bool:
    """Finish ``rnd`` when complete (and the tournament after its final round); whether
    the round was finished just now."""
    finished_now = False
    if rnd.status != RoundStatus.FINISHED:
        if not round_done(rnd):
            return False
        finished_now = True
        rnd.status = RoundStatus.FINISHED
        rnd.save(update_fields=["status"])
        audit_write(
            tournament=tournament, user=user, round=rnd, action="round_finished", number=rnd.number
        )
    if (
        tournament.status == TournamentStatus.RUNNING
        and is_final(tournament, rnd)
        and _last_round(tournament).pk == rnd.pk
    ):
        _finish_tournament(tournament, user, rnd)
    return finished_now


def round_refresh_status(*, round_id: int, tournament_id: int | None = None) -> Round:
    """Finish a round whose tables are all done (a result, or closed without one), and
    the tournament after its final round (the last Swiss round of a Swiss event, the
    final table of an elimination). Idempotent: nothing changes when there is nothing to
    finish; called by :mod:`tournaments.effects` after a result changes, in the
    transaction of the change. Audit: ``round_finished``, ``finished``.

    A round it finishes, of a running tournament with automatic progression, also
    records the outbox message :data:`ROUND_PROGRESS`, so that what comes next is seated
    after commit (a Celery task; the sweep finishes a lost one). ``tournament_id``: the
    round's tournament when the caller knows it (a query less)."""
    # No savepoint: it runs in the result's transaction, and anything it raises ends
    # that transaction anyway.
    with transaction.atomic(savepoint=False):
        tournament, rnd = _lock_round(round_id, tournament_id, with_done=True)
        if (
            _refresh(tournament, rnd, SYSTEM)
            and tournament.status == TournamentStatus.RUNNING
            and tournament.auto_progress
        ):
            outbox_record(topic=ROUND_PROGRESS, payload={"round_id": rnd.pk})
    return rnd


def round_progress(*, round_id: int, seed: Any = None) -> Round | None:
    """The automatic step (tasks; no user check): when round ``round_id`` is complete,
    finish it and seat what comes next -- the next Swiss round, the elimination stage
    after the cut, the next elimination round -- or finish the tournament.

    Idempotent: run twice (at once, or after a retry) it seats exactly one next round
    (locks + the unique round number); a round already followed by another answers
    that next round; an incomplete round, or a tournament that is over or not running,
    answers ``None`` and changes nothing. Returns the round seated (or found).
    Seating problems (too few players left) are :class:`InvalidState`, nothing changed.
    """
    with transaction.atomic():
        tournament, rnd = _lock_round(round_id)
        _refresh(tournament, rnd, SYSTEM)
        if rnd.status != RoundStatus.FINISHED or tournament.status != TournamentStatus.RUNNING:
            return None
        last = _last_round(tournament)
        if last.pk != rnd.pk:
            return Round.objects.filter(tournament=tournament, number=rnd.number + 1).first()
        standings = Standings(tournament)
        stage, players = plan_next(tournament, rnd, standings)
        if not stage:
            _finish_tournament(tournament, SYSTEM, rnd)
            return None
        return _seat_round(tournament, rnd.number + 1, stage, players, SYSTEM, seed, standings)


def round_reseat(*, round: Round, user: Any, seed: Any = None) -> Round:
    """Seat a round again (organizers): its tables and games are replaced, from the
    players who may play it now (a Swiss round: checked-in, not dropped players; an
    elimination round: those seated in it, no-shows included, who are not dropped).

    Only the tournament's last round, while it runs, and only when no table has an
    event or a result (else :class:`InvalidState`). No-shows marked in it are cleared.
    The deadline starts again. Audit: ``round_reseated`` with the new tables.
    """
    ensure_can_manage_tournament(user=user, tournament=round.tournament)
    with transaction.atomic():
        tournament, rnd = _lock_round(round.pk)
        if tournament.status in _OVER or rnd.status != RoundStatus.RUNNING:
            raise InvalidState(_("Only a running round can be seated again."))
        if _last_round(tournament).pk != rnd.pk:
            raise InvalidState(_("Only the last round can be seated again."))
        games = Game.objects.select_for_update().filter(table__round=rnd)
        if any(g.last_sequence or g.result_source != ResultSource.NONE for g in games):
            raise InvalidState(
                _("A table of this round has an event or a result: it cannot be seated again.")
            )
        game_ids = [g.pk for g in games]
        if rnd.stage == Stage.ELIMINATION:
            ids = set(Seat.objects.filter(table__round=rnd).values_list("player_id", flat=True))
            ids |= set(NoShow.objects.filter(round=rnd).values_list("player_id", flat=True))
            players = [
                Entrant(pid, handle)
                for pid, handle in Registration.objects.filter(
                    tournament=tournament, player_id__in=ids, dropped=False
                )
                .order_by("player__handle")
                .values_list("player_id", "player__handle")
            ]
        else:
            players = active_players(tournament)
        if len(players) < min_players(tournament):
            raise InvalidState(
                _("At least %(n)d checked-in players are needed to seat a round.")
                % {"n": min_players(tournament)}
            )
        NoShow.objects.filter(round=rnd).delete()
        RoundSeating.objects.filter(round=rnd).delete()  # seat_tables writes the new one
        Seat.objects.filter(table__round=rnd).delete()
        Table.objects.filter(round=rnd).delete()
        Game.objects.filter(pk__in=game_ids).delete()
        times = tournament.audit.filter(round=rnd, action="round_reseated").count() + 1
        groups = seat_tables(tournament, rnd, players, user, f"{seed}:reseat{times}")
        rnd.deadline = _deadline(tournament)
        rnd.save(update_fields=["deadline"])
        audit_write(
            tournament=tournament,
            user=user,
            round=rnd,
            action="round_reseated",
            tables=[[p.handle for p in g] for g in groups],
        )
    return rnd


def round_time_up(*, round: Round, user: Any) -> Round:
    """End a round whose time is up (organizers, or SYSTEM from the beat task).

    Every unfinished game that has an event gets ``{"type": "end", "reason": "time"}``
    recorded by SYSTEM through the recording choke point (the engine places the players
    from the current state); every game with no event is closed without a result
    (:func:`games.services.game_void`: no points, not rated), except a game whose
    result is proposed or reported and waiting (pending or disputed): it stays on the
    referee list, and the round completes when a referee decides it. The round then completes
    (and progression follows as after any last result). Only a running round
    (:class:`InvalidState`); all or nothing. Audit: ``time_up`` with the games ended and
    voided.
    """
    ensure_can_manage_tournament(user=user, tournament=round.tournament)
    with transaction.atomic():
        tournament, rnd = _lock_round(round.pk)
        if rnd.status != RoundStatus.RUNNING or tournament.status in _OVER:
            raise InvalidState(_("The round is not running."))
        ended, voided, held = [], [], []
        waiting = set(
            ResultProposal.objects.filter(
                game__table__round=rnd, status__in=OPEN_STATUSES
            ).values_list("game_id", flat=True)
        )
        for game in Game.objects.filter(table__round=rnd).order_by("table__number"):
            if game.is_over or game.placements is not None:
                continue
            if game.pk in waiting:  # a proposed or reported result: the referee decides
                held.append(game.pk)
                continue
            if game.last_sequence == 0:
                recording.game_record_void(game=game, user=SYSTEM, within=True)
                voided.append(game.pk)
            else:
                recording.game_record_event(
                    game=game,
                    event={"type": "end", "reason": "time"},
                    expected_sequence=game.last_sequence + 1,
                    user=SYSTEM,
                    within=True,
                )
                ended.append(game.pk)
        audit_write(
            tournament=tournament,
            user=user,
            round=rnd,
            action="time_up",
            ended=ended,
            voided=voided,
            **({"held": held} if held else {}),
        )
        _refresh(tournament, rnd, SYSTEM)
    return rnd


def registration_no_show(*, registration: Registration, round: Round, user: Any) -> NoShow:
    """Mark a seated player as not present (organizers), before their game's first event.

    The game starts without them: it is kept (same id) with the other players in the
    same seat order, one short -- never below the game's minimum: a single player left
    gets a bye (first place, not rated; the game is closed at once). In the standings
    the no-show takes the table's last place (one below its last seat), unrated. The
    registration is checked out, so the player is not seated again until checked in.

    Refused (:class:`InvalidState`): the round is not running, the player is not seated
    in it, the game has an event or a result, or too few would be left for the game.
    Idempotent: marking again returns the same :class:`NoShow`. Audit: ``no_show``.
    """
    tournament = registration.tournament
    ensure_can_manage_tournament(user=user, tournament=tournament)
    if round.tournament_id != tournament.pk:
        raise InvalidState(_("The round is not of this tournament."))
    with transaction.atomic():
        tournament, rnd = _lock_round(round.pk)
        existing = NoShow.objects.filter(round=rnd, player_id=registration.player_id).first()
        if existing is not None:
            return existing
        if rnd.status != RoundStatus.RUNNING:
            raise InvalidState(_("The round is not running."))
        seat = (
            Seat.objects.select_related("table")
            .filter(table__round=rnd, player_id=registration.player_id)
            .first()
        )
        if seat is None:
            raise InvalidState(_("The player is not seated in this round."))
        table = seat.table
        game = Game.objects.select_for_update().get(pk=table.game_id)
        if game.last_sequence or game.result_source != ResultSource.NONE or game.is_over:
            raise InvalidState(_("The game has started: it is too late for a no-show."))
        others = list(
            Seat.objects.filter(table=table)
            .exclude(pk=seat.pk)
            .select_related("player")
            .order_by("position")
        )
        lo = min_players(tournament)
        if 1 < len(others) < lo:
            raise InvalidState(
                _("The table would be left with fewer than %(n)d players.") % {"n": lo}
            )
        seat.delete()
        for pos, other in enumerate(others):
            if other.position != pos:
                Seat.objects.filter(pk=other.pk).update(position=pos)
        no_show = NoShow.objects.create(round=rnd, table=table, player_id=registration.player_id)
        Registration.objects.filter(pk=registration.pk).update(checked_in=False)
        handles = [o.player.handle for o in others]
        if len(others) == 1:
            recording.game_record_bye(game=game, player=handles[0], user=SYSTEM, within=True)
        else:
            recording.game_seat_players(game=game, players=handles, user=user)
        audit_write(
            tournament=tournament,
            user=user,
            round=rnd,
            action="no_show",
            player=registration.player.handle,
            table=table.number,
            bye=handles[0] if len(others) == 1 else None,
        )
    registration.checked_in = False
    return no_show


def tournament_finish(*, tournament: Tournament, user: Any) -> Tournament:
    """End the tournament now (organizers): status ``finished``; a running last round
    is closed as it stands (its tables without a result do not count). A tournament
    already over is :class:`InvalidState`. Audit: ``finished`` with ``early``."""
    ensure_can_manage_tournament(user=user, tournament=tournament)
    with transaction.atomic():
        tournament = _lock_tournament(tournament.pk)
        if tournament.status in _OVER:
            raise InvalidState(_("The tournament is over."))
        last = _last_round(tournament)
        if last is not None and last.status != RoundStatus.FINISHED:
            Round.objects.filter(pk=last.pk).update(status=RoundStatus.FINISHED)
        _finish_tournament(tournament, user, last, early=True)
    return tournament


# -- automatic progression ----------------------------------------------------------------


def _audit_progress_failed(*, tournament: Tournament, rnd: Round, reason: str) -> bool:
    """Audit a refused automatic progression (``progress_failed``), once per distinct
    failure: when the tournament's latest audit row is already a ``progress_failed`` of
    the same round with the same reason, nothing happened since and the failure is the
    same, so nothing is written (the sweep retries every minute; a stuck tournament
    would otherwise gain a row a minute). Any other step in between (a check-in, a
    reseat) or another reason makes the next failure a new one. Whether a row was
    written."""
    latest = tournament.audit.order_by("-at", "-id").values("action", "round_id", "details").first()
    if (
        latest is not None
        and latest["action"] == "progress_failed"
        and latest["round_id"] == rnd.pk
        and (latest["details"] or {}).get("reason") == reason
    ):
        return False
    audit_write(
        tournament=tournament, user=SYSTEM, round=rnd, action="progress_failed", reason=reason
    )
    return True


def round_progress_from_outbox(*, round_id: int) -> None:
    """Outbox handler of :data:`ROUND_PROGRESS`: :func:`round_progress` when the
    tournament's ``auto_progress`` is on. A domain refusal (e.g. too few players left)
    is written to the audit log (``progress_failed``, once per distinct failure:
    :func:`_audit_progress_failed`) instead of being retried forever."""
    row = Round.objects.filter(pk=round_id).values("tournament_id", "tournament__auto_progress")
    row = row.first()
    if row is None or not row["tournament__auto_progress"]:
        return
    try:
        with transaction.atomic():
            round_progress(round_id=round_id)
    except DomainError as exc:
        _audit_progress_failed(
            tournament=Tournament.objects.get(pk=row["tournament_id"]),
            rnd=Round.objects.get(pk=round_id),
            reason=str(exc.message),
        )


def _time_up_has_work(rnd: Round) -> bool:
    """Whether ending ``rnd`` for time would end or void a game: one without a result
    and without a proposed or reported result waiting for a referee (those are held, so
    the sweep does not end the round again every minute while a referee decides)."""
    return (
        Game.objects.filter(table__round=rnd, placements__isnull=True)
        .exclude(status__in=OVER_STATUSES)
        .exclude(proposals__status__in=OPEN_STATUSES)
        .exists()
    )


def progression_sweep(*, now: dt.datetime | None = None) -> list[int]:
    """What Celery beat runs every minute, for running tournaments with automatic
    progression: a last round whose deadline has passed is ended
    (:func:`round_time_up` by SYSTEM); a last round that is complete is progressed
    (:func:`round_progress`: a result whose progression message was lost, a worker
    that died). Returns the ids of the rounds progressed or ended. Each tournament in
    its own transaction; a refusal is audited (``progress_failed``, once per distinct
    failure, not once a minute: :func:`_audit_progress_failed`) and the sweep goes on."""
    now = now or timezone.now()
    touched: list[int] = []
    for tournament in Tournament.objects.filter(
        status=TournamentStatus.RUNNING, auto_progress=True
    ).select_related("league"):
        last = _last_round(tournament)
        if last is None:
            continue
        try:
            with transaction.atomic():
                if (
                    last.status == RoundStatus.RUNNING
                    and last.deadline is not None
                    and last.deadline <= now
                    and _time_up_has_work(last)
                ):
                    round_time_up(round=last, user=SYSTEM)
                    touched.append(last.pk)
                last.refresh_from_db()
                if last.status == RoundStatus.FINISHED or round_done(last):
                    round_progress(round_id=last.pk)
                    if last.pk not in touched:
                        touched.append(last.pk)
        except DomainError as exc:
            logger.warning("progression of round %s refused: %s", last.pk, exc)
            _audit_progress_failed(tournament=tournament, rnd=last, reason=str(exc.message))
    return touched

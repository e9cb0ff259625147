"""Elo ratings per player and game kind, across leagues: the writes.

Rules
    * Everyone starts at 1500 (:data:`ratings.elo.ELO_START`).
    * A game is *rated* when it has a result (log-derived or placements-only), a finish
      time, and at least 2 of its players are known players (handles of
      ``tournaments.Player``; unknown handles are left out). A placements-only result is
      rated unless the league of the game's tournament has ``rate_unverified = False``.
    * ``K`` is the league's ``k_factor``; a friendly game (no table) uses
      :data:`ratings.elo.FRIENDLY_K` (32).
    * Games count in the order they finished, then by id.
    * Fewer than 10 rated games: provisional.

The incremental update (:func:`ratings_update_for_game`, run after a result changes)
applies :func:`ratings.elo.elo_game` to one game when it is the latest rated game of its
kind; otherwise (a game finishing out of order, a changed or withdrawn result) it
recomputes the kind from scratch. Both paths use the same pure function
(:func:`ratings.elo.compute_ratings`) over the same ordered input, so they give
identical numbers; :func:`ratings_recompute` (``manage.py recompute_ratings``) can be
run at any time. Writes of one kind are serialized by locking its :class:`RatingPool`
row. League ``k_factor`` changes apply to past games only after a recompute.

The league's settings (K, ``rate_unverified``) come with the games from the pool
resolver that ``tournaments`` registers (:mod:`ratings.pools`): this app names no model
or field of ``tournaments``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from django.db import connection, transaction
from django.db.models import F, Q, TextField
from django.db.models.functions import Cast
from django.utils import timezone

from games.engine import jsonio
from games.kinds import game_kinds
from games.models import Game, ResultSource
from outbox.changes import RatingsChanged, change_recorded
from ratings.elo import FRIENDLY_K, Computation, RatedGame, compute_ratings
from ratings.models import Rating, RatingChange, RatingPool
from ratings.pools import K_FIELD, UNVERIFIED_FIELD, rating_settings_annotate

BATCH = 5000

__all__ = [
    "compute_ratings",
    "rated_games",
    "ratings_recompute",
    "ratings_update_for_game",
    "ratings_update_for_games",
]


#: Outbox topic (see :mod:`outbox`): bring the ratings up to date with one game's
#: result; payload ``{"game_id": N}``, handled by :func:`ratings_update_for_game`.
RATE_GAME = "ratings.update_for_game"


def _players() -> Any:
    """The player model's manager (``tournaments.Player``, reached through the FK: this
    app does not import ``tournaments``)."""
    return Rating._meta.get_field("player").related_model._default_manager


_GAME_FIELDS = (
    "id",
    "players",
    "placements",
    "result_source",
    "result_version",
    "finished_at",
    K_FIELD,
    UNVERIFIED_FIELD,
)


def _rated(row: dict[str, Any], ids: dict[str, int]) -> RatedGame | None:
    placements = row["placements"]
    if not placements or row["finished_at"] is None:
        return None
    rate_unverified = row[UNVERIFIED_FIELD]
    if row["result_source"] == ResultSource.PLACEMENTS and rate_unverified is False:
        return None
    order = row["players"] or list(placements)
    places = {ids[h]: placements[h] for h in order if h in ids and h in placements}
    if len(places) < 2:
        return None
    k = row[K_FIELD]
    return RatedGame(
        game_id=row["id"],
        finished_at=row["finished_at"],
        result_version=row["result_version"],
        k=FRIENDLY_K if k is None else float(k),
        placements=places,
    )


def _game_rows(kind: str) -> Iterator[dict[str, Any]]:
    """The games of ``kind`` that may be rated, in rating order, as ``_GAME_FIELDS``
    dicts. The two JSON columns are read as text and parsed with orjson where it is
    installed (:mod:`games.engine.jsonio`): the standard library's parser was a third
    of the read of a 100,000-game recompute."""
    games = Game.objects.filter(kind=kind, finished_at__isnull=False).exclude(
        result_source=ResultSource.NONE
    )
    plain = [f for f in _GAME_FIELDS if f not in ("players", "placements")]
    rows = (
        rating_settings_annotate(games)
        .annotate(
            players_text=Cast("players", TextField()),
            placements_text=Cast("placements", TextField()),
        )
        .order_by("finished_at", "id")
        .values_list(*plain, "players_text", "placements_text")
    )
    loads = jsonio.loads
    for *values, players, placements in rows.iterator(chunk_size=BATCH):
        row = dict(zip(plain, values, strict=True))
        row["players"] = loads(players) if players else players
        row["placements"] = loads(placements) if placements else placements
        yield row


def rated_games(*, kind: str) -> Iterator[RatedGame]:
    """Every rated game of ``kind``, in rating order (finish time, then id)."""
    ids = dict(_players().values_list("handle", "id"))
    for row in _game_rows(kind):
        rated = _rated(row, ids)
        if rated is not None:
            yield rated


def _lock_pool(kind: str) -> RatingPool:
    RatingPool.objects.get_or_create(kind=kind)
    return RatingPool.objects.select_for_update().get(kind=kind)


def _insert_changes(kind: str, rows: list[tuple]) -> None:
    """Insert rating changes fast: ``COPY`` on PostgreSQL, else ``executemany``.

    (``bulk_create`` spends ~10x longer building model instances and SQL.)
    """
    meta = RatingChange._meta
    columns = ["player_id", "game_id", "kind", "before", "after", "game_finished_at"]
    columns.append("result_version")
    quote = connection.ops.quote_name
    sql = "INSERT INTO {} ({}) VALUES ({})".format(
        quote(meta.db_table),
        ", ".join(quote(meta.get_field(c.removesuffix("_id")).column) for c in columns),
        ", ".join(["%s"] * len(columns)),
    )
    if connection.vendor == "postgresql":  # COPY: ~10x faster than INSERTs
        copy_sql = "COPY {} ({}) FROM STDIN".format(
            quote(meta.db_table),
            ", ".join(quote(meta.get_field(c.removesuffix("_id")).column) for c in columns),
        )
        with connection.cursor() as cursor, cursor.cursor.copy(copy_sql) as copy:
            for p, g, b, a, f, v in rows:
                copy.write_row((p, g, kind, b, a, f, v))
        return
    adapt = connection.ops.adapt_datetimefield_value
    with connection.cursor() as cursor:
        for start in range(0, len(rows), BATCH):
            cursor.executemany(
                sql,
                [
                    (p, g, kind, b, a, adapt(f), v)
                    for p, g, b, a, f, v in rows[start : start + BATCH]
                ],
            )


#: A recompute writing more rating changes than this (``ratings_recompute`` only) drops
#: the table's secondary indexes and builds them again after the ``COPY`` on PostgreSQL.
INDEX_REBUILD_ROWS = 50_000


@contextlib.contextmanager
def _indexes_rebuilt_after() -> Iterator[None]:
    """PostgreSQL: the rating changes' secondary indexes and unique constraint dropped,
    then built again (sorting once costs about half of keeping four indexes up to date
    row by row: 1.4 s against 3.4 s for 300,000 rows). Inside the caller's transaction,
    so a failure restores them; the table is locked meanwhile (readers of rating
    histories wait for the commit): for the explicit recompute only."""
    table = RatingChange._meta.db_table
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint "
            "WHERE conrelid = %s::regclass AND contype = 'u'",
            [table],
        )
        constraints = cursor.fetchall()
        for name, _definition in constraints:
            cursor.execute(f"ALTER TABLE {quote(table)} DROP CONSTRAINT {quote(name)}")
        cursor.execute(
            "SELECT i.relname, pg_get_indexdef(i.oid) FROM pg_index x "
            "JOIN pg_class i ON i.oid = x.indexrelid "
            "WHERE x.indrelid = %s::regclass AND NOT x.indisprimary",
            [table],
        )
        indexes = cursor.fetchall()
        for name, _definition in indexes:
            cursor.execute(f"DROP INDEX {quote(name)}")
    yield
    with connection.cursor() as cursor:
        for _name, definition in indexes:
            cursor.execute(definition)
        for name, definition in constraints:
            cursor.execute(f"ALTER TABLE {quote(table)} ADD CONSTRAINT {quote(name)} {definition}")


def _write_all(kind: str, result: Computation, *, bulk: bool = False) -> None:
    """Replace ``kind``'s ratings and rating changes with ``result``. ``bulk`` (the
    explicit recompute): a large write on PostgreSQL rebuilds the indexes after it."""
    RatingChange.objects.filter(kind=kind).delete()
    Rating.objects.filter(kind=kind).delete()
    if bulk and connection.vendor == "postgresql" and len(result.changes) > INDEX_REBUILD_ROWS:
        with _indexes_rebuilt_after():
            _insert_changes(kind, result.changes)
    else:
        _insert_changes(kind, result.changes)
    Rating.objects.bulk_create(
        [
            Rating(player_id=p, kind=kind, value=value, games=result.games[p])
            for p, value in result.ratings.items()
        ],
        batch_size=BATCH,
    )


def ratings_recompute(*, kind: str | None = None) -> dict[str, int]:
    """Recompute ratings from scratch for one kind (or all). Returns rated games per kind."""
    kinds = [kind] if kind else list(game_kinds())
    done = {}
    for k in kinds:
        with transaction.atomic():
            _lock_pool(k)
            done[k] = _recompute_locked(k, bulk=True)
    return done


def ratings_update_for_game(*, game_id: int) -> str:
    """Bring ratings up to date after game ``game_id``'s result appeared or changed.

    Idempotent: returns ``"skipped"`` when the game's current result is already
    counted, ``"incremental"`` when it was applied on top of the current ratings, and
    ``"recomputed"`` when the kind had to be recomputed from scratch.
    """
    kind = Game.objects.filter(pk=game_id).values_list("kind", flat=True).first()
    if kind is None:
        return "skipped"
    with transaction.atomic():
        _lock_pool(kind)
        # read under the lock
        game = rating_settings_annotate(Game.objects.filter(pk=game_id)).values(*_GAME_FIELDS).get()
        handles = game["players"] or list(game["placements"] or {})
        ids = dict(_players().filter(handle__in=handles).values_list("handle", "id"))
        rated = _rated(game, ids)
        existing = list(
            RatingChange.objects.filter(game_id=game_id).values_list("result_version", flat=True)
        )
        if rated is None:
            if not existing:
                return "skipped"
        elif existing and all(v == rated.result_version for v in existing):
            return "skipped"
        if rated is None or existing:
            _recompute_locked(kind)
            return "recomputed"
        later = RatingChange.objects.filter(kind=kind).filter(
            Q(game_finished_at__gt=rated.finished_at)
            | Q(game_finished_at=rated.finished_at, game_id__gt=rated.game_id)
        )
        if later.exists():
            _recompute_locked(kind)
            return "recomputed"
        current = {
            r.player_id: r for r in Rating.objects.filter(kind=kind, player_id__in=rated.placements)
        }
        start = {p: r.value for p, r in current.items()}
        result = compute_ratings([rated], start=start)
        RatingChange.objects.bulk_create(
            RatingChange(
                player_id=p,
                game_id=g,
                kind=kind,
                before=b,
                after=a,
                game_finished_at=f,
                result_version=v,
            )
            for p, g, b, a, f, v in result.changes
        )
        for p in rated.placements:
            rating = current.get(p)
            if rating is None:
                Rating.objects.create(player_id=p, kind=kind, value=result.ratings[p], games=1)
            else:
                rating.value = result.ratings[p]
                rating.games += 1
                rating.save(update_fields=["value", "games", "updated_at"])
        change_recorded(RatingsChanged(kind=kind))
    return "incremental"


def ratings_update_for_games(*, payloads: list[dict[str, Any]]) -> dict[str, int]:
    """The outbox's batched delivery of :data:`RATE_GAME` (``payloads``: ``{"game_id"}``
    each): every game, kind by kind under one lock of its pool, in rating order (finish
    time, then id), through :func:`ratings_update_for_game` (so the numbers are the
    ones a recompute gives). Returns how many games of each outcome."""
    ids = sorted({int(p["game_id"]) for p in payloads})
    games = (
        Game.objects.filter(pk__in=ids)
        .order_by("kind", F("finished_at").asc(nulls_last=True), "id")
        .values_list("pk", "kind")
    )
    by_kind: dict[str, list[int]] = {}
    for pk, kind in games:
        by_kind.setdefault(kind, []).append(pk)
    outcomes: dict[str, int] = {}
    for kind, pks in by_kind.items():
        with transaction.atomic():
            _lock_pool(kind)  # held for the whole kind: the per-game calls lock again
            for pk in pks:
                outcome = ratings_update_for_game(game_id=pk)
                outcomes[outcome] = outcomes.get(outcome, 0) + 1
    skipped = len(ids) - sum(outcomes.values())  # games gone since
    if skipped:
        outcomes["skipped"] = outcomes.get("skipped", 0) + skipped
    return outcomes


def _recompute_locked(kind: str, *, bulk: bool = False) -> int:
    """Recompute ``kind`` from scratch, its pool row already locked; the rated games.
    ``bulk``: the explicit recompute (see :func:`_write_all`)."""
    games = list(rated_games(kind=kind))
    _write_all(kind, compute_ratings(games), bulk=bulk)
    RatingPool.objects.filter(kind=kind).update(recomputed_at=timezone.now())
    change_recorded(RatingsChanged(kind=kind))
    return len(games)

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
recomputes the kind from that game on (:func:`_recompute_from`: Elo is sequential, so
the ratings before the game stand, and each player's rating at that point is the
``before`` of their first change from it on). Every path uses the same pure function
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
from django.db.models import Q, TextField
from django.db.models.functions import Cast
from django.utils import timezone

from games.engine import jsonio
from games.kinds import game_kinds
from games.models import Game, ResultSource
from outbox.changes import RatingsChanged, change_recorded
from ratings.elo import ELO_START, FRIENDLY_K, Computation, RatedGame, compute_ratings
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


def _player_ids(rows: list[dict[str, Any]]) -> dict[str, int]:
    """Handle -> player id of the known players named in the game ``rows`` (seat order,
    or the placements' keys when a game has no players listed). 1 query."""
    handles = {h for row in rows for h in (row["players"] or list(row["placements"] or {}))}
    return dict(_players().filter(handle__in=handles).values_list("handle", "id"))


def _from(finished_at: Any, game_id: int, *, finished: str, game: str) -> Q:
    """Rows at or after the rating position ``(finished_at, game_id)`` (rating order:
    finish time, then id), for the rows' ``finished`` and ``game`` fields."""
    return Q(**{f"{finished}__gt": finished_at}) | Q(
        **{finished: finished_at, f"{game}__gte": game_id}
    )


def _game_rows(kind: str, since: tuple[Any, int] | None = None) -> Iterator[dict[str, Any]]:
    """The games of ``kind`` that may be rated, in rating order, as ``_GAME_FIELDS``
    dicts; ``since``: only those at or after that rating position. The two JSON columns
    are read as text and parsed with orjson where it is installed
    (:mod:`games.engine.jsonio`): the standard library's parser was a third of the read
    of a 100,000-game recompute."""
    games = Game.objects.filter(kind=kind, finished_at__isnull=False).exclude(
        result_source=ResultSource.NONE
    )
    if since is not None:
        games = games.filter(_from(*since, finished="finished_at", game="id"))
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
    counted (or it is not rated and never was), ``"incremental"`` when it was applied
    on top of the current ratings, and ``"recomputed"`` when the kind had to be
    recomputed from the game on (:func:`_rate_games`)."""
    kind = Game.objects.filter(pk=game_id).values_list("kind", flat=True).first()
    if kind is None:
        return "skipped"
    with transaction.atomic():
        _lock_pool(kind)
        return _rate_games(kind, [game_id]).get(game_id, "skipped")


def ratings_update_for_games(*, payloads: list[dict[str, Any]]) -> dict[str, int]:
    """The outbox's batched delivery of :data:`RATE_GAME` (``payloads``: ``{"game_id"}``
    each): the games of each kind together under one lock of its pool
    (:func:`_rate_games`: the numbers a recompute gives). Returns how many games of
    each outcome (games gone since count as skipped)."""
    ids = sorted({int(p["game_id"]) for p in payloads})
    by_kind: dict[str, list[int]] = {}
    for pk, kind in Game.objects.filter(pk__in=ids).values_list("pk", "kind"):
        by_kind.setdefault(kind, []).append(pk)
    outcomes: dict[str, int] = {}
    for kind, pks in sorted(by_kind.items()):
        with transaction.atomic():
            _lock_pool(kind)
            for outcome in _rate_games(kind, pks).values():
                outcomes[outcome] = outcomes.get(outcome, 0) + 1
    skipped = len(ids) - sum(outcomes.values())
    if skipped:
        outcomes["skipped"] = outcomes.get("skipped", 0) + skipped
    return outcomes


def _rate_games(kind: str, game_ids: list[int]) -> dict[int, str]:
    """Rate the games ``game_ids`` of ``kind`` (their pool row locked by the caller);
    each game's outcome: ``"skipped"`` (its current result is counted, or it is not
    rated and never was), ``"incremental"`` or ``"recomputed"``.

    New results that all come after every rated game (rating order: finish time, then
    id) are applied on top of the current ratings, in order, in one write. Anything
    else -- a result finishing before games already rated (concurrent results commit a
    little out of order), a changed result, a result no longer rated -- recomputes the
    kind from the earliest such game on (:func:`_recompute_from`), which rates the
    batch's other games as well. About ten queries whatever the batch's size."""
    rows = list(
        rating_settings_annotate(Game.objects.filter(pk__in=game_ids))
        .order_by("finished_at", "id")
        .values(*_GAME_FIELDS)
    )
    ids = _player_ids(rows)
    counted: dict[int, tuple[set[int], Any]] = {}
    for game, version, finished in RatingChange.objects.filter(game_id__in=game_ids).values_list(
        "game_id", "result_version", "game_finished_at"
    ):
        counted.setdefault(game, (set(), finished))[0].add(version)
    outcomes: dict[int, str] = {}
    new: list[RatedGame] = []
    redo: list[tuple[Any, int]] = []  # rating positions to recompute from
    for row in rows:
        rated, (versions, finished) = _rated(row, ids), counted.get(row["id"], (set(), None))
        if versions == ({rated.result_version} if rated else set()):
            outcomes[row["id"]] = "skipped"
        elif versions:  # a changed result, or one no longer rated
            positions = [finished, *([rated.finished_at] if rated else [])]
            redo.append((min(positions), row["id"]))
        else:
            new.append(rated)
    latest = (
        RatingChange.objects.filter(kind=kind)
        .order_by("-game_finished_at", "-game_id")
        .values_list("game_finished_at", "game_id")
        .first()
    )
    if latest is not None:
        redo += [(g.finished_at, g.game_id) for g in new if (g.finished_at, g.game_id) < latest]
    if redo:
        _recompute_from(kind, min(redo))
        outcomes.update({g.game_id: "recomputed" for g in new})
        outcomes.update({game: "recomputed" for _f, game in redo})
        return outcomes
    if new:
        _apply(kind, new)
        outcomes.update({g.game_id: "incremental" for g in new})
    return outcomes


def _apply(kind: str, games: list[RatedGame]) -> None:
    """``games`` (in rating order, all after every rated game of ``kind``) on top of
    the current ratings: their changes inserted, their players' ratings updated."""
    players = {p for g in games for p in g.placements}
    current = {r.player_id: r for r in Rating.objects.filter(kind=kind, player_id__in=players)}
    result = compute_ratings(games, start={p: r.value for p, r in current.items()})
    _insert_changes(kind, result.changes)
    counts = {p: (current[p].games if p in current else 0) + n for p, n in result.games.items()}
    _save_ratings(kind, current, result.ratings, counts)
    change_recorded(RatingsChanged(kind=kind))


def _save_ratings(
    kind: str, current: dict[int, Rating], values: dict[int, float], games: dict[int, int]
) -> None:
    """Each player of ``values`` gets that rating and ``games`` rated games: their row
    in ``current`` updated (deleted at 0 games, as a recompute would keep none) or a
    new one."""
    now = timezone.now()  # (bulk_update leaves auto_now alone)
    gone, changed, made = [], [], []
    for p, value in values.items():
        rating = current.get(p)
        if rating is None:
            made.append(Rating(player_id=p, kind=kind, value=value, games=games[p]))
        elif games[p] == 0:
            gone.append(rating.pk)
        else:
            rating.value, rating.games, rating.updated_at = value, games[p], now
            changed.append(rating)
    Rating.objects.filter(pk__in=gone).delete()
    _update_ratings(changed, now)
    Rating.objects.bulk_create(made, batch_size=BATCH)


def _update_ratings(ratings: list[Rating], now: Any) -> None:
    """Write the ``value`` and ``games`` of ``ratings``: one ``UPDATE ... FROM (VALUES
    ...)`` on PostgreSQL (Django's ``bulk_update`` builds a ``CASE`` per row and field:
    1.3 s for the 1,000 players of a round), else ``bulk_update``."""
    if connection.vendor != "postgresql":
        Rating.objects.bulk_update(ratings, ["value", "games", "updated_at"], batch_size=BATCH)
        return
    table = connection.ops.quote_name(Rating._meta.db_table)
    with connection.cursor() as cursor:
        for start in range(0, len(ratings), BATCH):
            chunk = ratings[start : start + BATCH]
            rows = ", ".join(["(%s, %s::double precision, %s::integer)"] * len(chunk))
            cursor.execute(
                f"UPDATE {table} AS r SET value = v.value, games = v.games, updated_at = %s "
                f"FROM (VALUES {rows}) AS v(id, value, games) WHERE r.id = v.id",
                [now, *(x for r in chunk for x in (r.pk, r.value, r.games))],
            )


def _recompute_from(kind: str, since: tuple[Any, int]) -> int:
    """Recompute ``kind`` from the rating position ``since`` on, its pool row already
    locked: the same numbers as a recompute from scratch, for the games from there on.

    The rating changes before ``since`` stand. A player's rating at ``since`` is the
    ``before`` of their first change from there on (or, with none, their current rating;
    1500 for someone new), and their game count drops by the changes removed. Players
    left with no rated game lose their rating row, as a recompute would give none.
    Returns how many games were rated again."""
    finished_at, game_id = since
    removed = RatingChange.objects.filter(kind=kind).filter(
        _from(finished_at, game_id, finished="game_finished_at", game="game_id")
    )
    start: dict[int, float] = {}
    dropped: dict[int, int] = {}
    for player, before in removed.order_by("game_finished_at", "game_id").values_list(
        "player_id", "before"
    ):
        start.setdefault(player, before)
        dropped[player] = dropped.get(player, 0) + 1
    removed.delete()
    rows = list(_game_rows(kind, since))
    ids = _player_ids(rows)
    games = [g for row in rows if (g := _rated(row, ids)) is not None]
    newcomers = {p for g in games for p in g.placements} - start.keys()
    current = {
        r.player_id: r for r in Rating.objects.filter(kind=kind, player_id__in=[*start, *newcomers])
    }
    for p in newcomers:
        if p in current:
            start[p] = current[p].value
    result = compute_ratings(games, start=start)
    _insert_changes(kind, result.changes)
    counts = {
        p: (current[p].games if p in current else 0) - dropped.get(p, 0) + result.games.get(p, 0)
        for p in start.keys() | result.games.keys()
    }
    values = {p: result.ratings.get(p, start.get(p, ELO_START)) for p in counts}
    _save_ratings(kind, current, values, counts)
    change_recorded(RatingsChanged(kind=kind))
    return len(games)


def _recompute_locked(kind: str, *, bulk: bool = False) -> int:
    """Recompute ``kind`` from scratch, its pool row already locked; the rated games.
    ``bulk``: the explicit recompute (see :func:`_write_all`)."""
    games = list(rated_games(kind=kind))
    _write_all(kind, compute_ratings(games), bulk=bulk)
    RatingPool.objects.filter(kind=kind).update(recomputed_at=timezone.now())
    change_recorded(RatingsChanged(kind=kind))
    return len(games)

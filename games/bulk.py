"""Bulk inserts of many rows that differ in a few columns, in one statement.

Seating a round writes hundreds of games, tables and seats (a 1,000-player event: 250
games, 250 tables, 1,000 seats). ``bulk_create`` builds a model instance per row and
prepares every value of every row through its field (8,000 values for that round),
which cost more than the database's work. :func:`insert_rows` prepares the columns
shared by every row once, and takes the varying columns as plain values:

* PostgreSQL: one ``INSERT ... SELECT ... FROM ROWS FROM (unnest(...), ...) WITH
  ORDINALITY ORDER BY`` (an array parameter per varying column; a JSON column as one
  JSON array, ``jsonb_array_elements``), ``RETURNING`` the new ids in row order;
* any other database (SQLite, the embedded default): ``bulk_create`` of model
  instances, the portable fallback, with the same rows and ids.

Invariant: the rows written are those ``bulk_create`` of ``model(**same, **row)`` would
write (field defaults, ``auto_now``/``auto_now_add`` included); the ids come back in
row order. No signals are sent (``bulk_create`` sends none either).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.db import connection, models
from django.db.models.expressions import DatabaseDefault


def insert_rows(
    model: type[models.Model],
    *,
    same: Mapping[str, Any],
    columns: Mapping[str, Sequence[Any]],
    returning: bool = True,
) -> list[int]:
    """Insert one row per index of ``columns`` (field name -> that field's value of
    every row; all the same length) with the fields of ``same`` (field name -> value,
    Python side, e.g. a model instance for a foreign key) and every other field's
    default; the new primary keys in row order (``[]`` when not ``returning``).

    Varying columns take plain values the database stores as they are: integers
    (foreign keys by their ``..._id`` attribute name), strings, and JSON-able values
    for JSON fields. The auto primary key is left to the database.
    """
    lengths = {len(values) for values in columns.values()}
    if len(lengths) != 1:
        raise ValueError("insert_rows needs columns of one length")
    (count,) = lengths
    if not count:
        return []
    if connection.vendor != "postgresql":
        return _insert_portable(model, same=same, columns=columns, returning=returning)
    return _insert_unnest(model, same=same, columns=columns, count=count, returning=returning)


def _insert_portable(
    model: type[models.Model],
    *,
    same: Mapping[str, Any],
    columns: Mapping[str, Sequence[Any]],
    returning: bool,
) -> list[int]:
    names = list(columns)
    made = model._default_manager.bulk_create(
        [
            model(**same, **dict(zip(names, row, strict=True)))
            for row in zip(*columns.values(), strict=True)
        ]
    )
    return [obj.pk for obj in made] if returning else []


def _insert_unnest(
    model: type[models.Model],
    *,
    same: Mapping[str, Any],
    columns: Mapping[str, Sequence[Any]],
    count: int,
    returning: bool,
) -> list[int]:
    meta = model._meta
    qn = connection.ops.quote_name
    # One instance for the shared columns: defaults and pre_save (auto_now, ...) run
    # once, as bulk_create would run them for its first row.
    template = model(**same)
    fixed_sql, fixed_params, varying_sql, varying_params, names = [], [], [], [], []
    for field in meta.concrete_fields:
        if field.primary_key and isinstance(field, models.AutoField | models.BigAutoField):
            continue
        db_type = field.db_type(connection)
        if field.attname in columns or field.name in columns:
            values = columns.get(field.attname, columns.get(field.name))
            names.append(qn(field.column))
            if isinstance(field, models.JSONField):
                # One JSON array for the column, split by the database: an array of
                # JSON texts would be quoted element by element on the client.
                varying_sql.append("jsonb_array_elements(%s::jsonb)")
                varying_params.append(json.dumps(list(values), cls=field.encoder))
            else:
                varying_sql.append(f"unnest(%s::{db_type}[])")
                varying_params.append(_array_param(values))
            continue
        value = field.pre_save(template, add=True)
        if isinstance(value, DatabaseDefault):
            continue  # the database's own default, as bulk_create would leave it
        if isinstance(field, models.JSONField):
            # The text of the JSON, cast below (a client-side bound JSON wrapper would
            # be typed by the driver; the cast says what it is in every case).
            value = None if value is None else json.dumps(value, cls=field.encoder)
        else:
            value = field.get_db_prep_save(value, connection)
        names.insert(len(fixed_sql), qn(field.column))
        fixed_sql.append(f"%s::{db_type}")
        fixed_params.append(value)
    aliases = [f"c{i}" for i in range(len(varying_sql))]
    select = ", ".join([*fixed_sql, *(f"u.{a}" for a in aliases)])
    sql = (
        f"INSERT INTO {qn(meta.db_table)} ({', '.join(names)}) "
        f"SELECT {select} FROM ROWS FROM ({', '.join(varying_sql)}) "
        f"WITH ORDINALITY AS u({', '.join(aliases)}, o) "
        # Rows are inserted in this order, so the ids drawn from the sequence and the
        # RETURNING rows follow the rows given (what bulk_create relies on too).
        f"ORDER BY u.o"
    )
    if returning:
        sql += f" RETURNING {qn(meta.pk.column)}"
    with connection.cursor() as cursor:
        cursor.execute(sql, [*fixed_params, *varying_params])
        if not returning:
            return []
        ids = [row[0] for row in cursor.fetchall()]
    if len(ids) != count:  # pragma: no cover - the database inserted what it was given
        raise RuntimeError("insert_rows: the database returned another number of rows")
    return ids


def _array_param(values: Sequence[Any]) -> Any:
    """The parameter of one varying column: integers (ids, numbers, positions: every
    column a round's seating varies but the handles) as the text of a PostgreSQL array
    literal, cast by the statement like any array; anything else as a list, which the
    driver dumps. The driver dumps a list element by element in Python (a round of
    1,000 players: 6 arrays, about 5,000 integers); ``str.join`` writes the same array
    in C. ``type(v) is int`` keeps booleans (and int subclasses) on the driver's path."""
    if all(type(v) is int for v in values):
        return int_array_literal(values)
    return list(values)


def int_array_literal(values: Iterable[int]) -> str:
    """Integers as the text of a PostgreSQL array literal (``{1,2,3}``), for a parameter
    the statement casts (``%s::bigint[]``): the driver dumps a list element by element in
    Python, ``str.join`` writes the same array in C (1,000 ids in a round's queries)."""
    return "{" + ",".join(map(str, values)) + "}"

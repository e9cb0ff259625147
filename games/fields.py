"""Model fields shared by the apps."""

from __future__ import annotations

from typing import Any

from django.db import models

from games.engine import jsonio


class FastJSONField(models.JSONField):
    """A ``JSONField`` whose values are written to PostgreSQL with orjson instead of the
    standard library's encoder (read back as ``JSONField`` reads them).

    For large documents written on a hot path: a 1,000-player round's seating request
    (:class:`JSONTextField`, some 170-280 kB) took the standard
    encoder 4-6 ms and orjson 0.4 ms, inside the progression to the next round
    (issue 26). The values must be plain JSON (dicts with string keys, lists, strings,
    finite numbers, booleans, None), as a ``jsonb`` column stores them anyway (without
    orjson, :mod:`games.engine.jsonio` writes them with the standard library's). With
    an ``encoder``, or on another database, it is ``JSONField`` itself."""

    #: psycopg's wrapper of a value for the column's type (``psycopg.types.json``).
    _psycopg_wrapper = "Jsonb"

    def get_db_prep_value(self, value: Any, connection: Any, prepared: bool = False) -> Any:
        if self.encoder is not None or connection.vendor != "postgresql":
            return super().get_db_prep_value(value, connection, prepared)
        from psycopg.types import json as psycopg_json

        if not prepared:
            value = self.get_prep_value(value)
        return getattr(psycopg_json, self._psycopg_wrapper)(value, dumps=jsonio.dumps)


class JSONTextField(FastJSONField):
    """A ``JSONField`` kept on PostgreSQL as ``json`` (the text, checked as JSON) rather
    than ``jsonb``: for a large document written on a hot path and read back whole,
    never searched nor compared inside the database.

    ``jsonb`` converts a document to its binary form on every write: a 1,000-player
    round's seating request (:class:`tournaments.models.RoundSeating`, some 140-280 kB)
    took 4.1 ms to insert as ``jsonb`` and 1.6 ms as ``json`` (issue 26). Key lookups
    still work on ``json``, but each parses the whole text: keep what is looked up in a
    ``jsonb`` column. Other databases store JSON as text already: there it is
    :class:`FastJSONField`."""

    _psycopg_wrapper = "Json"

    def db_type(self, connection: Any) -> str | None:
        if connection.vendor == "postgresql":
            return "json"
        return super().db_type(connection)

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        # psycopg decodes a ``json`` column itself (Django turns that off for ``jsonb``
        # only): its value arrives decoded; text (other databases) is decoded here.
        if connection.vendor == "postgresql":
            return value
        return super().from_db_value(value, expression, connection)

"""Model fields shared by the apps."""

from __future__ import annotations

from typing import Any

from django.db import models

from games.engine import jsonio


class FastJSONField(models.JSONField):
    """A ``JSONField`` whose values are written to PostgreSQL with orjson instead of the
    standard library's encoder (read back as ``JSONField`` reads them).

    For large documents written on a hot path: a 1,000-player round's seating record
    (:class:`tournaments.models.RoundSeating`, some 170-280 kB) took the standard
    encoder 4-6 ms and orjson 0.4 ms, inside the progression to the next round
    (issue 26). The values must be plain JSON (dicts with string keys, lists, strings,
    finite numbers, booleans, None), as a ``jsonb`` column stores them anyway. Without
    orjson, with an ``encoder``, or on another database, it is ``JSONField`` itself."""

    def get_db_prep_value(self, value: Any, connection: Any, prepared: bool = False) -> Any:
        if (
            self.encoder is not None
            or connection.vendor != "postgresql"
            or jsonio.BACKEND != "orjson"
        ):
            return super().get_db_prep_value(value, connection, prepared)
        from psycopg.types.json import Jsonb

        if not prepared:
            value = self.get_prep_value(value)
        return Jsonb(value, dumps=jsonio.dumps)

"""Querysets of the hot write paths, compiled to SQL once per process.

Turning a queryset into SQL costs Django far more CPU than PostgreSQL spends running
it when the query is small: the table a result is recorded at (its game, round,
tournament, league and the user's roles; :func:`tournaments.selectors.games.table_with_game`)
took 1.2-1.7 ms to compile and under 0.2 ms to run, and every result of a round
compiles it again with other ids (``bench/bench_event.py``, issue 26: the web
processes' CPU bounds how many results a second the API takes).

A :class:`CompiledQuery` builds its queryset once with placeholder values, compiles it,
and remembers where those values went among the SQL's parameters; each run puts the
real values there and lets Django read the rows into model instances as usual (same
``select_related`` instances, deferred fields, annotations and ``prefetch_related``
lookups), with the compiler of the first compile. The SQL is the one Django wrote for
the same queryset; a shape whose placeholders do not come out as plain parameters
(folded into the SQL text, or transformed) is not cached: it is built and compiled on
every run, as before.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable
from typing import Any

from django.db import connections
from django.db.models import QuerySet
from django.db.transaction import TransactionManagementError

#: Placeholder values: integers no id ever takes (strings: with NUL characters, which
#: PostgreSQL's text never holds).
_FIRST_PLACEHOLDER = -(2**62)


class CompiledQuery:
    """``build(**values) -> QuerySet`` compiled once per database alias; :meth:`run`
    evaluates it for ``values``: integers (ids), or strings for the names in ``text``."""

    def __init__(
        self, build: Callable[..., QuerySet], *names: str, text: tuple[str, ...] = ()
    ) -> None:
        self._build = build
        self._names = names
        self._types = {name: str if name in text else int for name in names}
        self._compiled: dict[tuple[str, str], Any] = {}
        self._lock = threading.Lock()

    def _placeholder(self, n: int, name: str) -> Any:
        if self._types[name] is str:
            return f"\x00tock-placeholder-{n}\x00"
        return _FIRST_PLACEHOLDER + n

    def _compile(self, alias: str) -> Any:
        placeholders = {name: self._placeholder(n, name) for n, name in enumerate(self._names)}
        queryset = self._build(**placeholders)
        compiler = queryset.query.get_compiler(using=alias)
        sql, params = compiler.as_sql()
        positions: dict[str, list[int]] = {name: [] for name in self._names}
        by_value = {value: name for name, value in placeholders.items()}
        for index, param in enumerate(params):
            if type(param) in (int, str) and param in by_value:
                positions[by_value[param]].append(index)
        if not all(positions.values()) or any(str(v) in sql for v in placeholders.values()):
            return None  # a placeholder not passed as a plain parameter: not cached
        return queryset, compiler, sql, tuple(params), positions

    def _compiled_for(self, connection: Any, values: dict[str, Any]) -> Any:
        key = (connection.alias, connection.vendor)
        if key not in self._compiled:
            with self._lock:
                if key not in self._compiled:
                    self._compiled[key] = self._compile(connection.alias)
        compiled = self._compiled[key]
        if compiled is None or any(type(v) is not self._types[k] for k, v in values.items()):
            return None
        queryset, template, sql, params, positions = compiled
        if (
            queryset.query.select_for_update
            and connection.features.has_select_for_update
            and connection.get_autocommit()
        ):
            # Django's compiler refuses this when it compiles; the cached SQL must too.
            raise TransactionManagementError(
                "select_for_update cannot be used outside of a transaction."
            )
        params = list(params)
        for name, indexes in positions.items():
            for index in indexes:
                params[index] = values[name]
        return queryset, template, sql, params

    def sql_with_params(self, **values: int) -> tuple[str, Any]:
        """The SQL and parameters of the queryset for ``values`` (to send as is)."""
        compiled = self._compiled_for(connections["default"], values)
        if compiled is None:
            return self._build(**values).query.sql_with_params()
        return compiled[2], compiled[3]

    def run(self, **values: int) -> list[Any]:
        """The queryset's rows (model instances) for ``values``."""
        connection = connections["default"]
        compiled = self._compiled_for(connection, values)
        if compiled is None:
            return list(self._build(**values))
        queryset, template, sql, params = compiled
        compiler = copy.copy(template)
        compiler.connection = connection  # this thread's
        compiler.as_sql = lambda *args, **kwargs: (sql, params)

        clone = queryset._chain()
        clone.query.get_compiler = lambda *args, **kwargs: compiler
        return list(clone)

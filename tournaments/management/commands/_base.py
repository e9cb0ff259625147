"""Shared behaviour of the tournaments commands: domain errors become ``error: ...``
on stderr and exit status 1 (never a traceback)."""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand

from games.errors import DomainError


class DomainCommand(BaseCommand):
    def execute(self, *args: Any, **options: Any) -> Any:
        try:
            return super().execute(*args, **options)
        except DomainError as exc:
            self.stderr.write(f"error: {exc.message}")
            sys.exit(1)

    def fail(self, message: str) -> None:
        self.stderr.write(f"error: {message}")
        sys.exit(1)

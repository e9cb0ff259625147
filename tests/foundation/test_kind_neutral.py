"""Kind-specific rules belong to the engine's game classes (docs/architecture.md): the
Django apps and the templates ask the class (``games.kinds``: ``has_knocks``,
``ruling_of``, ...), never compare a game's kind with a name. Only the engine and the
per-kind presenters (``games/presenter_*.py``) may name a kind in a comparison."""

from __future__ import annotations

import re
from pathlib import Path

from games.kinds import game_kinds

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("games", "tournaments", "ratings", "outbox", "tock_site", "templates")


def _allowed(path: Path) -> bool:
    rel = path.relative_to(ROOT).as_posix()
    return rel.startswith("games/engine/") or re.match(r"games/presenter_\w+\.py$", rel) is not None


def test_no_comparison_with_a_kinds_name_outside_the_engine_and_presenters():
    names = "|".join(re.escape(k) for k in game_kinds())
    compared = re.compile(
        rf"""(==|!=)\s*["'](?:{names})["']|["'](?:{names})["']\s*(==|!=)""", re.IGNORECASE
    )
    found = []
    for folder in SCANNED:
        for path in (ROOT / folder).rglob("*"):
            if path.suffix not in (".py", ".html") or _allowed(path) or "migrations" in path.parts:
                continue
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
                if compared.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not found, "\n".join(found)

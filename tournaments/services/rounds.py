"""Deprecated: moved to :mod:`tournaments.services.progression` (seating and finishing
rounds) and :mod:`tournaments.seating` (the seating algorithm, ``split_sizes``).

Kept only so that ``tournaments.services.recording`` keeps importing
``round_refresh_status`` from here until it switches to
``from tournaments.services.progression import round_refresh_status``; then delete this
module. Nothing new may import it.
"""

from __future__ import annotations

from tournaments.services.progression import round_create_next, round_refresh_status

__all__ = ["round_create_next", "round_refresh_status"]

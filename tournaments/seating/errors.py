"""The one error of the seating package (no Django: callers translate it)."""

from __future__ import annotations


class SeatingError(ValueError):
    """The players cannot be seated as asked (too few, sizes that cannot be met, bad input).

    ``code`` says which rule failed, for callers that map it to their own message:
    ``"too_few_players"``, ``"no_table_sizes"``, ``"bad_table_size"``, ``"cannot_split"``,
    ``"duplicate_player"``, ``"bad_input"``.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

"""Staff of a tournament (scorekeepers and referees), and their accounts.

:mod:`.services` (add, remove, create an account with a one-time set-password link),
:mod:`.selectors` (the staff list), :mod:`.views` (the organizer's staff page) and
:mod:`.api` (``/api/tournaments/<id>/staff``).
"""

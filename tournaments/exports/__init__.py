"""Exports: standings, results and players as CSV, a league's calendar as iCalendar.

:mod:`.views` (the downloads), :mod:`.selectors` (what they hold, as plain rows, reads
only), :mod:`.csv_export` and :mod:`.ical` (the text, pure).
"""

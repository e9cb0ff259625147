"""``python -m tournaments.seating [--method auto] < round.json > tables.json``

Reads one :class:`~tournaments.seating.SeatingRequest` as JSON on stdin, writes
``{"tables": [[id, ...], ...]}`` on stdout. Bad input: a one-line reason on stderr,
exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys

from .api import METHODS, seat_round_json
from .errors import SeatingError


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tournaments.seating", description="Seat one round (JSON in, JSON out)."
    )
    parser.add_argument("--method", choices=METHODS, default="auto")
    args = parser.parse_args(argv)
    try:
        data = json.load(sys.stdin)
        result = seat_round_json(data, method=args.method)
    except (json.JSONDecodeError, SeatingError) as exc:
        print(f"seating: {exc}", file=sys.stderr)
        return 2
    json.dump(result, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Command line: ``python -m games.engine replay|simulate``.

``replay FILE... [--json]``
    Replays each log (``-`` is standard input; the game is read from the first line).
    Prints one summary per file, in order: a short text block, or with ``--json`` one
    JSON object a line (an invalid or unreadable file gives ``{"file":..,"error":..}``).
    Errors ``line N: reason`` also go to standard error (prefixed by the file name when
    several files are given). Exit status: 0 all valid (a log may stop mid-game),
    1 some log invalid, 2 some input unreadable (the highest applies).

``simulate --game tock|uno|casino --players 4 --seed 7 [--mistakes P] [--knocks P]
[--mode M] [--deck D] [--target T] [--count N]``
    Bots play complete games. ``--mistakes``, ``--knocks`` and ``--mode`` are TOCK's
    simulator options, ``--deck`` UNO's, ``--target`` UNO's and Casino's; only the
    flags given are passed to the kind's simulator (a flag it does not take is an
    error). One game: its log as JSON Lines. With ``--count N`` (seeds
    ``seed .. seed+N-1``): one game a line, each a JSON array of its events; or, with
    ``--out DIR``, one JSON Lines file a game, ``DIR/<game>-<seed>.jsonl``.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from . import jsonio
from .base import Game, game_class, game_kinds
from .common import placements_line, places_text
from .errors import EngineError, LogError
from .log import format_log, replay_text
from .simulate import simulate

EXIT_OK, EXIT_INVALID, EXIT_UNREADABLE = 0, 1, 2


def _read(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read()
    with open(path, "rb") as fh:
        return fh.read()


def format_summary(summary: dict[str, Any]) -> str:
    """A short human-readable block for a game summary (a kind may give its own as
    ``cls.text_summary(summary)``, ``None`` by default: TOCK's is this one), then one
    line per correction of the result after the end (every kind)."""
    text = game_class(summary["game"]).text_summary(summary)
    if text is None:
        text = _tock_text(summary)
    for c in summary.get("corrections") or ():
        text += (
            f"\ncorrected at event {c['event']} by {c['referee']}: "
            f"{places_text(c['placements'])}  note: {' '.join(c['note'].split())}"
        )
    return text


def _tock_text(summary: dict[str, Any]) -> str:
    lines = [
        f"game: {summary['game']}  status: {summary['status']}  events: {summary['events']}",
        f"turn: {summary['turn'] or '-'}  table: {summary['table']}",
        "center: " + (" ".join(map(str, summary["center"])) or "-"),
    ]
    for name in summary["players"]:
        pile = " ".join(map(str, summary["piles"][name])) or "-"
        stock = len(summary["stocks"][name])
        lines.append(f"  {name}: discard [{pile}] stock {stock}")
    lines.append("out: " + (", ".join(summary["out"]) or "-"))
    if summary["placements"]:
        lines.append(placements_line(summary["placements"]))
    lines.append(f"infractions: {len(summary['infractions'])}  knocks: {len(summary['knocks'])}")
    return "\n".join(lines)


def cmd_replay(files: Sequence[str], as_json: bool, out: TextIO, err: TextIO) -> int:
    status = EXIT_OK
    several = len(files) > 1
    for path in files:
        label = "<stdin>" if path == "-" else path
        prefix = f"{label}: " if several else ""
        try:
            text = _read(path)
        except OSError as exc:
            reason = f"cannot read {label}: {exc.strerror or exc}"
            status = max(status, EXIT_UNREADABLE)
            if as_json:
                out.write(jsonio.dumps({"file": label, "error": reason}) + "\n")
            print(reason, file=err)
            continue
        try:
            game: Game = replay_text(text)
        except LogError as exc:
            status = max(status, EXIT_INVALID)
            if as_json:
                out.write(jsonio.dumps({"file": label, "error": str(exc), "line": exc.line}))
                out.write("\n")
            else:
                out.write(f"{prefix}{exc}\n")
            print(f"{prefix}{exc}", file=err)
            continue
        summary = game.summary()
        if as_json:
            out.write(jsonio.dumps(summary if not several else {"file": label, **summary}))
            out.write("\n")
        else:
            if several:
                out.write(f"== {label}\n")
            out.write(format_summary(summary) + "\n")
    return status


def cmd_simulate(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    players: list[str] | int = args.players
    if args.names:
        players = [p.strip() for p in args.names.split(",")]
    options = simulate_options(args)
    try:
        logs = []
        for k in range(args.count or 1):
            seed = args.seed + k
            log = simulate(game=args.game, players=players, seed=seed, **options)
            logs.append((seed, log))
    except EngineError as exc:
        print(f"error: {exc}", file=err)
        return EXIT_INVALID
    except TypeError:  # an option the kind's simulator does not take
        given = ", ".join(f"--{name}" for name in options)
        print(f"error: {args.game} does not take {given}", file=err)
        return EXIT_INVALID
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        for seed, log in logs:
            path = os.path.join(args.out, f"{args.game}-{seed}.jsonl")
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(format_log(log))
    elif args.count:
        for _seed, log in logs:
            out.write(jsonio.dumps(log) + "\n")
    else:
        out.write(format_log(logs[0][1]))
    return EXIT_OK


#: The simulator options the ``simulate`` command has flags for (TOCK's). Only those
#: the user gave are passed on, so a kind whose simulator has none of them is not
#: handed any (its simulator's own defaults apply).
SIMULATE_OPTIONS = ("mistakes", "knocks", "mode", "deck", "target")


def simulate_options(args: argparse.Namespace) -> dict[str, Any]:
    """The simulator options given on the command line (flags left out are absent)."""
    return {
        name: getattr(args, name) for name in SIMULATE_OPTIONS if getattr(args, name) is not None
    }


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m games.engine", description=__doc__.split("\n")[0]
    )
    sub = parser.add_subparsers(dest="command", required=True)
    rp = sub.add_parser("replay", help="replay event logs and print their summaries")
    rp.add_argument("files", nargs="+", metavar="FILE", help="JSON Lines log, '-' for stdin")
    rp.add_argument("--json", action="store_true", help="one JSON summary a line")
    sp = sub.add_parser("simulate", help="bots play complete games; print their logs")
    sp.add_argument("--game", default="tock", choices=game_kinds())
    sp.add_argument(
        "--players", type=int, default=4, help="number of players (TOCK 2-6, UNO 2-10, Casino 2-4)"
    )
    sp.add_argument("--names", help="comma-separated player names (overrides --players)")
    sp.add_argument("--seed", type=int, default=0)
    sp.add_argument("--mistakes", type=float, help="TOCK: probability of an infraction (0)")
    sp.add_argument("--knocks", type=float, help="TOCK: probability of knocking (0)")
    sp.add_argument("--mode", choices=("table", "strict"), help="TOCK: table (default) or strict")
    sp.add_argument("--deck", choices=("classic", "2018"), help="UNO: the deck (classic)")
    sp.add_argument(
        "--target", type=int, help="UNO, Casino: the score that ends the game (500, 21)"
    )
    sp.add_argument("--count", type=int, default=0, help="number of games (seeds seed..)")
    sp.add_argument("--out", help="with --count: directory for one .jsonl file a game")
    return parser


def main(
    argv: Sequence[str] | None = None, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    """Run the CLI; returns the exit status (``out``/``err`` default to stdout/stderr)."""
    out = out or sys.stdout
    err = err or sys.stderr
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse: usage errors exit 2, --help exits 0
        return int(exc.code or 0)
    if args.command == "replay":
        return cmd_replay(args.files, args.json, out, err)
    if args.count < 0:
        print("error: --count must be positive", file=err)
        return EXIT_UNREADABLE
    return cmd_simulate(args, out, err)

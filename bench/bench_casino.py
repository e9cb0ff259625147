"""Casino throughput: games simulated and replayed per second (a benchmark, not a test).

For 2, 3 and 4 players it simulates ``--games`` seeded whole games to 21 (the bots:
every capture, build and call they may make is enumerated by ``legal_moves`` each
turn), then serialises the logs to JSON Lines and times replaying them *including JSON
parsing* (``replay_text``, best of ``--repeat``), in CPU seconds of this process (other
load on the machine distorts it less).

Baselines, from the same run on the same machine (no Casino library for Python plays
the full rules, so there is no third-party engine to set beside it, as RLCard is for
UNO):

* a plain replayer (``bench/plain_casino.py``: written from ``docs/rules/casino.md``
  alone, straightforward, the standard library's ``json`` a line at a time) on the same
  logs, best of ``--repeat`` too, alternating with the engine. Before timing, both
  replay every log and must agree on its scores, placements and event count, and on a
  corrupted copy of every log (one event changed) both must refuse the same line;
* a bare loop over the same seeded round decks that deals, pairs a loose card of
the same rank when it can and trails otherwise, with no events, no checks, no builds
and no scoring: the cost of moving 52 cards a round in plain Python, a floor for the
engine's replay. Its column is rounds a second; the engine's rounds a second are beside
it.

The load of the machine (``os.getloadavg``) is printed before and after.

    .venv/bin/python bench/bench_casino.py [--games 300] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_uno import best_time, check_agreement, load  # noqa: E402
from plain_casino import PlainCasino, PlainError  # noqa: E402

from games.engine import jsonio, replay_text, simulate  # noqa: E402
from games.engine.casino.cards import CANONICAL, RANK_OF, round_deck  # noqa: E402


def corrupt(log: list[dict], rng: random.Random) -> list[dict]:
    """A copy of ``log`` with one play changed the way a scorekeeper might get it
    wrong: another player, another card, a capture taking one card more or a build of
    another value, a trail instead of a capture."""
    log = [dict(e) for e in log]
    while True:
        i = rng.randrange(2, len(log))
        event = log[i]
        kind = event["type"]
        if kind not in ("capture", "build", "call", "trail"):
            continue
        change = rng.choice(("player", "card", "more"))
        if change == "player":
            others = [p for p in log[0]["players"] if p != event["player"]]
            event["player"] = rng.choice(others)
        elif change == "card":
            event["card"] = rng.choice(CANONICAL)
        elif kind == "capture":
            event["take"] = [*event["take"], [rng.choice(CANONICAL)]]
        elif kind in ("build", "call"):
            event["value"] = event["value"] % 10 + 1
        else:
            event["type"] = "capture"
            event["take"] = [[rng.choice(CANONICAL)]]
        return log


def ours(players: int, games: int, repeat: int) -> dict[str, float]:
    """Games simulated and replayed a second, with the rounds and events they hold."""
    logs: list[list[dict]] = []
    texts: list[bytes] = []
    rounds = events = 0
    t0 = time.process_time()
    for seed in range(games):
        log = simulate("casino", players=players, seed=seed)
        rounds += sum(1 for e in log if e["type"] == "deal" and "center" in e)
        events += len(log)
        logs.append(log)
        texts.append("".join(jsonio.dumps(e) + "\n" for e in log).encode())
    sim = time.process_time() - t0
    checked = check_agreement(
        logs, texts, players, plain=PlainCasino, plain_error=PlainError, corrupt=corrupt
    )
    # engine and plain replayer alternate, so that a change of load hits both alike
    best = plain = float("inf")
    for _ in range(repeat):
        best = min(best, best_time(replay_text, texts, 1))
        plain = min(plain, best_time(PlainCasino.replay_text, texts, 1))
    return {
        "checked": checked,
        "plain_games": games / plain,
        "rounds": rounds,
        "events": events,
        "sim_games": games / sim,
        "replay_games": games / best,
        "replay_rounds": rounds / best,
        "replay_events": events / best,
    }


def bare_rounds(players: int, rounds: int) -> float:
    """Rounds a second of the bare loop (see the module's docstring)."""
    t0 = time.process_time()
    for r in range(1, rounds + 1):
        deck = round_deck(0, r)
        center = deck[4 * players : 4 * players + 4]
        pos = 4 * players + 4
        hands = [deck[4 * p : 4 * p + 4] for p in range(players)]
        piles: list[list[str]] = [[] for _ in range(players)]
        while True:
            for _ in range(4):
                for p in range(players):
                    card = hands[p].pop()
                    rank = RANK_OF[card]
                    match = next((c for c in center if RANK_OF[c] == rank), None)
                    if match is None:
                        center.append(card)
                    else:
                        center.remove(match)
                        piles[p] += (card, match)
            if pos >= 52:
                break
            hands = [deck[pos + 4 * p : pos + 4 * p + 4] for p in range(players)]
            pos += 4 * players
    return rounds / (time.process_time() - t0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=300, help="games per row")
    parser.add_argument("--repeat", type=int, default=3, help="replay runs (best is kept)")
    args = parser.parse_args()
    print(f"Casino: {args.games} whole games to 21 per row, CPU seconds of this process ({load()})")
    print(
        f"{'players':>7}  {'rounds':>6}  {'events':>7}  {'sim games/s':>11}  "
        f"{'replay games/s':>14}  {'plain replay':>12}  {'x plain':>7}  "
        f"{'replay events/s':>15}  {'replay rounds/s':>15}  {'bare rounds/s':>13}"
    )
    checked = 0
    for players in (2, 3, 4):
        r = ours(players, args.games, args.repeat)
        checked += int(r["checked"])
        bare = bare_rounds(players, int(r["rounds"]))
        print(
            f"{players:>7}  {r['rounds']:>6,}  {r['events']:>7,}  {r['sim_games']:>11,.0f}  "
            f"{r['replay_games']:>14,.0f}  {r['plain_games']:>12,.0f}  "
            f"{r['replay_games'] / r['plain_games']:>7.2f}  {r['replay_events']:>15,.0f}  "
            f"{r['replay_rounds']:>15,.0f}  {bare:>13,.0f}"
        )
    print(
        f"plain: bench/plain_casino.py (stdlib json, written from the rules); it agreed with "
        f"the engine on every log and refused the same line of {checked} corrupted logs."
    )
    print("bare: the same seeded decks dealt, pairing or trailing, no events or checks.")
    print(f"after: {load()}")


if __name__ == "__main__":
    main()

"""Casino throughput: games simulated and replayed per second (a benchmark, not a test).

For 2, 3 and 4 players it simulates ``--games`` seeded whole games to 21 (the bots:
every capture, build and call they may make is enumerated by ``legal_moves`` each
turn), then serialises the logs to JSON Lines and times replaying them *including JSON
parsing* (``replay_text``, best of ``--repeat``), in CPU seconds of this process (other
load on the machine distorts it less).

Baseline, from the same run on the same machine (no Casino library for Python plays
the full rules, so there is no third-party engine to set beside it, as RLCard is for
UNO): a bare loop over the same seeded round decks that deals, pairs a loose card of
the same rank when it can and trails otherwise, with no events, no checks, no builds
and no scoring: the cost of moving 52 cards a round in plain Python, a floor for the
engine's replay. Its column is rounds a second; the engine's rounds a second are beside
it.

    .venv/bin/python bench/bench_casino.py [--games 300] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.engine import jsonio, replay_text, simulate  # noqa: E402
from games.engine.casino.cards import RANK_OF, round_deck  # noqa: E402


def ours(players: int, games: int, repeat: int) -> dict[str, float]:
    """Games simulated and replayed a second, with the rounds and events they hold."""
    logs: list[bytes] = []
    rounds = events = 0
    t0 = time.process_time()
    for seed in range(games):
        log = simulate("casino", players=players, seed=seed)
        rounds += sum(1 for e in log if e["type"] == "deal" and "center" in e)
        events += len(log)
        logs.append("".join(jsonio.dumps(e) + "\n" for e in log).encode())
    sim = time.process_time() - t0
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        for text in logs:
            replay_text(text)
        best = min(best, time.process_time() - t0)
    return {
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
    print(f"Casino: {args.games} whole games to 21 per row, CPU seconds of this process")
    print(
        f"{'players':>7}  {'rounds':>6}  {'events':>7}  {'sim games/s':>11}  "
        f"{'replay games/s':>14}  {'replay events/s':>15}  {'replay rounds/s':>15}  "
        f"{'bare rounds/s':>13}"
    )
    for players in (2, 3, 4):
        r = ours(players, args.games, args.repeat)
        bare = bare_rounds(players, int(r["rounds"]))
        print(
            f"{players:>7}  {r['rounds']:>6,}  {r['events']:>7,}  {r['sim_games']:>11,.0f}  "
            f"{r['replay_games']:>14,.0f}  {r['replay_events']:>15,.0f}  "
            f"{r['replay_rounds']:>15,.0f}  {bare:>13,.0f}"
        )
    print("bare: the same seeded decks dealt, pairing or trailing, no events or checks.")


if __name__ == "__main__":
    main()

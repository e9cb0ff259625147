"""UNO throughput: hands simulated and replayed per second (a benchmark, not a test).

For 2 and 4 players it simulates seeded whole games (the bots, full rules: challenges,
catches, UNO calls, scoring to 500) until about ``--hands`` hands are played, then
serialises the logs to JSON Lines and times replaying them *including JSON parsing*
(``replay_text``, best of ``--repeat``), in CPU seconds of this process (other load on
the machine distorts it less). Beside it, RLCard's UNO on the same machine in the same
run: its raw game loop (``rlcard.games.uno.game.UnoGame``: ``init_game``, then random
legal actions until ``is_over``) playing its simplified hand (no challenge, no UNO call,
no scoring). RLCard is optional: ``pip install -e '.[bench]'``; without it that column
is skipped with a note.

    .venv/bin/python bench/bench_uno.py [--hands 2000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.engine import jsonio, replay_text, simulate  # noqa: E402


def ours(players: int, hands: int, repeat: int) -> tuple[float, float, int, int]:
    """(hands simulated/s, hands replayed/s, hands, events) for ``players`` players."""
    logs: list[bytes] = []
    played = events = 0
    t0 = time.process_time()
    seed = 0
    while played < hands:
        log = simulate("uno", players=players, seed=seed)
        seed += 1
        played += sum(1 for e in log if e["type"] == "deal")
        events += len(log)
        logs.append("".join(jsonio.dumps(e) + "\n" for e in log).encode())
    simulated = played / (time.process_time() - t0)
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        for text in logs:
            replay_text(text)
        best = min(best, time.process_time() - t0)
    return simulated, played / best, played, events


def rlcard_rate(players: int, hands: int) -> float | None:
    """Hands a second of RLCard's UNO game loop with random legal actions, or ``None``
    when rlcard is not installed."""
    try:
        import numpy as np
        from rlcard.games.uno.game import UnoGame as RLUno
    except ImportError:
        return None
    game = RLUno(num_players=players)
    game.np_random = np.random.RandomState(0)
    rng = random.Random(0)
    t0 = time.process_time()
    for _ in range(hands):
        _state, _player = game.init_game()
        while not game.is_over():
            game.step(rng.choice(game.get_legal_actions()))
    return hands / (time.process_time() - t0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=2000, help="hands per row (about)")
    parser.add_argument("--repeat", type=int, default=3, help="replay runs (best is kept)")
    args = parser.parse_args()
    print(f"UNO: about {args.hands} hands per row, CPU seconds of this process")
    print(f"{'players':>7}  {'hands':>6}  {'events':>7}  {'sim hands/s':>11}  "
          f"{'replay hands/s':>14}  {'RLCard hands/s':>14}")  # fmt: skip
    missing = False
    for players in (2, 4):
        simulated, replayed, hands, events = ours(players, args.hands, args.repeat)
        rl = rlcard_rate(players, args.hands)
        missing = missing or rl is None
        rl_text = "-" if rl is None else f"{rl:,.0f}"
        print(
            f"{players:>7}  {hands:>6}  {events:>7}  {simulated:>11,.0f}  {replayed:>14,.0f}  "
            f"{rl_text:>14}"
        )
    if missing:
        print("RLCard column skipped: rlcard is not installed (pip install -e '.[bench]').")
    else:
        print("RLCard plays a simplified hand (no +4 challenge, no UNO call, no scoring).")


if __name__ == "__main__":
    main()

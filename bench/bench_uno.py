"""UNO throughput: hands simulated and replayed per second (a benchmark, not a test).

For 2 and 4 players it simulates seeded whole games (the bots, full rules: challenges,
catches, UNO calls, scoring to 500) until about ``--hands`` hands are played, then
serialises the logs to JSON Lines and times replaying them *including JSON parsing*
(``replay_text``), in CPU seconds of this process (other load on the machine distorts
it less); every rate is the best of ``--repeat`` runs. Two baselines from the same run:

* a plain replayer (``bench/plain_uno.py``: written from ``docs/rules/uno.md`` alone,
  straightforward, the standard library's ``json`` a line at a time) on the same logs,
  its runs alternating with the engine's. Before timing, both replay every log and must agree on its
  scores, placements and event count, and on a corrupted copy of every log (one event
  changed) both must refuse the same line, so the baseline checks what the engine
  checks;
* RLCard's UNO: its raw game loop (``rlcard.games.uno.game.UnoGame``: ``init_game``,
  then random legal actions until ``is_over``) playing its simplified hand (no
  challenge, no UNO call, no scoring), as many hands as ours, its runs alternating with
  our simulation's. RLCard is optional: ``pip install -e
  '.[bench]'``; without it that column is skipped with a note.

The load of the machine (``os.getloadavg``) is printed before and after.

    .venv/bin/python bench/bench_uno.py [--hands 2000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from plain_uno import PlainError, PlainUno  # noqa: E402

from games.engine import EngineError, jsonio, replay_text, simulate  # noqa: E402


def best_time(run, logs: list[bytes], repeat: int) -> float:
    """The best of ``repeat`` CPU times of ``run`` over every log."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        for text in logs:
            run(text)
        best = min(best, time.process_time() - t0)
    return best


def corrupt(log: list[dict], rng: random.Random) -> list[dict]:
    """A copy of ``log`` with one event after the deal changed the way a scorekeeper
    might get it wrong: another player, another card, a draw instead of a pass, a
    missing colour, a card drawn that is not the next."""
    log = [dict(e) for e in log]
    while True:
        i = rng.randrange(2, len(log))
        event = log[i]
        kind = event["type"]
        if kind == "play":
            change = rng.choice(("player", "card", "color"))
            if change == "player":
                others = [p for p in log[0]["players"] if p != event["player"]]
                event["player"] = rng.choice(others)
            elif change == "card":
                event["card"] = rng.choice(("R1", "G7", "BS", "YD", "W", "W4", "B0"))
                event.pop("color", None)
                if event["card"][0] == "W":
                    event["color"] = "R"
            elif "color" in event:
                del event["color"]
            else:
                event["color"] = "G"
        elif kind == "draw" and event.get("cards"):
            event["cards"] = list(reversed(event["cards"])) + ["R1"]
        elif kind == "pass":
            event["type"] = "challenge"
        else:
            continue
        return log


def check_agreement(
    logs: list[list[dict]],
    texts: list[bytes],
    seed: int,
    *,
    plain: Any = PlainUno,
    plain_error: type[Exception] = PlainError,
    corrupt: Callable[[list[dict], random.Random], list[dict]] = corrupt,
) -> int:
    """Both replay every log to the same result, and refuse the same line of a corrupted
    copy of it (``corrupt``); returns the number of corrupted logs checked
    (AssertionError if not). ``plain``: the plain replayer (``replay_text``), whose
    refusals are ``plain_error`` (UNO's by default; bench_casino passes Casino's)."""
    rng = random.Random(seed)
    for log, text in zip(logs, texts, strict=True):
        ours = replay_text(text).summary()
        theirs = plain.replay_text(text)
        assert (ours["scores"], ours["placements"], ours["events"]) == (
            theirs.scores,
            theirs.placements,
            theirs.events,
        ), "the plain replayer disagrees with the engine"
        bad = "".join(jsonio.dumps(e) + "\n" for e in corrupt(log, rng)).encode()
        lines = []
        for run, error in ((replay_text, EngineError), (plain.replay_text, plain_error)):
            try:
                run(bad)
                lines.append(None)
            except error as exc:
                lines.append(int(str(exc).split(":")[0].split()[-1]))
        assert lines[0] == lines[1], f"refused at line {lines[0]} (engine), {lines[1]} (plain)"
    return len(logs)


def simulate_hands(players: int, hands: int) -> tuple[list[list[dict]], int, int]:
    """Seeded whole games from seed 0 on until about ``hands`` hands are played: the
    logs, the hands and the events."""
    logs: list[list[dict]] = []
    played = events = 0
    seed = 0
    while played < hands:
        log = simulate("uno", players=players, seed=seed)
        seed += 1
        played += sum(1 for e in log if e["type"] == "deal")
        events += len(log)
        logs.append(log)
    return logs, played, events


def ours(players: int, hands: int, repeat: int) -> dict[str, float]:
    """Hands simulated and replayed a second, the plain replayer's and RLCard's rates,
    hands, events. Each is timed ``repeat`` times, the kinds alternating (so that a
    change of load hits them alike), and the best is kept."""
    sim = engine = plain = rl = float("inf")
    rl_missing = False
    for _ in range(repeat):
        t0 = time.process_time()
        logs, played, events = simulate_hands(players, hands)
        sim = min(sim, time.process_time() - t0)
        rate = rlcard_rate(players, hands)
        rl_missing = rate is None
        if rate is not None:
            rl = min(rl, hands / rate)
    texts = ["".join(jsonio.dumps(e) + "\n" for e in log).encode() for log in logs]
    checked = check_agreement(logs, texts, players)
    for _ in range(repeat):
        engine = min(engine, best_time(replay_text, texts, 1))
        plain = min(plain, best_time(PlainUno.replay_text, texts, 1))
    return {
        "hands": played,
        "events": events,
        "sim": played / sim,
        "replay": played / engine,
        "plain": played / plain,
        "rlcard": float("nan") if rl_missing else hands / rl,
        "checked": checked,
    }


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


def load() -> str:
    """The machine's load average (1, 5, 15 minutes), for the figures beside it."""
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=2000, help="hands per row (about)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each (best is kept)")
    args = parser.parse_args()
    print(f"UNO: about {args.hands} hands per row, CPU seconds of this process ({load()})")
    print(
        f"{'players':>7}  {'hands':>6}  {'events':>7}  {'sim hands/s':>11}  "
        f"{'replay hands/s':>14}  {'plain replay':>12}  {'x plain':>7}  "
        f"{'RLCard hands/s':>14}  {'sim x RLCard':>12}  {'replay x RLCard':>15}"
    )
    missing = False
    checked = 0
    for players in (2, 4):
        r = ours(players, args.hands, args.repeat)
        checked += int(r["checked"])
        rl = None if r["rlcard"] != r["rlcard"] else r["rlcard"]  # (NaN: not installed)
        missing = missing or rl is None
        rl_text = "-" if rl is None else f"{rl:,.0f}"
        sim_x = "-" if rl is None else f"{r['sim'] / rl:.2f}"
        replay_x = "-" if rl is None else f"{r['replay'] / rl:.2f}"
        print(
            f"{players:>7}  {r['hands']:>6}  {r['events']:>7}  {r['sim']:>11,.0f}  "
            f"{r['replay']:>14,.0f}  {r['plain']:>12,.0f}  {r['replay'] / r['plain']:>7.2f}  "
            f"{rl_text:>14}  {sim_x:>12}  {replay_x:>15}"
        )
    print(
        f"plain: bench/plain_uno.py (stdlib json, written from the rules); it agreed with "
        f"the engine on every log and refused the same line of {checked} corrupted logs."
    )
    if missing:
        print("RLCard column skipped: rlcard is not installed (pip install -e '.[bench]').")
    else:
        print("RLCard plays a simplified hand (no +4 challenge, no UNO call, no scoring).")
    print(f"after: {load()}")


if __name__ == "__main__":
    main()

"""An independent review of the Casino engine against issue 14 and the seed's rules.

The first test is a second, deliberately naive implementation of the issue's rules
(a reference model written from the issue text, not from the engine): it follows the
bots' logs event by event and compares every ``summary()`` with its own idea of the
game. The others are adversarial hand-written edge cases the rule tests do not cover,
and hostile input that must answer one line, never a traceback.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import games.engine as engine
from games.engine.errors import EngineError
from tests.engine.casino_helpers import (
    build,
    call,
    capture,
    center,
    deal,
    new_game,
    refused,
    trail,
)

# -- a reference model, from the issue text --------------------------------------------------
SUITS = "SHDC"
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
DECK = [r + s for s in SUITS for r in RANKS]


def value(card: str) -> int | None:
    """A card's number (ace 1); ``None`` for a face card or anything else."""
    rank = card[:-1]
    return None if card not in DECK or rank in "JQK" else RANKS.index(rank) + 1


class Reference:
    """Casino as issue 14 words it, for legal logs only (no checks but the trail
    restriction, which it reports)."""

    def __init__(self, start: dict[str, Any]) -> None:
        self.players = list(start["players"])
        self.n = len(self.players)
        self.seed = start.get("seed")
        self.target = start.get("target", 21)
        self.dealer = self.players.index(start.get("dealer", self.players[0]))
        self.round = 0
        self.turn: int | None = None
        self.hands: list[list[str]] = [[] for _ in self.players]
        self.loose: list[str] = []
        self.builds: dict[str, dict[str, Any]] = {}  # insertion order = creation order
        self.made = 0
        self.piles: list[list[str]] = [[] for _ in self.players]
        self.last: int | None = None
        self.deals = 0
        self.pos = 0
        self.deck: list[str] = []
        self.round_scores: list[dict[str, dict[str, int]]] = []
        self.scores = [0] * self.n
        self.over = False
        self.previous: dict[int, str | None] = {}  # seat -> build made in their last turn

    def deal(self, event: dict[str, Any]) -> None:
        first = "center" in event or self.deals == {2: 6, 3: 4, 4: 3}[self.n] or not self.round
        if first:
            if self.round:
                self.dealer = (self.dealer + 1) % self.n
            self.round += 1
            self.deals, self.pos = 0, 0
            self.loose, self.builds = [], {}
            self.piles = [[] for _ in self.players]
            self.last = None
            if self.seed is not None:
                self.deck = list(DECK)
                random.Random(f"{self.seed}/{self.round}").shuffle(self.deck)
        order = [(self.dealer + 1 + k) % self.n for k in range(self.n)]
        for p in order:
            if self.seed is not None:
                self.hands[p] = self.deck[self.pos : self.pos + 4]
                self.pos += 4
            if "hands" in event:
                self.hands[p] = list(event["hands"][self.players[p]])
        if first:
            cards = event.get("center") or self.deck[self.pos : self.pos + 4]
            self.pos += 4
            self.loose = list(cards)
        self.deals += 1
        self.turn = order[0]

    def play(self, event: dict[str, Any]) -> None:
        p = self.players.index(event["player"])
        assert p == self.turn
        card = event["card"]
        self.hands[p].remove(card)
        made = None
        if event["type"] == "capture":
            for item in event["take"]:
                if isinstance(item, str):
                    self.piles[p] += self.builds.pop(item)["cards"]
                else:
                    for c in item:
                        self.loose.remove(c)
                    self.piles[p] += item
            self.piles[p].append(card)
            self.last = p
        elif event["type"] == "trail":
            assert self.previous.get(p) not in self.builds, "a forbidden trail was accepted"
            self.loose.append(card)
        else:
            items = event["with"] if event["type"] == "build" else sum(event["groups"], [])
            cards = []
            for item in items:
                if item == card:
                    continue
                if item in self.builds:
                    cards += self.builds.pop(item)["cards"]
                else:
                    self.loose.remove(item)
                    cards.append(item)
            self.made += 1
            made = f"b{self.made}"
            self.builds[made] = {
                "id": made,
                "value": event["value"],
                "owner": event["player"],
                "called": event["type"] == "call",
                "cards": sorted([card, *cards], key=lambda c: (value(c), SUITS.index(c[-1]))),
            }
        self.previous[p] = made
        if any(self.hands):
            self.turn = (p + 1) % self.n
            return
        self.turn = None
        if self.deals == {2: 6, 3: 4, 4: 3}[self.n]:
            self.end_round()

    def end_round(self) -> None:
        if self.last is not None:
            self.piles[self.last] += self.loose
            for b in self.builds.values():
                self.piles[self.last] += b["cards"]
            self.loose, self.builds = [], {}
        counts = [len(x) for x in self.piles]
        spades = [sum(c.endswith("S") for c in x) for x in self.piles]
        row = {}
        for p, name in enumerate(self.players):
            pile = self.piles[p]
            r = {
                "cards": 3 if counts[p] == max(counts) and counts.count(max(counts)) == 1 else 0,
                "spades": 1 if spades[p] == max(spades) and spades.count(max(spades)) == 1 else 0,
                "big_casino": 2 if "10D" in pile else 0,
                "little_casino": 1 if "2S" in pile else 0,
                "aces": sum(c.startswith("A") for c in pile),
            }
            r["total"] = sum(r.values())
            row[name] = r
            self.scores[p] += r["total"]
        self.round_scores.append(row)
        best = max(self.scores)
        self.over = best >= self.target and self.scores.count(best) == 1

    def summary_part(self) -> dict[str, Any]:
        names = self.players
        places = None
        if self.over:
            places = {
                q: 1 + sum(s > self.scores[i] for s in self.scores) for i, q in enumerate(names)
            }
        return {
            "round": self.round,
            "dealer": names[self.dealer],
            "turn": None if self.turn is None or self.over else names[self.turn],
            "center": {"cards": list(self.loose), "builds": list(self.builds.values())},
            "hands": {q: list(h) for q, h in zip(names, self.hands, strict=True)},
            "captured": {q: len(x) for q, x in zip(names, self.piles, strict=True)},
            "last_capture": None if self.last is None else names[self.last],
            "round_scores": self.round_scores,
            "scores": dict(zip(names, self.scores, strict=True)),
            "placements": places,
            "status": "finished" if self.over else "in_progress",
        }


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_reference_model_from_the_issue_agrees_event_by_event(players):
    """Every summary of 40 bot games per player count, seeded (the deals left to the
    seed) and unseeded (every card named), equals the reference model's."""
    rounds = builds = calls = later = 0
    for seed in range(40):
        log = engine.simulate(
            "casino",
            players=players,
            seed=1000 + seed,
            dealer=("ana", "ben", "cai", "dan")[seed % players],
        )
        for seeded in (True, False):
            start = dict(log[0]) if seeded else {k: v for k, v in log[0].items() if k != "seed"}
            g = engine.start(start)
            ref = Reference(start)
            for event in log[1:]:
                if seeded and event["type"] == "deal":
                    event = {"type": "deal"}
                g.push(event)
                if event["type"] == "deal":
                    ref.deal(event)
                else:
                    ref.play(event)
                    builds += event["type"] == "build"
                    calls += event["type"] == "call"
                    later += event["type"] in ("build", "call") and ref.round > 1
                s = g.summary()
                expected = ref.summary_part()
                assert {k: s[k] for k in expected} == expected, (seed, seeded, event)
            assert g.is_over and ref.over
            rounds += ref.round
    assert rounds > 40 and builds > 100 and calls > 10 and later > 50


# -- a legality oracle, from the issue text ----------------------------------------------------
def legal_by_the_issue(s: dict[str, Any], made: str | None, ev: dict[str, Any]) -> bool:
    """Whether issue 14 allows play ``ev`` of the player to move in summary ``s``;
    ``made``: the build that player made in their previous turn (or ``None``)."""
    hand = s["hands"][s["turn"]]
    card = ev["card"]
    loose = s["center"]["cards"]
    builds = {b["id"]: b for b in s["center"]["builds"]}
    if card not in hand:
        return False
    if ev["type"] == "trail":
        return made is None or made not in builds
    if ev["type"] == "capture":
        take = ev["take"]
        if value(card) is None:
            return (
                len(take) == 1
                and isinstance(take[0], list)
                and len(take[0]) == 1
                and take[0][0] in loose
                and take[0][0][:-1] == card[:-1]
            )
        named: list[str] = []
        for item in take:
            if isinstance(item, str):
                if item not in builds or builds[item]["value"] != value(card):
                    return False
                named.append(item)
            else:
                if any(c not in loose or value(c) is None for c in item):
                    return False
                if sum(value(c) for c in item) != value(card):  # type: ignore[misc]
                    return False
                named += item
        return bool(take) and len(named) == len(set(named))

    def worth(item: str) -> int | None:  # a part of a build or a call
        if item in builds:
            return None if builds[item]["called"] else builds[item]["value"]
        return value(item) if item in loose else None

    v = ev["value"]
    rest = [c for c in hand if c != card]
    if value(card) is None or not any(value(c) == v for c in rest):
        return False
    if ev["type"] == "build":
        items = ev["with"]
        if card in items or len(set(items)) != len(items) or not 2 <= v <= 10:
            return False
        parts = [worth(x) for x in items]
        return None not in parts and value(card) + sum(parts) == v  # type: ignore[operator,arg-type]
    groups = ev["groups"]
    flat = [x for group in groups for x in group]
    if len(groups) < 2 or flat.count(card) != 1 or len(set(flat)) != len(flat) or not 1 <= v <= 10:
        return False
    for group in groups:
        parts = [value(card) if x == card else worth(x) for x in group]
        if None in parts or sum(parts) != v:  # type: ignore[arg-type]
            return False
    return True


def _candidates(s: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    """Plays, legal or not, made of the hand, the center and a few strangers."""
    hand = s["hands"][s["turn"]]
    ids = [b["id"] for b in s["center"]["builds"]] + ["b99"]
    cards = s["center"]["cards"] + ["AS", "5H", "10D", "KC"]
    worths = {b["id"]: b["value"] for b in s["center"]["builds"]}
    out = []
    for _ in range(60):
        card = rng.choice(hand) if rng.random() < 0.9 else rng.choice(["2S", "QH", "7C"])
        base = {"player": s["turn"], "card": card}
        names = [*cards, *ids, card]

        def some(k: int, names: list[str] = names) -> list[str]:
            return [rng.choice(names) for _ in range(k)]

        kind = rng.choice(["capture", "build", "call", "trail"])
        if kind == "trail":
            out.append({"type": kind, **base})
        elif kind == "capture":
            take = [
                rng.choice(ids) if rng.random() < 0.3 else rng.sample(cards, rng.randint(1, 3))
                for _ in range(rng.randint(1, 3))
            ]
            out.append({"type": kind, **base, "take": take})
        else:
            groups = [[card, *some(rng.randint(0, 2))]] + [
                some(rng.randint(1, 3)) for _ in range(rng.randint(1, 3))
            ]
            first = groups[0] if kind == "call" else groups[0][1:] or some(1)
            total = sum(worths.get(x, value(x) or 0) for x in first) + (kind == "build") * (
                value(card) or 0
            )
            v = total if rng.random() < 0.7 else rng.randint(0, 11)
            if kind == "build":
                out.append({"type": kind, **base, "with": first, "value": v})
            else:
                rng.shuffle(groups)
                out.append({"type": kind, **base, "groups": groups, "value": v})
    return out


def test_the_engine_accepts_exactly_what_the_issue_allows():
    """Thousands of plays, legal and not, in the states of nine seeded games: the engine
    accepts a play exactly when the oracle written from the issue does."""
    from games.engine.casino.bots import choose

    rng = random.Random(14)
    checked = accepted = 0
    for seed in range(9):
        g = new_game(("a", "b", "c", "d")[: 2 + seed % 3], seed=seed)
        made: dict[str, str | None] = {}
        bots = random.Random(seed)
        while not g.is_over:
            if g.turn is None:
                g.push({"type": "deal"})
                continue
            s = g.summary()
            for ev in _candidates(s, rng) + g.legal_moves()[:30]:
                expected = legal_by_the_issue(s, made.get(s["turn"]), ev)
                try:
                    g.copy().push(ev)
                    got = True
                except EngineError:
                    got = False
                assert got == expected, (ev, s["center"], s["hands"][s["turn"]])
                checked += 1
                accepted += got
            move = choose(g.legal_moves(), bots, 0.5)
            before = {b["id"] for b in center(g)["builds"]}
            g.push(move)
            new = [b["id"] for b in center(g)["builds"] if b["id"] not in before]
            made[move["player"]] = new[0] if move["type"] in ("build", "call") else None
    assert checked > 50_000 and accepted > 5_000 and checked - accepted > 20_000


# -- adversarial edge cases -------------------------------------------------------------------
def test_a_build_may_gather_several_builds_of_different_owners_and_loose_cards():
    g = new_game(("a", "b", "c"))
    deal(
        g,
        ["AH", "2C", "QS", "QH"],
        b=["AS", "3S", "9D", "2H"],
        c=["2D", "4C", "9H", "KD"],
        a=["9C", "10H", "JH", "JS"],
    )
    build(g, "b", "AS", ["AH"], 2)  # b1 = 2 (b)
    build(g, "c", "2D", ["2C"], 4)  # b2 = 4 (c)
    trail(g, "a", "JH")
    # b gathers c's b2, its own b1 and its 3: 2 + 4 + 3 = 9, held (9D).
    build(g, "b", "3S", ["b2", "b1"], 9)
    assert center(g)["builds"] == [
        {
            "id": "b3",
            "value": 9,
            "owner": "b",
            "called": False,
            "cards": ["AS", "AH", "2D", "2C", "3S"],
        }
    ]
    capture(g, "c", "9H", "b3")
    assert g.summary()["captured"]["c"] == 6 and center(g)["builds"] == []


def test_several_builds_of_one_value_are_taken_at_once_with_loose_cards():
    g = new_game()
    deal(g, ["AH", "2C", "3D", "5C"], b=["4S", "5S", "5H", "JC"], a=["3C", "2H", "JD", "5D"])
    build(g, "b", "4S", ["AH"], 5)  # b1
    build(g, "a", "3C", ["2C"], 5)  # b2, a holds 5D
    refused(
        g,
        {"type": "capture", "player": "b", "card": "5S", "take": ["b1", "b2", "b1"]},
        "b1 is taken twice",
    )
    refused(
        g,
        {"type": "capture", "player": "b", "card": "5S", "take": ["b1", ["5C"], ["5C"]]},
        "5C is taken twice",
    )
    capture(g, "b", "5S", "b2", "b1", ["5C"])
    s = g.summary()
    assert s["captured"] == {"a": 0, "b": 6} and s["center"] == {"cards": ["3D"], "builds": []}


def test_a_call_of_three_groups_with_a_raised_build_and_an_aces_call():
    g = new_game()
    deal(g, ["AH", "2C", "4D", "6S"], b=["3S", "6H", "6D", "4C"], a=["AC", "AD", "JD", "QD"])
    build(g, "b", "3S", ["AH"], 4)  # b1 = 4
    refused(
        g,
        {"type": "call", "player": "a", "card": "AC", "groups": [["AC"], ["AH"]], "value": 1},
        "AH is not loose",
    )
    trail(g, "a", "JD")
    # 6H + (b1 + 2C) + 6S: three groups of six, one holding the played card.
    refused(
        g,
        {
            "type": "call",
            "player": "b",
            "card": "6H",
            "groups": [["6H"], ["b1", "2C"], ["6S"], ["6S"]],
            "value": 6,
        },
        "6S is named twice",
    )
    call(g, "b", "6H", [["6H"], ["b1", "2C"], ["6S"]], 6)
    assert center(g)["builds"] == [
        {
            "id": "b2",
            "value": 6,
            "owner": "b",
            "called": True,
            "cards": ["AH", "2C", "3S", "6S", "6H"],
        }
    ]
    # nobody extends it, not even the caller with a group of its own value
    refused(
        g,
        {"type": "call", "player": "a", "card": "QD", "groups": [["QD"], ["b2"]], "value": 6},
        "never part of a call",
    )
    trail(g, "a", "QD")
    refused(
        g,
        {"type": "trail", "player": "b", "card": "4C"},
        "made build b2 in their previous turn",
    )
    refused(
        g,
        {"type": "call", "player": "b", "card": "6D", "groups": [["6D"], ["b2"]], "value": 6},
        "b2 is a called build of 6: nobody can raise or extend it",
    )
    capture(g, "b", "6D", "b2")


def test_the_trail_restriction_follows_the_latest_build_only():
    """Two builds in a row: the restriction is about the build of the previous turn;
    the older one does not count, and a raise of one's own build is a new build."""
    g = new_game()
    deal(g, ["AH", "2C", "KS", "KH"], b=["3S", "4D", "7H", "5H"], a=["JC", "JD", "JH", "JS"])
    build(g, "b", "4D", ["AH"], 5)  # b1 = 5 (b holds 5H)
    trail(g, "a", "JC")
    build(g, "b", "3S", ["2C"], 5)  # b2 = 5, b1 still there too
    trail(g, "a", "JD")
    refused(g, {"type": "trail", "player": "b", "card": "7H"}, "made build b2")
    capture(g, "b", "5H", "b1")  # takes the older build; b2 stays
    trail(g, "a", "JH")
    # the previous turn was a capture: trailing is allowed although b2 is still there
    trail(g, "b", "7H")
    assert [b["id"] for b in center(g)["builds"]] == ["b2"]


def test_a_build_held_only_by_the_played_card_and_values_out_of_range_are_refused():
    g = new_game()
    deal(g, ["AH", "2C", "KS", "10H"], b=["8S", "9D", "7H", "5H"], a=["JC", "JD", "JH", "JS"])
    bad = {"type": "build", "player": "b"}
    # 7H + AH = 8: b holds 8S; but 8S + 2C = 10 is not held, and 9D + AH = 10 neither
    refused(g, {**bad, "card": "8S", "with": ["2C"], "value": 10}, "b may build 10 only")
    refused(g, {**bad, "card": "9D", "with": ["AH", "10H"], "value": 20}, "worth 2 to 10")
    refused(g, {**bad, "card": "9D", "with": ["KS"], "value": 9}, "KS has no number")
    refused(g, {**bad, "card": "8S", "with": ["8S"], "value": 10}, "8S is the card played")
    build(g, "b", "7H", ["AH"], 8)
    assert center(g)["builds"][0]["owner"] == "b"


def test_before_the_first_deal_every_player_is_named_and_nobody_plays():
    g = new_game(("a", "b", "c"), dealer="c")
    s = g.summary()
    assert s["hands"] == dict.fromkeys("abc", []) and s["captured"] == dict.fromkeys("abc", 0)
    assert s["scores"] == dict.fromkeys("abc", 0) and s["round"] == 0 and s["dealer"] == "c"
    assert s["turn"] is None and s["last_capture"] is None
    assert s["center"] == {"cards": [], "builds": []}


# -- hostile input --------------------------------------------------------------------------
def _hostile_game():
    g = new_game()
    deal(g, ["3H", "4D", "7C", "KS"], b=["7S", "2H", "5C", "9D"], a=["AS", "8H", "6D", "KH"])
    build(g, "b", "2H", ["3H"], 5)  # b1 = 5
    trail(g, "a", "KH")
    return g


HOSTILE = [
    {"type": "capture", "player": "b", "card": "7S", "take": [["7C"]] * 100_000},
    {"type": "capture", "player": "b", "card": "7S", "take": [["4D", "4D"]]},
    {"type": "capture", "player": "b", "card": "5C", "take": ["b1", "b1"]},
    {"type": "capture", "player": "b", "card": "5C", "take": [["b1"]]},
    {"type": "capture", "player": "b", "card": "7S", "take": [[7]]},
    {"type": "capture", "player": "b", "card": "7S", "take": [[None]]},
    {"type": "capture", "player": "b", "card": "7S", "take": [[["7C"]]]},
    {"type": "capture", "player": "b", "card": "7S", "take": {"7C": 1}},
    {"type": "capture", "player": "b", "card": "7S", "take": "7C"},
    {"type": "capture", "player": "b", "card": "KS", "take": [["KS"]]},
    {"type": "capture", "player": "b", "card": "7S", "take": [["7C"]], 1: 2, "x": 3},
    {"type": "build", "player": "b", "card": "5C", "with": ["b1", "b1"], "value": 10},
    {"type": "build", "player": "b", "card": "5C", "with": ["b1"], "value": True},
    {"type": "build", "player": "b", "card": "5C", "with": ["b1"], "value": 10.0},
    {"type": "build", "player": "b", "card": "5C", "with": [["b1"]], "value": 10},
    {"type": "build", "player": "b", "card": "5C", "with": ["b1"] * 100_000, "value": 10},
    {"type": "build", "player": "b", "card": "5C", "with": ["b0"], "value": 10},
    {"type": "build", "player": "b", "card": "5C", "with": ["b01"], "value": 10},
    {"type": "call", "player": "b", "card": "5C", "groups": [["5C"], ["b1"], ["b1"]], "value": 5},
    {"type": "call", "player": "b", "card": "7S", "groups": [["7S"], ["7C"], ["7C"]], "value": 7},
    {"type": "call", "player": "b", "card": "7S", "groups": [["7S"], ["7S"]], "value": 7},
    {"type": "call", "player": "b", "card": "7S", "groups": [["7S"], ["7C", 7]], "value": 7},
    {"type": "call", "player": "b", "card": "7S", "groups": [["7S"], "7C"], "value": 7},
    {"type": "call", "player": "b", "card": "7S", "groups": [["7S"], ["7C"]], "value": False},
    {"type": "call", "player": "b", "card": "7S", "groups": [["7S"]] * 100_000, "value": 7},
    {"type": "trail", "player": "b", "card": 7},
    {"type": "trail", "player": "b", "card": ["7S"]},
    {"type": "trail", "player": ["b"], "card": "7S"},
    {"type": "trail", "player": True, "card": "7S"},
    {"type": ["trail"], "player": "b", "card": "7S"},
    {"type": "deal", "hands": {1: ["AS"]}},
    {"type": "end", "reason": "time", "placements": {"a": True, "b": 1}},
    {"type": "end", "reason": "time", "placements": {"a": 1, "b": 2, 3: 3}},
    {"type": "end", "reason": "time", "referee": 7},
    {"type": "round", "scores": {"a": {}, "b": {}}},
]


@pytest.mark.parametrize("event", HOSTILE, ids=range(len(HOSTILE)))
def test_hostile_events_answer_one_line_and_change_nothing(event):
    g = _hostile_game()
    kind = engine.InvalidEvent if type(event.get("type")) is not str else EngineError
    refused(g, event, kind=kind)


@pytest.mark.parametrize(
    "scores",
    [
        {"a": {"aces": True}, "b": {}},
        {"a": {"aces": 4.0}, "b": {}},
        {"a": {"aces": 4, 5: 1}, "b": {}},
        {"a": {"aces": 4}, "b": {}, 3: {}},
        {"a": {"aces": 4}, "b": None},
        {"a": {"aces": 4, "big_casino": 2, "little_casino": 1, "cards": -3}, "b": {}},
        [["a", {}]],
    ],
)
def test_hostile_sheet_lines_answer_one_line(scores):
    g = new_game(sheet=True)
    refused(g, {"type": "round", "scores": scores}, kind=EngineError)


def test_sheet_rounds_real_play_can_give_are_accepted_and_a_three_way_race_plays_on():
    g = new_game(("a", "b", "c", "d"), sheet=True, dealer="c")
    # most cards and most spades tied (nobody scores them), every ace to one player
    g.push(
        {
            "type": "round",
            "scores": {
                "a": {"aces": 4},
                "b": {"big_casino": 2},
                "c": {"little_casino": 1},
                "d": {},
            },
        }
    )
    s = g.summary()
    assert s["scores"] == {"a": 4, "b": 2, "c": 1, "d": 0} and s["dealer"] == "c"
    assert s["round_scores"][0]["d"] == dict.fromkeys(
        ["cards", "spades", "big_casino", "little_casino", "aces", "total"], 0
    )
    full = {"cards": 3, "spades": 1, "big_casino": 2, "little_casino": 1, "aces": 4}
    g.push({"type": "round", "scores": {"a": full, "b": {}, "c": {}, "d": {}}})
    assert g.summary()["dealer"] == "d"  # the left of c
    g.push({"type": "round", "scores": {"a": {}, "b": full, "c": {}, "d": {}}})
    assert g.summary()["dealer"] == "a"
    # a and b reach 15 and 13: the target (21) is not reached, the game goes on
    assert g.summary()["status"] == "in_progress"
    g.push({"type": "round", "scores": {"a": {}, "b": full, "c": {}, "d": {}}})
    s = g.summary()  # b reaches 24 alone at the top
    assert s["scores"] == {"a": 15, "b": 24, "c": 1, "d": 0} and s["status"] == "finished"
    assert s["placements"] == {"a": 2, "b": 1, "c": 3, "d": 4}
    refused(g, {"type": "round", "scores": {"a": full, "b": {}, "c": {}, "d": {}}}, "over")


def test_a_tie_at_the_top_above_the_target_plays_on_but_a_tie_below_it_does_not_matter():
    g = new_game(("a", "b", "c"), sheet=True, target=11)
    full = {"cards": 3, "spades": 1, "big_casino": 2, "little_casino": 1, "aces": 4}
    seven = {"cards": 3, "spades": 1, "big_casino": 2, "little_casino": 1}
    g.push({"type": "round", "scores": {"a": seven, "b": {"aces": 4}, "c": {}}})
    g.push({"type": "round", "scores": {"a": {"aces": 4}, "b": seven, "c": {}}})
    assert g.summary()["scores"] == {"a": 11, "b": 11, "c": 0}
    assert g.summary()["status"] == "in_progress"  # a tie at the top plays on
    g.push({"type": "round", "scores": {"a": {"aces": 1}, "b": {}, "c": {**full, "aces": 3}}})
    s = g.summary()  # a 12 wins; b 11, c 10
    assert s["status"] == "finished" and s["placements"] == {"a": 1, "b": 2, "c": 3}
    h = new_game(("a", "b", "c"), sheet=True, target=11)
    h.push({"type": "round", "scores": {"a": full, "b": {}, "c": {}}})
    assert h.summary()["placements"] == {"a": 1, "b": 2, "c": 2}  # ties below share a place


@pytest.mark.parametrize("max_events", [2, 3, 4, 11])
def test_a_simulation_cut_short_right_after_a_deal_still_replays(max_events):
    """The safety-net ``end`` may follow a deal at once: it must not carry the deal's
    cards (the cards named by the last event are those of that event only)."""
    log = engine.simulate("casino", players=2, seed=1, max_events=max_events)
    assert log[-1] == {"type": "end", "reason": "time"}
    assert engine.replay(log).summary()["end"] == {"event": len(log), "reason": "time"}
    g = new_game(seed=1)
    g.push({"type": "deal"})
    assert g.named_event({"type": "end", "reason": "time"}) == {"type": "end", "reason": "time"}
    g.push({"type": "end", "reason": "time"})
    assert g._named == {}

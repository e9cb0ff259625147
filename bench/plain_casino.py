"""A plain Casino replayer: the benchmark's baseline for the engine (not used by the site).

Written from ``docs/rules/casino.md`` alone, independently of ``games/engine/casino/``,
in a straightforward style on purpose: the standard library's ``json`` one line at a
time, one method per event type, every check written out where it applies, no caching,
no fast paths. It replays the logs ``bench/bench_casino.py`` replays (the bots' logs:
seeded or unseeded ``deal``, ``capture``, ``build``, ``call``, ``trail``, and an
``end``) and checks what the engine checks of them: the fields of every event, whose
turn it is, the card in hand, the seeded deals (or, unseeded, that no card is dealt
twice in a round), every capture's sums and builds, a build's or a call's value and the
card still held, called builds never raised, the trail restriction, the last capture's
sweep, the scoring of each round and the end at the target. Score sheets, undo and
corrections are not replayed here (``PlainError`` says so): the benchmark's logs have
none.

    PlainCasino.replay_text(text) -> PlainCasino   # raises PlainError("line N: reason")
"""

from __future__ import annotations

import json
import random

SUITS = ["S", "H", "D", "C"]
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
DECK = [rank + suit for suit in SUITS for rank in RANKS]

EVENT_FIELDS = {
    "deal": {"type", "hands", "center"},
    "capture": {"type", "player", "card", "take"},
    "build": {"type", "player", "card", "with", "value"},
    "call": {"type", "player", "card", "groups", "value"},
    "trail": {"type", "player", "card"},
    "end": {"type", "reason", "referee", "placements"},
}


class PlainError(Exception):
    """A log the plain replayer refuses."""


def number(card: str) -> int | None:
    """Ace 1, number cards their value, face cards ``None``."""
    rank = card[:-1]
    if rank in ("J", "Q", "K"):
        return None
    return RANKS.index(rank) + 1


def is_build_id(item: object) -> bool:
    return (
        isinstance(item, str)
        and len(item) > 1
        and item[0] == "b"
        and item[1:].isdigit()
        and item[1] != "0"
    )


def check_cards(value: object, what: str) -> list[str]:
    if not isinstance(value, list):
        raise PlainError(f"{what} must be a list of cards")
    for card in value:
        if card not in DECK:
            raise PlainError(f"{what}: {card!r} is not a card")
    return value


class PlainCasino:
    def __init__(self, start: dict) -> None:
        if not isinstance(start, dict) or start.get("type") != "start":
            raise PlainError("the first line must be a start event")
        for key in start:
            if not key.startswith("_") and key not in (
                "type", "game", "players", "dealer", "target", "seed", "sheet"
            ):  # fmt: skip
                raise PlainError(f"unknown field {key}")
        if start.get("game") != "casino":
            raise PlainError("not a Casino game")
        if start.get("sheet"):
            raise PlainError("score sheets are not replayed by the plain baseline")
        players = start.get("players")
        if not isinstance(players, list) or not 2 <= len(players) <= 4:
            raise PlainError("players must be a list of 2 to 4 names")
        for name in players:
            if not isinstance(name, str) or not name.strip():
                raise PlainError("a player's name must be a non-empty string")
        if len(set(players)) != len(players):
            raise PlainError("player names must be unique")
        self.players = list(players)
        self.n = len(players)
        dealer = start.get("dealer", players[0])
        if dealer not in players:
            raise PlainError("the dealer must be a player")
        self.dealer = players.index(dealer)
        self.target = start.get("target", 21)
        if type(self.target) is not int or self.target < 1:
            raise PlainError("target must be a positive integer")
        self.seed = start.get("seed")
        if self.seed is not None and not (type(self.seed) is int or isinstance(self.seed, str)):
            raise PlainError("seed must be an integer or a string")
        self.round = 0
        self.deals = 0
        self.deck: list[str] = []
        self.dealt: list[str] = []
        self.hands = {name: [] for name in players}
        self.loose: list[str] = []
        self.builds: list[dict] = []  # {"id", "value", "owner", "called", "cards"}
        self.next_build = 1
        self.captured = {name: [] for name in players}
        self.last_capture: str | None = None
        self.made = {name: None for name in players}
        self.phase = "round"  # round, deal, play, over
        self.current = 0
        self.scores = {name: 0 for name in players}
        self.placements: dict[str, int] | None = None
        self.events = 1

    # ---------------------------------------------------------------- replay
    @classmethod
    def replay_text(cls, text: str | bytes) -> PlainCasino:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        lines = text.rstrip().split("\n")
        game = None
        for line_number, line in enumerate(lines, 1):
            try:
                event = json.loads(line)
                if game is None:
                    game = cls(event)
                else:
                    game.push(event)
            except PlainError as exc:
                raise PlainError(f"line {line_number}: {exc}") from None
            except ValueError as exc:
                raise PlainError(f"line {line_number}: malformed JSON ({exc})") from None
        if game is None:
            raise PlainError("line 1: empty log")
        return game

    def push(self, event: dict) -> None:
        if not isinstance(event, dict):
            raise PlainError("an event must be an object")
        kind = event.get("type")
        if kind not in EVENT_FIELDS:
            raise PlainError(f"unknown event type {kind!r}")
        for key in event:
            if not key.startswith("_") and key not in EVENT_FIELDS[kind]:
                raise PlainError(f"unknown field {key} in a {kind} event")
        if self.phase == "over":
            raise PlainError("the game is over")
        getattr(self, "on_" + kind)(event)
        self.events += 1

    # ---------------------------------------------------------------- deal
    def on_deal(self, event: dict) -> None:
        if self.phase == "play":
            raise PlainError("cards are still in hand")
        first = self.phase == "round"
        if first:
            round_number = self.round + 1
            dealer = (self.dealer + 1) % self.n if self.round else self.dealer
        else:
            round_number = self.round
            dealer = self.dealer
            if "center" in event:
                raise PlainError("only a round's first deal turns up a center")
        order = [self.players[(dealer + 1 + i) % self.n] for i in range(self.n)]
        given_hands = None
        if "hands" in event:
            given_hands = event["hands"]
            if not isinstance(given_hands, dict) or set(given_hands) != set(self.players):
                raise PlainError("hands must name every player")
            for name in self.players:
                check_cards(given_hands[name], f"hands.{name}")
                if len(given_hands[name]) != 4:
                    raise PlainError(f"{name} must be dealt four cards")
        given_center = None
        if "center" in event:
            given_center = check_cards(event["center"], "center")
            if len(given_center) != 4:
                raise PlainError("the first deal turns up four center cards")
        dealt_before = [] if first else self.dealt
        if self.seed is not None:
            if first:
                deck = list(DECK)
                random.Random(f"{self.seed}/{round_number}").shuffle(deck)
            else:
                deck = self.deck
            position = len(dealt_before)
            hands = {}
            for name in order:
                hands[name] = deck[position : position + 4]
                position += 4
            center = deck[position : position + 4] if first else []
            if given_hands is not None and given_hands != hands:
                raise PlainError("the hands are not the seeded deal")
            if given_center is not None and given_center != center:
                raise PlainError("the center is not the seeded one")
        else:
            if given_hands is None or (first and given_center is None):
                raise PlainError("an unseeded deal names every card dealt")
            deck = []
            hands = {name: list(given_hands[name]) for name in self.players}
            center = list(given_center) if given_center is not None else []
            seen = list(dealt_before)
            for name in self.players:
                for card in hands[name]:
                    if card in seen:
                        raise PlainError(f"{card} is dealt twice in this round")
                    seen.append(card)
            for card in center:
                if card in seen:
                    raise PlainError(f"{card} is dealt twice in this round")
                seen.append(card)
        if first:
            self.round = round_number
            self.dealer = dealer
            self.deals = 1
            self.deck = deck
            self.dealt = []
            self.loose = list(center)
            self.builds = []
            self.captured = {name: [] for name in self.players}
            self.last_capture = None
        else:
            self.deals += 1
        for name in order:
            self.dealt += hands[name]
        self.dealt += center
        self.hands = hands
        self.made = {name: None for name in self.players}
        self.phase = "play"
        self.current = (dealer + 1) % self.n

    # ---------------------------------------------------------------- plays
    def check_play(self, event: dict) -> tuple[str, str]:
        name = event.get("player")
        if name not in self.players:
            raise PlainError(f"unknown player {name!r}")
        if self.phase != "play":
            raise PlainError("no cards are in hand")
        if self.players.index(name) != self.current:
            raise PlainError(f"{name} played out of turn")
        card = event.get("card")
        if card not in DECK:
            raise PlainError(f"{card!r} is not a card")
        if card not in self.hands[name]:
            raise PlainError(f"{name} has no {card}")
        return name, card

    def find_build(self, build_id: str) -> dict:
        for build in self.builds:
            if build["id"] == build_id:
                return build
        raise PlainError(f"there is no build {build_id}")

    def on_capture(self, event: dict) -> None:
        name, card = self.check_play(event)
        take = event.get("take")
        if not isinstance(take, list) or len(take) == 0:
            raise PlainError("take must be a non-empty list")
        for item in take:
            if isinstance(item, str):
                if not is_build_id(item):
                    raise PlainError(f"{item!r} is not a build id")
            elif isinstance(item, list) and len(item) > 0:
                check_cards(item, "take")
            else:
                raise PlainError("take's items are card lists or build ids")
        value = number(card)
        cards_taken = []
        builds_taken = []
        if value is None:
            if len(take) != 1 or not isinstance(take[0], list) or len(take[0]) != 1:
                raise PlainError(f"{card} captures only by pairing one loose card")
            other = take[0][0]
            if other not in self.loose:
                raise PlainError(f"{other} is not loose in the center")
            if other[:-1] != card[:-1]:
                raise PlainError(f"{card} pairs only with its own rank")
            cards_taken.append(other)
        else:
            used = []
            for item in take:
                if isinstance(item, str):
                    if item in used:
                        raise PlainError(f"{item} is taken twice")
                    build = self.find_build(item)
                    if build["value"] != value:
                        raise PlainError(f"{item} is not a build of {value}")
                    used.append(item)
                    builds_taken.append(item)
                else:
                    total = 0
                    for other in item:
                        if other in used:
                            raise PlainError(f"{other} is taken twice")
                        if other not in self.loose:
                            raise PlainError(f"{other} is not loose in the center")
                        if number(other) is None:
                            raise PlainError(f"{other} is a face card: never part of a sum")
                        used.append(other)
                        total += number(other)
                    if total != value:
                        raise PlainError(f"{item} adds up to {total}, not {value}")
                    cards_taken += item
        self.hands[name].remove(card)
        pile = self.captured[name]
        pile.append(card)
        for other in cards_taken:
            self.loose.remove(other)
            pile.append(other)
        for build_id in builds_taken:
            build = self.find_build(build_id)
            pile += build["cards"]
            self.builds.remove(build)
        self.last_capture = name
        self.made[name] = None
        self.next_turn()

    def item_value(self, item: object, card: str, used: list) -> int:
        """The value of a named item of a build or a call: a loose number card, an
        uncalled build, or (in a call) the played card."""
        if not isinstance(item, str):
            raise PlainError("a build or a call names cards and build ids")
        if item in used:
            raise PlainError(f"{item} is named twice")
        used.append(item)
        if is_build_id(item):
            build = self.find_build(item)
            if build["called"]:
                raise PlainError(f"{item} is a called build: nobody can raise it")
            return build["value"]
        if item == card:
            return number(card)
        if item not in DECK:
            raise PlainError(f"{item!r} is not a card or a build")
        if item not in self.loose:
            raise PlainError(f"{item} is not loose in the center")
        if number(item) is None:
            raise PlainError(f"{item} is a face card: never part of a build or a call")
        return number(item)

    def check_value(self, event: dict, lowest: int) -> int:
        value = event.get("value")
        if type(value) is not int or not lowest <= value <= 10:
            raise PlainError(f"value must be a whole number from {lowest} to 10")
        return value

    def check_still_holds(self, name: str, card: str, value: int) -> None:
        rest = list(self.hands[name])
        rest.remove(card)
        if not any(number(other) == value for other in rest):
            raise PlainError(f"{name} must hold another card of value {value}")

    def make_build(self, name: str, card: str, items: list, value: int, called: bool) -> None:
        self.hands[name].remove(card)
        cards = [card]
        for item in items:
            if is_build_id(item):
                build = self.find_build(item)
                cards += build["cards"]
                self.builds.remove(build)
            else:
                self.loose.remove(item)
                cards.append(item)
        cards.sort(key=lambda c: (RANKS.index(c[:-1]), SUITS.index(c[-1])))
        build_id = f"b{self.next_build}"
        self.next_build += 1
        self.builds.append(
            {"id": build_id, "value": value, "owner": name, "called": called, "cards": cards}
        )
        self.made[name] = build_id
        self.next_turn()

    def on_build(self, event: dict) -> None:
        name, card = self.check_play(event)
        items = event.get("with")
        if not isinstance(items, list) or len(items) == 0:
            raise PlainError("with must be a non-empty list")
        value = self.check_value(event, 2)
        if number(card) is None:
            raise PlainError(f"{card} is a face card: never part of a build")
        if card in items:
            raise PlainError(f"{card} is the card played")
        used: list = []
        total = number(card)
        for item in items:
            total += self.item_value(item, card, used)
        if total != value:
            raise PlainError(f"the build adds up to {total}, not {value}")
        self.check_still_holds(name, card, value)
        self.make_build(name, card, items, value, called=False)

    def on_call(self, event: dict) -> None:
        name, card = self.check_play(event)
        groups = event.get("groups")
        if not isinstance(groups, list) or len(groups) < 2:
            raise PlainError("groups must list two or more groups")
        for group in groups:
            if not isinstance(group, list) or len(group) == 0:
                raise PlainError("a group is a non-empty list")
        value = self.check_value(event, 1)
        if number(card) is None:
            raise PlainError(f"{card} is a face card: never part of a call")
        holding = [group for group in groups if card in group]
        if len(holding) != 1 or holding[0].count(card) != 1:
            raise PlainError("exactly one group holds the played card, once")
        used: list = []
        items = []
        for group in groups:
            total = 0
            for item in group:
                total += self.item_value(item, card, used)
            if total != value:
                raise PlainError(f"a group adds up to {total}, not {value}")
            items += [item for item in group if item != card]
        self.check_still_holds(name, card, value)
        self.make_build(name, card, items, value, called=True)

    def on_trail(self, event: dict) -> None:
        name, card = self.check_play(event)
        made = self.made[name]
        if made is not None and any(build["id"] == made for build in self.builds):
            raise PlainError(f"{name} made {made} last turn and it is unchanged: no trail")
        self.hands[name].remove(card)
        self.loose.append(card)
        self.made[name] = None
        self.next_turn()

    def next_turn(self) -> None:
        if any(len(hand) > 0 for hand in self.hands.values()):
            self.current = (self.current + 1) % self.n
            return
        if self.deals < (52 - 4) // (4 * self.n):
            self.phase = "deal"
            return
        self.end_round()

    # ---------------------------------------------------------------- rounds, end
    def end_round(self) -> None:
        if self.last_capture is not None:
            pile = self.captured[self.last_capture]
            pile += self.loose
            for build in self.builds:
                pile += build["cards"]
            self.loose = []
            self.builds = []
        self.made = {name: None for name in self.players}
        counts = {name: len(self.captured[name]) for name in self.players}
        spades = {}
        for name in self.players:
            spades[name] = sum(1 for c in self.captured[name] if c[-1] == "S")
        for name in self.players:
            points = 0
            if self.only_most(counts, name):
                points += 3
            if self.only_most(spades, name):
                points += 1
            if "10D" in self.captured[name]:
                points += 2
            if "2S" in self.captured[name]:
                points += 1
            points += sum(1 for c in self.captured[name] if c[:-1] == "A")
            self.scores[name] += points
        self.phase = "round"
        best = max(self.scores.values())
        if best >= self.target and list(self.scores.values()).count(best) == 1:
            self.finish()

    @staticmethod
    def only_most(values: dict[str, int], name: str) -> bool:
        """``name`` alone has the most (a tie for the most gives nobody the points)."""
        best = max(values.values())
        return values[name] == best and list(values.values()).count(best) == 1

    def on_end(self, event: dict) -> None:
        if event.get("reason") not in ("time", "adjudicated"):
            raise PlainError("an end's reason is time or adjudicated")
        if "placements" in event:
            raise PlainError("given placements are not replayed by the plain baseline")
        self.finish()

    def finish(self) -> None:
        self.phase = "over"
        totals = sorted(self.scores.values(), reverse=True)
        self.placements = {name: totals.index(s) + 1 for name, s in self.scores.items()}

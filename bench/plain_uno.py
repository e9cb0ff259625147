"""A plain UNO replayer: the benchmark's baseline for the engine (not used by the site).

Written from ``docs/rules/uno.md`` alone, independently of ``games/engine/uno/``, in a
straightforward style on purpose: the standard library's ``json`` one line at a time,
one method per event type, every check written out where it applies, no caching, no
fast paths. It replays the logs ``bench/bench_uno.py`` replays (the bots' logs: seeded
or unseeded ``deal``, ``color``, ``play``, ``draw``, ``pass``, ``challenge``, ``catch``,
and an ``end``) and checks what the engine checks of them: the fields of every event,
whose turn it is, the card in hand, colour or value matching, the drawn card, the seeded
cards (deals, draws, refills, swaps) or, unseeded, that named cards are in the draw
pile, the Wild Draw Four challenge, the UNO call and the catch, and the score of every
hand up to the target. Score sheets, undo and corrections are not replayed here
(``PlainError`` says so): the benchmark's logs have none.

    PlainUno.replay_text(text) -> PlainUno   # raises PlainError("line N: reason")
"""

from __future__ import annotations

import json
import random

COLORS = ["R", "Y", "G", "B"]
NUMBERS = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"]
ACTIONS = ["S", "V", "D"]
HAND_SIZE = 7

EVENT_FIELDS = {
    "deal": {"type", "hands", "up"},
    "color": {"type", "player", "color"},
    "play": {"type", "player", "card", "color", "uno", "hands"},
    "draw": {"type", "player", "cards"},
    "pass": {"type", "player"},
    "challenge": {"type", "player"},
    "catch": {"type", "by", "against"},
    "end": {"type", "reason", "referee", "placements"},
}


class PlainError(Exception):
    """A log the plain replayer refuses."""


def make_deck(deck: str) -> list[str]:
    """The deck in the rules' canonical order."""
    cards = []
    for color in COLORS:
        cards.append(color + "0")
        for value in NUMBERS[1:] + ACTIONS:
            cards.append(color + value)
            cards.append(color + value)
    cards += ["W", "W", "W", "W", "W4", "W4", "W4", "W4"]
    if deck == "2018":
        cards += ["WS", "WC", "WC", "WC"]
    return cards


ALL_CARDS = set(make_deck("2018"))


def is_wild(card: str) -> bool:
    return card.startswith("W")


def color_of(card: str) -> str | None:
    return None if is_wild(card) else card[0]


def value_of(card: str) -> str | None:
    return None if is_wild(card) else card[1:]


def card_points(card: str) -> int:
    if card in ("W", "W4"):
        return 50
    if card in ("WS", "WC"):
        return 40
    if card[1:] in NUMBERS:
        return int(card[1:])
    return 20


def check_cards(value: object, what: str) -> list[str]:
    if not isinstance(value, list):
        raise PlainError(f"{what} must be a list of cards")
    for card in value:
        if not isinstance(card, str) or card not in ALL_CARDS:
            raise PlainError(f"{what}: {card!r} is not a card")
    return value


class PlainUno:
    def __init__(self, start: dict) -> None:
        if not isinstance(start, dict) or start.get("type") != "start":
            raise PlainError("the first line must be a start event")
        for key in start:
            if not key.startswith("_") and key not in (
                "type", "game", "players", "dealer", "deck", "target", "seed", "sheet"
            ):  # fmt: skip
                raise PlainError(f"unknown field {key}")
        if start.get("game") != "uno":
            raise PlainError("not an UNO game")
        if start.get("sheet"):
            raise PlainError("score sheets are not replayed by the plain baseline")
        players = start.get("players")
        if not isinstance(players, list) or not 2 <= len(players) <= 10:
            raise PlainError("players must be a list of 2 to 10 names")
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
        self.deck = start.get("deck", "classic")
        if self.deck not in ("classic", "2018"):
            raise PlainError("unknown deck")
        self.target = start.get("target", 500)
        if type(self.target) is not int or self.target < 1:
            raise PlainError("target must be a positive integer")
        self.seed = start.get("seed")
        if self.seed is not None and not (type(self.seed) is int or isinstance(self.seed, str)):
            raise PlainError("seed must be an integer or a string")
        self.first_dealer = players.index(dealer)
        self.dealer = self.first_dealer
        self.hand_number = 0
        self.scores = {name: 0 for name in players}
        self.hands = {name: [] for name in players}
        self.pile: list[str] = []  # the draw pile, its front (index 0) drawn first
        self.discard: list[str] = []
        self.rng: random.Random | None = None
        self.color: str | None = None
        self.direction = 1
        self.phase = "deal"  # deal, color, turn, drawn, w4, penalty, over
        self.current = 0
        self.need = 0
        self.after = ""
        self.drawn_card: str | None = None
        self.w4_by = 0
        self.w4_was_legal = True
        self.resume_with = 0
        self.winner = 0
        self.catchable: str | None = None
        self.caught: str | None = None
        self.placements: dict[str, int] | None = None
        self.events = 1

    # ---------------------------------------------------------------- replay
    @classmethod
    def replay_text(cls, text: str | bytes) -> PlainUno:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        lines = text.rstrip().split("\n")
        game = None
        for number, line in enumerate(lines, 1):
            try:
                event = json.loads(line)
                if game is None:
                    game = cls(event)
                else:
                    game.push(event)
            except PlainError as exc:
                raise PlainError(f"line {number}: {exc}") from None
            except ValueError as exc:
                raise PlainError(f"line {number}: malformed JSON ({exc})") from None
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
        if self.caught is not None:
            if kind == "draw" and event.get("player") == self.caught:
                self.catchable = None
                self.on_caught_draw(event)
                self.events += 1
                return
            raise PlainError(f"{self.caught} was caught and must draw two cards first")
        catchable = getattr(self, "on_" + kind)(event)
        self.catchable = catchable
        self.events += 1

    # ---------------------------------------------------------------- helpers
    def seat_after(self, seat: int, steps: int = 1) -> int:
        return (seat + steps * self.direction) % self.n

    def check_turn(self, event: dict) -> int:
        name = event.get("player")
        if name not in self.players:
            raise PlainError(f"unknown player {name!r}")
        if self.phase == "deal":
            raise PlainError("no hand is running")
        seat = self.players.index(name)
        if seat != self.current:
            raise PlainError(f"{name} acted out of turn")
        return seat

    def check_all_hands(self, value: object, what: str) -> dict[str, list[str]]:
        if not isinstance(value, dict) or set(value) != set(self.players):
            raise PlainError(f"{what} must name every player")
        return {name: check_cards(value[name], f"{what}.{name}") for name in self.players}

    # ---------------------------------------------------------------- deal
    def on_deal(self, event: dict) -> None:
        if self.phase != "deal":
            raise PlainError("a hand is running")
        number = self.hand_number + 1
        dealer = self.first_dealer if number == 1 else (self.dealer + 1) % self.n
        order = [self.players[(dealer + 1 + i) % self.n] for i in range(self.n)]
        given_hands = event.get("hands")
        given_up = event.get("up")
        if given_hands is not None:
            given_hands = self.check_all_hands(given_hands, "hands")
            for name in self.players:
                if len(given_hands[name]) != HAND_SIZE:
                    raise PlainError(f"{name} must be dealt seven cards")
        if given_up is not None:
            check_cards(given_up, "up")
            if len(given_up) == 0:
                raise PlainError("up must name the cards turned")
            for card in given_up[:-1]:
                if card != "W4":
                    raise PlainError("only W4s are turned before the last up card")
            if given_up[-1] == "W4":
                raise PlainError("the last up card cannot be a W4")
        rng = None
        if self.seed is not None:
            rng = random.Random(f"{self.seed}/{number}")
            deck = make_deck(self.deck)
            rng.shuffle(deck)
            hands = {name: [] for name in self.players}
            for i in range(HAND_SIZE * self.n):
                hands[order[i % self.n]].append(deck[i])
            rest = deck[HAND_SIZE * self.n :]
            up = []
            returned = []
            while True:
                card = rest.pop(0)
                up.append(card)
                if card != "W4":
                    break
                returned.append(card)
            pile = rest + returned
            if given_hands is not None and given_hands != hands:
                raise PlainError("the hands are not the seeded deal")
            if given_up is not None and given_up != up:
                raise PlainError("the up cards are not the seeded ones")
        else:
            if given_hands is None or given_up is None:
                raise PlainError("an unseeded deal names the hands and the up cards")
            hands = {name: list(given_hands[name]) for name in self.players}
            up = list(given_up)
            pile = make_deck(self.deck)
            for name in self.players:
                for card in hands[name]:
                    if card not in pile:
                        raise PlainError(f"the deal uses more {card} than the deck holds")
                    pile.remove(card)
            if len(up) > 1 and "W4" not in pile:
                raise PlainError("the deal uses more W4 than the deck holds")
            if up[-1] not in pile:
                raise PlainError(f"the deal uses more {up[-1]} than the deck holds")
            pile.remove(up[-1])
        self.hand_number = number
        self.dealer = dealer
        self.rng = rng
        self.hands = hands
        self.pile = pile
        self.discard = [up[-1]]
        self.direction = 1
        self.drawn_card = None
        # the first card's effect
        first = up[-1]
        left = (dealer + 1) % self.n
        self.color = color_of(first)
        self.phase = "turn"
        self.current = left
        if is_wild(first):
            self.phase = "color"
        elif value_of(first) == "S":
            self.current = (dealer + 2) % self.n
        elif value_of(first) == "V":
            self.direction = -1
            self.current = dealer
        elif value_of(first) == "D":
            self.phase = "penalty"
            self.need = 2
            self.after = "next"

    def on_color(self, event: dict) -> None:
        self.check_turn(event)
        if self.phase != "color":
            raise PlainError("a colour is chosen only after a wild up card")
        if event.get("color") not in COLORS:
            raise PlainError("the colour must be R, Y, G or B")
        self.color = event["color"]
        self.phase = "turn"

    # ---------------------------------------------------------------- play
    def on_play(self, event: dict) -> str | None:
        seat = self.check_turn(event)
        name = self.players[seat]
        card = event.get("card")
        if not isinstance(card, str) or card not in ALL_CARDS:
            raise PlainError(f"{card!r} is not a card")
        if self.phase not in ("turn", "drawn"):
            raise PlainError(f"{name} cannot play now")
        hand = self.hands[name]
        if card not in hand:
            raise PlainError(f"{name} has no {card}")
        if self.phase == "drawn" and card != self.drawn_card:
            raise PlainError(f"{name} may only play the card just drawn")
        top = self.discard[-1]
        chosen = event.get("color")
        if is_wild(card):
            if chosen not in COLORS:
                raise PlainError("a wild needs a colour: R, Y, G or B")
        else:
            if chosen is not None:
                raise PlainError("only a wild takes a colour")
            if color_of(card) != self.color and value_of(card) != value_of(top):
                raise PlainError(f"{card} matches neither the colour nor the top card")
        uno = event.get("uno", False)
        if uno is not True and uno is not False:
            raise PlainError("uno must be true or false")
        if event.get("hands") is not None and card != "WS":
            raise PlainError("only a WS play names hands")
        w4_legal = True
        if card == "W4":
            for other in hand:
                if other != "W4" and color_of(other) == self.color:
                    w4_legal = False
        new_hands = None
        if card == "WS":
            new_hands = self.swap(seat, event.get("hands"))
        # apply
        hand.remove(card)
        self.discard.append(card)
        self.color = chosen if is_wild(card) else color_of(card)
        self.drawn_card = None
        if new_hands is not None:
            self.hands = new_hands
            hand = new_hands[name]
        value = value_of(card)
        if value == "V":
            self.direction = -self.direction
        if len(hand) == 0:
            self.winner = seat
            if value == "D" or card == "W4":
                self.phase = "penalty"
                self.current = self.seat_after(seat)
                self.need = 2 if value == "D" else 4
                self.after = "score"
            else:
                self.score_hand()
            return None
        self.phase = "turn"
        if value == "S":
            self.current = self.seat_after(seat, 2)
        elif value == "V":
            self.current = seat if self.n == 2 else self.seat_after(seat)
        elif value == "D":
            self.current = self.seat_after(seat)
            self.phase = "penalty"
            self.need = 2
            self.after = "next"
        elif card == "W4":
            self.current = self.seat_after(seat)
            self.phase = "w4"
            self.w4_by = seat
            self.w4_was_legal = w4_legal
        else:
            self.current = self.seat_after(seat)
        if len(hand) == 1 and not uno:
            return name
        return None

    def swap(self, seat: int, given: object) -> dict[str, list[str]]:
        """Wild Swap Hands: every hand gathered (the WS left out) from the next player
        in the direction of play round to the player of the WS, shuffled when seeded,
        and dealt one at a time in that order."""
        order = [self.players[self.seat_after(seat, k)] for k in range(1, self.n + 1)]
        pool = []
        for name in order:
            cards = list(self.hands[name])
            if name == self.players[seat]:
                cards.remove("WS")
            pool += cards
        if self.rng is not None:
            saved = self.rng.getstate()
            self.rng.shuffle(pool)
            dealt = {name: [] for name in self.players}
            for i, card in enumerate(pool):
                dealt[order[i % self.n]].append(card)
            if given is not None and self.check_all_hands(given, "hands") != dealt:
                self.rng.setstate(saved)
                raise PlainError("the swapped hands are not the seeded ones")
            return dealt
        if given is None:
            raise PlainError("an unseeded WS play names the hands after the swap")
        given = self.check_all_hands(given, "hands")
        for i, name in enumerate(order):
            want = len(pool) // self.n + (1 if i < len(pool) % self.n else 0)
            if len(given[name]) != want:
                raise PlainError(f"the swap deals {name} {want} cards")
        if sorted(c for h in given.values() for c in h) != sorted(pool):
            raise PlainError("the swapped hands must hold the cards of all hands")
        return {name: list(given[name]) for name in self.players}

    # ---------------------------------------------------------------- draw, pass
    def take_cards(self, count: int, given: object, name: str) -> list[str]:
        """Draw ``count`` cards from the front of the pile, refilled from the discards
        (its top card kept) when it runs out; fewer when both run out."""
        if given is not None:
            given = check_cards(given, "cards")
        count = min(count, len(self.pile) + len(self.discard) - 1)
        if given is not None and len(given) != count:
            raise PlainError(f"{name} must draw {count} card(s)")
        if self.seed is not None:
            if count <= len(self.pile):
                drawn = self.pile[:count]
                if given is not None and given != drawn:
                    raise PlainError("not the next cards of the draw pile")
                self.pile = self.pile[count:]
                return drawn
            saved = self.rng.getstate()
            refill = self.discard[:-1]
            self.rng.shuffle(refill)
            new_pile = self.pile + refill
            drawn = new_pile[:count]
            if given is not None and given != drawn:
                self.rng.setstate(saved)
                raise PlainError("not the next cards of the refilled draw pile")
            self.pile = new_pile[count:]
            self.discard = self.discard[-1:]
            return drawn
        if given is None:
            if count:
                raise PlainError("an unseeded draw names its cards")
            given = []
        if count <= len(self.pile):
            pile = list(self.pile)
            for card in given:
                if card not in pile:
                    raise PlainError(f"{card} is not in the draw pile")
                pile.remove(card)
            self.pile = pile
            return list(given)
        first, later = given[: len(self.pile)], given[len(self.pile) :]
        if sorted(first) != sorted(self.pile):
            raise PlainError("the first cards drawn must be the rest of the draw pile")
        refill = self.discard[:-1]
        for card in later:
            if card not in refill:
                raise PlainError(f"{card} is not in the refilled draw pile")
            refill.remove(card)
        self.pile = refill
        self.discard = self.discard[-1:]
        return list(given)

    def on_draw(self, event: dict) -> None:
        seat = self.check_turn(event)
        name = self.players[seat]
        if self.phase == "turn":
            count = 1
        elif self.phase == "w4":
            count = 4
        elif self.phase == "penalty":
            count = self.need
        else:
            raise PlainError(f"{name} cannot draw now")
        drawn = self.take_cards(count, event.get("cards"), name)
        self.hands[name] += drawn
        if self.phase == "turn":
            self.phase = "drawn"
            self.drawn_card = drawn[0] if drawn else None
        elif self.phase == "w4" or self.after == "next":
            self.phase = "turn"
            self.current = self.seat_after(seat)
        elif self.after == "resume":
            self.phase = "turn"
            self.current = self.resume_with
        else:
            self.score_hand()

    def on_caught_draw(self, event: dict) -> None:
        name = self.caught
        drawn = self.take_cards(2, event.get("cards"), name)
        self.hands[name] += drawn
        self.caught = None

    def on_pass(self, event: dict) -> None:
        seat = self.check_turn(event)
        if self.phase != "drawn":
            raise PlainError("a pass comes only right after drawing in one's turn")
        self.drawn_card = None
        self.phase = "turn"
        self.current = self.seat_after(seat)

    # ---------------------------------------------------------------- challenge, catch
    def on_challenge(self, event: dict) -> None:
        seat = self.check_turn(event)
        if self.phase != "w4":
            raise PlainError("only a Wild Draw Four played on you can be challenged")
        self.phase = "penalty"
        if self.w4_was_legal:
            self.need = 6
            self.after = "next"
        else:
            self.current = self.w4_by
            self.need = 4
            self.after = "resume"
            self.resume_with = seat

    def on_catch(self, event: dict) -> None:
        by = event.get("by")
        against = event.get("against")
        if by not in self.players or against not in self.players:
            raise PlainError("a catch names two players")
        if self.catchable is None:
            raise PlainError("nobody can be caught now")
        if against != self.catchable:
            raise PlainError(f"only {self.catchable} can be caught now")
        if by == against:
            raise PlainError("nobody catches themselves")
        self.caught = against

    # ---------------------------------------------------------------- hands, end
    def score_hand(self) -> None:
        winner = self.players[self.winner]
        points = 0
        for name in self.players:
            if name != winner:
                for card in self.hands[name]:
                    points += card_points(card)
        self.scores[winner] += points
        self.phase = "deal"
        if max(self.scores.values()) >= self.target:
            self.finish()

    def on_end(self, event: dict) -> None:
        if event.get("reason") not in ("time", "adjudicated"):
            raise PlainError("an end's reason is time or adjudicated")
        if "placements" in event:
            raise PlainError("given placements are not replayed by the plain baseline")
        self.caught = None
        self.finish()

    def finish(self) -> None:
        self.phase = "over"
        totals = sorted(self.scores.values(), reverse=True)
        self.placements = {name: totals.index(s) + 1 for name, s in self.scores.items()}

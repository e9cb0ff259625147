"""Audit of the engine against the adopted rules (docs/rules/tock.md), one question a test.

Every position is built through ``restore()`` (``tock_helpers.position``) with all 121
cards accounted for, or is a small hand-written log. Where a position is driven by
events, both the reference path (``push``) and the replay fast path (``push_many``) are
checked to agree, on the result and on the error.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games.engine as engine
from games.engine import EngineError, IllegalMove, InvalidEvent, InvalidPlacements, LogError
from games.engine.cli import main
from tests.engine.tock_helpers import (
    draw,
    flip,
    play,
    position,
    run,
    start_event,
    to_text,
    tock,
    total_cards,
)

ROOT = Path(__file__).resolve().parents[2]
END_CENTER = [20, 20, 20, 20, 20, 10]  # 110 cards: 11..21 are left for the players


def both(make, *events):
    """Apply ``events`` to two copies of ``make()``: one by ``push``, one by ``push_many``.

    Returns the game (pushed one by one) if both accept everything, with the same state;
    raises the ``push`` error (an ``EngineError``) if both reject the same event, with the
    same message.
    """
    slow, fast = make(), make()
    error = None
    for event in events:
        try:
            slow.push(event)
        except EngineError as exc:
            error = exc
            break
    try:
        fast.push_many(events)
    except LogError as exc:
        assert error is not None, f"push_many rejected what push accepted: {exc}"
        assert exc.reason == str(error)
        assert exc.line == slow.event_count + 1
    else:
        assert error is None, f"push_many accepted what push rejected: {error}"
    assert fast.to_state() == slow.to_state()
    assert total_cards(slow) == 121
    if error is not None:
        raise error
    return slow


# --------------------------------------------------------------------------- stock
class TestStock:
    def stock_position(self, mode="table"):
        # Table empty. ana: discard [21, 12] (12 on top), stock [17, 14] (14 drawn next).
        return position(
            {"ana": [21, 12], "ben": [15, 13]},
            stocks={"ana": [17, 14], "ben": [16, 18, 19, 20, 11]},
            center=END_CENTER,
            mode=mode,
        )

    def test_all_cards_accounted_for(self):
        g = self.stock_position()
        assert g.table_count == 0 and total_cards(g) == 121

    def test_flip_rejected_while_stock_not_empty(self):
        # ana's 12 fits ben's 13 here, but even a flip that forgets it is no flip at
        # all while the stock holds cards
        with pytest.raises(IllegalMove, match="cannot flip: ana's stock is not empty yet"):
            both(self.stock_position, flip("ana"))
        g = position(
            {"ana": [21], "ben": [15, 13]},
            stocks={"ana": [17, 14, 12], "ben": [16, 18, 19, 20, 11]},
            center=END_CENTER,
        )
        with pytest.raises(IllegalMove, match="stock is not empty"):
            g.push(flip("ana"))

    def test_draw_from_stock_while_top_fits_is_forgot_discard(self):
        # ana's top 12 fits ben's 13, yet she draws her stock's 14 (onto ben's 13)
        g = both(self.stock_position, draw("ana", 14, "ben"))
        s = g.summary()
        assert [(i["event"], i["player"], i["kind"]) for i in s["infractions"]] == [
            (2, "ana", "forgot_discard")
        ]
        assert s["stocks"]["ana"] == [17] and s["piles"]["ben"] == [15, 13, 14]
        # the card may also be omitted: the stock's top card is known
        g = both(self.stock_position, draw("ana", None, "ben"))
        assert g.summary()["infractions"][0]["kind"] == "forgot_discard"
        with pytest.raises(IllegalMove, match="forgot_discard: top card 12 fits ben"):
            both(lambda: self.stock_position("strict"), draw("ana", 14, "ben"))


# --------------------------------------------------------------------------- going out
class TestGoingOutAudit:
    def test_empty_discard_and_stock_with_table_cards_draws(self):
        g = run(draw("ana", 1, "center"))
        s = g.summary()
        assert s["piles"]["ana"] == [] and s["stocks"]["ana"] == [] and s["table"] == 120
        assert s["out"] == [] and g.turn == "ana" and g.status == "in_progress"
        assert {m["type"] for m in g.legal_moves()} == {"draw"}
        g.push(draw("ana", 2, "center"))
        g.push(draw("ana", 7, "ana"))  # fits nowhere: the turn ends
        assert g.turn == "ben" and g.summary()["out"] == []

    def last_table_card(self):
        # The table holds only the 11; ana (to move) has no own cards at all.
        return position(
            {"ana": [], "ben": [13], "cai": [12, 14, 15, 16, 17, 18, 19, 20, 21]},
            center=END_CENTER,
        )

    def test_table_runs_empty_by_the_active_players_draw(self):
        assert self.last_table_card().table_count == 1
        g = both(self.last_table_card, draw("ana", 11, "center"))
        s = g.summary()
        assert s["table"] == 0 and s["out"] == ["ana"]  # out at once
        assert g.turn == "ben" and g.status == "in_progress"
        with pytest.raises(IllegalMove, match="ana has gone out"):
            g.push(play("ana", 12, "center"))
        # the same when her last table card goes to another player
        g = position(
            {"ana": [], "ben": [12], "cai": [13, 14, 15, 16, 17, 18, 19, 20, 21]},
            center=[20, 20, 20, 20, 20, 9],
        )
        assert g.table_count == 2
        g.push(draw("ana", 10, "center"))
        assert g.summary()["out"] == [] and g.turn == "ana"  # the table still has a card
        g.push(draw("ana", 11, "ben"))  # forgot_center, but she went out all the same
        assert g.summary()["out"] == ["ana"] and g.turn == "ben"

    def test_last_table_card_onto_own_discard_does_not_put_out(self):
        def make():
            return position(
                {"ana": [], "ben": [14], "cai": [12, 13, 15, 16, 17, 18, 19, 20, 11]},
                center=END_CENTER,
            )

        assert make().table_count == 1  # the 21
        g = both(make, draw("ana", 21, "ana"))
        s = g.summary()
        assert s["out"] == [] and s["piles"]["ana"] == [21] and g.turn == "ben"

    def test_everyone_empty_when_the_table_runs_out(self):
        # ana draws the last card onto cai's pile: ana and ben have nothing left
        g = position(
            {"ana": [], "ben": [], "cai": [12, 13, 14, 15, 16, 17, 18, 19, 20]},
            center=END_CENTER,
            active="ana",
        )
        assert g.table_count == 2  # 11 and 21
        g.push(draw("ana", 11, "center"))
        g.push(draw("ana", 21, "cai"))
        s = g.summary()
        assert s["out"] == ["ana", "ben"]  # the active player first, then clockwise
        assert g.status == "finished"  # only cai is left
        assert g.placements() == {"ana": 1, "ben": 2, "cai": 3}


# --------------------------------------------------------------------------- knocks
def four(**kw):
    return position({"ana": [5, 6], "ben": [14, 12], "cai": [17, 18], "dan": [2, 3]}, **kw)


class TestKnockAudit:
    def test_correct_knock_after_wrong_discard_does_not_skip_the_next_turn(self):
        g = both(
            four,
            draw("ana", 1, "ana"),  # wrong_discard (1 fits the center): ana's turn ends
            tock("cai"),  # before ben's first action: judged against ana's turn
            draw("ben", 2, "ana"),  # ben plays on: it is still his turn (2 on ana's 1)
            draw("ben", 9, "ben"),
        )
        s = g.summary()
        assert s["knocks"] == [{"event": 3, "by": "cai", "against": "ana", "correct": True}]
        assert s["infractions"][0]["penalized"] is True
        # ana received ben's, cai's and dan's bottom cards, the last one (dan's) lowest
        assert s["piles"]["ana"] == [2, 17, 14, 5, 6, 1, 2]
        assert g.turn == "cai"  # ben's turn ran normally and ended with his discard

    def test_incorrect_knock_by_a_non_active_player_during_a_turn(self):
        g = both(four, draw("ana", 13, "ben"), tock("cai"))
        s = g.summary()
        assert s["knocks"][0] == {"event": 3, "by": "cai", "against": "ana", "correct": False}
        # cai takes dan's 2, ana's 5, ben's 14 in turn, each under: the last lowest
        assert s["piles"]["cai"] == [14, 5, 2, 17, 18]
        assert g.turn == "ana" and g.knock_target() == "ana"  # the turn goes on
        g.push(draw("ana", 11, "ana"))
        assert g.turn == "ben"

    def test_incorrect_knock_between_turns_keeps_the_turn(self):
        g = both(four, draw("ana", 9, "ana"), tock("dan"))  # ana's clean turn ended
        s = g.summary()
        assert s["knocks"][0]["against"] == "ana" and s["knocks"][0]["correct"] is False
        assert g.turn == "ben" and g.knock_target() == "ana"
        assert s["piles"]["dan"] == [17, 14, 5, 2, 3]

    def test_knock_before_the_first_turn_has_begun(self):
        for first in (None, "cai"):
            with pytest.raises(LogError, match="line 2: no turn to knock on"):
                run(tock("ben"), first=first)
        g = engine.start(start_event(seed=5))
        with pytest.raises(IllegalMove, match="first turn has not begun"):
            g.push(tock("cai"))
        assert g.knock_target() is None and g.summary()["knocks"] == []

    def test_second_knock_on_a_penalised_infraction_is_incorrect(self):
        g = both(
            four,
            draw("ana", 1, "center"),
            draw("ana", 13, "ben"),
            draw("ana", 2, "dan"),  # forgot_center (2 fits the center)
            tock("cai"),  # correct: ana's turn ends
            tock("dan"),  # again on ana's turn, before ben acts: nothing left to penalise
        )
        knocks = g.summary()["knocks"]
        assert [(k["by"], k["against"], k["correct"]) for k in knocks] == [
            ("cai", "ana", True),
            ("dan", "ana", False),
        ]
        assert g.turn == "ben"

    def test_referee_ruling_against_the_engine_between_turns(self):
        g = both(four, draw("ana", 9, "ana"), tock("ben", ruling="correct", referee="rita"))
        k = g.summary()["knocks"][0]
        assert k["correct"] is True and k["engine_correct"] is False and k["referee"] == "rita"
        assert g.turn == "ben"  # the knocked turn had already ended


# --------------------------------------------------------------------------- series
class TestSeriesField:
    def two_series(self):  # series 0 and 1 both have a 1 on top
        return engine.replay([start_event(), draw("ana", 1, "center"), draw("ana", 1, "center")])

    @pytest.mark.parametrize(
        "series, exc, match",
        [
            (2, IllegalMove, "there is no series 2 \\(only 2 open\\)"),
            (6, IllegalMove, "there is no series 6"),
            (2**70, IllegalMove, "there is no series"),
            (-1, InvalidEvent, "'series' must be a non-negative integer"),
            (True, InvalidEvent, "'series' must be a non-negative integer"),
            (1.0, InvalidEvent, "'series' must be a non-negative integer"),
            ("0", InvalidEvent, "'series' must be a non-negative integer"),
            ([0], InvalidEvent, "'series' must be a non-negative integer"),
        ],
    )
    def test_out_of_range_or_wrong_type(self, series, exc, match):
        with pytest.raises(exc, match=match):
            both(self.two_series, draw("ana", 2, "center", series=series))

    def test_series_the_card_does_not_fit(self):
        def make():
            return engine.replay(
                [start_event(), draw("ana", 1, "center"), draw("ana", 2, "center")]
            )

        with pytest.raises(IllegalMove, match="2 does not fit series 0 \\(its top is 2\\)"):
            both(make, draw("ana", 2, "center", series=0))
        with pytest.raises(IllegalMove, match="a 1 opens a new series \\(number 1\\)"):
            both(make, draw("ana", 1, "center", series=0))
        g = both(make, draw("ana", 1, "center", series=1), draw("ana", 3, "center", series=0))
        assert g.summary()["center"] == [3, 1]

    def test_series_only_for_the_center(self):
        with pytest.raises(InvalidEvent, match="'series' only applies"):
            both(self.two_series, draw("ana", 9, "ana", series=0))

    def test_series_on_a_face_up_play_and_the_21(self):
        g = position({"ana": [21, 5], "ben": [6]}, center=[4, 4])
        g.push(play("ana", 5, "center", series=1))
        assert g.summary()["center"] == [4, 5]
        with pytest.raises(IllegalMove, match="El Travieso"):
            g.push(play("ana", 21, "center", series=0))


# --------------------------------------------------------------------------- end
class TestEndAudit:
    def one_out(self):
        # ana plays her last card and goes out; ben, cai and dan play on
        g = position(
            {"ana": [11], "ben": [13, 15], "cai": [12, 14, 16, 17], "dan": [18, 19, 20, 21]},
            center=END_CENTER,
        )
        g.push(play("ana", 11, "center"))
        assert g.summary()["out"] == ["ana"]
        return g

    @pytest.mark.parametrize(
        "placements, code, match",
        [
            ({"ana": 1, "ben": 2, "cai": 3}, "players_mismatch", "every seated player"),
            (
                {"ana": 1, "ben": 2, "cai": 3, "dan": 4, "eve": 5},
                "players_mismatch",
                "every seated player",
            ),
            ({"ana": 1, "ben": 1, "cai": 2, "dan": 4}, "not_competition_ranks", "competition"),
            ({"ana": 1, "ben": 2, "cai": 2, "dan": 3}, "not_competition_ranks", "competition"),
            ({"ana": 1, "ben": 3, "cai": 3, "dan": 3}, "not_competition_ranks", "competition"),
            ({"ana": 1, "ben": 2, "cai": 3, "dan": 5}, "bad_place", "from 1 to 4"),
            ({"ana": 1, "ben": 2, "cai": 3, "dan": True}, "bad_place", "positive integers"),
            ({"ana": 1, "ben": 2, "cai": 3, "dan": 4.0}, "bad_place", "positive integers"),
            ({"ana": 1, "ben": 2, "cai": 3, "dan": -4}, "bad_place", "positive integers"),
            (
                [["ana", 1], ["ben", 2], ["cai", 3], ["dan", 4]],
                "not_a_mapping",
                "every seated player",
            ),
            ("ana", "not_a_mapping", "every seated player"),
        ],
    )
    def test_invalid_placement_sets(self, placements, code, match):
        g = self.one_out()
        with pytest.raises(InvalidPlacements, match=match) as info:
            g.push({"type": "end", "reason": "adjudicated", "placements": placements})
        assert isinstance(info.value, InvalidEvent) and info.value.code == code
        assert g.status == "in_progress"

    def test_players_who_went_out_keep_their_places(self):
        g = self.one_out()
        for bad, match in [
            ({"ana": 2, "ben": 1, "cai": 3, "dan": 4}, "ana went out 1st and keeps place 1"),
            ({"ana": 1, "ben": 1, "cai": 3, "dan": 4}, "ben cannot share or precede place 1"),
        ]:
            with pytest.raises(IllegalMove, match=match):
                g.push({"type": "end", "reason": "adjudicated", "placements": bad})
        given = {"ana": 1, "ben": 3, "cai": 2, "dan": 3}  # the rest as the referee sees it
        both(lambda: g.copy(), {"type": "end", "reason": "adjudicated", "placements": given})
        g.push({"type": "end", "reason": "adjudicated", "referee": "rita", "placements": given})
        assert g.placements() == given and g.status == "finished"
        assert g.summary()["end"] == {
            "event": 3,
            "reason": "adjudicated",
            "referee": "rita",
            "placements_given": True,
        }

    AFTER_END = [
        play("ana", 11, "center"),
        draw("ben", 1, "center"),
        draw("ben", None, "ben"),
        flip("ben"),
        tock("ben"),
        tock("cai", ruling="correct"),
        {"type": "end", "reason": "time"},
        {"type": "end", "reason": "adjudicated", "placements": {"ana": 1, "ben": 1}},
    ]

    @pytest.mark.parametrize("event", AFTER_END)
    def test_every_event_after_a_finish_is_rejected(self, event):
        g = run(draw("ana", 1, "center"), {"type": "end", "reason": "time"})
        with pytest.raises(IllegalMove, match="the game is over \\(finished\\); no events after"):
            both(lambda: g.copy(), event)
        with pytest.raises(InvalidEvent, match="may only be the first line"):
            g.push(start_event())

    @pytest.mark.parametrize("event", AFTER_END)
    def test_every_event_after_a_stalemate_is_rejected(self, event):
        def make():
            return position({"ana": [20], "ben": [21]}, center=[20, 20, 20, 20, 20, 19])

        cycle = [flip("ana"), draw("ana", 20, "ana"), flip("ben"), draw("ben", 21, "ben")]
        g = both(make, *(cycle * 2), cycle[0], cycle[1])
        assert g.status == "stalemate"
        with pytest.raises(IllegalMove, match="the game is over \\(stalemate\\); no events after"):
            both(lambda: g.copy(), event)


# --------------------------------------------------------------------------- bots
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_strict_bot_games_never_record_an_infraction(players):
    for seed in range(8):
        log = engine.simulate(players=players, seed=seed, mistakes=0.5, knocks=0.5, mode="strict")
        s = engine.replay(log).summary()
        assert s["infractions"] == [] and s["status"] != "in_progress"
        # with nothing to penalise, only a referee's ruling can make a knock correct
        assert all(k["correct"] is False or k.get("ruling") == "correct" for k in s["knocks"])
        assert all(not k.get("engine_correct", False) for k in s["knocks"])


# --------------------------------------------------------------------------- log parsing
def test_two_objects_on_a_line_are_malformed_even_if_the_line_count_matches():
    # Line 1 holds two objects and the second spreads onto line 2 (inside a string):
    # as one JSON array the text would give exactly two objects for two lines.
    text = (
        '{"type":"start","game":"tock","players":["ana","ben"]},'
        '{"type":"draw","player":"ana","card":1,"to":"center","_x":"}\n{"}\n'
    )
    for data in (text, text.encode()):
        with pytest.raises(LogError, match="line 1: malformed JSON"):
            engine.replay_text(data)
    # the same pattern inside a string of a well-formed line is fine
    ok = to_text([start_event(), {**draw("ana", 1, "center"), "_note": "a},{b"}])
    assert engine.replay_text(ok).summary()["center"] == [1]
    assert engine.replay_text(ok.encode()).summary()["center"] == [1]


def test_two_objects_on_a_line_with_whitespace_or_brackets_between():
    # JSON whitespace (not a newline) around the comma between the two objects, and
    # brackets or braces inside the strings around them: refused all the same
    start = '{"type":"start","game":"tock","players":["ana","ben"]}'
    for sep in (",", " , ", "\t,\r", " ,\t"):
        text = start + sep + '{"type":"draw","player":"ana","card":1,"to":"center","_x":"]}\n{["}\n'
        for data in (text, text.encode()):
            with pytest.raises(LogError, match="line 1: malformed JSON"):
                engine.replay_text(data)


# --------------------------------------------------------------------------- CLI fuzz
SIMULATED = to_text(engine.simulate(players=3, seed=11, mistakes=0.1, knocks=0.3))
LINES = SIMULATED.encode().splitlines()

GARBAGE_VALUES = [
    b"NaN",
    b"Infinity",
    b"-Infinity",
    b"1e999",
    b"9" * 400,
    b"-" + b"9" * 30,
    b"18446744073709551616",
    b"[" * 5000 + b"]" * 5000,
    b'{"a":' * 3000 + b"1" + b"}" * 3000,
    b'"\\ud800"',
    b'"\\u0000"',
    b"null",
    b"true",
    b"[]",
    b"{}",
    b'{"type":"start"}',
    b'"' + b"x" * 100_000 + b'"',
]
FIELDS = [
    b"type",
    b"player",
    b"card",
    b"to",
    b"series",
    b"ruling",
    b"referee",
    b"reason",
    b"placements",
    b"players",
    b"seed",
    b"first",
    b"mode",
    b"game",
]


def replay_cli(data: bytes, tmp_path: Path, *flags: str) -> tuple[int, str, str]:
    path = tmp_path / "fuzz.jsonl"
    path.write_bytes(data)
    out, err = io.StringIO(), io.StringIO()
    code = main(["replay", str(path), *flags], out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def check_cli_result(code: int, out: str, err: str) -> None:
    assert code in (0, 1), (code, err)
    if code == 1:
        assert err.startswith("line ") and err.count("\n") == 1, err[:300]
    assert "Traceback" not in out + err


@settings(max_examples=150, deadline=None)
@given(
    line=st.integers(0, len(LINES) - 1),
    field=st.sampled_from(FIELDS),
    value=st.sampled_from(GARBAGE_VALUES),
    duplicate=st.booleans(),
)
def test_cli_garbage_field_values(tmp_path_factory, line, field, value, duplicate):
    lines = list(LINES)
    body = lines[line][:-1]
    # appended field: a duplicate key when the event already has it (the last one wins)
    lines[line] = body + b',"' + field + b'":' + value + b"}"
    if duplicate:
        lines[line] = b'{"' + field + b'":' + value + b"," + lines[line][1:]
    code, out, err = replay_cli(b"\n".join(lines) + b"\n", tmp_path_factory.mktemp("f"), "--json")
    check_cli_result(code, out, err)


@settings(max_examples=150, deadline=None)
@given(
    line=st.integers(0, len(LINES) - 1),
    junk=st.binary(max_size=60),
    replace=st.booleans(),
    json_flag=st.booleans(),
)
def test_cli_random_bytes(tmp_path_factory, line, junk, replace, json_flag):
    lines = list(LINES)
    lines[line] = junk if replace else lines[line][: len(junk)] + junk
    flags = ("--json",) if json_flag else ()
    code, out, err = replay_cli(b"\n".join(lines) + b"\n", tmp_path_factory.mktemp("f"), *flags)
    check_cli_result(code, out, err)


@settings(max_examples=100, deadline=None)
@given(
    line=st.integers(0, len(LINES) - 1),
    field=st.sampled_from([f.decode() for f in FIELDS]),
    value=st.recursive(
        st.none()
        | st.booleans()
        | st.integers(-(2**63), 2**64 - 1)  # what orjson can write
        | st.floats(allow_nan=False, allow_infinity=False)
        | st.text(max_size=5),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
        max_leaves=6,
    ),
)
def test_cli_wrong_types_for_every_field(tmp_path_factory, line, field, value):
    events = [json.loads(x) for x in LINES]
    events[line][field] = value
    data = to_text(events).encode()
    code, out, err = replay_cli(data, tmp_path_factory.mktemp("f"), "--json")
    check_cli_result(code, out, err)


def test_cli_subprocess_garbage(tmp_path):
    cases = {
        "binary": b"\xff\xfe\x00garbage\n",
        "nan": SIMULATED.encode().splitlines()[0][:-1] + b',"seed":NaN}\n',
        "huge": LINES[0] + b"\n" + LINES[1][:-1] + b',"series":' + b"9" * 5000 + b"}\n",
        "nested": LINES[0] + b"\n" + b"[" * 100_000 + b"\n",
        "dupkeys": b'{"type":"start","type":"draw","game":"tock","players":["a","b"]}\n',
    }
    for name, data in cases.items():
        path = tmp_path / f"{name}.jsonl"
        path.write_bytes(data)
        r = subprocess.run(
            [sys.executable, "-m", "games.engine", "replay", str(path)],
            cwd=ROOT,
            capture_output=True,
            timeout=120,
        )
        assert r.returncode == 1, (name, r.stderr)
        assert r.stderr.startswith(b"line ") and b"Traceback" not in r.stderr, (name, r.stderr)
    r = subprocess.run(
        [sys.executable, "-m", "games.engine", "replay", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        timeout=120,
    )
    assert r.returncode == 2 and b"cannot read" in r.stderr and b"Traceback" not in r.stderr

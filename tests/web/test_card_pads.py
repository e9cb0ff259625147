"""UNO's and Casino's two-step card pad on the score page (issue 22), for a game whose
cards the engine knows (a seeded start).

Fast checks of the presenters' steps (no browser): at random positions of simulated
games every move the engine offers (legal moves, catches, infractions) is reachable in
at most two taps, and nothing else is offered; a key with one move records it; UNO's
keys are the colours with a legal card and the wilds in hand, Casino's the hand of the
player to move. Then the page itself through the test client: the pad for a seeded
game, ``?pick=`` opening a key's choices without JavaScript, the generic page for a game
without a seed and for a score sheet."""

from __future__ import annotations

import html as html_lib
import json
import random
import re
from typing import Any

import pytest

import games.engine as engine
from games.presenters import presenter_for
from games.scorekeeping import ScoreMoves
from tests.web.kind_fixtures import (
    kind_tournament,
    move_forms,
    record,
    score_url,
    seated_game,
    staff,
)
from tournaments.models import Role

NAMES = {"ann": "Ann", "bob": "Bob", "cat": "Cat", "dan": "Dan"}
HANDLES = list(NAMES)


def score_moves(game: engine.Game) -> ScoreMoves:
    """What ``games.scorekeeping.game_score_moves`` asks of the engine, without a
    database: the moves named as the page offers them."""
    return ScoreMoves(
        sequence=game.event_count + 1,
        turn=game.turn,
        legal=[game.named_event(m) for m in game.legal_moves()],
        infractions=[game.named_event(m) for m in game.infraction_moves()],
        table=game.table_moves(),
    )


def button(event: dict[str, Any]) -> dict[str, Any]:
    return {"event": event, "label": json.dumps(event), "json": json.dumps(event)}


def reachable(panel: dict[str, Any]) -> list[tuple[dict, int]]:
    """Every target of a panel with the taps it takes: (event, taps)."""
    out = []
    for key in panel["keys"]:
        if key["off"]:
            assert key["button"] is None and not key["choices"]
        if key["button"] is not None:
            assert not key["choices"]
            out.append((key["button"]["event"], 1))
        assert len(key["choices"]) != 1, "a key with one move records it"
        out += [(b["event"], 2) for b in key["choices"]]
    out += [(b["event"], 1) for b in panel["actions"]]
    out += [(b["event"], 1) for b in panel["table"]]
    if panel["expected"] is not None:
        out.append((panel["expected"]["event"], 1))
    out += [(b["event"], 2) for g in panel["infractions"] for b in g["buttons"]]
    return out


def positions(kind: str, seeds: range, per_game: int) -> list[tuple[list[dict], engine.Game]]:
    """Random positions of seeded simulated games of ``kind``: (the log so far, the
    game there)."""
    rng = random.Random(kind)
    found = []
    for seed in seeds:
        options = {"forget": 0.4} if kind == "uno" else {}
        log = engine.simulate(game=kind, players=HANDLES[: 2 + seed % 3], seed=seed, **options)
        for n in sorted(rng.sample(range(2, len(log)), per_game)):
            found.append((log[:n], engine.replay(log[:n])))
    return found


@pytest.mark.parametrize("kind", ["uno", "casino"])
def test_every_offered_move_is_reachable_in_two_taps_and_nothing_else(kind):
    presenter = presenter_for(kind)
    taps_seen = set()
    for log, game in positions(kind, range(1, 9), 25):
        moves = score_moves(game)
        panel = presenter.score_panel(moves, game.summary(), NAMES, button, start=log[0])
        assert panel is not None
        got = reachable(panel)
        offered = moves.legal + moves.table + moves.infractions
        events = [e for e, _taps in got]
        # each of the engine's moves once, nothing else (so nothing illegal)
        assert sorted(map(json.dumps, events)) == sorted(map(json.dumps, offered)), log[-1]
        assert all(taps <= 2 for _e, taps in got)
        for event, taps in got:
            assert game.is_legal(event), event
            taps_seen.add(taps)
            if event in moves.legal:
                assert (event, 2) not in got or event not in [e for e, t in got if t == 1]
    assert taps_seen == {1, 2}


def test_uno_keys_are_the_colours_with_a_legal_card_then_the_wilds_in_hand():
    presenter = presenter_for("uno")
    for log, game in positions("uno", range(1, 6), 20):
        moves = score_moves(game)
        panel = presenter.score_panel(moves, game.summary(), NAMES, button, start=log[0])
        plays = [m for m in moves.legal if m["type"] == "play"]
        if not plays:
            assert panel["keys"] == []
            continue
        ids = [k["id"] for k in panel["keys"]]
        assert ids[:4] == ["R", "Y", "G", "B"]
        wilds = [m["card"] for m in plays if m["card"].startswith("W")]
        assert ids[4:] == [w for w in ("W", "W4", "WS", "WC") if w in wilds]
        for key in panel["keys"][:4]:
            legal_here = [m for m in plays if m["card"][0] == key["id"] and "color" not in m]
            assert key["off"] == (not legal_here)
        for key in panel["keys"][4:]:  # a wild: its colours
            assert [b["event"]["color"] for b in key["choices"]] == ["R", "Y", "G", "B"]
        for key in panel["keys"]:
            for b in key["choices"]:  # a colour's cards: by value
                assert b["event"]["card"] in (key["id"], *[m["card"] for m in plays])


def test_uno_a_forgotten_uno_is_under_something_else_and_a_catch_one_tap():
    presenter = presenter_for("uno")
    log = engine.simulate(game="uno", players=HANDLES, seed=3, forget=1.0, catch=1.0)
    game = engine.replay(log[:1])
    infraction_seen = catch_seen = False
    for event in log[1:]:
        if infraction_seen and catch_seen:
            break  # both seen: the rest of the game adds nothing (and costs seconds)
        if event["type"] not in ("play", "catch"):
            game.push(event)
            continue
        moves = score_moves(game)
        panel = presenter.score_panel(moves, game.summary(), NAMES, button, start=log[0])
        if moves.infractions:
            infraction_seen = True
            (group,) = panel["infractions"]
            assert [b["event"] for b in group["buttons"]] == moves.infractions
            assert all(b["label"].endswith(", without calling UNO") for b in group["buttons"])
        if event["type"] == "catch":
            catch_seen = True
            assert event in [b["event"] for b in panel["table"]]
        game.push(event)
    assert infraction_seen and catch_seen


def test_casino_keys_are_the_hand_of_the_player_to_move():
    presenter = presenter_for("casino")
    for log, game in positions("casino", range(1, 5), 20):
        moves = score_moves(game)
        summary = game.summary()
        panel = presenter.score_panel(moves, summary, NAMES, button, start=log[0])
        if summary["turn"] is None:
            assert panel["keys"] == []
            continue
        assert [k["id"] for k in panel["keys"]] == summary["hands"][summary["turn"]]
        for key in panel["keys"]:
            mine = [m for m in moves.legal if m.get("card") == key["id"]]
            assert key["off"] == (not mine)
            assert [b["event"] for b in key["choices"]] == (mine if len(mine) > 1 else [])


def test_no_pad_without_a_seed_nor_on_a_score_sheet_nor_before_the_start():
    for kind in ("uno", "casino"):
        presenter = presenter_for(kind)
        log = engine.simulate(game=kind, players=HANDLES, seed=2)
        game = engine.replay(log[:5])
        moves = score_moves(game)
        unseeded = {k: v for k, v in log[0].items() if k != "seed"}
        sheet = {"type": "start", "game": kind, "players": HANDLES, "sheet": True}
        for start in (unseeded, sheet, None):
            assert presenter.score_panel(moves, game.summary(), NAMES, button, start=start) is None
        assert presenter.score_panel(moves, game.summary(), NAMES, button, start=log[0])


# --------------------------------------------------------------------------- the page


@pytest.fixture
def setup(db):
    def make(kind: str) -> tuple[Any, Any]:
        tournament = kind_tournament(kind, name=f"{kind} pads")
        game = seated_game(tournament, NAMES)
        return game, staff(tournament, Role.SCOREKEEPER, f"{kind}-pad-keeper")

    return make


def key_position(kind: str) -> tuple[list[dict], str]:
    """A simulated seeded game up to a position with a step-1 key holding several
    moves: the log so far and that key's id."""
    presenter = presenter_for(kind)
    log = engine.simulate(game=kind, players=HANDLES, seed=6)
    game = engine.replay(log[:1])
    for n, event in enumerate(log[1:], start=1):
        if n > 3:
            panel = presenter.score_panel(
                score_moves(game), game.summary(), NAMES, button, start=log[0]
            )
            for key in panel["keys"]:
                if key["choices"]:
                    return log[:n], key["id"]
        game.push(event)
    raise AssertionError("no key with choices")


@pytest.mark.parametrize("kind", ["uno", "casino"])
def test_the_page_offers_the_pad_and_pick_opens_a_key_without_javascript(client, setup, kind):
    game, keeper = setup(kind)
    log, key = key_position(kind)
    record(game, log)
    client.force_login(keeper)
    html = client.get(score_url(game)).content.decode()
    assert 'class="score-moves cards-play"' in html
    assert f'data-pick="pick-{key}"' in html and f'href="?pick={key}"' in html
    assert re.search(rf'id="pick-{key}"[^>]* hidden', html)
    forms = move_forms(html)
    engine_game = engine.replay(log)
    moves = score_moves(engine_game)
    assert sorted(json.dumps(f["event"]) for f in forms) == sorted(
        json.dumps(e) for e in moves.legal + moves.table + moves.infractions
    )
    assert all(f["sequence"] == len(log) + 1 for f in forms)

    opened = client.get(score_url(game), {"pick": key}).content.decode()
    assert 'class="score-moves cards-play picking"' in opened
    assert not re.search(rf'id="pick-{key}"[^>]* hidden', opened)
    for junk in ("R<", "x" * 40, "1;2", ""):  # not a key id: nothing opens
        other = client.get(score_url(game), {"pick": junk})
        assert other.status_code == 200
        assert 'class="score-moves cards-play"' in other.content.decode()


@pytest.mark.parametrize("kind", ["uno", "casino"])
def test_without_a_seed_or_on_a_sheet_the_page_stays_generic(client, setup, kind):
    game, keeper = setup(kind)
    log = engine.simulate(game=kind, players=HANDLES, seed=6)
    unseeded = [{k: v for k, v in log[0].items() if k != "seed"}, *log[1:6]]
    record(game, unseeded)
    client.force_login(keeper)
    html = html_lib.unescape(client.get(score_url(game)).content.decode())
    assert "cards-play" not in html and "Moves by the rules" in html

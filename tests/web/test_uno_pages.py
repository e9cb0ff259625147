"""UNO on the site's pages: the game page (the table a spectator sees, the hands for
staff, log sentences, the replay viewer) and the scorekeeper's page (a seeded game
recorded through its buttons; what a game without a seed offers instead). Simulated
seeded games in an UNO league's tournament, through the Django test client per role."""

from __future__ import annotations

import html as html_lib
import json
import re

import pytest

import games.engine as engine
from games.models import Game, GameEvent
from games.presenter_uno import uno_card_label
from tests.tournaments.factories import PlayerFactory
from tests.web.kind_fixtures import (
    check_latest_events_ends,
    checked_segment_ends,
    kind_tournament,
    move_forms,
    page,
    post,
    record,
    score_url,
    seated_game,
    staff,
    start_pages,
)
from tournaments import services
from tournaments.models import Role
from tournaments.permissions import SYSTEM

pytestmark = pytest.mark.django_db

HANDLES = ["ann", "bob", "cat"]
NAMES = {"ann": "Ann", "bob": "Bob", "cat": "Cat"}
# Seed 4 to 120 points, 3 players: 95 events, a challenge at event 11, a catch at event
# 68, a two-card draw at event 9 (checked by test_the_simulated_game_has_what_we_show).
SEED, TARGET = 4, 120


@pytest.fixture
def tournament(db):
    return kind_tournament("uno", league="Uno Nights", name="Uno Cup")


@pytest.fixture
def game(tournament):
    return seated_game(tournament, NAMES)


@pytest.fixture
def organizer(tournament):
    return staff(tournament, Role.ORGANIZER, "uno-org")


@pytest.fixture
def scorekeeper(tournament):
    return staff(tournament, Role.SCOREKEEPER, "uno-sk")


def simulated() -> list[dict]:
    return engine.simulate(game="uno", players=HANDLES, seed=SEED, target=TARGET)


def mid_hand(log) -> int:
    """The length of a prefix of ``log`` that ends in the middle of a hand."""
    for n in range(20, len(log)):
        s = engine.replay(log[:n]).summary()
        if s["turn"] is not None and all(len(h) > 1 for h in s["hands"].values()):
            return n
    raise AssertionError("no mid-hand point")


def test_the_simulated_game_has_what_we_show():
    log = simulated()
    assert len(log) == 95 and engine.replay(log).is_over
    assert log[10]["type"] == "challenge" and log[67]["type"] == "catch"
    assert log[8]["type"] == "draw" and len(log[8]["cards"]) == 2


# --------------------------------------------------------------------------- the game page


def test_the_public_sees_the_table_and_hand_sizes_staff_see_the_cards(client, game, organizer):
    log = simulated()
    n = mid_hand(log)
    record(game, log[:n])
    summary = engine.replay(log[:n]).summary()
    public = page(client, game)
    top = summary["top"]
    assert f'data-top="{top}"' in public
    label = uno_card_label(top, summary["color"])
    assert f'aria-label="Top card: {label}"' in public
    assert f'data-color="{summary["color"]}"' in public
    assert f'data-turn="{summary["turn"]}"' in public
    assert f'data-draw-pile="{summary["draw_pile"]}"' in public
    assert f'data-hand="{summary["hand"]}"' in public
    assert "dealt by Ann" in public  # hand 1, the first player deals
    for handle, cards in summary["hands"].items():
        assert f'data-player="{handle}" data-cards="{len(cards)}"' in public
    assert 'class="uno-hand"' not in public  # no card of any hand
    assert "how many cards each player holds, not which" in public

    client.force_login(organizer)
    staff = page(client, game)
    assert staff.count('class="uno-hand"') == 3
    hand = summary["hands"]["bob"]
    section = staff.split('data-player="bob"', 1)[1].split("</li>", 1)[0]
    assert re.findall(r'aria-label="([^"]+)"', section) == [uno_card_label(c) for c in hand]


def test_cards_in_words_and_the_colour_of_a_wild():
    assert uno_card_label("R7") == "Red 7"
    assert uno_card_label("GS") == "Green Skip"
    assert uno_card_label("BV") == "Blue Reverse"
    assert uno_card_label("YD") == "Yellow Draw Two"
    assert uno_card_label("W4") == "Wild Draw Four"
    assert uno_card_label("W4", "G") == "Wild Draw Four (Green)"
    assert uno_card_label("WS", "B") == "Wild Swap Hands (Blue)"


def test_the_log_in_sentences_never_names_a_drawn_card(client, game):
    log = simulated()
    record(game, log)
    html = page(client, game)
    final = engine.replay(log).summary()
    assert "The game starts: Ann, Bob, Cat; Ann deals; to 120 points" in html
    up = log[1]["up"][-1]
    assert f"A new hand is dealt; the up card is {uno_card_label(up)}" in html
    draw = log[8]
    assert f"{NAMES[draw['player']]} draws 2 cards" in html
    challenge = final["challenges"][0]
    verdict = "it was legal" if challenge["legal"] else "it was a bluff"
    assert (
        f"{NAMES[challenge['by']]} challenges {NAMES[challenge['against']]}'s Wild Draw Four: "
        f"{verdict}" in html
    )
    catch = log[67]
    assert f"{NAMES[catch['by']]} catches {NAMES[catch['against']]} without UNO" in html
    plays = [e for e in log if e["type"] == "play" and "color" not in e]
    first = plays[0]
    assert f"{NAMES[first['player']]} plays {uno_card_label(first['card'])}" in html
    wild = next(e for e in log if e["type"] == "play" and "color" in e)
    assert f"{NAMES[wild['player']]} plays {uno_card_label(wild['card'])} and chooses " in html
    # the log section holds no drawn or dealt card: each sentence names public cards only
    log_section = html.split('<ol class="events">', 1)[1].split("</ol>", 1)[0]
    assert "[" not in log_section and '"type"' not in log_section
    # the game is over: hands played and totals
    for result in final["hand_results"]:
        assert f'<td>{NAMES[result["winner"]]}</td><td class="num">{result["points"]}</td>' in html
    for handle, score in final["scores"].items():
        assert f'<span>{NAMES[handle]}</span> <strong class="num">{score}</strong>' in html


def test_the_replay_viewer_shows_the_table_at_event_n(client, game, organizer):
    log = simulated()
    record(game, log[:60])
    for at in (2, 11, 30, 59):
        summary = engine.replay(log[:at]).summary()
        html = page(client, game, at=at)
        assert f"Event {at} of 60" in html
        assert f'data-top="{summary["top"]}"' in html
        assert f'data-draw-pile="{summary["draw_pile"]}"' in html
        for handle, cards in summary["hands"].items():
            assert f'data-player="{handle}" data-cards="{len(cards)}"' in html
        if summary["turn"] is not None:
            assert 'class="uno-hand"' not in html  # still a spectator's view
    client.force_login(organizer)
    summary = engine.replay(log[:30]).summary()
    staff = page(client, game, at=30)
    section = staff.split('data-player="ann"', 1)[1].split("</li>", 1)[0]
    assert re.findall(r'aria-label="([^"]+)"', section) == [
        uno_card_label(c) for c in summary["hands"]["ann"]
    ]


def test_a_score_sheet_shows_hand_results_and_totals(client):
    for h in HANDLES:
        PlayerFactory(handle=h, display_name=NAMES[h])
    sheet = [
        {"type": "start", "game": "uno", "players": HANDLES, "sheet": True},
        {"type": "hand", "winner": "bob", "points": 300},
        {"type": "hand", "winner": "cat", "points": 520},
    ]
    game = services.friendly_game_create(kind="uno", log=sheet, user=SYSTEM).game
    html = page(client, game)
    assert "Score sheet" in html and "data-top" not in html and "Hands played" in html
    assert "Hand won by Bob: 300 points" in html
    assert '<span>Cat</span> <strong class="num">520</strong>' in html


def test_the_log_marks_where_each_hand_ended_with_its_winner(client, game):
    ends, results = checked_segment_ends(client, game, simulated(), "hand_results")
    for text, r in zip(ends.values(), results, strict=True):
        assert text == f"Hand won by {NAMES[r['winner']]}: {r['points']} points"


def test_a_score_sheet_before_its_first_hand_line_is_a_sheet_not_an_undealt_game(client):
    for h in HANDLES:
        PlayerFactory(handle=h, display_name=NAMES[h])
    sheet, full = start_pages(client, "uno", HANDLES)
    assert "Score sheet" in sheet and "No hand has been dealt yet." not in sheet
    assert "No hand has been dealt yet." in full and "Score sheet" not in full


def test_game_page_queries_are_bounded(client, game, django_assert_max_num_queries):
    log = simulated()
    record(game, log[:10])
    with django_assert_max_num_queries(8):
        page(client, game)
    record(game, log[10:70], first=11)
    with django_assert_max_num_queries(8):
        page(client, game)
    with django_assert_max_num_queries(9):
        page(client, game, at=40)


# --------------------------------------------------------------------------- the score page


def test_a_seeded_game_is_recorded_through_the_score_page_buttons(client, game, scorekeeper):
    """The start (with a seed) through the page's event box, then the offered buttons
    only: catches when offered, else a play, else the first move; every label is a
    sentence; the stored log replays to the state the page shows, to the end."""
    client.force_login(scorekeeper)
    html = client.get(score_url(game)).content.decode()
    assert "Start the game (the cards are named as they are dealt)" in html
    (offered,) = move_forms(html)  # the engine's start: cards named at the table
    assert offered["label"] == "The game starts: Ann, Bob, Cat; Ann deals; to 500 points"
    # seed 36: every kind of move the buttons offer, a colour chosen and a challenge
    # included, in 80 events (seed 11 took 180 and never chose a colour)
    start = {"type": "start", "game": "uno", "players": HANDLES, "seed": 36, "target": 30}
    assert post(client, game, start, 1, "start").status_code == 303
    seen = set()
    sequence = 2
    for _ in range(400):
        html = client.get(score_url(game)).content.decode()
        forms = move_forms(html)
        if not forms:
            assert "The game is over" in html
            break
        assert all(f["sequence"] == sequence for f in forms)
        for f in forms:
            assert re.match(r"^[A-Z][^{}\[\]]+$", f["label"]), f["label"]
            if f["event"]["type"] == "draw":  # seeded: the engine names the cards
                assert isinstance(f["event"]["cards"], list)
        catches = [f for f in forms if f["group"] == "table"]
        # the moves by the rules (not Undo, nor the infractions under "Something else")
        forms = [f for f in forms if f["group"] in ("legal", "table", "start")]
        plays = [f for f in forms if f["event"]["type"] == "play"]
        chosen = catches[0] if catches else plays[-1] if plays else forms[0]
        seen.add(chosen["event"]["type"])
        response = post(client, game, chosen["event"], sequence, chosen["key"])
        assert response.status_code == 303, html_lib.unescape(response.content.decode())[:400]
        sequence += 1
    fresh = Game.objects.get(pk=game.pk)
    assert fresh.status == "finished"
    assert {"deal", "play", "draw", "pass", "color", "challenge"} <= seen
    events = [e.data for e in GameEvent.objects.filter(game=game).order_by("sequence")]
    replayed = engine.replay(events)
    assert replayed.is_over and fresh.placements == replayed.placements()
    # every card that moved is named: the log replays without its seed too
    unseeded_log = [{k: v for k, v in events[0].items() if k != "seed"}, *events[1:]]
    assert engine.replay(unseeded_log).summary()["scores"] == replayed.summary()["scores"]
    html = page(client, game)
    for handle, score in replayed.summary()["scores"].items():
        assert f'<span>{NAMES[handle]}</span> <strong class="num">{score}</strong>' in html


def test_score_page_labels_name_cards_colours_and_uno(client, game, scorekeeper):
    log = simulated()
    client.force_login(scorekeeper)
    record(game, log[:2])  # start and the first deal
    forms = move_forms(client.get(score_url(game)).content.decode())
    summary = engine.replay(log[:2]).summary()
    turn = NAMES[summary["turn"]]
    labels = [f["label"] for f in forms]
    game_now = engine.replay(log[:2])
    next_card = game_now.named_event({"type": "draw", "player": summary["turn"]})["cards"][0]
    assert f"{turn} draws {uno_card_label(next_card)}" in labels
    for f in forms:
        if f["event"]["type"] == "play":
            card = f["event"]["card"]
            assert f["label"].startswith(f"{turn} plays {uno_card_label(card)}")
            if "color" in f["event"]:
                assert "and chooses" in f["label"]


def test_after_a_draw_two_the_only_button_is_the_draw(client, game, scorekeeper):
    log = simulated()
    client.force_login(scorekeeper)
    record(game, log[:8])  # the next event is a two-card draw
    forms = move_forms(client.get(score_url(game)).content.decode())
    player = NAMES[log[8]["player"]]
    assert [f["label"] for f in forms if f["group"] == "legal"] == [f"{player} draws 2 cards"]
    assert [f["event"] for f in forms] == [log[8]]  # the cards named, as the bots log them


def test_a_catch_button_is_offered_right_after_a_play_without_uno(client, game, scorekeeper):
    log = simulated()
    client.force_login(scorekeeper)
    record(game, log[:67])
    html = client.get(score_url(game)).content.decode()
    assert "Caught without UNO: who catches?" in html
    catches = [f for f in move_forms(html) if f["group"] == "table"]
    against = log[67]["against"]
    assert {f["event"]["by"] for f in catches} == set(HANDLES) - {against}
    assert catches[0]["label"].endswith(
        f"catches {NAMES[against]} without UNO ({NAMES[against]} draws two)"
    )


def unseeded(log):
    start = {k: v for k, v in log[0].items() if k != "seed"}
    return [start, *log[1:]]


def test_without_a_seed_the_page_offers_no_guessed_cards(client, game, scorekeeper):
    """A game whose cards are named at the table: the next deal and a draw of two are
    to be written in the prefilled event box; a one-card draw is a button per card the
    pile may give (the scorekeeper picks the one drawn)."""
    log = unseeded(simulated())
    client.force_login(scorekeeper)
    record(game, log[:1])
    raw = client.get(score_url(game)).content.decode()
    html = html_lib.unescape(raw)
    assert not move_forms(raw)
    assert "give the seven cards dealt to each player" in html
    assert '<details class="raw-event" open>' in html
    assert '{"type": "deal", "hands": {"ann": [], "bob": [], "cat": []}, "up": []}' in html
    record(game, log[1:8], first=2)  # next: a two-card draw
    raw = client.get(score_url(game)).content.decode()
    html = html_lib.unescape(raw)
    assert not [f for f in move_forms(raw) if f["event"]["type"] == "draw"]
    player = log[8]["player"]
    assert f'{{"type": "draw", "player": "{player}", "cards": ["?", "?"]}}' in html
    assert "Name the 2 cards drawn" in html
    # the named draw through the page's event box
    response = client.post(
        score_url(game),
        {"action": "event", "event": json.dumps(log[8]), "sequence": 9, "key": "raw-9", "raw": "1"},
    )
    assert response.status_code == 303
    turn = next(
        i
        for i in range(9, len(log))
        if log[i]["type"] == "draw" and len(log[i]["cards"]) == 1 and log[i - 1]["type"] != "catch"
    )
    record(game, log[9:turn], first=10)
    forms = move_forms(client.get(score_url(game)).content.decode())
    draws = [f for f in forms if f["event"]["type"] == "draw"]
    drawn = log[turn]["cards"][0]
    pick = next(f for f in draws if f["event"]["cards"] == [drawn])
    assert pick["label"] == f"{NAMES[log[turn]['player']]} draws {uno_card_label(drawn)}"
    assert len(draws) > 1
    assert post(client, game, pick["event"], turn + 1, pick["key"]).status_code == 303


def test_the_score_pages_latest_events_mark_the_ends_within_them(client, game, scorekeeper):
    check_latest_events_ends(client, game, scorekeeper, simulated(), "hand_results")


def test_score_page_queries_are_bounded(client, game, scorekeeper, django_assert_max_num_queries):
    log = simulated()
    client.force_login(scorekeeper)
    record(game, log[:5])
    with django_assert_max_num_queries(15):  # 14, and the pending proposal (stop live)
        assert client.get(score_url(game)).status_code == 200
    record(game, log[5:60], first=6)
    with django_assert_max_num_queries(15):  # 14, and the pending proposal (stop live)
        assert client.get(score_url(game)).status_code == 200

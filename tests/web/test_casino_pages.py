"""Casino on the site's pages: the game page (the center's loose cards and builds, the
hands for staff only while a deal is played, captured counts, round scores, log
sentences, the replay viewer), a score sheet, the scorekeeper's page (a seeded game
recorded through its buttons; what a game without a seed offers instead), the rules page
in every language, and a Casino league whose games feed Casino ratings of their own.
Simulated seeded games recorded through the recording service, per role through the
Django test client."""

from __future__ import annotations

import html as html_lib
import json
import re

import pytest
from django.urls import reverse

import games.engine as engine
from games.models import Game, GameEvent
from games.presenter_casino import casino_card, casino_card_label
from ratings.models import Rating, RatingChange
from tests.tournaments.factories import (
    PlayerFactory,
    RegistrationFactory,
    RoundFactory,
    UserFactory,
    seat_table,
)
from tests.web.kind_fixtures import (
    check_latest_events_ends,
    checked_segment_ends,
    kind_tournament,
    move_forms,
    page,
    page_segment_ends,
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
# Seed 19 to 11 points, 3 players: 105 events over two rounds; a build at event 4, a raise
# of it at event 7, a capture of two items at event 16, calls at events 56 and 71, and
# after event 57 a called build (Ann's) and an open one (Bob's) in the center (checked by
# test_the_simulated_game_has_what_we_show).
SEED, TARGET = 19, 11


@pytest.fixture
def tournament(db):
    return kind_tournament("casino", league="Casino Nights", name="Casino Cup")


@pytest.fixture
def game(tournament):
    return seated_game(tournament, NAMES)


@pytest.fixture
def organizer(tournament):
    return staff(tournament, Role.ORGANIZER, "casino-org")


@pytest.fixture
def scorekeeper(tournament):
    return staff(tournament, Role.SCOREKEEPER, "casino-sk")


def simulated() -> list[dict]:
    return engine.simulate(game="casino", players=HANDLES, seed=SEED, target=TARGET)


def section(html: str, start: str, end: str = "</li>") -> str:
    return html.split(start, 1)[1].split(end, 1)[0]


def labels(html: str) -> list[str]:
    return re.findall(r'role="img" aria-label="([^"]+)"', html)


def test_the_simulated_game_has_what_we_show():
    log = simulated()
    assert len(log) == 105 and engine.replay(log).is_over
    assert log[3] == {
        "type": "build",
        "player": "cat",
        "card": "3H",
        "with": ["2D", "2H"],
        "value": 7,
    }
    assert log[6] == {"type": "build", "player": "cat", "card": "2S", "with": ["b1"], "value": 9}
    assert log[15]["type"] == "capture" and len(log[15]["take"]) == 2
    assert log[55]["type"] == "call" and log[70]["type"] == "call"
    builds = engine.replay(log[:57]).summary()["center"]["builds"]
    assert [(b["owner"], b["called"]) for b in builds] == [("ann", True), ("bob", False)]


def test_cards_in_words_and_suit_symbols():
    assert casino_card_label("10D") == "10 of Diamonds"
    assert casino_card_label("AS") == "Ace of Spades"
    assert casino_card_label("KC") == "King of Clubs"
    assert casino_card_label("QH") == "Queen of Hearts"
    assert casino_card_label("JD") == "Jack of Diamonds"
    assert casino_card_label("b3") == "b3"  # not a card: as it is
    assert casino_card("2H") == {"code": "2H", "label": "2 of Hearts", "short": "2♥", "red": True}
    assert casino_card("10C")["short"] == "10♣" and not casino_card("10C")["red"]


# --------------------------------------------------------------------------- the game page


def test_the_public_sees_the_center_and_hand_sizes_staff_see_the_cards(client, game, organizer):
    log = simulated()
    record(game, log[:57])
    summary = engine.replay(log[:57]).summary()
    assert summary["turn"] == "cat"
    public = page(client, game)
    loose = summary["center"]["cards"]
    assert f'data-loose="{",".join(loose)}"' in public
    for b in summary["center"]["builds"]:
        called = "true" if b["called"] else "false"
        item = section(
            public,
            f'data-build="{b["id"]}" data-value="{b["value"]}" data-owner="{b["owner"]}" '
            f'data-called="{called}"',
        )
        assert f"Build of {b['value']}" in item and f"owner: {NAMES[b['owner']]}" in item
        assert ("called</span>" in item) is b["called"]
        assert labels(item) == [casino_card_label(c) for c in b["cards"]]
    assert f'data-turn="{summary["turn"]}"' in public
    assert summary["round"] == 2 and summary["dealer"] == "bob"
    assert '<dd data-round="2">round 2, dealt by Bob</dd>' in public
    assert summary["last_capture"] is None  # nobody has captured in round 2 yet
    assert '<dd data-last-capture="">nobody yet this round</dd>' in public
    for handle, cards in summary["hands"].items():
        captured = summary["captured"][handle]
        assert (
            f'data-player="{handle}" data-cards="{len(cards)}" data-captured="{captured}"' in public
        )
    assert 'class="casino-hand"' not in public  # no card of any hand
    assert '<th class="num">Captured</th><th class="num">Score</th>' in public
    assert "how many cards each player holds, not which" in public
    # no hand card in the page at all, in words or codes (the center's cards are public)
    held = {c for cards in summary["hands"].values() for c in cards}
    shown = set(loose) | {c for b in summary["center"]["builds"] for c in b["cards"]}
    for card in held - shown:
        assert f'aria-label="{casino_card_label(card)}"' not in public

    client.force_login(organizer)
    staff = page(client, game)
    assert staff.count('class="casino-hand"') == 3
    item = section(staff, 'data-player="bob"')
    assert labels(item) == [casino_card_label(c) for c in summary["hands"]["bob"]]


def test_the_log_in_sentences_and_the_rounds(client, game):
    log = simulated()
    record(game, log)
    html = page(client, game)
    final = engine.replay(log).summary()
    assert "The game starts: Ann, Bob, Cat; Ann deals; to 11 points (shuffled by the site)" in html
    assert (
        "A new round is dealt; the center: 2 of Diamonds, 6 of Hearts, King of Spades, "
        "2 of Hearts" in html
    )
    assert "The next cards are dealt" in html
    assert "Bob plays King of Clubs and captures King of Spades" in html
    assert "Cat builds 7: 3 of Hearts on 2 of Diamonds and 2 of Hearts" in html
    assert "Cat raises build b1 to 9 with 2 of Spades" in html
    assert "Cat plays 9 of Diamonds and captures build b2" in html
    assert (
        "Bob plays 8 of Diamonds and captures 8 of Hearts and Ace of Hearts + 7 of Spades" in html
    )
    assert "Ann calls 10 with 3 of Diamonds: 3 of Diamonds + build b3; 10 of Hearts" in html
    assert "Cat calls 6 with 6 of Hearts: 6 of Hearts; 6 of Spades" in html
    assert "Bob trails Jack of Diamonds (leaves it in the center)" in html
    # a deal's sentence names the center only, never a dealt hand
    log_section = html.split('<ol class="events">', 1)[1].split("</ol>", 1)[0]
    assert "[" not in log_section and '"type"' not in log_section
    first_hand = log[1]["hands"]["bob"]
    deal_line = next(line for line in log_section.split("</li>") if "A new round" in line)
    assert not any(casino_card_label(c) in deal_line for c in first_hand)
    # the game is over: each round's points by category, then the totals
    for number, line in enumerate(final["round_scores"], start=1):
        table = section(html, f'<table class="casino-round" data-round="{number}">', "</table>")
        assert f"Round {number}" in table
        for handle, got in line.items():
            row = section(table, f'<tr data-player="{handle}">', "</tr>")
            cells = re.findall(r'<td class="num">(?:<strong>)?(\d+)', row)
            keys = ["cards", "spades", "big_casino", "little_casino", "aces", "total"]
            assert [int(c) for c in cells] == [got[k] for k in keys]
    for handle, score in final["scores"].items():
        assert f'<span>{NAMES[handle]}</span> <strong class="num">{score}</strong>' in html
    # the category headers: a short face for the eye, words for screen readers
    assert (
        '<th scope="col" class="num" title="Big casino (10 of Diamonds)">'
        '<span aria-hidden="true">10♦</span>'
        '<span class="visually-hidden">Big casino (10 of Diamonds)</span></th>' in html
    )


def test_the_replay_viewer_shows_the_table_at_event_n(client, game, organizer):
    log = simulated()
    record(game, log[:60])
    for at in (2, 7, 30, 57):
        summary = engine.replay(log[:at]).summary()
        html = page(client, game, at=at)
        assert f"Event {at} of 60" in html
        assert f'data-loose="{",".join(summary["center"]["cards"])}"' in html
        assert html.count("data-build=") == len(summary["center"]["builds"])
        for handle, cards in summary["hands"].items():
            assert f'data-player="{handle}" data-cards="{len(cards)}"' in html
        assert 'class="casino-hand"' not in html  # still a spectator's view
    client.force_login(organizer)
    summary = engine.replay(log[:30]).summary()
    staff = page(client, game, at=30)
    assert labels(section(staff, 'data-player="ann"')) == [
        casino_card_label(c) for c in summary["hands"]["ann"]
    ]


def test_a_spectator_sees_no_dealt_hand_in_the_events_or_the_log(client, game, organizer):
    log = simulated()
    record(game, log[:40])
    for url in ("api:game-events", "api:game-log"):
        body = client.get(reverse(url, args=[game.pk])).content.decode()
        assert '"hands"' not in body and '"seed"' not in body
        assert '"center"' in body and '"capture"' in body  # the face-up cards are public
    client.force_login(organizer)
    body = client.get(reverse("api:game-log", args=[game.pk])).content.decode()
    assert [json.loads(line) for line in body.splitlines() if line] == log[:40]


def test_a_score_sheet_shows_round_lines_and_totals(client):
    for h in HANDLES:
        PlayerFactory(handle=h, display_name=NAMES[h])
    sheet = [
        {"type": "start", "game": "casino", "players": HANDLES, "sheet": True},
        {
            "type": "round",
            "scores": {
                "ann": {"cards": 3, "spades": 1, "aces": 2},
                "bob": {"big_casino": 2, "aces": 1},
                "cat": {"little_casino": 1, "aces": 1},
            },
        },
    ]
    game = services.friendly_game_create(kind="casino", log=sheet, user=SYSTEM).game
    html = page(client, game)
    assert "Score sheet" in html and "data-loose" not in html and "data-build" not in html
    assert "Score sheet: Ann, Bob, Cat, to 21 points" in html
    assert "Round scored: Ann 6 points, Bob 3 points, Cat 2 points" in html
    row = section(html, '<tr data-player="ann">', "</tr>")
    assert re.findall(r'<td class="num">(?:<strong>)?(\d+)', row) == ["3", "1", "0", "0", "2", "6"]
    assert '<span>Ann</span> <strong class="num">6</strong>' in html


def test_the_log_marks_where_each_round_ended_with_its_points(client, game):
    ends, rounds = checked_segment_ends(client, game, simulated(), "round_scores")
    for text, scores in zip(ends.values(), rounds, strict=True):
        parts = [f"{NAMES[h]} {scores[h]['total']} point" for h in HANDLES]
        assert text.startswith("Round scored: ") and all(p in text for p in parts)
    # in the replay viewer, only the rounds ended by then
    first = next(iter(ends))
    assert list(page_segment_ends(page(client, game, at=first))) == [first]


def test_a_score_sheet_before_its_first_round_line_is_a_sheet_not_an_undealt_game(client):
    for h in HANDLES:
        PlayerFactory(handle=h, display_name=NAMES[h])
    sheet, full = start_pages(client, "casino", HANDLES)
    assert "Score sheet" in sheet and "No round finished yet." in sheet
    assert "No card has been dealt yet." not in sheet and "data-loose" not in sheet
    # A full game before its first deal is the other case, and says so.
    assert "No card has been dealt yet." in full and "Score sheet" not in full


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
    only (a capture when offered, else a build or call, else the first move); every
    label is a sentence; the stored log names every dealt card and replays to the state
    the page shows, to the end."""
    client.force_login(scorekeeper)
    html = client.get(score_url(game)).content.decode()
    assert "Start the game (the cards are named as they are dealt)" in html
    (offered,) = move_forms(html)
    assert offered["label"] == "The game starts: Ann, Bob, Cat; Ann deals; to 21 points"
    start = {"type": "start", "game": "casino", "players": HANDLES, "seed": 5, "target": 5}
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
        by_type = {}
        for f in forms:
            by_type.setdefault(f["event"]["type"], []).append(f)
        if "deal" in by_type:
            (chosen,) = by_type["deal"]
            assert chosen["label"].startswith(("Deal a new round (the center: ", "Deal the next"))
            assert "hands" in chosen["event"]  # the engine names the cards dealt
        else:
            kinds = ["capture", "call", "build", "trail"]
            if sequence % 3 == 0:  # now and then build or call first
                kinds = ["call", "build", "capture", "trail"]
            chosen = next(by_type[k][-1] for k in kinds if k in by_type)
        seen.add(chosen["event"]["type"])
        response = post(client, game, chosen["event"], sequence, chosen["key"])
        assert response.status_code == 303, html_lib.unescape(response.content.decode())[:400]
        sequence += 1
    fresh = Game.objects.get(pk=game.pk)
    assert fresh.status == "finished"
    assert {"deal", "capture", "trail"} <= seen and seen & {"build", "call"}
    events = [e.data for e in GameEvent.objects.filter(game=game).order_by("sequence")]
    replayed = engine.replay(events)
    assert replayed.is_over and fresh.placements == replayed.placements()
    # every dealt card is named: the log replays without its seed too
    unseeded_log = [{k: v for k, v in events[0].items() if k != "seed"}, *events[1:]]
    assert engine.replay(unseeded_log).summary()["scores"] == replayed.summary()["scores"]
    html = page(client, game)
    for handle, score in replayed.summary()["scores"].items():
        assert f'<span>{NAMES[handle]}</span> <strong class="num">{score}</strong>' in html


def test_score_page_labels_name_the_cards(client, game, scorekeeper):
    log = simulated()
    client.force_login(scorekeeper)
    record(game, log[:3])  # start, the first deal, Bob's capture: Cat to play
    forms = move_forms(client.get(score_url(game)).content.decode())
    texts = {f["label"] for f in forms}
    assert "Cat builds 7: 3 of Hearts on 2 of Diamonds and 2 of Hearts" in texts
    assert "Cat trails 9 of Diamonds (leaves it in the center)" in texts
    legal = engine.replay(log[:3]).legal_moves()
    # the card pad groups the moves by hand card: every legal move, each once
    key = lambda e: json.dumps(e, sort_keys=True)  # noqa: E731
    assert sorted(map(key, (f["event"] for f in forms if f["group"] == "legal"))) == sorted(
        map(key, legal)
    )


def test_without_a_seed_the_page_asks_for_the_cards_dealt(client, game, scorekeeper):
    log = simulated()
    client.force_login(scorekeeper)
    start = {k: v for k, v in log[0].items() if k != "seed"}
    record(game, [start])
    raw = client.get(score_url(game)).content.decode()
    html = html_lib.unescape(raw)
    assert not move_forms(raw)
    assert "give the four cards dealt to each player" in html
    assert '{"type": "deal", "hands": {"ann": [], "bob": [], "cat": []}, "center": []}' in html
    # the deal as named at the table, through the page's event box
    response = client.post(
        score_url(game),
        {"action": "event", "event": json.dumps(log[1]), "sequence": 2, "key": "raw-2", "raw": "1"},
    )
    assert response.status_code == 303
    forms = move_forms(client.get(score_url(game)).content.decode())
    assert forms and {f["event"]["player"] for f in forms} == {"bob"}
    # after the first deal is played out, the next deal has no center
    record(game, log[2:14], first=3)
    assert log[14]["type"] == "deal" and "center" not in log[14]
    html = html_lib.unescape(client.get(score_url(game)).content.decode())
    assert '{"type": "deal", "hands": {"ann": [], "bob": [], "cat": []}}' in html
    # the next round's first deal turns up a center again
    second = next(n for n in range(2, len(log)) if "center" in log[n])
    record(game, log[14:second], first=15)
    html = html_lib.unescape(client.get(score_url(game)).content.decode())
    assert '{"type": "deal", "hands": {"ann": [], "bob": [], "cat": []}, "center": []}' in html


def test_a_score_sheet_line_is_prefilled(client, scorekeeper, tournament):
    players = [PlayerFactory(handle=h, display_name=NAMES[h]) for h in HANDLES]
    game = seat_table(RoundFactory(tournament=tournament, number=1), players).game
    client.force_login(scorekeeper)
    record(game, [{"type": "start", "game": "casino", "players": HANDLES, "sheet": True}])
    html = html_lib.unescape(client.get(score_url(game)).content.decode())
    assert "A score sheet: give each player's points of the round" in html
    assert '{"type": "round", "scores": {"ann": {"cards": 0, "spades": 0' in html


# --------------------------------------------------------------------------- rules, leagues


@pytest.mark.parametrize(
    ("language", "texts"),
    [
        ("en", ["End of a round", "Big casino (10 of diamonds)", "Trail"]),
        ("es", ["Fin de la ronda", "Gran casino (10 de diamantes)", "Arrastrar"]),
        ("de", ["Ende einer Runde", "Großes Casino (Karo 10)", "Ablegen"]),
    ],
)
def test_the_casino_rules_page_follows_the_language(client, language, texts):
    url = reverse("tournaments:rules-kind", args=["casino"])
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    html = response.content.decode()
    assert f'<article class="rules" lang="{language}">' in html
    for text in texts:
        assert text in html
    assert "<table>" in html  # the scoring table
    assert "not written in your language" not in html
    # beside TOCK's and UNO's
    for kind in ("tock", "uno"):
        assert f'href="{reverse("tournaments:rules-kind", args=[kind])}"' in html


def test_the_league_form_offers_casino(admin_client):
    html = admin_client.get(reverse("admin:tournaments_league_add")).content.decode()
    assert '<option value="casino">Casino</option>' in html
    assert ("casino", "Casino") in engine.kind_choices()


def test_a_casino_league_rates_its_games_apart(tournament, django_capture_on_commit_callbacks):
    """Two Casino games recorded move by move in a Casino league's tournament, and a
    TOCK friendly game: each kind has its own ratings and history."""
    tournament.league.rate_unverified = True
    tournament.league.save()
    players = [PlayerFactory(handle=h, display_name=NAMES[h]) for h in HANDLES]
    for p in players:
        RegistrationFactory(tournament=tournament, player=p)
    for number, seed in ((1, SEED), (2, 3)):
        game = seat_table(RoundFactory(tournament=tournament, number=number), players).game
        log = engine.simulate(game="casino", players=HANDLES, seed=seed, target=TARGET)
        with django_capture_on_commit_callbacks(execute=True):
            record(game, log)
        game.refresh_from_db()
        assert game.status == "finished" and game.placements == engine.replay(log).placements()
    casino = {
        r.player.handle: r for r in Rating.objects.filter(kind="casino").select_related("player")
    }
    assert set(casino) == set(HANDLES)
    assert all(r.games == 2 for r in casino.values())
    assert sum(r.value for r in casino.values()) == pytest.approx(1500 * 3)
    first = engine.replay(simulated()).placements()
    winner = min(first, key=first.get)
    change = RatingChange.objects.filter(kind="casino", player__handle=winner).order_by(
        "game_finished_at"
    )[0]
    assert change.after > change.before
    assert not Rating.objects.filter(kind="tock").exists()
    with django_capture_on_commit_callbacks(execute=True):
        services.friendly_game_create(kind="tock", placements={"ann": 2, "bob": 1}, user=SYSTEM)
    assert Rating.objects.filter(kind="tock").count() == 2
    assert {r.player.handle: r.value for r in Rating.objects.filter(kind="casino")} == {
        h: r.value for h, r in casino.items()
    }


def test_every_page_of_a_casino_tournament_answers(
    client, tournament, game, organizer, django_capture_on_commit_callbacks
):
    """A Casino game recorded to its end: the tournament, league, player, game, score,
    referee and rulings pages and the game API answer, the player page shows a Casino
    rating, and the API's game state is the engine's summary."""
    tournament.league.rate_unverified = True
    tournament.league.save()
    log = simulated()
    with django_capture_on_commit_callbacks(execute=True):
        record(game, log)
    league = tournament.league
    client.force_login(organizer)
    for url in (
        reverse("tournaments:tournament-detail", args=[tournament.pk]),
        reverse("tournaments:league-detail", args=[league.slug]),
        reverse("tournaments:player-detail", args=["bob"]),
        reverse("tournaments:game-detail", args=[game.pk]),
        reverse("tournaments:game-score", args=[game.pk]),
        reverse("tournaments:game-referee", args=[game.pk]),
        reverse("tournaments:referee", args=[tournament.pk]),
        reverse("tournaments:rulings", args=[tournament.pk]),
        reverse("tournaments:organize", args=[tournament.pk]),
        reverse("api:game-detail", args=[game.pk]),
    ):
        response = client.get(url)
        assert response.status_code == 200, url
    player = html_lib.unescape(
        client.get(reverse("tournaments:player-detail", args=["bob"])).content.decode()
    )
    rating = Rating.objects.get(kind="casino", player__handle="bob")
    assert '<span class="badge">Casino</span>' in player
    assert f'<span class="rating-value">{rating.value:.0f}</span>' in player
    assert 'aria-labelledby="chart-casino-caption"' in player
    state = client.get(reverse("api:game-state", args=[game.pk]), {"at": 57}).json()
    assert state == engine.replay(log[:57]).summary()  # staff: the whole summary
    client.logout()
    # the game is over: everyone sees every event and the hands of any point
    state = client.get(reverse("api:game-state", args=[game.pk]), {"at": 57}).json()
    assert state["hands"] == engine.replay(log[:57]).summary()["hands"]


def test_the_score_pages_latest_events_mark_the_ends_within_them(client, game, scorekeeper):
    check_latest_events_ends(client, game, scorekeeper, simulated(), "round_scores")


def test_score_page_queries_are_bounded(client, game, scorekeeper, django_assert_max_num_queries):
    log = simulated()
    client.force_login(scorekeeper)
    record(game, log[:5])
    with django_assert_max_num_queries(15):  # 14, and the pending proposal (stop live)
        assert client.get(score_url(game)).status_code == 200
    record(game, log[5:60], first=6)
    with django_assert_max_num_queries(15):  # 14, and the pending proposal (stop live)
        assert client.get(score_url(game)).status_code == 200


def test_a_casino_tournament_is_created_seated_and_played(
    client, django_capture_on_commit_callbacks
):
    """Through the services: a Casino league and its tournament (table sizes within
    Casino's 2 to 4 players), seven players seated in round 1, each table's game played
    to the end by a simulated log of its seated players; the round's standings follow
    the games' places and the players get Casino ratings (and no TOCK ones)."""
    import datetime as dt

    from tournaments.errors import InvalidConfiguration
    from tournaments.models import Table
    from tournaments.selectors.standings import tournament_standings

    organizer = UserFactory(username="casino-boss", is_superuser=True)
    league = services.league_create(
        name="Casino Club", kind="casino", rate_unverified=True, user=organizer
    )
    assert league.kind == "casino"
    with pytest.raises(InvalidConfiguration):
        services.tournament_create(
            league=league,
            name="Too big",
            starts_on=dt.date(2026, 12, 1),
            table_sizes=[5],
            user=organizer,
        )
    tournament = services.tournament_create(
        league=league, name="Casino Open", starts_on=dt.date(2026, 12, 1), user=organizer
    )
    players = [PlayerFactory(handle=f"p{i}", display_name=f"P{i}") for i in range(7)]
    for p in players:
        RegistrationFactory(tournament=tournament, player=p)
    rnd = services.tournament_start(tournament=tournament, user=organizer, seed=1)
    tables = list(Table.objects.filter(round=rnd).select_related("game"))
    assert sorted(len(t.game.players) for t in tables) == [3, 4]
    for n, table in enumerate(tables):
        game = table.game
        assert game.kind == "casino"
        log = engine.simulate(game="casino", players=list(game.players), seed=n, target=11)
        with django_capture_on_commit_callbacks(execute=True):
            record(game, log)
        game.refresh_from_db()
        assert game.status == "finished" and game.placements == engine.replay(log).placements()
    places = {}
    for table in tables:
        places.update(Game.objects.get(pk=table.game.pk).placements)
    standings = {row.handle: row for row in tournament_standings(tournament=tournament)}
    assert {h: row.places[1] for h, row in standings.items()} == places
    assert all(row.games == 1 for row in standings.values())
    assert Rating.objects.filter(kind="casino").count() == 7
    assert not Rating.objects.filter(kind="tock").exists()
    html = html_lib.unescape(
        client.get(reverse("tournaments:tournament-detail", args=[tournament.pk])).content.decode()
    )
    for p in players:
        assert p.display_name in html


def test_a_friendly_casino_game_from_a_whole_log(client, django_capture_on_commit_callbacks):
    for h in HANDLES:
        PlayerFactory(handle=h, display_name=NAMES[h])
    log = simulated()
    with django_capture_on_commit_callbacks(execute=True):
        game = services.friendly_game_create(kind="casino", log=log, user=SYSTEM).game
    assert game.kind == "casino" and game.placements == engine.replay(log).placements()
    assert Rating.objects.filter(kind="casino").count() == 3
    html = page(client, game)
    assert "Casino game" in html and html.count('<table class="casino-round"') == 2


@pytest.mark.parametrize("language", ["es", "de"])
def test_the_game_page_in_other_languages(client, game, language):
    log = simulated()
    record(game, log[:57])
    url = reverse("tournaments:game-detail", args=[game.pk])
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    html = html_lib.unescape(response.content.decode())
    assert f'<html lang="{language}">' in html and html.count("data-build=") == 2

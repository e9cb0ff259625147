"""The scorekeeper's page at a table (``/games/<pk>/score/``): who may use it, the
three ways to record (placements, a log file, events one by one with the engine's move
buttons), a stale page, an illegal event, a referee's matter, and the hidden
idempotency key that makes a double submit harmless. Through the Django test client
per role, on the real recording services (no mocks)."""

from __future__ import annotations

import html as html_lib
import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

import games.engine as engine
from games.models import Game, GameEvent
from tests.tournaments.factories import (
    LeagueFactory,
    PlayerFactory,
    TournamentFactory,
    TournamentRoleFactory,
    UserFactory,
)
from tests.web.kind_fixtures import move_forms, seated_game
from tests.web.kind_fixtures import post as post_event
from tests.web.kind_fixtures import score_url as url
from tournaments.models import Role

pytestmark = pytest.mark.django_db

HANDLES = ["ann", "bob", "cat", "dan"]


@pytest.fixture
def tournament(db):
    return TournamentFactory(name="Spring Cup", status="running")


@pytest.fixture
def game(tournament):
    return seated_game(tournament, {h: h.title() for h in HANDLES})


@pytest.fixture
def users(tournament):
    users = {}
    for role in (Role.ORGANIZER, Role.REFEREE, Role.SCOREKEEPER):
        users[role] = TournamentRoleFactory(
            tournament=tournament, role=role, user=UserFactory(username=f"t-{role}")
        ).user
    users["player"] = UserFactory(username="a-player")
    other = TournamentFactory(league=tournament.league, name="Other Cup")
    users["other_scorekeeper"] = TournamentRoleFactory(
        tournament=other, role=Role.SCOREKEEPER, user=UserFactory(username="other-sk")
    ).user
    users["other_organizer"] = TournamentRoleFactory(
        tournament=TournamentFactory(league=LeagueFactory()),
        role=Role.ORGANIZER,
        user=UserFactory(username="other-org"),
    ).user
    return users


def signed_in(client, user):
    client.force_login(user)
    return client


def log_for(seed: int = 7) -> list[dict]:
    return engine.simulate(game="tock", players=HANDLES, seed=seed)


def stored(game) -> int:
    return GameEvent.objects.filter(game=game).count()


# --------------------------------------------------------------------------- who


@pytest.mark.parametrize("role", [Role.SCOREKEEPER, Role.REFEREE, Role.ORGANIZER])
def test_staff_of_the_tournament_get_the_page(client, game, users, role):
    response = signed_in(client, users[role]).get(url(game))
    assert response.status_code == 200
    html = response.content.decode()
    assert "css/score.css" in html and "js/score.js" in html and "js/live.js" in html
    assert f'data-live-socket="/ws/games/{game.pk}/"' in html
    assert 'data-sequence="1"' in html
    # a game without events says so (not "0 events recorded")
    assert "Next event" in html and "(none recorded yet)" in html
    assert "0 events recorded" not in html


def test_league_organizer_and_superuser_may_score(client, game, tournament):
    boss = UserFactory(username="boss", is_superuser=True)
    assert signed_in(client, boss).get(url(game)).status_code == 200


@pytest.mark.parametrize("who", ["player", "other_scorekeeper", "other_organizer"])
def test_other_signed_in_users_get_403_and_store_nothing(client, game, users, who):
    client = signed_in(client, users[who])
    assert client.get(url(game)).status_code == 403
    assert post_event(client, game, log_for()[0], 1).status_code == 403
    assert stored(game) == 0


def test_anonymous_visitors_are_sent_to_log_in(client, game):
    response = client.get(url(game))
    assert response.status_code == 302
    assert reverse("login") in response["Location"]
    assert post_event(client, game, log_for()[0], 1).status_code == 302
    assert stored(game) == 0


def test_a_game_hidden_from_the_user_is_404(client, game, tournament, users):
    tournament.is_public = False
    tournament.save()
    assert signed_in(client, users["player"]).get(url(game)).status_code == 404
    assert client.get(reverse("tournaments:game-score", args=[999999])).status_code == 404


def test_the_game_page_links_to_the_score_page_only_for_recorders(client, game, users):
    game_url = reverse("tournaments:game-detail", args=[game.pk])
    assert url(game) not in client.get(game_url).content.decode()
    assert url(game) not in signed_in(client, users["player"]).get(game_url).content.decode()
    assert url(game) in signed_in(client, users[Role.SCOREKEEPER]).get(game_url).content.decode()


def test_friendly_game_its_creator_may_score(client):
    creator = UserFactory(username="host")
    for h in HANDLES:
        PlayerFactory(handle=h)
    game = Game.objects.create(kind="tock", players=HANDLES, created_by=creator)
    assert signed_in(client, creator).get(url(game)).status_code == 200
    assert signed_in(client, UserFactory(username="guest")).get(url(game)).status_code == 403


# --------------------------------------------------------------------------- live events


def test_start_buttons_then_legal_move_buttons_record_a_game(client, game, users):
    """Click the first offered button, again and again: a game is recorded through the
    page's own forms, every one accepted, the sequence shown grows by one each time."""
    client = signed_in(client, users[Role.SCOREKEEPER])
    forms = move_forms(client.get(url(game)).content.decode())
    assert [f["group"] for f in forms] == ["start"] * 4
    assert forms[1]["event"]["first"] == "bob"
    assert "Bob begins" in forms[1]["label"]
    for step in range(1, 25):
        chosen = forms[1] if step == 1 else next(f for f in forms if f["group"] == "legal")
        assert chosen["sequence"] == step
        response = client.post(
            url(game),
            {
                "action": "event",
                "event": json.dumps(chosen["event"]),
                "sequence": chosen["sequence"],
                "key": chosen["key"],
            },
        )
        assert response.status_code == 303, response.content.decode()[:500]
        page = client.get(response["Location"])
        html = page.content.decode()
        assert f"Recorded event {step}" in html
        assert f'class="sequence" data-sequence="{step + 1}"' in html
        forms = move_forms(html)
        assert all(f["sequence"] == step + 1 for f in forms)
    assert stored(game) == 24
    fresh = Game.objects.get(pk=game.pk)
    assert fresh.last_sequence == 24 and fresh.status == "in_progress"
    assert [e.data for e in GameEvent.objects.filter(game=game).order_by("sequence")][0][
        "first"
    ] == "bob"


def test_buttons_have_words_stable_attributes_and_distinct_keys(client, game, users):
    client = signed_in(client, users[Role.SCOREKEEPER])
    log = log_for()
    for n, event in enumerate(log[:6], start=1):
        assert post_event(client, game, event, n, key=f"k{n}").status_code == 303
    html = client.get(url(game)).content.decode()
    forms = move_forms(html)
    assert forms and len({f["key"] for f in forms}) == len(forms)
    for form in forms:
        assert form["move"].startswith("type=")
        assert "{" not in form["label"]  # words, not JSON
    assert 'class="move-button' in html
    legal = [f for f in forms if f["group"] == "legal"]
    assert legal
    # "Ann plays 7 to the center", "Bob draws 12 onto Cat" ...: display names, words
    assert any(re.search(r"(Ann|Bob|Cat|Dan) (plays|draws|flips)", f["label"]) for f in legal)
    knocks = [f for f in forms if f["group"] == "table"]
    assert knocks and all(f["event"]["type"] == "tock" for f in knocks)
    assert all(f["label"].endswith("knocks") for f in knocks)


def test_infraction_buttons_record_an_infraction_and_a_knock_penalises_it(client, game, users):
    client = signed_in(client, users[Role.SCOREKEEPER])
    log = log_for()
    infraction = None
    for n, event in enumerate(log, start=1):  # play by the log until a mistake is offered
        assert post_event(client, game, event, n, key=f"k{n}").status_code == 303
        forms = move_forms(client.get(url(game)).content.decode())
        infraction = next((f for f in forms if f["group"] == "infractions"), None)
        if infraction is not None and infraction["event"]["type"] != "flip":
            break
    assert infraction is not None
    response = client.post(
        url(game),
        {
            "action": "event",
            "event": json.dumps(infraction["event"]),
            "sequence": infraction["sequence"],
            "key": infraction["key"],
        },
    )
    assert response.status_code == 303
    summary = Game.objects.get(pk=game.pk).summary
    assert summary["infractions"] and summary["infractions"][-1]["penalized"] is False
    offender = summary["infractions"][-1]["player"]
    forms = move_forms(client.get(url(game)).content.decode())
    knock = next(f for f in forms if f["group"] == "table" and f["event"]["player"] != offender)
    response = client.post(
        url(game),
        {
            "action": "event",
            "event": json.dumps(knock["event"]),
            "sequence": knock["sequence"],
            "key": knock["key"],
        },
    )
    assert response.status_code == 303
    summary = Game.objects.get(pk=game.pk).summary
    assert summary["knocks"][-1]["correct"] is True
    assert summary["infractions"][-1]["penalized"] is True


def test_a_stale_page_gets_the_clear_message_and_nothing_is_stored(client, game, users):
    log = log_for()
    keeper = signed_in(client, users[Role.SCOREKEEPER])
    assert post_event(keeper, game, log[0], 1, key="a").status_code == 303
    # The page still offers sequence 2; another scorekeeper records event 2 first.
    from django.test import Client

    other = signed_in(Client(), users[Role.REFEREE])
    assert post_event(other, game, log[1], 2, key="b").status_code == 303
    response = post_event(keeper, game, log[1], 2, key="c")
    assert response.status_code == 409
    html = response.content.decode()
    assert "Someone else recorded an event; reload" in html
    assert f'class="reload button" href="{url(game)}"' in html
    assert stored(game) == 2
    # The page rendered with the refusal is fresh: its buttons offer sequence 3.
    assert all(f["sequence"] == 3 for f in move_forms(html))


def test_an_illegal_event_shows_the_engine_reason(client, game, users):
    log = log_for()
    keeper = signed_in(client, users[Role.SCOREKEEPER])
    assert post_event(keeper, game, log[0], 1).status_code == 303
    wrong = {"type": "play", "player": "bob", "card": 7, "to": "center"}
    response = keeper.post(
        url(game), {"action": "event", "event": json.dumps(wrong), "sequence": 2, "key": "x"}
    )
    assert response.status_code == 422
    html = response.content.decode()
    eng = engine.start(log[0])
    with pytest.raises(engine.EngineError) as reason:
        eng.push(wrong)
    assert str(reason.value).replace("'", "&#x27;") in html
    assert stored(game) == 1


def test_malformed_posts_are_400_with_a_reason(client, game, users):
    keeper = signed_in(client, users[Role.SCOREKEEPER])
    bad_json = keeper.post(url(game), {"action": "event", "event": "{nope", "sequence": 1})
    assert bad_json.status_code == 400
    assert "not valid JSON" in bad_json.content.decode()
    bad_sequence = keeper.post(
        url(game), {"action": "event", "event": json.dumps(log_for()[0]), "sequence": "x"}
    )
    assert bad_sequence.status_code == 400
    assert keeper.post(url(game), {"action": "nothing"}).status_code == 400
    assert stored(game) == 0


@pytest.mark.parametrize("depth", [1_000, 100_000])
def test_a_deeply_nested_event_is_400_not_500(client, game, users, depth):
    keeper = signed_in(client, users[Role.SCOREKEEPER])
    response = keeper.post(
        url(game), {"action": "event", "event": "[" * depth + "]" * depth, "sequence": 1}
    )
    assert response.status_code == 400
    assert "nested too deeply" in response.content.decode()
    assert stored(game) == 0


def test_a_double_submit_of_the_same_form_stores_one_event(client, game, users):
    keeper = signed_in(client, users[Role.SCOREKEEPER])
    form = move_forms(keeper.get(url(game)).content.decode())[0]
    data = {
        "action": "event",
        "event": json.dumps(form["event"]),
        "sequence": form["sequence"],
        "key": form["key"],
    }
    first, second = keeper.post(url(game), data), keeper.post(url(game), data)
    assert first.status_code == second.status_code == 303
    assert "Already recorded as event 1" in keeper.get(second["Location"]).content.decode()
    assert stored(game) == 1


def test_a_referee_matter_is_refused_for_a_plain_scorekeeper(client, game, users):
    log = log_for()
    keeper = signed_in(client, users[Role.SCOREKEEPER])
    for n, event in enumerate(log[:3], start=1):
        assert post_event(keeper, game, event, n, key=f"k{n}").status_code == 303
    end = {"type": "end", "reason": "adjudicated"}
    data = {"action": "event", "event": json.dumps(end), "sequence": 4, "key": "end"}
    refused = keeper.post(url(game), data)
    assert refused.status_code == 403
    assert "Only a referee or an organizer" in refused.content.decode()
    assert stored(game) == 3
    referee = signed_in(client, users[Role.REFEREE])
    assert referee.post(url(game), {**data, "key": "end-2"}).status_code == 303
    assert Game.objects.get(pk=game.pk).status == "finished"
    html = referee.get(url(game)).content.decode()
    assert move_forms(html) == []
    assert "The game is over" in html


# --------------------------------------------------------------------------- placements, log


def test_placements_are_recorded_from_the_form(client, game, users):
    keeper = signed_in(client, users[Role.SCOREKEEPER])
    html = keeper.get(url(game)).content.decode()
    assert 'name="place-0"' in html and "Ann" in html
    response = keeper.post(
        url(game), {"action": "placements", "place-0": 2, "place-1": 1, "place-2": 3, "place-3": 4}
    )
    assert response.status_code == 303
    fresh = Game.objects.get(pk=game.pk)
    assert fresh.placements == {"ann": 2, "bob": 1, "cat": 3, "dan": 4}
    assert fresh.result_source == "placements"
    assert "Placements recorded" in keeper.get(response["Location"]).content.decode()
    # The result stands: no placements form any more, the referee's page named instead,
    # and other placements posted anyway are refused (409) with nothing changed.
    html = keeper.get(url(game)).content.decode()
    assert 'name="place-0"' not in html and 'id="score-result-stands"' in html
    # A finished game has no next event; without a log it says it has no events.
    assert "Next event" not in html and 'class="sequence"' not in html
    assert 'data-events="0"' in html and "No events recorded." in html
    assert reverse("tournaments:game-referee", args=[game.pk]) in html
    other = {"action": "placements", "place-0": 1, "place-1": 2, "place-2": 3, "place-3": 4}
    refused = keeper.post(url(game), other)
    assert refused.status_code == 409 and "referee" in refused.content.decode()
    assert Game.objects.get(pk=game.pk).placements == {"ann": 2, "bob": 1, "cat": 3, "dan": 4}


def test_bad_placements_are_refused_in_words(client, game, users):
    keeper = signed_in(client, users[Role.SCOREKEEPER])
    response = keeper.post(
        url(game), {"action": "placements", "place-0": 1, "place-1": 1, "place-2": 2, "place-3": 4}
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "competition ranks" in html
    assert 'name="place-2" type="number"' in html and 'value="2"' in html  # kept
    missing = keeper.post(url(game), {"action": "placements", "place-0": 1})
    assert missing.status_code == 400
    assert "Give a place to every player" in missing.content.decode()
    assert Game.objects.get(pk=game.pk).placements is None


def test_a_log_file_is_recorded(client, game, users):
    keeper = signed_in(client, users[Role.SCOREKEEPER])
    log = log_for()
    text = engine.format_log(log)
    upload = SimpleUploadedFile("table1.jsonl", text.encode(), content_type="application/x-ndjson")
    response = keeper.post(url(game), {"action": "log", "log_file": upload})
    assert response.status_code == 303
    fresh = Game.objects.get(pk=game.pk)
    assert fresh.last_sequence == len(log) and fresh.result_source == "log"
    html = keeper.get(response["Location"]).content.decode()
    assert f"Log recorded: {len(log)} new events" in html
    assert 'name="log_file"' not in html  # a finished game with a log: nothing to upload
    assert "Next event" not in html
    assert f'data-events="{len(log)}">{len(log)} events recorded</dd>' in html


def test_a_bad_log_shows_line_n_reason_and_stores_nothing(client, game, users):
    keeper = signed_in(client, users[Role.SCOREKEEPER])
    log = log_for()
    lines = engine.format_log(log).splitlines()
    lines[4] = '{"type": "play", "player": "nobody", "card": 3, "to": "center"}'
    response = keeper.post(url(game), {"action": "log", "log_text": "\n".join(lines)})
    assert response.status_code == 422
    assert re.search(r"line 5: ", response.content.decode())
    assert stored(game) == 0
    empty = keeper.post(url(game), {"action": "log", "log_text": "  "})
    assert empty.status_code == 400


def test_the_page_is_phone_first_and_translated(client, game, users):
    keeper = signed_in(client, users[Role.SCOREKEEPER])
    html = keeper.get(url(game), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert 'name="viewport"' in html
    assert 'lang="de"' in html


def test_a_refused_raw_event_is_shown_again_in_its_form(client, game, users):
    keeper = signed_in(client, users[Role.SCOREKEEPER])
    assert post_event(keeper, game, log_for()[0], 1).status_code == 303
    response = keeper.post(
        url(game),
        {"action": "event", "event": '{"type": "dance"}', "sequence": 2, "key": "r", "raw": "1"},
    )
    assert response.status_code == 422
    html = response.content.decode()
    assert '<details class="score-more" id="score-more" open>' in html  # the fold, open
    assert '<details class="raw-event" open>' in html
    assert "{&quot;type&quot;: &quot;dance&quot;}</textarea>" in html


def test_the_page_runs_a_bounded_number_of_queries(
    client, game, users, django_assert_max_num_queries
):
    """Session, user, the game and its table, the role checks (view, record, referee),
    the latest events: the same count after 3 events as after 30 (no query per event or
    per move; the engine state comes from the cache)."""
    keeper = signed_in(client, users[Role.SCOREKEEPER])
    log = log_for()
    for n, event in enumerate(log[:30], start=1):
        assert post_event(keeper, game, event, n, key=f"q{n}").status_code == 303
        if n in (3, 30):
            with django_assert_max_num_queries(14):
                assert keeper.get(url(game)).status_code == 200


# --------------------------------------------------------------------------- undo


def _undo_form(html: str) -> dict | None:
    """The score page's one Undo button (its form is not one of the move forms)."""
    found = re.search(r'<form[^>]*class="move-form undo-form"[^>]*>(.*?)</form>', html, re.S)
    if found is None:
        return None
    return move_forms(f'<form class="move-form">{found.group(1)}</form>')[0]


def test_the_undo_button_withdraws_the_last_event(client, game, users):
    log = log_for()
    keeper = signed_in(client, users[Role.SCOREKEEPER])
    assert _undo_form(keeper.get(url(game)).content.decode()) is None  # nothing yet
    for n, event in enumerate(log[:5], start=1):
        assert post_event(keeper, game, event, n, key=f"k{n}").status_code == 303
    html = keeper.get(url(game)).content.decode()
    undo = _undo_form(html)
    assert undo is not None and undo["event"] == {"type": "undo"} and undo["sequence"] == 6
    assert """data-event="{&quot;type&quot;:&quot;undo&quot;}\"""" in html
    response = keeper.post(
        url(game),
        {"action": "event", "event": json.dumps(undo["event"]), "sequence": 6, "key": undo["key"]},
    )
    assert response.status_code == 303
    assert GameEvent.objects.get(game=game, sequence=6).data == {"type": "undo"}
    stored = Game.objects.get(pk=game.pk)
    expected = engine.replay(log[:4]).summary()
    assert stored.summary["events"] == 6
    assert {k: v for k, v in stored.summary.items() if k != "events"} == {
        k: v for k, v in expected.items() if k != "events"
    }
    # the game page strikes the withdrawn event through and says what the undo did
    detail = client.get(reverse("tournaments:game-detail", args=[game.pk])).content.decode()
    assert re.search(r'<li value="5" id="event-5" class="[^"]*withdrawn', detail)
    assert "<del>" in detail and "withdrawn by event 6" in detail
    assert "Undo: event 5 withdrawn (" in detail
    replay = client.get(reverse("tournaments:game-detail", args=[game.pk]), {"at": 5})
    assert "withdrawn by event 6" in replay.content.decode()


def test_no_undo_button_for_a_player_of_the_game_nor_after_the_end(client, game, users):
    log = log_for()
    keeper = signed_in(client, users[Role.SCOREKEEPER])
    for n, event in enumerate(log[:3], start=1):
        post_event(keeper, game, event, n, key=f"k{n}")
    PlayerFactory._meta.model.objects.filter(handle="cat").update(user=users[Role.SCOREKEEPER])
    assert _undo_form(keeper.get(url(game)).content.decode()) is None
    response = post_event(keeper, game, {"type": "undo"}, 4, key="u")
    assert response.status_code == 403
    assert stored(game) == 3
    PlayerFactory._meta.model.objects.filter(handle="cat").update(user=None)
    # The rest of the game through the page's log box in one post (it completes the
    # events already recorded): event by event it was 370 posts, each a page render.
    rest = keeper.post(url(game), {"action": "log", "log_text": engine.format_log(log)})
    assert rest.status_code == 303
    assert Game.objects.get(pk=game.pk).is_over and stored(game) == len(log)
    assert _undo_form(keeper.get(url(game)).content.decode()) is None


# --------------------------------------------------------------------------- the card pad


def data_events(html: str) -> list[dict]:
    """The events of the page's tap targets (their data-event), in page order."""
    return [
        json.loads(html_lib.unescape(m))
        for m in re.findall(r'<button[^>]* data-event="([^"]*)"', html)
    ]


def test_the_tock_play_area_offers_exactly_the_engines_moves(client, game, users):
    """Along a simulated game with real cards (mistakes and knocks included), the tap
    targets are exactly the engine's moves now: its legal moves (the expected move or
    the pad and its choices), the infractions, the knocks, and Undo once an event
    follows the start; a pad key carries its card's event when the card has one legal
    destination, else opens a choice listing them; Enter's target is the one expected
    move."""
    from games.scorekeeping import game_score_moves

    keeper = signed_in(client, users[Role.SCOREKEEPER])
    log = engine.simulate(game="tock", players=HANDLES, seed=5, mistakes=0.05, knocks=0.3)
    log[0] = {k: v for k, v in log[0].items() if k != "seed"}
    seen = set()
    for n, event in enumerate(log[:160], start=1):
        assert post_event(keeper, game, event, n, key=f"p{n}").status_code == 303
        if n % 4:
            continue
        html = keeper.get(url(game)).content.decode()
        moves = game_score_moves(game=Game.objects.get(pk=game.pk))
        # the play area's targets; "Stop live scoring" (its time-up end) is the way out
        play_area = re.sub(r'<section class="stop-live".*?</section>', "", html, flags=re.S)
        offered = data_events(play_area)
        wanted = moves.legal + moves.infractions + moves.table + [{"type": "undo"}]
        assert sorted(map(json.dumps, offered)) == sorted(map(json.dumps, wanted)), n
        cards = {(m["type"], m.get("card")) for m in moves.legal}
        if len(cards) == 1:  # one known card: the expected move(s)
            seen.add("expected")
            expected = re.findall(r"<button[^>]* data-expected[ >]", html)
            assert len(expected) == (1 if len(moves.legal) == 1 else 0)
            continue
        for value in range(1, 22):
            events = [m for m in moves.legal if m.get("card") == value]
            key = re.search(rf'<(button|a)[^>]*data-pad-key="{value}"[^>]*>', html)
            if len(events) == 1:
                seen.add("pad")
                assert key and key.group(1) == "button"
                assert (
                    json.loads(
                        html_lib.unescape(re.search(r'data-event="([^"]*)"', key.group(0)).group(1))
                    )
                    == events[0]
                )
            elif events:
                seen.add("choice")
                assert key and key.group(1) == "a" and f'href="?pick={value}"' in key.group(0)
                panel = re.search(
                    rf'<div class="pad-choice" id="pick-{value}"[^>]*hidden>(.*?)</div>\s*<a',
                    html,
                    re.S,
                )
                assert panel and data_events(panel.group(1)) == events
                # without JavaScript, ?pick=N opens it
                opened = keeper.get(url(game), {"pick": value}).content.decode()
                shown = re.search(rf'<div class="pad-choice" id="pick-{value}"[^>]*>', opened)
                assert shown and "hidden" not in shown.group(0)
            else:
                assert key is None  # no such card left: a dead key
    assert seen == {"expected", "pad", "choice"}


def test_undo_is_offered_once_an_event_follows_the_start(client, game, users):
    keeper = signed_in(client, users[Role.SCOREKEEPER])
    log = log_for()
    undo = "{&quot;type&quot;:&quot;undo&quot;}"
    assert post_event(keeper, game, log[0], 1).status_code == 303
    assert undo not in keeper.get(url(game)).content.decode()
    assert post_event(keeper, game, log[1], 2, key="k2").status_code == 303
    assert f'data-event="{undo}"' in keeper.get(url(game)).content.decode()

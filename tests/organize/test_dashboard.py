"""The organizer running a whole event from the site: create from the league page,
register by CSV, check in, start, the round's tables and clock, manual progression,
re-seat, time up, finish, settings before the start, the audit log."""

from __future__ import annotations

import io
import re

import pytest
from django.contrib.messages import get_messages

from tests.organize.conftest import url
from tests.tournaments.factories import PlayerFactory, RegistrationFactory
from tournaments.models import Player, Registration, Round, Tournament, TournamentAudit
from tournaments.services import game_record_placements

pytestmark = pytest.mark.django_db

CSV12 = "handle,name\n" + "\n".join(f"p{i:02d},Player {i}" for i in range(1, 13))


def _messages(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def _create(org, league, **fields):
    body = {
        "name": "Friday Open",
        "starts_on": "2026-12-04",
        "venue": "Club house",
        "format": "swiss",
        "table_sizes": "4, 3",
        "rounds": 3,
        "cut": 8,
        "advance": 2,
        "round_minutes": "",
        "seeding": "random",
        "is_public": "on",
        **fields,
    }
    return org.post(url("tournament-create", league.slug), body)


def _event(org, league, players=12, **fields) -> Tournament:
    response = _create(org, league, **fields)
    assert response.status_code == 302, response.content.decode()[:2000]
    tournament = Tournament.objects.get(name=fields.get("name", "Friday Open"))
    if players:
        text = "\n".join(f"p{i:02d},Player {i}" for i in range(1, players + 1))
        response = org.post(url("organize-players-csv", tournament.pk), {"csv_text": text})
        assert response.status_code == 302
        org.post(url("organize-check-in-all", tournament.pk))
    return tournament


def _finish_round(rnd: Round, user) -> None:
    for table in rnd.tables.select_related("game").prefetch_related("seats__player"):
        handles = [s.player.handle for s in table.seats.order_by("position")]
        game_record_placements(
            game=table.game, placements={h: i + 1 for i, h in enumerate(handles)}, user=user
        )


# --------------------------------------------------------------------------- create


def test_create_from_the_league_page(org, organizer, league):
    page = org.get(url("league-detail", league.slug)).content.decode()
    assert url("tournament-create", league.slug) in page
    form = org.get(url("tournament-create", league.slug)).content.decode()
    for name in (
        "name",
        "format",
        "table_sizes",
        "rounds",
        "cut",
        "advance",
        "round_minutes",
        "auto_progress",
        "seeding",
        "starts_on",
    ):
        assert f'name="{name}"' in form and f'for="id_{name}"' in form, name
    response = _create(org, league, format="swiss_cut", round_minutes="45", auto_progress="")
    t = Tournament.objects.get(name="Friday Open")
    assert response.status_code == 302 and response["Location"] == url("organize", t.pk)
    assert t.format == "swiss_cut" and t.table_sizes == [4, 3] and t.swiss_rounds == 3
    assert t.round_minutes == 45 and t.auto_progress is False and t.seeding == "random"
    assert t.venue == "Club house" and str(t.starts_on) == "2026-12-04"
    assert t.status == "registration"
    assert TournamentAudit.objects.filter(tournament=t, action="created", actor=organizer).exists()


def test_create_refusals_are_form_errors(org, league):
    response = _create(org, league, table_sizes="9")
    assert response.status_code == 400
    assert "The table size must be from 2 to 6" in response.content.decode()
    response = _create(org, league, table_sizes="four", name="")
    assert response.status_code == 400
    html = response.content.decode()
    assert "Give table sizes as whole numbers" in html and "This field is required" in html
    response = _create(org, league, format="elimination", advance="4")
    assert response.status_code == 400 and "advancing per table" in response.content.decode()
    assert not Tournament.objects.exists()


def _field_wrapper(html: str, name: str) -> str:
    """The opening tag of the ``.field`` wrapper of the input ``name``."""
    at = html.index(f'for="id_{name}"')
    return html[html.rindex("<div", 0, at) : html.index(">", html.rindex("<div", 0, at)) + 1]


def test_cut_and_advance_show_only_for_the_formats_that_use_them(org, league):
    form = org.get(url("tournament-create", league.slug)).content.decode()
    assert "format-fields.js" in form
    # Plain Swiss (the default): both rendered (for the script) but hidden.
    assert " hidden" in _field_wrapper(form, "cut") and 'data-formats="swiss_cut"' in form
    assert " hidden" in _field_wrapper(form, "advance")
    assert 'data-formats="elimination swiss_cut"' in form
    assert " hidden" not in _field_wrapper(form, "rounds")
    # A form shown again for elimination shows advance, not cut.
    html = _create(org, league, format="elimination", advance="4").content.decode()
    assert " hidden" not in _field_wrapper(html, "advance")
    assert " hidden" in _field_wrapper(html, "cut")


def test_cut_and_advance_are_ignored_for_a_format_that_does_not_use_them(org, league):
    # Without JS the fields show: whatever is in them does not count for plain Swiss.
    response = _create(org, league, cut="", advance="nonsense")
    assert response.status_code == 302
    t = Tournament.objects.get(name="Friday Open")
    assert (t.format, t.cut, t.advance) == ("swiss", 8, 2)
    # Swiss with a cut needs its cut.
    response = _create(org, league, name="Cut Open", format="swiss_cut", cut="")
    assert response.status_code == 400 and "This field is required" in response.content.decode()
    assert not Tournament.objects.filter(name="Cut Open").exists()
    # An edit to plain Swiss keeps the event's values.
    cut = _event(org, league, players=0, name="Cut Open", format="swiss_cut", cut="16")
    body = {
        "name": "Cut Open",
        "starts_on": "2026-12-04",
        "format": "swiss",
        "table_sizes": "4, 3",
        "rounds": 3,
        "cut": "1",
        "advance": "",
        "seeding": "random",
        "is_public": "on",
    }
    response = org.post(url("organize-settings", cut.pk), body)
    assert response.status_code == 302
    cut.refresh_from_db()
    assert (cut.format, cut.cut, cut.advance) == ("swiss", 16, 2)


# --------------------------------------------------------------------------- registration


def test_register_twelve_by_csv_then_check_in_all_and_start(org, league):
    t = _event(org, league, players=0)
    dashboard = org.get(url("organize", t.pk)).content.decode()
    for marker in ('name="csv_text"', 'id="players-csv-submit"', 'id="start-event"'):
        assert marker in dashboard
    response = org.post(url("organize-players-csv", t.pk), {"csv_text": CSV12})
    assert response.status_code == 302
    assert "12 players registered (12 new, 0 existing)." in _messages(response)
    assert Registration.objects.filter(tournament=t).count() == 12
    assert Player.objects.get(handle="p07").display_name == "Player 7"
    response = org.post(url("organize-check-in-all", t.pk))
    assert "12 players checked in." in _messages(response)
    assert "12 of 12 players checked in" in org.get(url("organize", t.pk)).content.decode()
    response = org.post(url("organize-start", t.pk))
    assert response.status_code == 302 and response["Location"].endswith("#round")
    html = org.get(url("organize", t.pk)).content.decode()
    assert "Round 1" in html and html.count('class="card table-state state-not_started"') == 3
    assert "Start the event" not in html
    rnd = Round.objects.get(tournament=t)
    for table in rnd.tables.all():
        assert url("game-detail", table.game_id) in html


def test_csv_upload_file(org, league):
    t = _event(org, league, players=0)
    upload = io.BytesIO(("\ufeff" + CSV12).encode("utf-8"))
    upload.name = "players.csv"
    response = org.post(url("organize-players-csv", t.pk), {"csv_file": upload})
    assert response.status_code == 302
    assert Registration.objects.filter(tournament=t).count() == 12


def test_a_bad_csv_line_stores_nothing_and_names_the_lines(org, league):
    t = _event(org, league, players=0)
    PlayerFactory(handle="known")
    text = "handle,name\nana,Ana\nNot A Handle,X\nben,Ben\nana,Twice\n"
    response = org.post(url("organize-players-csv", t.pk), {"csv_text": text})
    assert response.status_code == 400
    html = response.content.decode()
    assert "line 3: " in html and "line 5: ana is already on line 2" in html
    assert 'id="csv-errors"' in html and "Not A Handle" in html  # the text is kept
    # a handle the player service refuses (reserved by the game), found after parsing
    response = org.post(url("organize-players-csv", t.pk), {"csv_text": "ana,Ana\ncenter,C\n"})
    assert response.status_code == 400
    assert re.search(r"line 2: [^<]*center", response.content.decode())
    assert not Player.objects.filter(handle__in=["ana", "ben"]).exists()
    assert not Registration.objects.filter(tournament=t).exists()
    response = org.post(url("organize-players-csv", t.pk), {"csv_text": "  \n"})
    assert response.status_code == 400


def test_add_one_player(org, league):
    t = _event(org, league, players=0)
    PlayerFactory(handle="known", display_name="Known")
    response = org.post(url("organize-player-add", t.pk), {"handle": "known"})
    assert response.status_code == 302 and "Known is registered." in _messages(response)
    response = org.post(
        url("organize-player-add", t.pk), {"handle": "walk-in", "display_name": "Wal"}
    )
    assert "Wal is a new player, registered." in _messages(response)
    response = org.post(url("organize-player-add", t.pk), {"handle": "Bad Handle"})
    assert response.status_code == 400 and "is not a handle" in response.content.decode()
    assert Registration.objects.filter(tournament=t).count() == 2


def test_check_in_toggle_and_search(org, league):
    t = _event(org, league, players=3)
    response = org.post(url("organize-player-action", t.pk, "p02", "check-out"), {"q": "play"})
    assert response.status_code == 302 and response["Location"].endswith("?q=play#reg-p02")
    assert not Registration.objects.get(tournament=t, player__handle="p02").checked_in
    html = org.get(url("organize", t.pk) + "?q=player 3").content.decode()
    assert 'id="reg-p03"' in html and 'id="reg-p01"' not in html
    assert 'data-search="player 1 p01"' in org.get(url("organize", t.pk)).content.decode()
    org.post(url("organize-player-action", t.pk, "p02", "check-in"))
    assert Registration.objects.get(tournament=t, player__handle="p02").checked_in


def test_drop_asks_for_confirmation(org, league):
    t = _event(org, league, players=4)
    response = org.post(url("organize-player-action", t.pk, "p01", "drop"), {"q": "x"})
    assert response.status_code == 200
    html = response.content.decode()
    assert "Drop Player 1?" in html and 'name="confirm" value="yes"' in html
    assert 'name="q" value="x"' in html  # the form posts the same fields again
    assert not Registration.objects.get(tournament=t, player__handle="p01").dropped
    # the dashboard's link (GET) shows the same page
    link = url("organize-player-action", t.pk, "p01", "drop")
    assert f'href="{link}"' in org.get(url("organize", t.pk)).content.decode()
    response = org.get(link + "?q=pl")
    assert response.status_code == 200 and 'name="q" value="pl"' in response.content.decode()
    assert not Registration.objects.get(tournament=t, player__handle="p01").dropped
    response = org.post(url("organize-player-action", t.pk, "p01", "drop"), {"confirm": "yes"})
    assert response.status_code == 302
    assert Registration.objects.get(tournament=t, player__handle="p01").dropped


# --------------------------------------------------------------------------- start


def test_start_refused_with_the_reason_then_a_second_start(org, league):
    t = _event(org, league, players=0)
    RegistrationFactory(tournament=t, checked_in=True)
    response = org.post(url("organize-start", t.pk), follow=True)
    assert response.status_code == 200
    html = response.content.decode()
    assert "The event cannot start:" in html and "checked-in" in html
    assert not Round.objects.filter(tournament=t).exists()
    for _ in range(3):
        RegistrationFactory(tournament=t, checked_in=True)
    assert org.post(url("organize-start", t.pk)).status_code == 302
    response = org.post(url("organize-start", t.pk), follow=True)
    assert (
        "The event cannot start: The tournament has already started." in response.content.decode()
    )
    assert Round.objects.filter(tournament=t).count() == 1


def test_a_start_refused_for_the_table_sizes_names_sizes_that_work(org, league):
    t = _event(org, league, players=5, table_sizes="4")
    response = org.post(url("organize-start", t.pk), follow=True)
    html = response.content.decode()
    assert "5 players cannot be seated at tables of 4." in html
    assert "tables of 4 to 5 (table sizes “4, 5”)" in html
    assert not Round.objects.filter(tournament=t).exists()


# --------------------------------------------------------------------------- rounds


def test_manual_progression_seats_the_next_round(org, organizer, league):
    t = _event(org, league, players=8, table_sizes="4", auto_progress="")
    org.post(url("organize-start", t.pk))
    html = org.get(url("organize", t.pk)).content.decode()
    assert 'id="next-round"' not in html and 'id="time-up"' in html
    rnd = Round.objects.get(tournament=t)
    first = rnd.tables.first()
    handles = [s.player.handle for s in first.seats.order_by("position")]
    game_record_placements(
        game=first.game, placements={h: i + 1 for i, h in enumerate(handles)}, user=organizer
    )
    html = org.get(url("organize", t.pk)).content.decode()
    assert "1 of 2 tables done" in html and ">unverified</span>" in html
    _finish_round(Round.objects.get(pk=rnd.pk), organizer)
    # a finished table's places
    html = org.get(url("organize", t.pk)).content.decode()
    assert 'id="next-round"' in html and "2 of 2 tables done" in html
    response = org.post(url("organize-next-round", t.pk))
    assert response.status_code == 302 and "Round 2 is seated." in _messages(response)
    assert Round.objects.filter(tournament=t).count() == 2
    assert "Round 2" in org.get(url("organize", t.pk)).content.decode()
    # seating again while the round runs: refused with a message
    response = org.post(url("organize-next-round", t.pk), follow=True)
    assert "not finished yet" in response.content.decode()
    assert Round.objects.filter(tournament=t).count() == 2


def test_reseat_a_round_that_has_not_started(org, organizer, league):
    t = _event(org, league, players=8, table_sizes="4")
    org.post(url("organize-start", t.pk))
    rnd = Round.objects.get(tournament=t)
    before = set(rnd.tables.values_list("game_id", flat=True))
    html = org.get(url("organize", t.pk)).content.decode()
    assert 'id="reseat-round"' in html
    response = org.post(url("organize-reseat", t.pk), {"round": rnd.pk})
    assert response.status_code == 200 and "Seat round 1 again?" in response.content.decode()
    response = org.post(url("organize-reseat", t.pk), {"round": rnd.pk, "confirm": "yes"})
    assert "Round 1 is seated again." in _messages(response)
    assert set(rnd.tables.values_list("game_id", flat=True)).isdisjoint(before)
    assert TournamentAudit.objects.filter(tournament=t, action="round_reseated").count() == 1
    # once a table has a result: not offered, and refused
    _finish_round_first_table(rnd, organizer)
    assert 'id="reseat-round"' not in org.get(url("organize", t.pk)).content.decode()
    response = org.post(
        url("organize-reseat", t.pk), {"round": rnd.pk, "confirm": "yes"}, follow=True
    )
    assert "cannot be seated again" in response.content.decode()
    # a stale form naming another round
    response = org.post(
        url("organize-reseat", t.pk), {"round": 999999, "confirm": "yes"}, follow=True
    )
    assert "no longer the current one" in response.content.decode()


def _finish_round_first_table(rnd, user):
    table = rnd.tables.order_by("number").first()
    handles = [s.player.handle for s in table.seats.order_by("position")]
    game_record_placements(
        game=table.game, placements={h: i + 1 for i, h in enumerate(handles)}, user=user
    )


def test_time_up_with_the_clock(org, league):
    t = _event(org, league, players=8, table_sizes="4", round_minutes="30")
    org.post(url("organize-start", t.pk))
    rnd = Round.objects.get(tournament=t)
    html = org.get(url("organize", t.pk)).content.decode()
    assert f'data-deadline="{rnd.deadline.isoformat()}"' in html and "Time left:" in html
    response = org.post(url("organize-time-up", t.pk), {"round": rnd.pk})
    assert response.status_code == 200 and "time is up" in response.content.decode().lower()
    assert Round.objects.get(pk=rnd.pk).status == "running"
    response = org.post(url("organize-time-up", t.pk), {"round": rnd.pk, "confirm": "yes"})
    assert "Round 1 is over: time is up." in _messages(response)
    assert Round.objects.get(pk=rnd.pk).status == "finished"
    html = org.get(url("organize", t.pk)).content.decode()
    assert "Closed without a result" in html and "data-deadline" not in html


def test_no_show(org, league):
    t = _event(org, league, players=5, table_sizes="5, 4")
    org.post(url("organize-start", t.pk))
    html = org.get(url("organize", t.pk)).content.decode()
    assert url("organize-player-action", t.pk, "p03", "no-show") in html
    response = org.post(url("organize-player-action", t.pk, "p03", "no-show"))
    assert response.status_code == 200 and "no-show" in response.content.decode()
    response = org.post(url("organize-player-action", t.pk, "p03", "no-show"), {"confirm": "yes"})
    assert "Player 3 is marked as a no-show." in _messages(response)
    assert TournamentAudit.objects.filter(tournament=t, action="no_show").exists()


def test_finish_the_event(org, league):
    t = _event(org, league, players=4)
    org.post(url("organize-start", t.pk))
    response = org.post(url("organize-finish", t.pk))
    assert response.status_code == 200 and "cannot be undone" in response.content.decode()
    assert Tournament.objects.get(pk=t.pk).status == "running"
    response = org.post(url("organize-finish", t.pk), {"confirm": "yes"})
    assert "The event is finished." in _messages(response)
    assert Tournament.objects.get(pk=t.pk).status == "finished"
    html = org.get(url("organize", t.pk)).content.decode()
    assert "The event is over." in html and 'id="finish-event"' not in html
    assert 'name="csv_text"' not in html
    response = org.post(url("organize-finish", t.pk), {"confirm": "yes"}, follow=True)
    assert "The tournament is over." in response.content.decode()


# --------------------------------------------------------------------------- settings


def test_settings_before_the_start_only(org, league):
    t = _event(org, league, players=4)
    html = org.get(url("organize", t.pk)).content.decode()
    assert 'id="settings-form"' in html and 'value="4, 3"' in html
    body = {
        "name": "Friday Open II",
        "starts_on": "2026-12-05",
        "format": "swiss",
        "table_sizes": "4",
        "rounds": 4,
        "cut": 8,
        "advance": 2,
        "seeding": "rating",
        "auto_progress": "on",
        "is_public": "on",
    }
    response = org.post(url("organize-settings", t.pk), body)
    assert response.status_code == 302 and "The settings are saved." in _messages(response)
    t.refresh_from_db()
    assert t.name == "Friday Open II" and t.table_sizes == [4] and t.swiss_rounds == 4
    response = org.post(url("organize-settings", t.pk), {**body, "table_sizes": "7"})
    assert response.status_code == 400 and "The table size must be" in response.content.decode()
    assert t.tiebreaks == ["buchholz", "firsts", "placement_sum", "rating"]  # not sent: kept
    # The tiebreak order: one select per position; empty positions are skipped.
    order = {"tiebreaks_0": "head_to_head", "tiebreaks_1": "", "tiebreaks_2": "best_finish"}
    response = org.post(url("organize-settings", t.pk), {**body, **order})
    assert response.status_code == 302
    t.refresh_from_db()
    assert t.tiebreaks == ["head_to_head", "best_finish"]
    html = org.get(url("organize", t.pk)).content.decode()
    assert '<option value="head_to_head" selected>' in html
    twice = {"tiebreaks_0": "firsts", "tiebreaks_1": "firsts"}
    response = org.post(url("organize-settings", t.pk), {**body, **twice})
    assert response.status_code == 400 and "Choose each tiebreak once." in response.content.decode()
    org.post(url("organize-start", t.pk))
    assert 'id="settings-form"' not in org.get(url("organize", t.pk)).content.decode()
    response = org.post(url("organize-settings", t.pk), {**body, "rounds": 9}, follow=True)
    assert "already started" in response.content.decode()
    assert Tournament.objects.get(pk=t.pk).swiss_rounds == 4


# --------------------------------------------------------------------------- audit and live


def test_audit_log_newest_first_and_paginated(org, league):
    t = _event(org, league, players=12)
    html = org.get(url("organize", t.pk)).content.decode()
    assert "Checked in" in html and url("organize-audit", t.pk) in html
    page1 = org.get(url("organize-audit", t.pk)).content.decode()
    total = TournamentAudit.objects.filter(tournament=t).count()
    assert total == 14  # created, registered, 12 checked in
    assert page1.index("Checked in") < page1.index("Players registered")
    t2 = TournamentAudit.objects.filter(tournament=t).first()
    TournamentAudit.objects.bulk_create(
        [TournamentAudit(tournament=t, action="checked_in", details={"player": "x"})] * 50
    )
    page2 = org.get(url("organize-audit", t.pk) + "?page=2").content.decode()
    assert "Page 2 of 2" in page2 and "Created" in page2 and t2.action == "created"


@pytest.mark.parametrize(
    "language, seated, checked_in",
    [
        ("en", "Round 1 (Swiss) seated at 3 tables.", "checked in."),
        ("es", "Ronda 1 (Suizo) sentada en 3 mesas.", "se registró."),
        ("de", "Runde 1 (Schweizer System) an 3 Tischen gesetzt.", "ist eingecheckt."),
    ],
)
def test_the_audit_log_reads_as_sentences_in_the_readers_language(
    org, league, language, seated, checked_in
):
    """Details are sentences with the players' names, not raw keys ("number: 1 ·
    stage: swiss · tables: ...")."""
    t = _event(org, league, players=12)
    assert org.post(url("organize-start", t.pk)).status_code == 302
    name = Registration.objects.filter(tournament=t).first().player.display_name
    html = org.get(url("organize-audit", t.pk), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert seated in html
    assert f"{name} {checked_in}" in html
    assert "stage:" not in html and "tables:" not in html and "player:" not in html


def test_dashboard_listens_live_and_has_the_links_block(org, league):
    t = _event(org, league, players=0)
    html = org.get(url("organize", t.pk)).content.decode()
    assert f'data-live-socket="/ws/tournaments/{t.pk}/"' in html
    assert 'data-live-regions="#overview, #round, #registrations, #audit"' in html
    assert 'id="organize-links"' in html and "js/organize.js" in html


def test_the_dashboard_version_is_the_audit_logs_length(org, league):
    """Scripts that swap the dashboard's regions (live.js, organize.js) compare this
    number to never show a copy older than the one on screen: it grows with each step."""

    def version() -> int:
        html = org.get(url("organize", t.pk)).content.decode()
        found = re.findall(r'data-live-version="(\d+)"', html)
        assert len(found) == 1, found
        return int(found[0])

    t = _event(org, league, players=3)
    assert version() == TournamentAudit.objects.filter(tournament=t).count() == 5
    org.post(url("organize-player-action", t.pk, "p02", "check-out"))
    assert version() == 6


def test_dashboard_queries_are_bounded(org, organizer, league, django_assert_max_num_queries):
    t = _event(org, league, players=40, table_sizes="4")
    org.post(url("organize-start", t.pk))
    rnd = Round.objects.get(tournament=t)
    _finish_round_first_table(rnd, organizer)
    with django_assert_max_num_queries(11):  # 10 today, whatever the size
        response = org.get(url("organize", t.pk))
    assert response.status_code == 200


def test_table_states_in_progress_with_the_latest_event(org, organizer, league):
    import games.engine as engine
    from tournaments.services import game_record_event

    t = _event(org, league, players=8, table_sizes="4")
    org.post(url("organize-start", t.pk))
    rnd = Round.objects.get(tournament=t)
    first, second = rnd.tables.order_by("number")
    log = engine.simulate(game="tock", players=first.game.players, seed=3)
    for n, event in enumerate(log[:3], start=1):
        game_record_event(game=first.game_id, event=event, expected_sequence=n, user=organizer)
    _finish_round_first_table_of(second, organizer)
    html = org.get(url("organize", t.pk)).content.decode()
    assert 'id="table-1"' in html and "state-in_progress" in html and "In progress" in html
    assert re.search(r'class="latest small">Event 3: [^<]+</p>', html)
    assert "state-finished" in html and ">unverified</span>" in html
    assert "Not verified" not in html  # one wording for it everywhere
    # the players in seat order
    names = [s.player.display_name for s in first.seats.order_by("position")]
    positions = [html.index(f"<li>{name}") for name in names]
    assert positions == sorted(positions)
    assert 'id="reseat-round"' not in html  # a table has events


def test_the_phone_dashboard_puts_the_round_first_playing_tables_on_top(org, organizer, league):
    t = _event(org, league, players=12, table_sizes="4")
    org.post(url("organize-start", t.pk))
    rnd = Round.objects.get(tournament=t)
    first, second, third = rnd.tables.order_by("number")
    _finish_round_first_table_of(first, organizer)
    html = org.get(url("organize", t.pk)).content.decode()
    # The status and actions, then the round, then the links, then the rest.
    order = ['id="overview"', 'id="round"', 'id="organize-links"', 'id="players"', 'id="audit"']
    assert [html.index(marker) for marker in order] == sorted(html.index(m) for m in order)
    # Every link once: no "Audit log" twice, no duplicate target.
    nav = html.split('id="organize-links"', 1)[1].split("</p>", 1)[0]
    targets = re.findall(r'<a [^>]*href="([^"]+)"', nav)
    assert len(targets) == len(set(targets)) == 7, targets  # no settings once started
    assert html.count(">Audit log</a>") == 1
    assert url("organize-audit", t.pk) in targets
    # The tables still playing first, then the finished one, each by number.
    tables = re.findall(r'<li class="card table-state state-(\w+)" id="table-(\d+)"', html)
    assert tables == [("not_started", "2"), ("not_started", "3"), ("finished", "1")]


def _finish_round_first_table_of(table, user):
    handles = [s.player.handle for s in table.seats.order_by("position")]
    game_record_placements(
        game=table.game, placements={h: i + 1 for i, h in enumerate(handles)}, user=user
    )


def test_a_big_registration_list_is_paged_and_searched_on_the_server(org, league):
    """250 players: the dashboard lists 100 a page (an organizer's phone is not sent
    every row after every tap), a search finds a player on any page, and an action
    taken on page 2 comes back to page 2."""
    t = _event(org, league, players=250)
    html = org.get(url("organize", t.pk)).content.decode()
    assert html.count('<li class="registration') == 100
    assert 'data-partial="true"' in html
    assert "Players 1–100 of 250" in html and 'rel="next" href="?page=2#check-in"' in html
    pages = [html] + [
        org.get(url("organize", t.pk) + f"?page={n}").content.decode() for n in (2, 3)
    ]
    listed = [re.findall(r'<li class="registration[^"]*" id="reg-(p\d+)"', page) for page in pages]
    assert [len(handles) for handles in listed] == [100, 100, 50]
    assert sorted(sum(listed, [])) == sorted(f"p{i:02d}" for i in range(1, 251))
    assert 'rel="next"' not in pages[2] and "Players 201–250 of 250" in pages[2]

    found = org.get(url("organize", t.pk) + "?q=player 250").content.decode()
    assert 'id="reg-p250"' in found and found.count('<li class="registration') == 1
    assert "data-partial" not in found and "registrations-pager" not in found

    second = org.get(url("organize", t.pk) + "?page=2").content.decode()
    assert '<input type="hidden" name="page" value="2">' in second
    handle = re.search(r'id="reg-(p\d+)"', second).group(1)
    assert f"/{handle}/drop/?page=2" in second
    response = org.post(url("organize-player-action", t.pk, handle, "check-out"), {"page": "2"})
    assert response.status_code == 302
    assert response["Location"].endswith(f"?page=2#reg-{handle}")
    assert not Registration.objects.get(tournament=t, player__handle=handle).checked_in
    # A page past the end shows the last one rather than an error.
    assert org.get(url("organize", t.pk) + "?page=99").status_code == 200


def test_a_drop_is_undone_from_the_dashboard(org, league):
    t = _event(org, league, players=4)
    org.post(url("organize-player-action", t.pk, "p03", "drop"), {"confirm": "yes"})
    html = org.get(url("organize", t.pk)).content.decode()
    undo = url("organize-player-action", t.pk, "p03", "reinstate")
    assert f'action="{undo}"' in html and "Undo drop" in html
    assert org.get(undo).status_code == 405  # a change is a POST
    response = org.post(undo)
    assert response.status_code == 302 and response["Location"].endswith("#reg-p03")
    assert _messages(response) == ["Player 3 is back: seated again from the next round."]
    reg = Registration.objects.get(tournament=t, player__handle="p03")
    assert not reg.dropped and reg.checked_in
    assert TournamentAudit.objects.filter(tournament=t, action="reinstated").count() == 1
    assert "Drop undone" in org.get(url("organize-audit", t.pk)).content.decode()

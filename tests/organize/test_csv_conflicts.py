"""Importing players by CSV when a handle belongs to a player with another name: the
line is not registered silently; the organizer chooses, per line, the existing player or
a new player with a free handle (tournaments/services/registration_csv.py and the
dashboard's confirmation step)."""

from __future__ import annotations

import re

import pytest
from django.contrib.messages import get_messages

from tests.organize.conftest import url
from tests.tournaments.factories import (
    PlayerFactory,
    RegistrationFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.errors import InvalidState, NotAllowed
from tournaments.models import Player, Registration
from tournaments.services import (
    registration_csv_check,
    registration_csv_classify,
    registration_csv_parse,
    registration_csv_register,
)
from tournaments.services.registration import CsvEntry
from tournaments.services.registration_csv import (
    CsvChoicesRejected,
    CsvConflictsChanged,
    LineKind,
    name_key,
)

pytestmark = pytest.mark.django_db

#: The issue's case: twelve lines, one of them a stranger with Hugo's handle.
HUGO_CSV = "handle,name\n" + "\n".join(
    [f"p{i:02d},Player {i}" for i in range(1, 12)] + ["hugo,Hugo Brandt"]
)


def _messages(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


@pytest.fixture
def hugo(league):
    return PlayerFactory(handle="hugo", display_name="Hugo Ives")


def _registered(tournament) -> set[str]:
    return set(
        Registration.objects.filter(tournament=tournament).values_list("player__handle", flat=True)
    )


# --------------------------------------------------------------------------- pure rules


def test_name_key_ignores_case_accents_and_spaces():
    assert name_key("  José   GARCÍA ") == name_key("jose garcia")
    assert name_key("Hugo Ives") != name_key("Hugo Brandt")
    assert name_key("Straße") == name_key("STRASSE")  # case folding


def test_classify_lines():
    entries = [
        CsvEntry(line=1, handle="hugo", name="Hugo Brandt"),
        CsvEntry(line=2, handle="ana", name="ANA garcía"),
        CsvEntry(line=3, handle="ben", name=None),
        CsvEntry(line=4, handle="new", name="Newbie"),
        CsvEntry(line=5, handle="nameless", name=None),
    ]
    known = {"hugo": "Hugo Ives", "ana": "Ana Garcia", "ben": "Ben Someone"}
    assert registration_csv_classify(entries=entries, known=known) == {
        1: LineKind.CONFLICT,
        2: LineKind.EXISTING,
        3: LineKind.EXISTING,  # no name: an existing handle is that player, as before
        4: LineKind.NEW,
        5: LineKind.NEW,
    }


# --------------------------------------------------------------------------- the service


def test_check_lists_the_conflict_with_a_free_proposed_handle(tournament, organizer, hugo):
    PlayerFactory(handle="hugo-brandt", display_name="Someone Else")
    entries = registration_csv_parse("hugo,Hugo Brandt\nhugo2,Hugo Two\nana,Ana")
    check = registration_csv_check(tournament=tournament, user=organizer, entries=entries)
    assert check.new == [2, 3] and check.existing == []
    [conflict] = check.conflicts
    assert (conflict.line, conflict.handle, conflict.name, conflict.existing_name) == (
        1,
        "hugo",
        "Hugo Brandt",
        "Hugo Ives",
    )
    # hugo-brandt is a player and hugo2 is on line 2: the next free one
    assert conflict.proposed == "hugo3"
    assert not Registration.objects.exists()
    fresh = registration_csv_parse("hugo,Hugo Brandt")
    check = registration_csv_check(tournament=tournament, user=organizer, entries=fresh)
    assert check.conflicts[0].proposed == "hugo2"


def test_proposal_prefers_the_name_as_a_handle(tournament, organizer, hugo):
    entries = registration_csv_parse("hugo,Hugo Brändt")
    check = registration_csv_check(tournament=tournament, user=organizer, entries=entries)
    assert check.conflicts[0].proposed == "hugo-brandt"


def test_register_with_a_new_player(tournament, organizer, hugo):
    entries = registration_csv_parse(HUGO_CSV)
    check = registration_csv_check(tournament=tournament, user=organizer, entries=entries)
    batch = registration_csv_register(
        tournament=tournament,
        user=organizer,
        entries=entries,
        token=check.token,
        decisions={13: "hugo-b"},
    )
    assert len(batch.registered) == 12 and "hugo-b" in batch.created
    assert Player.objects.get(handle="hugo-b").display_name == "Hugo Brandt"
    assert Player.objects.get(handle="hugo").display_name == "Hugo Ives"
    assert "hugo" not in _registered(tournament) and "hugo-b" in _registered(tournament)


def test_register_with_the_existing_player(tournament, organizer, hugo):
    entries = registration_csv_parse(HUGO_CSV)
    check = registration_csv_check(tournament=tournament, user=organizer, entries=entries)
    batch = registration_csv_register(
        tournament=tournament,
        user=organizer,
        entries=entries,
        token=check.token,
        decisions={13: None},
    )
    assert len(batch.registered) == 12 and len(batch.created) == 11
    assert "hugo" in _registered(tournament)
    assert Player.objects.get(handle="hugo").display_name == "Hugo Ives"  # kept


def test_register_refuses_a_stale_token_and_bad_choices(tournament, organizer, hugo):
    entries = registration_csv_parse(HUGO_CSV)
    check = registration_csv_check(tournament=tournament, user=organizer, entries=entries)
    with pytest.raises(CsvConflictsChanged) as info:
        registration_csv_register(
            tournament=tournament, user=organizer, entries=entries, token="", decisions={}
        )
    assert info.value.http_status == 409 and info.value.check.token == check.token
    PlayerFactory(handle="taken")
    cases = [
        ({}, "choose the existing player or a new one"),
        ({13: "taken"}, "the handle taken is already taken"),
        ({13: "p03"}, "p03 is already on line 4"),
        ({13: "Not A Handle"}, "is not a handle"),
        ({13: "center"}, "cannot be a handle"),  # reserved by a game
        ({13: "-x"}, "cannot be a handle"),  # the player service would refuse it
    ]
    for decisions, reason in cases:
        with pytest.raises(CsvChoicesRejected) as info:
            registration_csv_register(
                tournament=tournament,
                user=organizer,
                entries=entries,
                token=check.token,
                decisions=decisions,
            )
        assert info.value.http_status == 400
        assert reason in info.value.problems[13], (decisions, info.value.problems)
    assert not Registration.objects.filter(tournament=tournament).exists()
    assert Player.objects.count() == 2  # hugo and taken: nothing created


def test_two_conflicts_may_not_choose_the_same_handle(tournament, organizer, hugo):
    PlayerFactory(handle="ana", display_name="Ana One")
    entries = registration_csv_parse("hugo,Hugo Brandt\nana,Ana Two")
    check = registration_csv_check(tournament=tournament, user=organizer, entries=entries)
    assert len({c.proposed for c in check.conflicts}) == 2
    with pytest.raises(CsvChoicesRejected) as info:
        registration_csv_register(
            tournament=tournament,
            user=organizer,
            entries=entries,
            token=check.token,
            decisions={1: "same", 2: "same"},
        )
    assert info.value.problems == {2: "same is also chosen on line 1"}


def test_a_player_renamed_meanwhile_means_checking_again(tournament, organizer, hugo):
    entries = registration_csv_parse("hugo,Hugo Brandt\nnew,New")
    check = registration_csv_check(tournament=tournament, user=organizer, entries=entries)
    Player.objects.filter(handle="hugo").update(display_name="Hugo Other")
    with pytest.raises(CsvConflictsChanged):
        registration_csv_register(
            tournament=tournament,
            user=organizer,
            entries=entries,
            token=check.token,
            decisions={1: None},
        )
    # a line that became a conflict meanwhile, too
    PlayerFactory(handle="new", display_name="Not New")
    with pytest.raises(CsvConflictsChanged) as info:
        registration_csv_register(
            tournament=tournament, user=organizer, entries=entries, token=check.token, decisions={}
        )
    assert [c.line for c in info.value.check.conflicts] == [1, 2]
    assert not Registration.objects.exists()


def test_check_refuses_strangers_first_and_over_tournaments(tournament, organizer, hugo):
    entries = registration_csv_parse("hugo,Hugo Brandt")
    with pytest.raises(NotAllowed):
        registration_csv_check(tournament=tournament, user=UserFactory(), entries=entries)
    tournament.status = "finished"
    tournament.save()
    with pytest.raises(InvalidState):
        registration_csv_check(tournament=tournament, user=organizer, entries=entries)


def test_hidden_players_name_follows_the_privacy_rules(league, tournament, organizer):
    """A hidden player is named to the organizer only if they staff one of the player's
    tournaments (as everywhere); otherwise the neutral label."""
    shy = PlayerFactory(handle="shy", display_name="Shy Real", hidden=True)
    entries = registration_csv_parse("shy,Somebody")
    check = registration_csv_check(tournament=tournament, user=organizer, entries=entries)
    conflict = check.conflicts[0]
    assert conflict.existing_hidden and conflict.existing_name == f"Player {shy.pk}"
    RegistrationFactory(tournament=TournamentFactory(league=league), player=shy)
    check = registration_csv_check(tournament=tournament, user=organizer, entries=entries)
    assert check.conflicts[0].existing_name == "Shy Real"
    assert not check.conflicts[0].existing_hidden


# --------------------------------------------------------------------------- the page


def test_the_hugo_case_asks_first_and_stores_nothing(org, tournament, hugo):
    response = org.post(url("organize-players-csv", tournament.pk), {"csv_text": HUGO_CSV})
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="csv-conflicts-form"' in html and 'id="conflict-13"' in html
    assert "Line 13: @hugo" in html and "Hugo Brandt" in html and "Hugo Ives" in html
    assert 'name="choice-13" value="existing"' in html
    assert 'name="handle-13" id="handle-13" value="hugo-brandt"' in html
    summary = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html.split('id="csv-summary"')[1]))
    assert "New players: 11 Existing players (same name): 0 To decide: 1" in summary
    assert 'name="csv_text"' in html and "p05,Player 5" in html  # the list is carried along
    assert not Registration.objects.filter(tournament=tournament).exists()
    assert not Player.objects.filter(handle__startswith="p").exists()


def _confirm_fields(html: str) -> dict[str, str]:
    """The hidden fields of the step as a browser posts them."""
    token = re.search(r'name="token" value="([0-9a-f]+)"', html).group(1)
    text = re.search(r'name="csv_text"[^>]*>\n(.*?)</textarea>', html, re.S).group(1)
    return {"confirm": "yes", "token": token, "csv_text": text.replace("&#x27;", "'")}


def test_confirm_with_a_new_player(org, tournament, hugo):
    html = org.post(url("organize-players-csv", tournament.pk), {"csv_text": HUGO_CSV})
    fields = _confirm_fields(html.content.decode())
    response = org.post(
        url("organize-players-csv", tournament.pk),
        {**fields, "choice-13": "new", "handle-13": "hugo-brandt"},
    )
    assert response.status_code == 302
    assert "12 players registered (12 new, 0 existing)." in _messages(response)
    assert Player.objects.get(handle="hugo-brandt").display_name == "Hugo Brandt"
    assert "hugo" not in _registered(tournament) and len(_registered(tournament)) == 12


def test_confirm_with_the_existing_player(org, tournament, hugo):
    html = org.post(url("organize-players-csv", tournament.pk), {"csv_text": HUGO_CSV})
    fields = _confirm_fields(html.content.decode())
    response = org.post(
        url("organize-players-csv", tournament.pk),
        {**fields, "choice-13": "existing", "handle-13": "hugo-brandt"},
    )
    assert response.status_code == 302
    assert "12 players registered (11 new, 1 existing)." in _messages(response)
    assert "hugo" in _registered(tournament)
    assert not Player.objects.filter(handle="hugo-brandt").exists()


def test_same_name_and_nameless_lines_need_no_step(org, tournament, hugo):
    response = org.post(
        url("organize-players-csv", tournament.pk), {"csv_text": "hugo, HUGO  ivés \nnew\n"}
    )
    assert response.status_code == 302
    assert "2 players registered (1 new, 1 existing)." in _messages(response)
    response = org.post(url("organize-players-csv", tournament.pk), {"csv_text": "hugo"})
    assert response.status_code == 302
    assert "1 player registered (0 new, 1 existing)." in _messages(response)


def test_a_taken_or_bad_handle_shows_the_step_again(org, tournament, hugo):
    PlayerFactory(handle="taken", display_name="Taken")
    html = org.post(url("organize-players-csv", tournament.pk), {"csv_text": HUGO_CSV})
    fields = _confirm_fields(html.content.decode())
    for handle, reason in (
        ("taken", "the handle taken is already taken"),
        ("Hugo B", "is not a handle"),
        ("hugo", "hugo is already on line 13"),
    ):
        response = org.post(
            url("organize-players-csv", tournament.pk),
            {**fields, "choice-13": "new", "handle-13": handle},
        )
        assert response.status_code == 400, handle
        page = response.content.decode()
        assert 'id="csv-choice-errors"' in page and reason in page.replace("&#x27;", "'")
        assert f'name="handle-13" id="handle-13" value="{handle}"' in page  # kept
        assert 'name="choice-13" value="new" required checked' in page
    # no choice at all (a hand-made post)
    response = org.post(url("organize-players-csv", tournament.pk), fields)
    assert response.status_code == 400
    assert "choose the existing player or a new one" in response.content.decode()
    assert not Registration.objects.filter(tournament=tournament).exists()
    assert Player.objects.count() == 2


def test_a_tampered_list_or_token_is_checked_again(org, tournament, hugo):
    html = org.post(url("organize-players-csv", tournament.pk), {"csv_text": HUGO_CSV})
    fields = _confirm_fields(html.content.decode())
    # the token does not match the conflicts (forged): the step again, 409
    response = org.post(
        url("organize-players-csv", tournament.pk),
        {**fields, "token": "0" * 32, "choice-13": "existing"},
    )
    assert response.status_code == 409
    assert "look at the lines again" in response.content.decode()
    # the list was changed on the client: another stranger on a known handle
    PlayerFactory(handle="ana", display_name="Ana Real")
    response = org.post(
        url("organize-players-csv", tournament.pk),
        {**fields, "csv_text": fields["csv_text"] + "\nana,Ana Fake", "choice-13": "existing"},
    )
    assert response.status_code == 409
    page = response.content.decode()
    assert 'id="conflict-13"' in page and 'id="conflict-14"' in page
    # a choice for a line without a conflict changes nothing
    response = org.post(
        url("organize-players-csv", tournament.pk),
        {**fields, "choice-13": "existing", "choice-2": "new", "handle-2": "hijack"},
    )
    assert response.status_code == 302
    assert not Player.objects.filter(handle="hijack").exists()
    assert "p01" in _registered(tournament)


def test_a_player_created_meanwhile_with_the_chosen_handle_is_refused(org, tournament, hugo):
    html = org.post(url("organize-players-csv", tournament.pk), {"csv_text": HUGO_CSV})
    fields = _confirm_fields(html.content.decode())
    PlayerFactory(handle="hugo-brandt", display_name="Hugo Brandt")  # someone was quicker
    response = org.post(
        url("organize-players-csv", tournament.pk),
        {**fields, "choice-13": "new", "handle-13": "hugo-brandt"},
    )
    assert response.status_code == 400
    assert "the handle hugo-brandt is already taken" in response.content.decode()
    assert not Registration.objects.filter(tournament=tournament).exists()


def test_an_uploaded_file_is_carried_as_text(org, tournament, hugo):
    import io

    upload = io.BytesIO(("\ufeff" + HUGO_CSV).encode("utf-8"))
    upload.name = "players.csv"
    response = org.post(url("organize-players-csv", tournament.pk), {"csv_file": upload})
    assert response.status_code == 200
    fields = _confirm_fields(response.content.decode())
    response = org.post(
        url("organize-players-csv", tournament.pk), {**fields, "choice-13": "existing"}
    )
    assert response.status_code == 302
    assert len(_registered(tournament)) == 12


@pytest.mark.parametrize(
    ("language", "texts"),
    [
        ("es", ["Revisar la lista", "Usar el jugador existente Hugo Ives (@hugo)"]),
        ("de", ["Liste prüfen", "Den vorhandenen Spieler Hugo Ives (@hugo) nehmen"]),
    ],
)
def test_the_step_is_translated(org, tournament, hugo, language, texts):
    response = org.post(
        url("organize-players-csv", tournament.pk),
        {"csv_text": HUGO_CSV},
        HTTP_ACCEPT_LANGUAGE=language,
    )
    html = response.content.decode()
    for text in texts:
        assert text in html


def test_one_player_with_another_name_is_not_linked(org, tournament, hugo):
    """The dashboard's one-player form follows the same rule as the list."""
    add = url("organize-player-add", tournament.pk)
    response = org.post(add, {"handle": "hugo", "display_name": "Hugo Brandt"})
    assert response.status_code == 400
    html = response.content.decode()
    assert "@hugo is Hugo Ives." in html and "e.g. hugo-brandt" in html
    assert not Registration.objects.filter(tournament=tournament).exists()
    response = org.post(add, {"handle": "hugo", "display_name": "hugo IVES"})
    assert response.status_code == 302 and "Hugo Ives is registered." in _messages(response)
    response = org.post(add, {"handle": "hugo"})
    assert response.status_code == 302
    assert _registered(tournament) == {"hugo"}


def test_line_numbers_count_leading_blank_lines(org, tournament):
    """The pasted text is not stripped: ``line N`` is the line the organizer sees."""
    response = org.post(
        url("organize-players-csv", tournament.pk), {"csv_text": "\n\nana,Ana\nBad One\n"}
    )
    assert response.status_code == 400
    assert "line 4: " in response.content.decode()

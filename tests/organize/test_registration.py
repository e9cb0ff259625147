"""The batch registration service and its CSV parser (tournaments/services/registration.py)."""

from __future__ import annotations

import pytest

from tests.tournaments.factories import (
    LeagueFactory,
    PlayerFactory,
    RegistrationFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.errors import InvalidState, NotAllowed
from tournaments.models import Player, Registration, TournamentAudit
from tournaments.services import (
    registration_check_in_all,
    registration_check_out,
    registration_create_many,
    registration_csv_parse,
)
from tournaments.services.registration import CsvRejected, RegistrationRejected

# --------------------------------------------------------------------------- the parser (pure)


def test_parse_with_and_without_header():
    text = "handle,name\nana,Ana García\nben\n\n cy , Cy \n"
    entries = registration_csv_parse(text)
    assert [(e.line, e.handle, e.name) for e in entries] == [
        (2, "ana", "Ana García"),
        (3, "ben", None),
        (5, "cy", "Cy"),
    ]
    assert [e.handle for e in registration_csv_parse("ana,Ana\nben,Ben")] == ["ana", "ben"]
    assert registration_csv_parse("Handle, Name\nana")[0].line == 2


def test_parse_quoted_semicolon_tab_and_bom():
    entries = registration_csv_parse('\ufeffana,"Ana, the first"\nben;Ben B\ncy\tCy\ndee,\n')
    assert [(e.handle, e.name) for e in entries] == [
        ("ana", "Ana, the first"),
        ("ben", "Ben B"),
        ("cy", "Cy"),
        ("dee", None),
    ]


def test_parse_reports_every_bad_line():
    text = "handle,name\nana,Ana\nBad Handle,X\nben,Ben,extra\nana,Again\n,Nobody\n" + (
        "eve," + "x" * 101 + "\n"
    )
    with pytest.raises(CsvRejected) as info:
        registration_csv_parse(text)
    errors = info.value.errors
    assert len(errors) == 5
    assert errors[0].startswith("line 3: ") and "Bad Handle" in errors[0]
    assert errors[1].startswith("line 4: ") and "3 columns" in errors[1]
    assert errors[2] == "line 5: ana is already on line 2"
    assert errors[3] == "line 6: the handle is missing"
    assert errors[4].startswith("line 7: ") and "100" in errors[4]
    assert info.value.http_status == 400


@pytest.mark.parametrize("text", ["", "\n\n", "handle,name\n"])
def test_parse_refuses_an_empty_list(text):
    with pytest.raises(CsvRejected) as info:
        registration_csv_parse(text)
    assert "empty" in info.value.errors[0]


def test_parse_refuses_too_many():
    text = "\n".join(f"p{i}" for i in range(1001))
    with pytest.raises(CsvRejected) as info:
        registration_csv_parse(text)
    assert "1000" in info.value.errors[-1]


# --------------------------------------------------------------------------- the service


@pytest.fixture
def setup(db):
    league = LeagueFactory()
    organizer = UserFactory()
    league.organizers.add(organizer)
    tournament = TournamentFactory(league=league)
    return tournament, organizer


def test_create_many_registers_and_creates(setup):
    tournament, organizer = setup
    PlayerFactory(handle="known", display_name="Known One")
    batch = registration_create_many(
        tournament=tournament,
        user=organizer,
        entries=[("known", "Other Name"), ("newbie", "New Bie"), ("known", None)],
        create=True,
    )
    assert [r.player.handle for r in batch.registered] == ["known", "newbie"]
    assert batch.created == ["newbie"]
    assert Player.objects.get(handle="newbie").display_name == "New Bie"
    assert Player.objects.get(handle="known").display_name == "Known One"  # kept
    audit = TournamentAudit.objects.get(tournament=tournament, action="registered")
    assert audit.details == {"players": ["known", "newbie"], "created": ["newbie"]}


def test_create_many_is_all_or_nothing(setup):
    tournament, organizer = setup
    with pytest.raises(RegistrationRejected) as info:
        registration_create_many(
            tournament=tournament,
            user=organizer,
            entries=[("fresh", None), ("Bad-Case", None), ("also-new", "x" * 101)],
            create=True,
        )
    assert [p.index for p in info.value.problems] == [1, 2]
    assert not Player.objects.filter(handle__in=["fresh", "also-new"]).exists()
    assert not Registration.objects.filter(tournament=tournament).exists()


def test_unknown_handles_without_create(setup):
    tournament, organizer = setup
    PlayerFactory(handle="known")
    with pytest.raises(RegistrationRejected) as info:
        registration_create_many(
            tournament=tournament,
            user=organizer,
            entries=[("known", None), ("ghost", None), ("phantom", None)],
        )
    assert str(info.value.message) == "Unknown player handles: ghost, phantom."
    assert [p.index for p in info.value.problems] == [1, 2]
    assert not Registration.objects.exists()


def test_role_is_checked_before_handles_are_looked_up(setup):
    tournament, _organizer = setup
    stranger = UserFactory()
    with pytest.raises(NotAllowed):
        registration_create_many(
            tournament=tournament, user=stranger, entries=[("ghost", None)], create=False
        )
    # same refusal for an existing handle: nothing tells them apart
    PlayerFactory(handle="known")
    with pytest.raises(NotAllowed):
        registration_create_many(tournament=tournament, user=stranger, entries=[("known", None)])
    assert not Registration.objects.exists()


def test_over_tournament_refuses(setup):
    tournament, organizer = setup
    tournament.status = "finished"
    tournament.save()
    with pytest.raises(InvalidState):
        registration_create_many(
            tournament=tournament, user=organizer, entries=[("x", None)], create=True
        )


def test_check_in_all_and_check_out(setup):
    tournament, organizer = setup
    regs = [RegistrationFactory(tournament=tournament, checked_in=False) for _ in range(3)]
    RegistrationFactory(tournament=tournament, checked_in=False, dropped=True)
    handles = registration_check_in_all(tournament=tournament, user=organizer)
    assert sorted(handles) == sorted(r.player.handle for r in regs)
    assert Registration.objects.filter(tournament=tournament, checked_in=True).count() == 3
    assert registration_check_in_all(tournament=tournament, user=organizer) == []
    reg = Registration.objects.get(pk=regs[0].pk)
    registration_check_out(registration=reg, user=organizer)
    assert not Registration.objects.get(pk=reg.pk).checked_in
    actions = list(
        TournamentAudit.objects.filter(tournament=tournament).values_list("action", flat=True)
    )
    assert actions.count("checked_in") == 3 and actions.count("checked_out") == 1
    with pytest.raises(NotAllowed):
        registration_check_in_all(tournament=tournament, user=UserFactory())


def test_the_api_refuses_strangers_before_looking_handles_up(setup):
    from django.urls import reverse

    from tests.api.conftest import token_client

    tournament, _organizer = setup
    PlayerFactory(handle="known")
    stranger = token_client(UserFactory())
    path = reverse("api:tournament-players", args=[tournament.pk])
    for handles in (["ghost"], ["known"], ["known", "ghost"]):
        response = stranger.post(path, {"handles": handles}, format="json")
        assert response.status_code == 403, handles
        assert response.json()["code"] == "not_allowed"
    assert not Registration.objects.exists()

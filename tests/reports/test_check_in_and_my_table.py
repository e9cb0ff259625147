"""Check-in from the phone and "my table now" (issue 23): the organizer opens check-in,
a linked registered player checks in from the tournament page (the door's QR leads
there), the organizer's list shows it; a seated player sees their table, seat, the
others and the round's end on the home and tournament pages."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.factories import UserFactory
from tournaments.models import Registration, Round, TournamentAudit

pytestmark = pytest.mark.django_db


@pytest.fixture
def ann_phone(players):
    ann = next(p for p in players if p.handle == "ann")
    ann.user = UserFactory(username="u-ann")
    ann.save(update_fields=["user"])
    client = Client()
    client.force_login(ann.user)
    return client


def test_check_in_from_the_phone_when_the_organizer_opens_it(tournament, players, ann_phone, staff):
    Registration.objects.filter(tournament=tournament).update(checked_in=False)
    page = reverse("tournaments:tournament-detail", args=[tournament.pk])
    assert "data-check-in" not in ann_phone.get(page).content.decode()
    refused = ann_phone.post(reverse("tournaments:tournament-check-in", args=[tournament.pk]))
    assert refused.status_code == 303
    assert not Registration.objects.get(tournament=tournament, player__handle="ann").checked_in
    organizer = Client()
    organizer.force_login(staff["organizer"])
    organizer.post(
        reverse("tournaments:organize-check-in-open", args=[tournament.pk]), {"open": "yes"}
    )
    tournament.refresh_from_db()
    assert tournament.check_in_open
    assert "data-check-in" in ann_phone.get(page).content.decode()
    # the door's QR: a GET lands on the tournament page
    door = ann_phone.get(reverse("tournaments:tournament-check-in", args=[tournament.pk]))
    assert door.status_code == 303 and door["Location"] == page
    ann_phone.post(reverse("tournaments:tournament-check-in", args=[tournament.pk]))
    assert Registration.objects.get(tournament=tournament, player__handle="ann").checked_in
    assert TournamentAudit.objects.filter(action="checked_in", details__player="ann").exists()


def test_my_table_now_on_the_home_and_tournament_pages(tournament, table, ann_phone):
    Round.objects.filter(pk=table.round_id).update(
        deadline=timezone.now() + dt.timedelta(minutes=30)
    )
    for url in (reverse("home"), reverse("tournaments:tournament-detail", args=[tournament.pk])):
        html = ann_phone.get(url).content.decode()
        assert 'data-my-table="1"' in html
        assert "table 1, seat 1" in html and "With Bob, Cat, Dan" in html
        assert "The round ends at" in html
    assert 'data-my-table="1"' not in Client().get(reverse("home")).content.decode()

"""Exports: standings, results and players as CSV, a league's calendar as iCalendar.

Visibility as on the pages (hidden tournaments 404, hidden players masked), players for
organizers only, formula-injection-safe CSV cells, queries that do not grow with the
number of players, and RFC 5545 text (CRLF, folding at 75 octets, escaping).
"""

from __future__ import annotations

import csv
import datetime as dt
import io

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import Game
from tests.tournaments.factories import (
    LeagueFactory,
    PlayerFactory,
    RegistrationFactory,
    RoundFactory,
    TournamentFactory,
    TournamentRoleFactory,
    UserFactory,
    seat_table,
)
from tournaments.exports.csv_export import csv_cell, csv_text
from tournaments.exports.ical import CalendarEvent, escape_text, fold_line, render_calendar
from tournaments.models import NoShow, Role

pytestmark = pytest.mark.django_db


def build(players: int = 8, *, hidden_first: bool = False, slug: str = "club"):
    """A tournament with ``players`` registered players, round 1 seated at tables of 4,
    every table finished (seat order = place)."""
    league = LeagueFactory(slug=slug)
    tournament = TournamentFactory(league=league, slug="friday", name="Friday, the 13th")
    roster = [PlayerFactory() for _ in range(players)]
    roster[0].display_name = '=HYPERLINK("http://evil")'
    roster[0].hidden = hidden_first
    roster[0].save()
    for p in roster:
        RegistrationFactory(tournament=tournament, player=p)
    rnd = RoundFactory(tournament=tournament, number=1)
    for i in range(0, players, 4):
        table = seat_table(rnd, roster[i : i + 4], number=i // 4 + 1)
        placements = {p.handle: n + 1 for n, p in enumerate(roster[i : i + 4])}
        Game.objects.filter(pk=table.game_id).update(
            placements=placements, status="finished", result_source="placements"
        )
    return tournament, roster


def read_csv(response) -> list[list[str]]:
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    return list(csv.reader(io.StringIO(response.content.decode("utf-8"))))


# --------------------------------------------------------------------------- CSV cells


def test_csv_cells_are_formula_safe_and_plain():
    assert csv_cell("=1+2") == "'=1+2"
    assert csv_cell("+49 170") == "'+49 170"
    assert csv_cell("-x") == "'-x"
    assert csv_cell("@SUM(A1)") == "'@SUM(A1)"
    assert csv_cell("\tTab") == "'\tTab"
    assert csv_cell("Ada") == "Ada"
    assert csv_cell("José") == "José"
    assert csv_cell(-3) == "-3"  # numbers are numbers
    assert csv_cell(2.5) == "2.5" and csv_cell(3.0) == "3" and csv_cell(1 / 3) == "0.3333"
    assert csv_cell(True) == "true" and csv_cell(None) == ""
    text = csv_text(header=["a", "b"], rows=[["x,y", 'say "hi"']])
    assert text == 'a,b\r\n"x,y","say ""hi"""\r\n'


# --------------------------------------------------------------------------- standings


def test_standings_csv(client):
    tournament, roster = build(8)
    response = client.get(reverse("tournaments:tournament-standings-csv", args=[tournament.pk]))
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="club-friday-standings.csv"'
    rows = read_csv(response)
    assert rows[0] == [
        "place", "handle", "name", "points",
        "opponents_average", "firsts", "placement_sum", "rating",
        "games", "stage", "dropped",
    ]  # fmt: skip
    assert len(rows) == 9
    by_handle = {row[1]: row for row in rows[1:]}
    first = by_handle[roster[0].handle]
    assert first[0] == "1" and first[3] == "4"  # default points 4/2/1/0
    assert first[2] == '\'=HYPERLINK("http://evil")'
    assert first[5] == "1" and first[9] == "swiss" and first[10] == "false"
    # One name for the opponents' average: the CSV column, the page's header, and the
    # API's (kept) buchholz field hold the same number.
    page = client.get(reverse("tournaments:tournament-detail", args=[tournament.pk]))
    assert "Opp. avg.</th>" in page.content.decode()
    api = client.get(reverse("api:tournament-standings", args=[tournament.pk])).json()
    by_api = {r["handle"]: r["buchholz"] for r in api}
    assert {row[1]: float(row[4]) for row in rows[1:]} == pytest.approx(by_api, abs=1e-4)


def test_standings_and_results_mask_hidden_players_like_the_page(client):
    tournament, roster = build(4, hidden_first=True)
    hidden = roster[0]
    for name in ("standings", "results"):
        url = reverse(f"tournaments:tournament-{name}-csv", args=[tournament.pk])
        text = client.get(url).content.decode()
        assert hidden.handle not in text and "HYPERLINK" not in text
        assert f"Player-{hidden.pk}" in text and f"Player {hidden.pk}" in text
        # The tournament's staff see the real names, as on the page.
        staff = TournamentRoleFactory(tournament=tournament, role=Role.SCOREKEEPER).user
        client.force_login(staff)
        assert hidden.handle in client.get(url).content.decode()
        client.logout()


def test_hidden_tournament_exports_are_404(client):
    tournament, _roster = build(4)
    tournament.is_public = False
    tournament.save()
    for name in ("standings", "results", "players"):
        url = reverse(f"tournaments:tournament-{name}-csv", args=[tournament.pk])
        client.force_login(UserFactory())
        assert client.get(url).status_code == 404, name
        client.logout()
    assert client.get(reverse("tournaments:league-calendar", args=["club"])).status_code == 200
    tournament.league.is_public = False
    tournament.league.save()
    assert client.get(reverse("tournaments:league-calendar", args=["club"])).status_code == 404


# --------------------------------------------------------------------------- results


def test_results_csv(client):
    tournament, roster = build(8)
    rnd = tournament.rounds.get()
    response = client.get(reverse("tournaments:tournament-results-csv", args=[tournament.pk]))
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="club-friday-results.csv"'
    rows = read_csv(response)
    assert rows[0] == [
        "round", "table", "game_id", "handle", "name", "place", "points", "game_status",
        "result",
    ]  # fmt: skip
    assert len(rows) == 9
    game_id = str(rnd.tables.get(number=2).game_id)
    assert rows[5] == [
        "1",
        "2",
        game_id,
        roster[4].handle,
        roster[4].display_name,
        "1",
        "4",
        "finished",
        "unverified",
    ]
    assert rows[8][5:] == ["4", "0", "finished", "unverified"]
    # Placements the players of the table confirmed say so.
    Game.objects.filter(pk=game_id).update(players_confirmed=True)
    rows = read_csv(client.get(reverse("tournaments:tournament-results-csv", args=[tournament.pk])))
    assert rows[5][8] == "players"
    # A game without a result: place and points stay empty.
    Game.objects.filter(pk=game_id).update(placements=None, status="in_progress")
    rows = read_csv(client.get(reverse("tournaments:tournament-results-csv", args=[tournament.pk])))
    assert rows[5][5:] == ["", "", "in_progress", ""]


# --------------------------------------------------------------------------- players


def test_players_csv_is_for_organizers(client):
    tournament, roster = build(4, hidden_first=True)
    url = reverse("tournaments:tournament-players-csv", args=[tournament.pk])
    response = client.get(url)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    for role in (Role.SCOREKEEPER, Role.REFEREE):
        client.force_login(TournamentRoleFactory(tournament=tournament, role=role).user)
        assert client.get(url).status_code == 403
    other = UserFactory()
    LeagueFactory().organizers.add(other)
    client.force_login(other)
    assert client.get(url).status_code == 403

    reg = tournament.registrations.get(player=roster[1])
    reg.dropped = True
    reg.checked_in = False
    reg.save()
    rnd = tournament.rounds.get()
    NoShow.objects.create(round=rnd, table=rnd.tables.get(), player=roster[2])
    organizer = UserFactory()
    tournament.league.organizers.add(organizer)
    client.force_login(organizer)
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="club-friday-players.csv"'
    rows = read_csv(response)
    assert rows[0] == ["handle", "name", "checked_in", "dropped", "no_show"]
    by_handle = {row[0]: row for row in rows[1:]}
    assert by_handle[roster[0].handle][1] == '\'=HYPERLINK("http://evil")'  # organizers see all
    assert by_handle[roster[1].handle][2:] == ["false", "true", "false"]
    assert by_handle[roster[2].handle][2:] == ["true", "false", "true"]


# --------------------------------------------------------------------------- queries


def _queries(client, url) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def test_query_counts_do_not_grow_with_the_players(client):
    small, _ = build(4)
    big, _ = build(24, slug="big")
    organizer = UserFactory()
    small.league.organizers.add(organizer)
    big.league.organizers.add(organizer)
    for name in ("standings", "results"):
        counts = [
            _queries(client, reverse(f"tournaments:tournament-{name}-csv", args=[t.pk]))
            for t in (small, big)
        ]
        assert counts[0] == counts[1] <= 8, (name, counts)
    client.force_login(organizer)
    counts = [
        _queries(client, reverse("tournaments:tournament-players-csv", args=[t.pk]))
        for t in (small, big)
    ]
    assert counts[0] == counts[1], counts


# --------------------------------------------------------------------------- iCalendar


def test_ical_text_escaping_and_folding():
    assert escape_text("a;b,c\\d\ne") == "a\\;b\\,c\\\\d\\ne"
    line = "SUMMARY:" + "Ü" * 60  # 8 + 120 octets
    folded = fold_line(line)
    parts = folded.split("\r\n")
    assert all(len(p.encode()) <= 75 for p in parts)
    assert all(p.startswith(" ") for p in parts[1:])
    assert "".join([parts[0], *(p[1:] for p in parts[1:])]) == line
    assert fold_line("short") == "short"


def unfold(text: str) -> list[str]:
    return text.replace("\r\n ", "").split("\r\n")


def test_render_calendar_is_valid_rfc5545():
    now = dt.datetime(2026, 11, 30, 22, 30, tzinfo=dt.UTC)
    text = render_calendar(
        now=now,
        name="Club; the best",
        events=[
            CalendarEvent(
                uid="tournament-1@example.org",
                summary="Friday, the 13th; a very long name " + "x" * 80,
                start=dt.date(2026, 12, 4),
                end=dt.date(2026, 12, 5),
                url="https://example.org/tournaments/1/",
                location="Bar\nBackroom",
                status="CONFIRMED",
            ),
            CalendarEvent(
                uid="round-7@example.org",
                summary="Round 1",
                start=dt.datetime(2026, 12, 4, 19, 0, tzinfo=dt.timezone(dt.timedelta(hours=1))),
                end=None,
            ),
        ],
    )
    assert text.endswith("END:VCALENDAR\r\n")
    assert "\n" not in text.replace("\r\n", "")  # only CRLF line endings
    assert all(len(line.encode()) <= 75 for line in text.split("\r\n"))
    lines = unfold(text)
    assert lines[:5] == [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//TOCK tournaments//Calendar//EN",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
    ]
    assert "X-WR-CALNAME:Club\\; the best" in lines
    assert lines.count("BEGIN:VEVENT") == lines.count("END:VEVENT") == 2
    assert "UID:tournament-1@example.org" in lines
    assert lines.count("DTSTAMP:20261130T223000Z") == 2
    assert "DTSTART;VALUE=DATE:20261204" in lines and "DTEND;VALUE=DATE:20261205" in lines
    assert "DTSTART:20261204T180000Z" in lines  # in UTC
    assert f"SUMMARY:Friday\\, the 13th\\; a very long name {'x' * 80}" in lines
    assert "LOCATION:Bar\\nBackroom" in lines
    assert "URL:https://example.org/tournaments/1/" in lines
    second = lines[lines.index("UID:round-7@example.org") :]
    assert not any(line.startswith("DTEND") for line in second[: second.index("END:VEVENT")])


def test_league_calendar(client):
    tournament, _roster = build(4)
    tournament.ends_on = dt.date(2026, 1, 11)
    tournament.venue = "Café, upstairs"
    tournament.save()
    rnd = tournament.rounds.get()
    rnd.deadline = rnd.created_at + dt.timedelta(minutes=50)
    rnd.save()
    private = TournamentFactory(league=tournament.league, is_public=False, name="Secret")
    response = client.get(reverse("tournaments:league-calendar", args=["club"]))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="club.ics"'
    text = response.content.decode()
    lines = unfold(text)
    assert f"UID:tournament-{tournament.pk}@testserver" in lines
    assert "DTSTART;VALUE=DATE:20260110" in lines and "DTEND;VALUE=DATE:20260112" in lines
    assert "SUMMARY:Friday\\, the 13th" in lines
    assert "LOCATION:Café\\, upstairs" in lines
    assert f"URL:http://testserver/tournaments/{tournament.pk}/" in lines
    assert f"UID:round-{rnd.pk}@testserver" in lines
    assert "SUMMARY:Friday\\, the 13th – round 1" in lines
    stamp = rnd.deadline.astimezone(dt.UTC).strftime("%Y%m%dT%H%M%SZ")
    assert f"DTEND:{stamp}" in lines
    assert "Secret" not in text and f"tournament-{private.pk}@" not in text
    assert all(len(line.encode()) <= 75 for line in text.split("\r\n"))
    # The league's organizer sees the private one too.
    organizer = UserFactory()
    tournament.league.organizers.add(organizer)
    client.force_login(organizer)
    assert (
        "Secret"
        in client.get(reverse("tournaments:league-calendar", args=["club"])).content.decode()
    )


def _round_times(lines: list[str], rnd) -> tuple[str, str]:
    """(DTSTART, DTEND) values of ``rnd``'s event."""
    at = lines.index(f"UID:round-{rnd.pk}@testserver")
    block = lines[at : lines.index("END:VEVENT", at)]
    start = next(line for line in block if line.startswith("DTSTART"))
    end = next(line for line in block if line.startswith("DTEND"))
    return start.split(":", 1)[1], end.split(":", 1)[1]


def test_league_calendar_dates_rounds_when_they_were_played(client):
    """An event of 2 October entered on 1 December: its round is dated by its games
    (first played, last result), not by when it was seated, nor by the clock set
    then; a round not played yet by its clock; without a clock, from its seating, and
    every round has an end."""
    tournament, _roster = build(8)
    tournament.round_minutes = 50
    tournament.save()
    utc = dt.UTC
    seated = dt.datetime(2026, 12, 1, 12, 0, tzinfo=utc)
    played = tournament.rounds.get()
    type(played).objects.filter(pk=played.pk).update(
        created_at=seated, deadline=seated + dt.timedelta(minutes=50), status="finished"
    )
    for n, table in enumerate(played.tables.order_by("number")):
        first = dt.datetime(2026, 10, 2, 10, 3 * n, tzinfo=utc)
        Game.objects.filter(pk=table.game_id).update(
            played_at=first, finished_at=first + dt.timedelta(minutes=35)
        )
    clocked = RoundFactory(tournament=tournament, number=2)
    type(clocked).objects.filter(pk=clocked.pk).update(
        created_at=seated, deadline=dt.datetime(2026, 12, 1, 14, 0, tzinfo=utc)
    )
    later = TournamentFactory(league=tournament.league, slug="later", round_minutes=None)
    unclocked = RoundFactory(tournament=later, number=1)
    type(unclocked).objects.filter(pk=unclocked.pk).update(created_at=seated)
    lines = unfold(
        client.get(reverse("tournaments:league-calendar", args=["club"])).content.decode()
    )
    assert _round_times(lines, played) == ("20261002T100000Z", "20261002T103800Z")
    assert _round_times(lines, clocked) == ("20261201T131000Z", "20261201T140000Z")
    assert _round_times(lines, unclocked) == ("20261201T120000Z", "20261201T130000Z")


def test_pages_link_the_exports(client):
    tournament, _roster = build(4)
    html = client.get(
        reverse("tournaments:tournament-detail", args=[tournament.pk])
    ).content.decode()
    for name in ("standings", "results"):
        assert reverse(f"tournaments:tournament-{name}-csv", args=[tournament.pk]) in html
    assert reverse("tournaments:league-calendar", args=["club"]) in html
    html = client.get(reverse("tournaments:league-detail", args=["club"])).content.decode()
    assert reverse("tournaments:league-calendar", args=["club"]) in html

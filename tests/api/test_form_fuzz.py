"""The site's forms get the API fuzz tests' hostile inputs (tests/api/test_schema_fuzz.py,
beside it for the same fixtures):
deep nesting, superscript and other non-ASCII digits, huge numbers, NUL bytes, overlong
strings, bytes that are not UTF-8. Whatever a form field receives, the score, referee,
organizer and staff pages answer a page or a form error, never a 500. Fast: one request
per page and value, every field of the page carrying the value at once."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

HOSTILE = [
    "[" * 1_000 + "]" * 1_000,
    '{"type": "start", "x": ' + "[" * 5_000 + "]" * 5_000 + "}",
    "²",
    "٣",
    "9" * 5_000,
    "-" + "9" * 30,
    "1e999",
    "NaN",
    "a\x00b",
    "x" * 100_000,
    "\udfff",
    "",
]

#: page -> the form fields it reads (every one gets the hostile value)
FORMS = {
    "/games/{game}/score/": {
        "action": ["event", "placements", "log"],
        "fields": ["event", "sequence", "key", "log_text", *[f"place-{i}" for i in range(4)]],
    },
    "/games/{game}/referee/": {
        "action": ["correct-result", "rule"],
        "fields": ["by", "ruling", "note", "sequence", *[f"place-{i}" for i in range(1, 5)]],
    },
    "/tournaments/{tournament}/organize/settings/": {
        "action": [""],
        "fields": [
            "name",
            "venue",
            "starts_on",
            "rounds",
            "round_minutes",
            "cut",
            "advance",
            "format",
            "seeding",
            "is_public",
            "auto_progress",
        ],
    },  # fmt: skip
    "/tournaments/{tournament}/organize/players/": {
        "action": [""],
        "fields": ["handle", "display_name", "csv_text"],
    },
    "/tournaments/{tournament}/organize/players/csv/": {
        "action": [""],
        "fields": ["csv_text", "confirm", "token", "choice-1", "handle-1"],
    },
    "/tournaments/{tournament}/organize/reseat/": {"action": [""], "fields": ["round"]},
    "/tournaments/{tournament}/organize/time-up/": {"action": [""], "fields": ["round"]},
    "/tournaments/{tournament}/organize/staff/": {
        "action": ["add", "remove", "create"],
        "fields": ["username", "role", "display_name", "confirm", "page", "q"],
    },
}


def _raw_body(fields: dict[str, str]) -> bytes:
    """A urlencoded body with the values as raw bytes (lone surrogates as bytes that are
    not UTF-8: what a broken client sends)."""
    from urllib.parse import quote_from_bytes

    def enc(text: str) -> str:
        return quote_from_bytes(
            text.encode("utf-8", "surrogatepass") + (b"\xff" if "\udfff" in text else b"")
        )

    return "&".join(f"{enc(k)}={enc(v)}" for k, v in fields.items()).encode()


@pytest.mark.parametrize("url", list(FORMS))
def test_hostile_form_values_never_answer_500(url, game, tournament, staff, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10_000_000
    client = Client(raise_request_exception=False)
    client.force_login(staff["organizer"])
    page = url.format(game=game.pk, tournament=tournament.pk)
    spec = FORMS[url]
    seen: set[int] = set()
    for action in spec["action"]:
        for value in HOSTILE:
            fields = {name: value for name in spec["fields"]}
            fields["action"] = action
            response = client.post(
                page,
                _raw_body(fields),
                content_type="application/x-www-form-urlencoded",
            )
            assert response.status_code < 500, (page, action, value[:40])
            seen.add(response.status_code)
    assert seen - {302, 403, 404, 405}, seen  # the forms were reached, not refused at the door


def test_hostile_choices_of_the_csv_import_never_answer_500(tournament, staff, settings):
    """The import's confirmation step (a handle of a player with another name): hostile
    tokens, choices and handles answer the step again (400/409), never a 500."""
    from tests.tournaments.factories import PlayerFactory
    from tournaments.models import Registration

    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10_000_000
    PlayerFactory(handle="hugo", display_name="Hugo Ives")
    client = Client(raise_request_exception=False)
    client.force_login(staff["organizer"])
    page = f"/tournaments/{tournament.pk}/organize/players/csv/"
    for value in HOSTILE:
        for choice in (value, "new", "existing"):
            fields = {
                "csv_text": "hugo,Hugo Brandt\n",
                "confirm": "yes",
                "token": value,
                "choice-1": choice,
                "handle-1": value,
                f"choice-{value[:20]}": "new",
            }
            response = client.post(
                page, _raw_body(fields), content_type="application/x-www-form-urlencoded"
            )
            assert response.status_code in (400, 409), (choice, value[:40])
    assert not Registration.objects.filter(tournament=tournament, player__handle="hugo").exists()

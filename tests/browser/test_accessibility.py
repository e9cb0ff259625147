"""Accessibility: axe-core finds nothing on one page of every page template, in the light
and in the dark colour scheme; and no page scrolls sideways on a phone in the languages
with the longest words (Spanish, German).

axe-core's script comes from the ``axe-playwright-python`` package (its bundled
``axe.min.js``, a ``dev`` extra): nothing is downloaded at test time. The script is
evaluated in each page (Playwright's ``evaluate`` is not subject to the page's Content
Security Policy) and ``axe.run()`` reports the violations of the rendered page, with
the stylesheets and scripts the site serves.

Time: one browser (the package's), one phone context per tour: the light scheme in
Spanish, the dark one in German (the site's dark theme is ``prefers-color-scheme:
dark``, emulated with ``color_scheme``), one page reused for every template, the data
made once per tour. Both checks run on each page of a tour (two tours instead of one
per scheme and one per language: the page loads and the data were most of the time).
Each template is a subtest of its tour, so a failure names the template, the scheme,
the language and every violation (rule, impact, elements, what to fix).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

import games.engine as engine
from tests.browser import scenes
from tests.tournaments.factories import TournamentRoleFactory, UserFactory
from tests.web.kind_fixtures import kind_tournament, record, seated_game
from tournaments.models import Role
from tournaments.permissions import SYSTEM
from tournaments.services import friendly_game_create, game_record_log
from tournaments.services.proposals import result_propose
from tournaments.services.rulings import knock_ruling_record
from tournaments.staff.services import staff_account_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: The standards axe checks (WCAG 2.0/2.1 A and AA) and its best practices
#: (``landmark-unique``, ``region``, ``heading-order``...).
AXE_OPTIONS = {
    "runOnly": {
        "type": "tag",
        "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"],
    },
    "resultTypes": ["violations"],
}


def axe_script() -> str:
    """axe-core's minified script, as bundled by ``axe-playwright-python``."""
    try:
        from axe_playwright_python.base import AXE_SCRIPT
    except ImportError:
        pytest.skip("axe-playwright-python is not installed (pip install -e '.[dev]')")
    return AXE_SCRIPT


def axe_violations(page: Any, script: str) -> list[dict[str, Any]]:
    """axe-core's violations on ``page``, every ``<details>`` opened (what a tap shows
    is checked too: the score page's infraction buttons, the rating tables...)."""
    page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(script)
    return page.evaluate("(options) => axe.run(document, options)", AXE_OPTIONS)["violations"]


def describe(violations: list[dict[str, Any]]) -> str:
    """One paragraph a violation: rule, impact, help, then each element and its fix."""
    lines = []
    for v in violations:
        lines.append(f"{v['id']} ({v['impact']}): {v['help']} [{v['helpUrl']}]")
        for node in v["nodes"]:
            lines.append(f"    {' '.join(map(str, node['target']))}")
            summary = (node.get("failureSummary") or "").replace("\n", " ")
            lines.append(f"      {summary}")
    return "\n".join(lines)


# --------------------------------------------------------------------------- the site


@dataclass
class Site:
    """The paths of the pages to visit and who may see them."""

    tournament: int
    league: str
    player: str
    tock: int
    tock_over: int
    uno: int
    casino: int
    organizer: Any
    stranger: Any
    set_password: str


def make_site() -> Site:
    """A running TOCK event (one table with a result, one with a ruled knock on an
    infraction), a running UNO and Casino event with a game under way, all organized
    by the same user, and a new staff account's set-password link."""
    scene = scenes.running_tournament(players=8, placements=1)
    organizer = scene.organizer
    tock = scene.game(2)
    first, second, *_ = scenes.seat_order(tock)
    start = {"type": "start", "game": "tock", "players": scenes.seat_order(tock), "first": first}
    # the first player puts a drawn 1 on their own discard (an infraction), the next knocks
    game_record_log(
        game=tock,
        log=[start, {"type": "draw", "player": first, "card": 1, "to": first}],
        user=SYSTEM,
    )
    knock_ruling_record(game=tock, by=second, ruling="confirm", expected_sequence=3, user=organizer)
    # live scoring stopped with proposed placements: the score page and the referee
    # list show the pending proposal (and its forms)
    seats = scenes.seat_order(tock)
    result_propose(game=tock, placements={h: i + 1 for i, h in enumerate(seats)}, user=organizer)

    kinds = {}
    for kind, log in (
        ("uno", engine.simulate(game="uno", players=["uno1", "uno2", "uno3", "uno4"], seed=8)[:30]),
        ("casino", [{"type": "start", "game": "casino", "players": ["cas1", "cas2", "cas3", "cas4"],
                     "seed": 7}]),
    ):  # fmt: skip
        tournament = kind_tournament(kind, name=f"{kind.title()} Cup")
        TournamentRoleFactory(tournament=tournament, role=Role.ORGANIZER, user=organizer)
        game = seated_game(tournament, {e: e.title() for e in log[0]["players"]})
        record(game, log)
        kinds[kind] = game.pk

    # A finished TOCK game: its facts say nobody is next ("niemand (die Partie ist vorbei)")
    handles = [p.handle for p in scene.players[:4]]
    over = friendly_game_create(
        kind="tock", log=engine.simulate(game="tock", players=handles, seed=3), user=SYSTEM
    ).game

    account = staff_account_create(
        tournament=scene.tournament, username="new-referee", role="referee", user=organizer
    )
    return Site(
        tournament=scene.tournament.pk,
        league=scene.league.slug,
        player=scene.players[0].handle,
        tock=tock.pk,
        tock_over=over.pk,
        uno=kinds["uno"],
        casino=kinds["casino"],
        organizer=organizer,
        stranger=UserFactory(username="stranger"),
        set_password=account.set_password_path,
    )


@dataclass
class Visit:
    """A page template, who looks (``anonymous``, ``organizer``, ``stranger``) and how
    to get there: a path (and its status), or ``go(page, site)`` for pages reached by
    a form."""

    template: str
    who: str
    path: Callable[[Site], str] | None = None
    status: int = 200
    go: Callable[[Any, Site], None] | None = None


def _confirm(page: Any, site: Site) -> None:
    page.goto(f"/tournaments/{site.tournament}/organize/")
    page.locator("#finish-event").click()
    page.wait_for_url(f"**/tournaments/{site.tournament}/organize/finish/")


def _locked_out(page: Any, site: Site) -> None:
    """The login form posted for a name locked by failed logins from this address."""
    from django.conf import settings
    from django.test import Client

    client = Client(REMOTE_ADDR="127.0.0.1")  # the browser's address at the live server
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post("/accounts/login/", {"username": "locked", "password": "wrong"})
    page.goto("/accounts/login/")
    page.fill("main [name=username]", "locked")
    page.fill("main [name=password]", "wrong")
    with page.expect_response(lambda r: r.request.method == "POST") as answer:
        page.locator("main form [type=submit]").click()
    assert answer.value.status == 429


def _server_error(page: Any, site: Site) -> None:
    """The 500 page as the site's handler renders it, served at a path of the live site
    (so its stylesheet loads as it would)."""
    from django.test import RequestFactory

    from tock_site.error_views import server_error

    body = server_error(RequestFactory().get("/boom/")).content
    page.route(
        "**/boom/",
        lambda route: route.fulfill(status=500, body=body, content_type="text/html"),
    )
    page.goto("/boom/")
    page.unroute("**/boom/")


#: One page of every page template (``templates/``), in the order visited.
VISITS = [
    Visit("tournaments/home.html", "anonymous", lambda s: "/"),
    Visit("tournaments/league_list.html", "anonymous", lambda s: "/leagues/"),
    Visit("tournaments/league_detail.html", "anonymous", lambda s: f"/leagues/{s.league}/"),
    Visit("tournaments/tournament_detail.html", "anonymous",
          lambda s: f"/tournaments/{s.tournament}/"),
    Visit("tournaments/player_list.html", "anonymous", lambda s: "/players/"),
    Visit("tournaments/player_detail.html", "anonymous", lambda s: f"/players/{s.player}/"),
    Visit("games/game_detail.html + kinds/tock.html", "anonymous", lambda s: f"/games/{s.tock}/"),
    Visit("games/game_detail.html + kinds/tock.html (over)", "anonymous",
          lambda s: f"/games/{s.tock_over}/"),
    Visit("games/game_detail.html + kinds/uno.html", "anonymous", lambda s: f"/games/{s.uno}/"),
    Visit("games/game_detail.html + kinds/casino.html", "anonymous",
          lambda s: f"/games/{s.casino}/"),
    Visit("tournaments/rules.html", "anonymous", lambda s: "/rules/"),
    Visit("tournaments/rulings.html", "anonymous",
          lambda s: f"/tournaments/{s.tournament}/rulings/"),
    Visit("registration/login.html", "anonymous", lambda s: "/accounts/login/"),
    Visit("registration/set_password.html", "anonymous", lambda s: s.set_password),
    Visit("404.html", "anonymous", lambda s: "/no-such-page/", status=404),
    Visit("500.html", "anonymous", go=_server_error),
    Visit("registration/locked_out.html", "anonymous", go=_locked_out),
    Visit("tournaments/organize/dashboard.html", "organizer",
          lambda s: f"/tournaments/{s.tournament}/organize/"),
    Visit("tournaments/organize/create.html", "organizer",
          lambda s: f"/leagues/{s.league}/tournaments/new/"),
    Visit("tournaments/organize/staff.html", "organizer",
          lambda s: f"/tournaments/{s.tournament}/organize/staff/"),
    Visit("tournaments/organize/audit.html", "organizer",
          lambda s: f"/tournaments/{s.tournament}/organize/audit/"),
    Visit("tournaments/organize/confirm.html", "organizer", go=_confirm),
    Visit("games/score.html (tock)", "organizer", lambda s: f"/games/{s.tock}/score/"),
    Visit("games/score.html (uno)", "organizer", lambda s: f"/games/{s.uno}/score/"),
    Visit("games/score.html (casino)", "organizer", lambda s: f"/games/{s.casino}/score/"),
    Visit("tournaments/referee.html", "organizer",
          lambda s: f"/tournaments/{s.tournament}/referee/"),
    Visit("games/referee.html", "organizer", lambda s: f"/games/{s.tock}/referee/"),
    Visit("registration/unlock.html", "organizer", lambda s: "/accounts/unlock/"),
    Visit("403.html", "stranger", lambda s: f"/tournaments/{s.tournament}/organize/", status=403),
]  # fmt: skip


#: The elements that reach past the screen's right edge outside any box of their own
#: that scrolls (what makes the page scroll sideways), as "tag.class: text".
WIDER_THAN_SCREEN = """(screen) => Array.from(document.querySelectorAll('body *')).filter((el) => {
  for (let a = el.parentElement; a; a = a.parentElement) {
    if (getComputedStyle(a).overflowX !== 'visible') return false;
  }
  return el.getBoundingClientRect().right > screen + 1;
}).slice(-5).map((el) => `${el.tagName}.${el.className}: ${el.textContent.trim().slice(0, 40)}`)"""


def _tour(context: Any, site: Site, log_in: Any, subtests: Any, label: str, check: Any) -> None:
    """Visit one page of every template (:data:`VISITS`) in ``context``, signed in as
    each visit asks, and run ``check(page, visit)`` on it as a subtest."""
    page = context.pages[0] if context.pages else context.new_page()
    signed_in = "anonymous"
    for visit in VISITS:
        with subtests.test(msg=f"{visit.template} [{label}]"):
            if visit.who != signed_in:
                context.clear_cookies()
                if visit.who != "anonymous":
                    log_in(context, getattr(site, visit.who))
                signed_in = visit.who
            if visit.go is not None:
                visit.go(page, site)
            else:
                response = page.goto(visit.path(site))
                assert response.status == visit.status, page.url
            check(page, visit)


@pytest.mark.parametrize(
    ("scheme", "locale"), [("light", "es-ES"), ("dark", "de-DE")], ids=["light-es", "dark-de"]
)
def test_every_page_template_has_no_axe_violations_nor_scrolls_sideways(
    scheme: str, locale: str, make_context: Any, log_in: Any, subtests: Any
) -> None:
    """axe-core finds nothing on any page template, in either colour scheme; and at
    390 px, in the languages with the longest words, every page fits the screen's
    width: wide tables scroll inside their own box, labels wrap (German game and
    referee pages were 437 px wide: the facts' labels did not wrap). One tour checks
    both (the width first: axe opens every ``<details>``), Spanish in the light scheme,
    German in the dark: each template is checked by axe in both schemes and for width
    in both languages, with half the page loads and data set-ups of a tour per check."""
    script = axe_script()
    site = make_site()
    context = make_context("phone", color_scheme=scheme, locale=locale)
    page = context.new_page()
    assert page.evaluate(f"matchMedia('(prefers-color-scheme: {scheme})').matches")

    def fits_and_no_violations(page: Any, visit: Visit) -> None:
        screen = page.viewport_size["width"]  # 390
        wide = page.evaluate(WIDER_THAN_SCREEN, screen)
        assert not wide, (
            f"{visit.template} in {locale} at {page.url}: wider than {screen} px: {wide}"
        )
        violations = axe_violations(page, script)
        assert not violations, (
            f"{visit.template} in the {scheme} scheme ({locale}) at {page.url}:\n"
            f"{describe(violations)}"
        )

    _tour(context, site, log_in, subtests, f"{scheme}, {locale}", fits_and_no_violations)

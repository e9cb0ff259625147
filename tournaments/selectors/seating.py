"""How a round was seated (issue 25), as its viewer may see it: the stored method, seed,
repeats, spread, seat cost, lower bound and request (:class:`RoundSeating`, written by
:func:`tournaments.services.draw.seating_record`), hidden players' handles masked in the
request for whoever may not see them, and the same in words for the organizer."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.db.models.fields.json import KeyTransform
from django.db.models.functions import JSONObject
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.models import Player, Round, RoundSeating
from tournaments.seating import SeatingRequest
from tournaments.selectors.privacy import Masker, hidden_handle


def round_seating_record(*, rnd: Round | int) -> dict[str, Any]:
    """What ``rnd`` keeps of its seating (:class:`RoundSeating`: the record with its
    ``request``, as :func:`tournaments.services.draw.seating_record` made it), ``{}``
    when nothing was kept. 1 query."""
    found = RoundSeating.objects.filter(round=rnd).values_list("record", "request").first()
    if found is None:
        return {}
    record, request = found
    return {**record, "request": request} if request else dict(record)


#: What :func:`seating_sentence` reads of a kept seating (not its request, which names
#: every player and every pair that has met).
SENTENCE_KEYS = ("method", "repeats", "lower_bound", "spread")


def with_seating_summary(rounds: QuerySet[Round]) -> QuerySet[Round]:
    """``rounds``, each with ``seating_summary``: the :data:`SENTENCE_KEYS` of its kept
    seating (``None`` values when it kept none), read in the same query."""
    keys = {k: KeyTransform(k, "seating_record__record") for k in SENTENCE_KEYS}
    return rounds.annotate(seating_summary=JSONObject(**keys))


def round_seating(*, rnd: Round, user: Any) -> dict[str, Any]:
    """``{"method", "seed", "repeats", "spread", "seat_cost", "lower_bound", "request"}``
    (each ``None`` for a round seated before this was kept). 1 query, plus the viewer's
    rights when the request names a hidden player."""
    stored = round_seating_record(rnd=rnd)
    request = stored.get("request")
    if request:
        handles = {p["id"] for p in request.get("players", [])}
        hidden = dict(
            Player.objects.filter(handle__in=handles, hidden=True).values_list("handle", "pk")
        )
        masker = Masker(user=user, tournament=rnd.tournament)
        shown = {
            h: hidden_handle(player_id=pk)
            for h, pk in hidden.items()
            if masker.masks(player_id=pk, hidden=True)
        }
        if shown:
            request = SeatingRequest.relabel_json(request, shown)
    return {
        "method": stored.get("method"),
        "seed": stored.get("seed"),
        "repeats": stored.get("repeats"),
        "spread": stored.get("spread"),
        "seat_cost": stored.get("seat_cost"),
        "lower_bound": stored.get("lower_bound"),
        "request": request,
    }


def seating_sentence(seating: dict[str, Any] | None) -> str:
    """The stored seating in words for the organizer's round view ("No one meets anyone
    again; mean spread 1.2 points."); ``""`` when nothing was kept."""
    if not seating or seating.get("repeats") is None:
        return ""
    repeats, bound = seating["repeats"], seating.get("lower_bound")
    if seating.get("method") in ("slice", "random"):
        head = (
            _("Tables cut from the standings")
            if seating["method"] == "slice"
            else _("Tables drawn at random")
        )
        if repeats:
            head += "; " + ngettext(
                "%(count)d pair meets again", "%(count)d pairs meet again", repeats
            ) % {"count": repeats}
    elif repeats == 0:
        head = _("No one meets anyone again")
    elif bound is not None and bound >= repeats:
        head = ngettext(
            "%(count)d pair meets again, the fewest possible",
            "%(count)d pairs meet again, the fewest possible",
            repeats,
        ) % {"count": repeats}
    else:
        head = ngettext("%(count)d pair meets again", "%(count)d pairs meet again", repeats) % {
            "count": repeats
        }
    spread = number_format(seating.get("spread") or 0, decimal_pos=1)
    return _("%(head)s; mean spread %(spread)s points.") % {"head": head, "spread": spread}

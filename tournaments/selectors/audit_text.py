"""The audit log's details as sentences in the reader's language.

Services record each step's details as data (:func:`tournaments.services.core.audit_write`:
handles, numbers, lists); the organizer reads them here as one sentence a step, written
by one function per action (:data:`SENTENCES`), with players under their display names
(the organizer sees every name: hidden players included). An action without a function,
or details a function does not expect, fall back to a translated "name: value" list, so
that nothing recorded is ever hidden from the audit page.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from django.utils.text import get_text_list
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from tournaments.models import Player, Role, Stage, TournamentFormat

Names = Mapping[str, str]


def _name(handle: Any, names: Names) -> str:
    return names.get(handle, str(handle)) if isinstance(handle, str) else str(handle)


def _list(values: Iterable[Any], names: Names) -> str:
    return get_text_list([_name(v, names) for v in values], _("and"))


def _choice(choices: Any, value: Any) -> str:
    try:
        return str(choices(value).label)
    except ValueError:
        return str(value)


def _created(d: Mapping[str, Any], names: Names) -> str:
    sizes = ", ".join(str(s) for s in d["table_sizes"])
    return _("%(format)s, tables of %(sizes)s.") % {
        "format": _choice(TournamentFormat, d["format"]),
        "sizes": sizes,
    }


def _settings(d: Mapping[str, Any], names: Names) -> str:
    return _("Changed: %(fields)s.") % {"fields": ", ".join(str(f) for f in d["fields"])}


def _registered(d: Mapping[str, Any], names: Names) -> str:
    players, created = list(d["players"]), list(d.get("created") or [])
    text = ngettext(
        "%(count)d player registered: %(names)s.",
        "%(count)d players registered: %(names)s.",
        len(players),
    ) % {"count": len(players), "names": _list(players, names)}
    if created:
        text += " " + ngettext(
            "%(count)d of them is new.", "%(count)d of them are new.", len(created)
        ) % {"count": len(created)}
    return text


def _player(template: str) -> Callable[[Mapping[str, Any], Names], str]:
    def sentence(d: Mapping[str, Any], names: Names) -> str:
        return _(template) % {"name": _name(d["player"], names)}

    return sentence


def _started(d: Mapping[str, Any], names: Names) -> str:
    return ngettext(
        "Started with %(count)d player.", "Started with %(count)d players.", d["players"]
    ) % {"count": d["players"]}


def _tables(count: int) -> str:
    return ngettext("%(count)d table", "%(count)d tables", count) % {"count": count}


def _seated(d: Mapping[str, Any], names: Names) -> str:
    return _("Round %(n)d (%(stage)s) seated at %(tables)s.") % {
        "n": d["number"],
        "stage": _choice(Stage, d["stage"]),
        "tables": _tables(len(d["tables"])),
    }


def _reseated(d: Mapping[str, Any], names: Names) -> str:
    return _("Seated again at %(tables)s.") % {"tables": _tables(len(d["tables"]))}


def _round_finished(d: Mapping[str, Any], names: Names) -> str:
    return _("Round %(n)d finished.") % {"n": d["number"]}


def _time_up(d: Mapping[str, Any], names: Names) -> str:
    ended, voided = len(d.get("ended") or []), len(d.get("voided") or [])
    text = _(
        "%(ended)d unfinished games ended as they stood, %(voided)d closed without a result."
    ) % {"ended": ended, "voided": voided}
    held = len(d.get("held") or [])
    if held:
        text += " " + ngettext(
            "%(n)d game with a proposed result left to a referee.",
            "%(n)d games with a proposed result left to a referee.",
            held,
        ) % {"n": held}
    return text


def _no_show(d: Mapping[str, Any], names: Names) -> str:
    text = _("%(name)s did not come to table %(table)s.") % {
        "name": _name(d["player"], names),
        "table": d["table"],
    }
    if d.get("bye"):
        text += " " + _("%(name)s gets a bye.") % {"name": _name(d["bye"], names)}
    return text


def _finished(d: Mapping[str, Any], names: Names) -> str:
    return _("Ended by hand before its last round.") if d.get("early") else ""


def _progress_failed(d: Mapping[str, Any], names: Names) -> str:
    return str(d["reason"])


def _staff_added(d: Mapping[str, Any], names: Names) -> str:
    return _("%(member)s is now %(role)s.") % {
        "member": d["member"],
        "role": _choice(Role, d["role"]).lower(),
    }


def _staff_removed(d: Mapping[str, Any], names: Names) -> str:
    roles = ", ".join(_choice(Role, r).lower() for r in d.get("roles") or [])
    return _("%(member)s is no longer %(roles)s.") % {"member": d["member"], "roles": roles}


def _staff_account(d: Mapping[str, Any], names: Names) -> str:
    return _("Account %(member)s created as %(role)s.") % {
        "member": d["member"],
        "role": _choice(Role, d["role"]).lower(),
    }


def _staff_link(d: Mapping[str, Any], names: Names) -> str:
    return _("For %(member)s.") % {"member": d["member"]}


def _places(placements: Any, names: Names) -> str:
    ordered = sorted(placements.items(), key=lambda item: item[1])
    return ", ".join(f"{place}. {_name(handle, names)}" for handle, place in ordered)


def _report(d: Mapping[str, Any], names: Names) -> str:
    return _("Table %(table)s, %(name)s: %(places)s.") % {
        "table": d["table"],
        "name": _name(d["player"], names),
        "places": _places(d["placements"], names),
    }


def _report_accepted(d: Mapping[str, Any], names: Names) -> str:
    return _("Table %(table)s: %(places)s.") % {
        "table": d["table"],
        "places": _places(d["placements"], names),
    }


def _signed_up(d: Mapping[str, Any], names: Names) -> str:
    if d.get("waitlisted"):
        return _("%(name)s signed up and waits on the waitlist.") % {
            "name": _name(d["player"], names)
        }
    return _("%(name)s signed up.") % {"name": _name(d["player"], names)}


def _byes(d: Mapping[str, Any], names: Names) -> str:
    return _("Sitting out this round (a bye): %(names)s.") % {"names": _list(d["players"], names)}


def _called(d: Mapping[str, Any], names: Names) -> str:
    if d.get("reason"):
        return _("Table %(table)s: %(reason)s") % {"table": d["table"], "reason": d["reason"]}
    return _("Table %(table)s.") % {"table": d["table"]}


def _season(d: Mapping[str, Any], names: Names) -> str:
    if "fields" in d:
        return _("%(name)s: changed %(fields)s.") % {
            "name": d["name"],
            "fields": ", ".join(str(f) for f in d["fields"]),
        }
    return _("%(name)s, %(start)s to %(end)s.") % {
        "name": d["name"],
        "start": d["starts_on"],
        "end": d["ends_on"],
    }


#: One sentence per action (the actions of ``tournaments.selectors.audit``).
SENTENCES: dict[str, Callable[[Mapping[str, Any], Names], str]] = {
    "created": _created,
    "settings_changed": _settings,
    "registered": _registered,
    "checked_in": _player(gettext_noop("%(name)s checked in.")),
    "checked_out": _player(gettext_noop("%(name)s is no longer checked in.")),
    "dropped": _player(gettext_noop("%(name)s dropped out.")),
    "reinstated": _player(gettext_noop("%(name)s is back in the event.")),
    "started": _started,
    "round_seated": _seated,
    "round_reseated": _reseated,
    "round_finished": _round_finished,
    "time_up": _time_up,
    "no_show": _no_show,
    "finished": _finished,
    "progress_failed": _progress_failed,
    "staff_added": _staff_added,
    "staff_removed": _staff_removed,
    "staff_account_created": _staff_account,
    "staff_link_issued": _staff_link,
    "signed_up": _signed_up,
    "player_linked": _player(gettext_noop("%(name)s is linked to an account.")),
    "player_unlinked": _player(gettext_noop("%(name)s is no longer linked to an account.")),
    "league_staff_added": _staff_added,
    "league_staff_removed": lambda d, names: _staff_removed({**d, "roles": [d["role"]]}, names),
    "referee_called": _called,
    "referee_call_claimed": _called,
    "referee_call_closed": _called,
    "waitlist_promoted": _player(gettext_noop("%(name)s moved up from the waitlist.")),
    "byes": _byes,
    "report_made": _report,
    "report_replaced": _report,
    "report_confirmed": _report,
    "report_disputed": _report,
    "report_accepted": _report_accepted,
    "report_accepted_by_staff": _report_accepted,
    "season_created": _season,
    "season_changed": _season,
    "season_deleted": _season,
}


def _value(value: Any, names: Names) -> str:
    if isinstance(value, list):
        return "; ".join(_value(v, names) for v in value)
    if value is None:
        return "–"
    return _name(value, names)


def _generic(details: Mapping[str, Any], names: Names) -> str:
    return " · ".join(
        _("%(name)s: %(value)s") % {"name": key.replace("_", " "), "value": _value(v, names)}
        for key, v in details.items()
    )


def audit_sentence(*, action: str, details: Mapping[str, Any] | None, names: Names) -> str:
    """The step's details as a sentence in the active language ("" when there is
    nothing to add to the action's label); unknown actions and details that a sentence
    does not expect as "name: value" pairs."""
    details = details or {}
    sentence = SENTENCES.get(action)
    if sentence is not None:
        try:
            return sentence(details, names)
        except (KeyError, TypeError, ValueError):
            pass  # details of another shape (an older row): the plain form below
    return _generic(details, names)


def _handles(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for v in value:
            yield from _handles(v)
    elif isinstance(value, dict):  # placements: handle -> place
        yield from (k for k in value if isinstance(k, str))


def audit_names(rows: Iterable[Mapping[str, Any] | None]) -> dict[str, str]:
    """Display names of the players the ``rows``' details name (by handle). 1 query."""
    wanted = {h for details in rows for v in (details or {}).values() for h in _handles(v)}
    if not wanted:
        return {}
    return dict(Player.objects.filter(handle__in=wanted).values_list("handle", "display_name"))


__all__ = ["SENTENCES", "audit_names", "audit_sentence"]

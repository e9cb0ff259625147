"""Forms of the organizer pages: they validate the shape of the input; the services
decide the rules (and their :class:`~games.errors.DomainError` becomes a form error).

Field names are the services' keyword names, so ``form.cleaned_data`` is passed on as
it is (``settings_kwargs``), and they are stable for browser tests.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils import timezone
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from tournaments.models import (
    TIEBREAK_CHOICES,
    LateEntryPoints,
    RepeatAvoidance,
    ReportAgreement,
    Seeding,
    Tournament,
    TournamentFormat,
    UnevenPlayers,
    default_tiebreaks,
)
from tournaments.services.registration import MAX_ENTRIES, MAX_HANDLE, MAX_NAME, handle_problem

#: Largest CSV upload accepted (bytes): 1,000 players of 140 characters fit easily.
MAX_CSV_BYTES = 256 * 1024


class TableSizesField(forms.CharField):
    """``"4, 3, 5"`` -> ``[4, 3, 5]`` (the preferred size first). The sizes a game
    allows are the services' to check."""

    default_error_messages = {
        "invalid": _("Give table sizes as whole numbers separated by commas, preferred first.")
    }

    def to_python(self, value: Any) -> list[int] | None:
        text = super().to_python(value)
        if not text:
            return None
        parts = [p.strip() for p in text.replace(";", ",").replace(" ", ",").split(",")]
        try:
            sizes = [int(p) for p in parts if p]
        except ValueError as exc:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid") from exc
        if not sizes or len(sizes) > 10:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return sizes

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, list | tuple):
            return ", ".join(str(v) for v in value)
        return value


class TiebreaksWidget(forms.MultiWidget):
    """One select per position of the tiebreak order, each offering every tiebreak or
    none, each named by its position (a multi-widget's label points at none of them)."""

    def __init__(self, choices: list[tuple[str, Any]]) -> None:
        widgets = [
            forms.Select(
                choices=choices, attrs={"aria-label": format_lazy(_("Tiebreak {}"), i + 1)}
            )
            for i in range(len(choices) - 1)
        ]
        super().__init__(widgets)

    def decompress(self, value: Any) -> list[str]:
        order = list(value or [])
        return order + [""] * (len(self.widgets) - len(order))


class TiebreaksField(forms.MultiValueField):
    """The tiebreak order, first to last, from one select per position; empty positions
    are skipped, a tiebreak chosen twice is refused. The services check the keys."""

    def __init__(self, **kwargs: Any) -> None:
        choices = [("", _("—")), *TIEBREAK_CHOICES.items()]
        fields = [forms.ChoiceField(choices=choices, required=False) for _c in choices[1:]]
        super().__init__(
            fields=fields,
            widget=TiebreaksWidget(choices),
            require_all_fields=False,
            required=False,
            **kwargs,
        )

    def compress(self, data_list: list[str]) -> list[str]:
        order = [key for key in data_list if key]
        if len(set(order)) != len(order):
            raise forms.ValidationError(_("Choose each tiebreak once."), code="repeated")
        return order


#: The formats that use a setting (a field absent here is used by every format): the
#: form shows the field only for them (``data-formats``, static/js/format-fields.js) and
#: ignores what is posted for it under another format.
FORMATS_USING = {
    "cut": (TournamentFormat.SWISS_CUT.value,),
    "advance": (TournamentFormat.ELIMINATION.value, TournamentFormat.SWISS_CUT.value),
}


class TournamentSettingsForm(forms.Form):
    """A new event, or an event's settings before it starts (same fields).

    ``cut`` and ``advance`` count only for the formats that use them
    (:data:`FORMATS_USING`): for another format they are neither required nor checked,
    and what was posted for them is dropped (a new event gets the services' defaults,
    an edit keeps the event's values)."""

    name = forms.CharField(label=_("Name"), max_length=120)
    starts_on = forms.DateField(
        label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    venue = forms.CharField(label=_("Venue"), max_length=200, required=False)
    format = forms.ChoiceField(label=_("Format"), choices=TournamentFormat.choices)
    table_sizes = TableSizesField(
        label=_("Table sizes"),
        max_length=40,
        required=False,
        help_text=_(
            "Preferred size first, then the sizes allowed when the count does not divide, "
            "e.g. 4, 3, 5. Empty: 4, then every size the game allows."
        ),
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )
    rounds = forms.IntegerField(
        label=_("Swiss rounds"),
        min_value=1,
        max_value=50,
        initial=5,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    cut = forms.IntegerField(
        label=_("Cut"),
        min_value=2,
        max_value=10000,
        initial=8,
        required=False,
        help_text=_("Swiss with a cut: the top N play the elimination stage."),
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    advance = forms.IntegerField(
        label=_("Players advancing per table"),
        min_value=1,
        max_value=10,
        initial=2,
        required=False,
        help_text=_("Elimination: the top K of every table advance."),
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    round_minutes = forms.IntegerField(
        label=_("Minutes per round"),
        min_value=1,
        max_value=1440,
        required=False,
        help_text=_("Empty: no time limit."),
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    auto_progress = forms.BooleanField(
        label=_("Automatic progression"),
        required=False,
        initial=True,
        help_text=_(
            "Seat the next round as soon as a round is complete; off: you check the "
            "results and seat each round yourself."
        ),
    )
    seeding = forms.ChoiceField(
        label=_("Seeding of round 1"), choices=Seeding.choices, initial=Seeding.RATING
    )
    repeat_avoidance = forms.ChoiceField(
        label=_("Repeat meetings"),
        choices=RepeatAvoidance.choices,
        required=False,
        initial=RepeatAvoidance.STRICT,
        help_text=_("How Swiss rounds keep players who have met apart."),
    )
    top_table_final = forms.BooleanField(
        label=_("Leaders together in the last round"),
        required=False,
        help_text=_(
            "The top of the standings plays the last round at one table, even at a repeat."
        ),
    )
    tiebreaks = TiebreaksField(
        label=_("Tiebreaks, in order"),
        initial=default_tiebreaks,
        help_text=_("Players equal on points are ranked by these, first to last."),
    )
    is_public = forms.BooleanField(label=_("Public"), required=False, initial=True)
    uneven_players = forms.ChoiceField(
        label=_("When the players do not fill the tables"),
        choices=UnevenPlayers.choices,
        required=False,
        initial=UnevenPlayers.REFUSE,
    )
    bye_points = forms.FloatField(
        label=_("Points of a bye"),
        min_value=0,
        max_value=1000,
        required=False,
        help_text=_("Empty: the points of a win at a table."),
    )
    late_entry_until = forms.IntegerField(
        label=_("Late entry until round"),
        min_value=1,
        max_value=100,
        required=False,
        help_text=_("Players may still join until this round is seated. Empty: any round."),
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    late_entry_points = forms.ChoiceField(
        label=_("A late player's missed rounds score"),
        choices=LateEntryPoints.choices,
        required=False,
        initial=LateEntryPoints.LAST,
    )
    max_players = forms.IntegerField(
        label=_("Maximum number of players"),
        min_value=2,
        max_value=100_000,
        required=False,
        help_text=_("Empty: no limit. Registrations past it join a waitlist, in order."),
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    report_agreement = forms.ChoiceField(
        label=_("Results reported by the players need"),
        choices=ReportAgreement.choices,
        initial=ReportAgreement.ALL,
        required=False,  # not sent: the default (or the tournament's setting, unchanged)
        help_text=_(
            "Players report their table's placements from their phones; the result is "
            "stored once these players have agreed."
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["starts_on"].initial = timezone.localdate
        for name, formats in FORMATS_USING.items():
            self.fields[name].formats = formats  # read by _form_fields.html

    @property
    def current_format(self) -> str:
        """The format the form shows (posted, else the initial one): which of the
        format-dependent fields are shown."""
        value = self["format"].value()
        return str(value) if value else TournamentFormat.SWISS.value

    def clean(self) -> dict[str, Any]:
        """Drop the settings the chosen format does not use (and their errors); the
        ones it uses are required."""
        data = super().clean()
        chosen = data.get("format")
        for name, formats in FORMATS_USING.items():
            if chosen in formats:
                if data.get(name) is None and name not in self.errors:
                    self.add_error(name, self.fields[name].error_messages["required"])
            else:
                self.errors.pop(name, None)
                data.pop(name, None)
        return data

    @classmethod
    def for_tournament(cls, tournament: Tournament, data: Any = None) -> TournamentSettingsForm:
        """The form filled with ``tournament``'s settings (bound to ``data`` if given)."""
        initial = _settings_of(tournament)
        return cls(data, initial=initial)

    def settings_kwargs(self) -> dict[str, Any]:
        """The cleaned settings as the services' keyword arguments (empty table sizes:
        the services' default)."""
        data = dict(self.cleaned_data)
        if not data.get("table_sizes"):
            data.pop("table_sizes", None)
        for optional in (
            "report_agreement",
            "uneven_players",
            "late_entry_points",
            "repeat_avoidance",
        ):
            if not data.get(optional):
                data.pop(optional, None)
        if self.add_prefix("tiebreaks") + "_0" not in self.data:
            data.pop("tiebreaks", None)  # not sent: the default, or the current order
        return data

    def changed_kwargs(self, tournament: Tournament) -> dict[str, Any]:
        """Only the settings that differ from ``tournament``'s (what an edit changes)."""
        data = self.settings_kwargs()
        current = _settings_of(tournament)
        return {k: v for k, v in data.items() if current.get(k) != v}


def _settings_of(tournament: Tournament) -> dict[str, Any]:
    """``tournament``'s settings under the form's field names: what the form shows, and
    what an edit compares against."""
    return {
        "name": tournament.name,
        "starts_on": tournament.starts_on,
        "venue": tournament.venue,
        "format": tournament.format,
        "table_sizes": list(tournament.table_sizes or []),
        "rounds": tournament.swiss_rounds,
        "cut": tournament.cut,
        "advance": tournament.advance,
        "round_minutes": tournament.round_minutes,
        "auto_progress": tournament.auto_progress,
        "seeding": tournament.seeding,
        "repeat_avoidance": tournament.repeat_avoidance,
        "top_table_final": tournament.top_table_final,
        "tiebreaks": list(tournament.tiebreaks or []),
        "is_public": tournament.is_public,
        "report_agreement": tournament.report_agreement,
        "max_players": tournament.max_players,
        "uneven_players": tournament.uneven_players,
        "bye_points": tournament.bye_points,
        "late_entry_until": tournament.late_entry_until,
        "late_entry_points": tournament.late_entry_points,
    }


class PlayerAddForm(forms.Form):
    """One player by handle; a new handle becomes a player with the display name."""

    handle = forms.CharField(
        label=_("Handle"),
        max_length=MAX_HANDLE,
        help_text=_("Lowercase letters, digits, - or _. A new handle becomes a new player."),
        widget=forms.TextInput(
            attrs={"autocapitalize": "none", "autocomplete": "off", "spellcheck": "false"}
        ),
    )
    display_name = forms.CharField(label=_("Display name"), max_length=MAX_NAME, required=False)

    def clean_handle(self) -> str:
        handle = self.cleaned_data["handle"].strip()
        problem = handle_problem(handle)
        if problem:
            raise forms.ValidationError(problem)
        return handle


class PlayerCsvForm(forms.Form):
    """A list of players pasted or uploaded: ``handle,name`` per line, header optional."""

    csv_text = forms.CharField(
        label=_("Players (one per line: handle,name)"),
        required=False,
        strip=False,  # leading blank lines keep the line numbers of the messages
        widget=forms.Textarea(
            attrs={
                "rows": 6,
                "autocapitalize": "none",
                "spellcheck": "false",
                "placeholder": "handle,name\nana,Ana García\nben,Ben",
            }
        ),
    )
    csv_file = forms.FileField(label=_("…or upload a CSV file"), required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        upload = data.get("csv_file")
        if upload is not None:
            if upload.size > MAX_CSV_BYTES:
                raise forms.ValidationError(_("The file is too large."))
            raw = upload.read()
            try:
                data["text"] = raw.decode("utf-8-sig")
            except UnicodeDecodeError as exc:
                raise forms.ValidationError(_("The file is not UTF-8 text.")) from exc
        else:
            data["text"] = data.get("csv_text") or ""
        if not data["text"].strip():
            raise forms.ValidationError(_("Paste a list of players or choose a file."))
        if data["text"].count("\n") > MAX_ENTRIES + 10:
            raise forms.ValidationError(_("At most %(n)d players at once.") % {"n": MAX_ENTRIES})
        return data


def csv_choices(data: Any) -> dict[int, str | None]:
    """The organizer's choice per conflicting line, from the fields of the import's
    confirmation step: ``choice-<line>`` is ``existing`` (``None``: use the existing
    player) or ``new`` (the handle typed in ``handle-<line>``, ``""`` when missing).
    Any other value, or a line that is not a number, is no choice (the service then
    asks for one)."""
    choices: dict[int, str | None] = {}
    for key in data:
        number = key.removeprefix("choice-")
        if number == key or not (number.isascii() and number.isdigit()) or len(number) > 6:
            continue
        value = data.get(key)
        if value == "existing":
            choices[int(number)] = None
        elif value == "new":
            handle = data.get(f"handle-{number}")
            choices[int(number)] = handle.strip()[:200] if isinstance(handle, str) else ""
    return choices

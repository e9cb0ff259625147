"""Admin for tournaments (ratings are in :mod:`ratings.admin`).

Admin edits bypass the services, so every editable admin here says what it changed
(:class:`SaysWhatChanged`): the same typed change a service records, so the cached
pages and the live pages follow an admin's edit as they follow the services'.
"""

from collections.abc import Iterable
from typing import Any

from django.contrib import admin
from django.db import transaction

from outbox.changes import (
    Change,
    LeagueChanged,
    PlayerChanged,
    TournamentChanged,
    change_recorded,
)
from tournaments.models import (
    League,
    LeagueAudit,
    LeagueRole,
    NoShow,
    Player,
    PlayerLinkCode,
    RefereeCall,
    Registration,
    ResultProposal,
    Round,
    RoundSeating,
    Ruling,
    Season,
    Seat,
    Table,
    Tournament,
    TournamentAudit,
    TournamentRole,
)


class SaysWhatChanged(admin.ModelAdmin):
    """A model admin whose saves and deletions record :meth:`changes_of` each object
    (in the admin's transaction: what follows waits for its commit)."""

    def changes_of(self, obj: Any) -> Iterable[Change]:
        tournament_id = getattr(obj, "tournament_id", None)
        if tournament_id is None and hasattr(obj, "round"):
            tournament_id = obj.round.tournament_id
        if tournament_id is None and hasattr(obj, "table"):
            tournament_id = obj.table.round.tournament_id
        return [TournamentChanged(tournament_id=tournament_id, action="admin_edit")]

    def _record(self, objs: Iterable[Any]) -> None:
        for obj in objs:
            for change in self.changes_of(obj):
                change_recorded(change)

    def save_model(self, request, obj, form, change) -> None:  # noqa: ANN001
        with transaction.atomic():
            super().save_model(request, obj, form, change)
            self._record([obj])

    def save_related(self, request, form, formsets, change) -> None:  # noqa: ANN001
        with transaction.atomic():
            super().save_related(request, form, formsets, change)
            self._record([form.instance])

    def delete_model(self, request, obj) -> None:  # noqa: ANN001
        with transaction.atomic():
            self._record([obj])
            super().delete_model(request, obj)

    def delete_queryset(self, request, queryset) -> None:  # noqa: ANN001
        with transaction.atomic():
            self._record(list(queryset))
            super().delete_queryset(request, queryset)


@admin.register(Player)
class PlayerAdmin(SaysWhatChanged):
    list_display = ("handle", "display_name", "user")
    search_fields = ("handle", "display_name")
    raw_id_fields = ("user",)

    def changes_of(self, obj: Player) -> Iterable[Change]:
        return [PlayerChanged(player_id=obj.pk)]


@admin.register(League)
class LeagueAdmin(SaysWhatChanged):
    list_display = ("name", "slug", "kind", "k_factor", "rate_unverified", "is_public")
    list_filter = ("kind",)
    search_fields = ("name", "slug")
    filter_horizontal = ("organizers",)

    def changes_of(self, obj: League) -> Iterable[Change]:
        return [LeagueChanged(league_id=obj.pk)]


class TournamentRoleInline(admin.TabularInline):
    model = TournamentRole
    extra = 0
    raw_id_fields = ("user",)


class RegistrationInline(admin.TabularInline):
    model = Registration
    extra = 0
    raw_id_fields = ("player",)


@admin.register(Tournament)
class TournamentAdmin(SaysWhatChanged):
    list_display = (
        "name",
        "league",
        "starts_on",
        "status",
        "format",
        "swiss_rounds",
        "auto_progress",
    )
    list_filter = ("status", "format", "league")
    search_fields = ("name", "slug")
    inlines = [TournamentRoleInline, RegistrationInline]

    def changes_of(self, obj: Tournament) -> Iterable[Change]:
        return [TournamentChanged(tournament_id=obj.pk, action="admin_edit")]


@admin.register(TournamentRole)
class TournamentRoleAdmin(SaysWhatChanged):
    list_display = ("tournament", "user", "role")
    list_filter = ("role",)
    raw_id_fields = ("user", "tournament")


@admin.register(Registration)
class RegistrationAdmin(SaysWhatChanged):
    list_display = ("tournament", "player", "checked_in", "dropped")
    list_filter = ("checked_in", "dropped")
    raw_id_fields = ("player", "tournament")


@admin.register(Round)
class RoundAdmin(SaysWhatChanged):
    list_display = ("tournament", "number", "status")
    list_filter = ("status",)


@admin.register(RoundSeating)
class RoundSeatingAdmin(SaysWhatChanged):
    """Read it here; it is written by the draw only (``python -m tournaments.seating``
    on its request gives the round's tables)."""

    list_display = ("round",)
    raw_id_fields = ("round",)
    list_select_related = ("round__tournament",)


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    raw_id_fields = ("player",)


@admin.register(Table)
class TableAdmin(SaysWhatChanged):
    list_display = ("round", "number", "game")
    raw_id_fields = ("game", "round")
    inlines = [SeatInline]


@admin.register(Seat)
class SeatAdmin(SaysWhatChanged):
    list_display = ("table", "position", "player")
    raw_id_fields = ("table", "player")


@admin.register(NoShow)
class NoShowAdmin(SaysWhatChanged):
    list_display = ("round", "table", "player", "created_at")
    raw_id_fields = ("round", "table", "player")


@admin.register(TournamentAudit)
class TournamentAuditAdmin(admin.ModelAdmin):
    """The audit log is written by the services only: read-only here."""

    list_display = ("at", "tournament", "round", "actor", "action")
    list_filter = ("action",)
    raw_id_fields = ("tournament", "round", "actor")

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Ruling)
class RulingAdmin(admin.ModelAdmin):
    """Rulings are written with their ``tock`` event by the rulings service only: the
    record must match the game's log, so it is read-only here."""

    list_display = ("at", "tournament", "game", "sequence", "referee", "engine_verdict", "applied")
    list_filter = ("applied", "engine_verdict")
    raw_id_fields = ("game", "tournament", "referee")

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(ResultProposal)
class ResultProposalAdmin(admin.ModelAdmin):
    """Proposed results are written and decided by the proposals service only (the
    decision records the result through the choke point): read-only here."""

    list_display = (
        "created_at",
        "tournament",
        "game",
        "origin",
        "status",
        "proposed_by",
        "decided_by",
    )
    list_filter = ("status", "origin")
    raw_id_fields = ("game", "tournament", "proposed_by", "decided_by")

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    """Seasons are written by the seasons service (its overlap rule): read-only here."""

    list_display = ("league", "name", "starts_on", "ends_on", "best_of")
    list_filter = ("league",)

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(RefereeCall)
class RefereeCallAdmin(admin.ModelAdmin):
    """Calls are written by the calls service: read-only here."""

    list_display = ("created_at", "tournament", "game", "claimed_by", "closed_at")
    raw_id_fields = ("game", "tournament", "called_by", "claimed_by", "closed_by", "ruling")

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(PlayerLinkCode)
class PlayerLinkCodeAdmin(admin.ModelAdmin):
    """Link codes are issued and used by the links service: read-only here."""

    list_display = ("created_at", "tournament", "player", "expires_at", "used_at")
    raw_id_fields = ("player", "tournament", "created_by", "used_by")

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(LeagueAudit)
class LeagueAuditAdmin(TournamentAuditAdmin):
    """The league's audit log, written by the services only: read-only here."""

    list_display = ("at", "league", "actor", "action")
    raw_id_fields = ("league", "actor")


@admin.register(LeagueRole)
class LeagueRoleAdmin(admin.ModelAdmin):
    """League staff are changed by the league staff service (audited): read-only here."""

    list_display = ("league", "user", "role", "created_at")

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

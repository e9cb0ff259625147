"""Admin for tournaments (ratings are in :mod:`ratings.admin`)."""

from django.contrib import admin

from tournaments.models import (
    League,
    NoShow,
    Player,
    Registration,
    Round,
    Ruling,
    Seat,
    Table,
    Tournament,
    TournamentAudit,
    TournamentRole,
)


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("handle", "display_name", "user")
    search_fields = ("handle", "display_name")
    raw_id_fields = ("user",)


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "kind", "k_factor", "rate_unverified", "is_public")
    list_filter = ("kind",)
    search_fields = ("name", "slug")
    filter_horizontal = ("organizers",)


class TournamentRoleInline(admin.TabularInline):
    model = TournamentRole
    extra = 0
    raw_id_fields = ("user",)


class RegistrationInline(admin.TabularInline):
    model = Registration
    extra = 0
    raw_id_fields = ("player",)


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
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


@admin.register(TournamentRole)
class TournamentRoleAdmin(admin.ModelAdmin):
    list_display = ("tournament", "user", "role")
    list_filter = ("role",)
    raw_id_fields = ("user", "tournament")


@admin.register(Registration)
class RegistrationAdmin(admin.ModelAdmin):
    list_display = ("tournament", "player", "checked_in", "dropped")
    list_filter = ("checked_in", "dropped")
    raw_id_fields = ("player", "tournament")


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("tournament", "number", "status")
    list_filter = ("status",)


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    raw_id_fields = ("player",)


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("round", "number", "game")
    raw_id_fields = ("game", "round")
    inlines = [SeatInline]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ("table", "position", "player")
    raw_id_fields = ("table", "player")


@admin.register(NoShow)
class NoShowAdmin(admin.ModelAdmin):
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

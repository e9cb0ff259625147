"""Admin for games. Event logs are read-only: events are never edited or deleted."""

from django.contrib import admin

from games.models import Game, GameEvent


class GameEventInline(admin.TabularInline):
    model = GameEvent
    fields = ("sequence", "data", "recorded_by", "recorded_at")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


class ReadOnlyAdmin(admin.ModelAdmin):
    """Admin for records that only services write (event logs, rating history)."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "kind", "status", "result_source", "last_sequence", "finished_at")
    list_filter = ("kind", "status", "result_source")
    search_fields = ("id",)
    readonly_fields = (
        "kind",
        "status",
        "players",
        "start_event",
        "last_sequence",
        "state_sequence",
        "summary",
        "placements",
        "result_source",
        "result_version",
        "finished_at",
        "created_at",
        "updated_at",
        "created_by",
    )
    exclude = ("state",)
    inlines = [GameEventInline]

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(GameEvent)
class GameEventAdmin(ReadOnlyAdmin):
    list_display = ("game", "sequence", "recorded_by", "recorded_at")
    list_select_related = ("recorded_by",)
    readonly_fields = ("game", "sequence", "data", "recorded_by", "recorded_at")

from django.contrib import admin

from outbox.models import OutboxMessage


@admin.register(OutboxMessage)
class OutboxMessageAdmin(admin.ModelAdmin):
    """Read-only: messages are written by services and delivered by the worker."""

    list_display = ("id", "topic", "created_at", "published_at", "attempts", "done_at")
    list_filter = ("topic",)
    readonly_fields = [f.name for f in OutboxMessage._meta.fields]

    def has_add_permission(self, request):  # noqa: ANN001, ANN201
        return False

    def has_change_permission(self, request, obj=None):  # noqa: ANN001, ANN201
        return False

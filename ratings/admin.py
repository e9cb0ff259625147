"""Admin for ratings: read-only (derived data; ``manage.py recompute_ratings`` rebuilds it)."""

from django.contrib import admin

from games.admin import ReadOnlyAdmin
from ratings.models import Rating, RatingChange, RatingPool


@admin.register(Rating)
class RatingAdmin(ReadOnlyAdmin):
    list_display = ("player", "kind", "value", "games")
    list_filter = ("kind",)
    search_fields = ("player__handle",)


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    list_display = ("player", "kind", "game", "before", "after", "game_finished_at")
    list_filter = ("kind",)
    search_fields = ("player__handle",)


@admin.register(RatingPool)
class RatingPoolAdmin(ReadOnlyAdmin):
    list_display = ("kind", "recomputed_at")

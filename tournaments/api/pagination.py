"""Limit/offset pagination whose numbers always fit the database (no 500 on ``?limit=1e20``)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework.pagination import LimitOffsetPagination

#: Largest page a client may ask for; larger limits are clamped to it.
MAX_LIMIT = 500
#: Largest offset passed to the database (far beyond any real list): past it, pages are empty.
MAX_OFFSET = 10**9


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    """DRF's limit/offset pagination (bad numbers fall back to the defaults), with the
    limit clamped to :data:`MAX_LIMIT` and the offset to :data:`MAX_OFFSET`, so a huge
    number never overflows the database's integer (PostgreSQL: bigint out of range)."""

    max_limit = MAX_LIMIT

    def get_offset(self, request: Any) -> int:
        return min(super().get_offset(request), MAX_OFFSET)


PAGE_PARAMETERS = [
    OpenApiParameter(
        "limit",
        OpenApiTypes.INT,
        description=f"Number of results per page (at most {MAX_LIMIT}).",
    ),
    OpenApiParameter(
        "offset", OpenApiTypes.INT, description="The index of the first result to return."
    ),
]

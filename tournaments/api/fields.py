"""Serializer fields the API's schema promises more strictly than DRF's defaults."""

from __future__ import annotations

from typing import Any

from django.http import QueryDict
from rest_framework import serializers


class StrictIntegerField(serializers.IntegerField):
    """An integer as the schema says: in a JSON body a JSON integer only (``"5"``,
    ``5.0`` and ``true`` are 400 ``invalid``, not read as 5 or 1); in a form post, where
    every value is text, the digits as DRF reads them."""

    def to_internal_value(self, data: Any) -> int:
        from_form = isinstance(getattr(self.root, "initial_data", None), QueryDict)
        if not from_form and (isinstance(data, bool) or not isinstance(data, int)):
            self.fail("invalid")
        return super().to_internal_value(data)

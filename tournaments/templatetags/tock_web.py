"""Small presentation filters for the tournament pages."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe

register = template.Library()


@register.filter
def get_item(mapping: Any, key: Any) -> Any:
    """``{{ placements|get_item:handle }}``; also tries ``str(key)`` (JSON object keys)."""
    if not mapping:
        return None
    try:
        return mapping[key]
    except (KeyError, TypeError, IndexError):
        try:
            return mapping.get(str(key))
        except AttributeError:
            return None


@register.filter
def points(value: Any) -> str:
    """Tournament points without a useless ``.0`` (8, 1.5, 0.33)."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return ""
    return f"{number:.2f}".rstrip("0").rstrip(".")


@register.filter
def signed(value: Any) -> str:
    """A rating change as a whole number with its sign: ``+12``, ``−8`` (a real minus
    sign), ``±0``."""
    try:
        number = round(float(value))
    except (TypeError, ValueError):
        return ""
    if number > 0:
        return f"+{number}"
    if number < 0:
        return f"\u2212{-number}"
    return "\u00b10"


@register.filter(is_safe=True)
def fill(label: Any, value: Any) -> str:
    """``{{ table_label|fill:table.number }}``: ``label`` (a text translated once, outside
    a loop, with ``%s`` where the value goes; from ``{% blocktranslate asvar ... %}``)
    with ``value`` (escaped) in place of its first ``%s``. Saves a translation tag per
    row in long lists."""
    return mark_safe(str(label).replace("%s", str(conditional_escape(value)), 1))  # noqa: S308


@register.simple_tag
def posted_value(posted: Any, prefix: str, index: Any, suffix: str = "") -> str:
    """A posted form field shown again (``{% posted_value posted 'pile' 2 'top' %}`` is
    the field ``pile-2-top``; no suffix: ``prefix-index``); empty when not posted."""
    name = f"{prefix}-{index}-{suffix}" if suffix else f"{prefix}-{index}"
    getter = getattr(posted, "get", None)
    return str(getter(name, "")) if getter else ""

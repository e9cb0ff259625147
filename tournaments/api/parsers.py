"""Parsers and renderers for JSON Lines logs (``text/plain``, ``application/x-ndjson``)."""

from __future__ import annotations

import codecs
import json
import math
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import BaseParser, JSONParser
from rest_framework.renderers import BaseRenderer

from games.services import MAX_LOG_BYTES


def _finite_float(text: str) -> float:
    """A JSON number as a float; one too large for a float (``1e999``) is an error, not
    infinity (which would be stored as ``null`` or fail to serialize)."""
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"Number out of range: {text[:40]}")
    return value


def _no_constant(name: str) -> None:
    raise ValueError(f"Out of range float values are not JSON compliant: {name!r}")


class SafeJSONParser(JSONParser):
    """DRF's strict JSON parser, plus: absurdly deep nesting and numbers beyond a float's
    range are 400s too (not a RecursionError, not a silent infinity)."""

    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            decoded = codecs.getreader(encoding)(stream)
            return json.load(decoded, parse_constant=_no_constant, parse_float=_finite_float)
        except RecursionError as exc:
            raise ParseError(_("JSON parse error - nested too deeply.")) from exc
        except ValueError as exc:  # also UnicodeDecodeError
            raise ParseError(_("JSON parse error - %(error)s") % {"error": exc}) from exc


class JSONLinesParser(BaseParser):
    """The raw body of a JSON Lines upload, as text (validated by the service)."""

    media_type = "application/x-ndjson"

    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> str:
        if stream is None:
            return ""
        raw = stream.read(MAX_LOG_BYTES + 1)
        if len(raw) > MAX_LOG_BYTES:
            raise ParseError(_("The log is too large."))
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ParseError(_("The log is not UTF-8 text.")) from exc


class PlainTextLogParser(JSONLinesParser):
    media_type = "text/plain"


class JSONLLogParser(JSONLinesParser):
    media_type = "application/jsonl"


class JSONLinesRenderer(BaseRenderer):
    """Renders a log (already JSON Lines text) as is; anything else (errors) as JSON."""

    media_type = "application/x-ndjson"
    format = "jsonl"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: Any = None, renderer_context: Any = None):
        if isinstance(data, str):
            return data.encode("utf-8")
        return json.dumps(data, default=str).encode("utf-8")

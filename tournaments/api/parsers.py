"""Parsers and renderers for JSON Lines logs (``text/plain``, ``application/x-ndjson``)."""

from __future__ import annotations

import json
from typing import Any

from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import BaseParser, JSONParser
from rest_framework.renderers import BaseRenderer

from games.services import MAX_LOG_BYTES


class SafeJSONParser(JSONParser):
    """DRF's JSON parser, but absurdly deep nesting is a 400 too (not a RecursionError)."""

    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError as exc:
            raise ParseError(_("JSON parse error - nested too deeply.")) from exc


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

"""QR codes for the printed pages (issue 23, "Paper"): made on the server as inline SVG
with segno (no network, no image files)."""

from __future__ import annotations

import io

import segno


def qr_svg(data: str, *, scale: int = 4) -> str:
    """``data`` (an address) as an inline ``<svg>`` element (no XML declaration), dark
    modules on a transparent background, a quiet zone of 2 modules."""
    out = io.BytesIO()
    segno.make(data, error="m").save(
        out, kind="svg", scale=scale, border=2, xmldecl=False, svgns=True, nl=False
    )
    return out.getvalue().decode("utf-8")

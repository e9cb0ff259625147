"""A tiny, safe Markdown subset to HTML (for the rules page; no new dependency).

Supported: ATX headings, paragraphs, ``-``/``*``/``1.`` lists (one level), fenced code
blocks, ``>`` quotes, horizontal rules, pipe tables, and inline ``code``, **bold**,
*italic* and [links](https://...). Everything is HTML-escaped first.
"""

from __future__ import annotations

import re

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

_INLINE = [
    (re.compile(r"`([^`]+)`"), r"<code>\1</code>"),
    (re.compile(r"\*\*([^*]+)\*\*"), r"<strong>\1</strong>"),
    (re.compile(r"(?<![*\w])\*([^*\s][^*]*)\*(?!\w)"), r"<em>\1</em>"),
    (re.compile(r"(?<![\w_])_([^_\s][^_]*)_(?![\w_])"), r"<em>\1</em>"),
    (
        re.compile(r"\[([^\]]+)\]\(((?:https?://|/|#)[^)\s]*)\)"),
        r'<a href="\2">\1</a>',
    ),
]


def _inline(text: str) -> str:
    out = escape(text)
    parts = re.split(r"(<code>.*?</code>)", re.sub(_INLINE[0][0], _INLINE[0][1], out))
    rendered = []
    for part in parts:
        if part.startswith("<code>"):
            rendered.append(part)
            continue
        for pattern, repl in _INLINE[1:]:
            part = pattern.sub(repl, part)
        rendered.append(part)
    return "".join(rendered)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def render(text: str) -> SafeString:
    lines = text.splitlines()
    html: list[str] = []
    para: list[str] = []
    list_tag: str | None = None
    i = 0

    def flush_para() -> None:
        if para:
            html.append(f"<p>{_inline(' '.join(para))}</p>")
            para.clear()

    def close_list() -> None:
        nonlocal list_tag
        if list_tag:
            html.append(f"</{list_tag}>")
            list_tag = None

    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if stripped.startswith("```"):
            flush_para()
            close_list()
            code = []
            i += 1
            while i < len(lines) and not lines[i].strip().startswith("```"):
                code.append(lines[i])
                i += 1
            html.append(f"<pre><code>{escape(chr(10).join(code))}</code></pre>")
            i += 1
            continue
        heading = re.match(r"(#{1,6})\s+(.*)", stripped)
        item = re.match(r"([-*+]|\d+[.)])\s+(.*)", stripped)
        if not stripped:
            flush_para()
            close_list()
        elif heading:
            flush_para()
            close_list()
            level = min(len(heading.group(1)) + 1, 6)  # the page title is the h1
            title = heading.group(2).strip().rstrip("#").strip()
            html.append(f'<h{level} id="{_slug(title)}">{_inline(title)}</h{level}>')
        elif re.fullmatch(r"(-{3,}|\*{3,}|_{3,})", stripped):
            flush_para()
            close_list()
            html.append("<hr>")
        elif stripped.startswith("|") and stripped.endswith("|"):
            flush_para()
            close_list()
            rows = []
            while i < len(lines) and lines[i].strip().startswith("|"):
                cells = [c.strip() for c in lines[i].strip().strip("|").split("|")]
                if not all(re.fullmatch(r":?-+:?", c) for c in cells if c):
                    rows.append(cells)
                i += 1
            body = "".join(
                "<tr>"
                + "".join(
                    f"<{'th' if n == 0 else 'td'}>{_inline(c)}</{'th' if n == 0 else 'td'}>"
                    for c in row
                )
                + "</tr>"
                for n, row in enumerate(rows)
            )
            html.append(f'<div class="scroll"><table>{body}</table></div>')
            continue
        elif item:
            flush_para()
            tag = "ol" if item.group(1)[0].isdigit() else "ul"
            if list_tag != tag:
                close_list()
                html.append(f"<{tag}>")
                list_tag = tag
            html.append(f"<li>{_inline(item.group(2))}</li>")
        elif stripped.startswith(">"):
            flush_para()
            close_list()
            html.append(f"<blockquote>{_inline(stripped.lstrip('> '))}</blockquote>")
        elif list_tag and line.startswith(("  ", "\t")):
            html[-1] = html[-1][: -len("</li>")] + " " + _inline(stripped) + "</li>"
        else:
            close_list()
            para.append(stripped)
        i += 1
    flush_para()
    close_list()
    return mark_safe("\n".join(html))  # noqa: S308 - every piece of text is escaped above

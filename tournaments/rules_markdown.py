"""Rules pages (``docs/rules/<kind>.<language>.md``) to HTML, with markdown-it-py.

CommonMark plus pipe tables. Raw HTML in the Markdown is escaped, never passed through,
and markdown-it refuses ``javascript:`` and similar links. Headings move one level down
(the page's own ``<h1>`` is the template's), get ids, and the ``##``/``###`` headings
make the table of contents.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.safestring import SafeString, mark_safe
from django.utils.text import slugify
from markdown_it import MarkdownIt

_md = MarkdownIt("commonmark", {"html": False}).enable("table")


@dataclass
class RulesPage:
    body: SafeString
    #: (id, title, level) of the headings ``##`` (level 2) and ``###`` (level 3).
    toc: list[tuple[str, str, int]] = field(default_factory=list)


def render(text: str) -> RulesPage:
    tokens = _md.parse(text)
    toc: list[tuple[str, str, int]] = []
    used: set[str] = set()
    for i, token in enumerate(tokens):
        if token.type != "heading_open":
            continue
        level = int(token.tag[1])
        title = "".join(
            child.content for child in tokens[i + 1].children or [] if child.type != "softbreak"
        )
        base = slugify(title) or "section"
        slug, n = base, 1
        while slug in used:
            n += 1
            slug = f"{base}-{n}"
        used.add(slug)
        token.attrSet("id", slug)
        token.tag = tokens[i + 2].tag = f"h{min(level + 1, 6)}"
        if level in (2, 3):
            toc.append((slug, title, level))
    return RulesPage(body=mark_safe(_md.renderer.render(tokens, _md.options, {})), toc=toc)

"""The messages that ``makemessages`` would extract, found without GNU gettext.

Templates (``.html``/``.txt``) go through Django's own ``templatize`` (what
``makemessages`` feeds to xgettext); the result and the Python files are read with
Python's tokenizer and ``ast``, looking for the gettext functions and keywords Django
passes to xgettext. Each message is ``(context, msgid, msgid_plural)``.
"""

from __future__ import annotations

import ast
import os
import re
from collections.abc import Iterator
from pathlib import Path

from django.utils.translation.template import templatize

BASE_DIR = Path(__file__).resolve().parents[2]

# What `make messages` ignores (Makefile), plus what makemessages always skips.
IGNORED_DIRS = {".venv", "tests", "node_modules", "staticfiles", "locale", "__pycache__"}
TEMPLATE_SUFFIXES = {".html", ".txt"}

# name -> (index of the context argument or None, index of msgid, index of plural or None),
# as xgettext's defaults plus Django's --keyword options.
FUNCTIONS: dict[str, tuple[int | None, int, int | None]] = {
    "_": (None, 0, None),
    "gettext": (None, 0, None),
    "gettext_lazy": (None, 0, None),
    "gettext_noop": (None, 0, None),
    "ugettext": (None, 0, None),
    "ngettext": (None, 0, 1),
    "ngettext_lazy": (None, 0, 1),
    "pgettext": (0, 1, None),
    "pgettext_lazy": (0, 1, None),
    "npgettext": (0, 1, 2),
    "npgettext_lazy": (0, 1, 2),
}

Message = tuple[str | None, str, str | None]


def source_files(root: Path = BASE_DIR) -> Iterator[Path]:
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in IGNORED_DIRS and not d.startswith("."))
        for name in sorted(filenames):
            path = Path(dirpath) / name
            if path.suffix == ".py" or path.suffix in TEMPLATE_SUFFIXES:
                yield path


def _message(args: list[object], spec: tuple[int | None, int, int | None]) -> Message | None:
    ctx_i, id_i, plural_i = spec
    needed = [i for i in spec if i is not None]
    if len(args) <= max(needed) or not all(isinstance(args[i], str) for i in needed):
        return None  # a variable, not a literal: nothing to extract
    return (
        args[ctx_i] if ctx_i is not None else None,
        args[id_i],
        args[plural_i] if plural_i is not None else None,
    )


def python_messages(code: str) -> set[Message]:
    return _calls(ast.parse(code))


def _calls(tree: ast.AST) -> set[Message]:
    found: set[Message] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        if name not in FUNCTIONS:
            continue
        args = [a.value if isinstance(a, ast.Constant) else None for a in node.args]
        message = _message(args, FUNCTIONS[name])
        if message:
            found.add(message)
    return found


_NAMES = "|".join(re.escape(name) for name in FUNCTIONS)
_CALL = re.compile(rf"\b({_NAMES})\(")


def template_messages(text: str, origin: str) -> set[Message]:
    """The gettext calls in ``templatize``'s output. That output is not valid Python as a
    whole, so each call is parsed alone: from its name up to the first ``)`` that closes
    a valid expression."""
    code = templatize(text, origin=origin)
    found: set[Message] = set()
    for match in _CALL.finditer(code):
        close = match.end() - 1
        while (close := code.find(")", close + 1)) != -1:
            try:
                tree = ast.parse(code[match.start() : close + 1], mode="eval")
            except SyntaxError:
                continue
            found |= _calls(tree)
            break
    return found


def messages(root: Path = BASE_DIR) -> dict[Message, list[str]]:
    """Every message marked for translation -> the files that use it."""
    found: dict[Message, list[str]] = {}
    for path in source_files(root):
        text = path.read_text(encoding="utf-8")
        relative = str(path.relative_to(root))
        if path.suffix == ".py":
            extracted = python_messages(text)
        else:
            extracted = template_messages(text, origin=relative)
        for message in extracted:
            found.setdefault(message, []).append(relative)
    return found

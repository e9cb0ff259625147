"""The Spanish and German catalogues: complete, consistent, and compiled.

A message marked for translation (template or Python) that a catalogue lacks, or has
only as a fuzzy or empty entry, fails here: run ``make messages`` and translate it. A
``.mo`` that does not hold exactly the ``.po``'s translations (it is older, or was not
rebuilt) fails too. Nothing here needs GNU gettext; the one cross-check that runs
xgettext itself skips without it.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.utils import translation

from .extract import BASE_DIR, messages, python_messages, source_files, template_messages

LANGUAGES = [code for code, _ in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
LOCALE = BASE_DIR / "locale"
PLACEHOLDER = re.compile(r"%\((\w+)\)[sdrif]|%[sdrif]")


def po_path(language: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / "django.po"


def catalogue(language: str) -> polib.POFile:
    return polib.pofile(str(po_path(language)))


def key(entry: polib.POEntry) -> tuple[str | None, str]:
    return (entry.msgctxt or None, entry.msgid)


def translations(entries) -> dict[tuple[str | None, str], object]:
    """(context, msgid) -> msgstr, or the plural forms as a tuple."""
    return {
        key(e): tuple(e.msgstr_plural[i] for i in sorted(e.msgstr_plural))
        if e.msgid_plural
        else e.msgstr
        for e in entries
        if e.msgid and not e.obsolete and "fuzzy" not in e.flags
    }


@pytest.fixture(scope="module")
def marked():
    return messages()


def test_the_extractor_finds_the_site_text(marked):
    ids = {msgid for _, msgid, _ in marked}
    # A few strings from templates, Python code and blocktranslate with a plural.
    assert {"TOCK tournaments", "Leagues", "Change language", "Spanish"} <= ids
    assert (None, "%(n)s event", "%(n)s events") in marked
    assert len(marked) > 300


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_marked_message_is_translated(language, marked):
    entries = {key(e): e for e in catalogue(language) if not e.obsolete}
    problems = []
    for (context, msgid, plural), files in sorted(marked.items(), key=str):
        entry = entries.get((context, msgid))
        where = f"{msgid!r} ({', '.join(files[:3])})"
        if entry is None:
            problems.append(f"missing: {where}")
        elif (entry.msgid_plural or None) != plural:
            problems.append(f"plural differs: {where}")
        elif not entry.translated():
            problems.append(f"untranslated or fuzzy: {where}")
    assert problems == [], f"locale/{language}: run `make messages` and translate:\n" + "\n".join(
        problems
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_translations_keep_the_placeholders(language):
    problems = []
    for entry in catalogue(language).translated_entries():
        expected = set(PLACEHOLDER.findall(entry.msgid))
        if entry.msgid_plural:
            allowed = expected | set(PLACEHOLDER.findall(entry.msgid_plural))
            for form in entry.msgstr_plural.values():
                if not set(PLACEHOLDER.findall(form)) <= allowed:
                    problems.append(entry.msgid)
        elif set(PLACEHOLDER.findall(entry.msgstr)) != expected:
            problems.append(entry.msgid)
    assert problems == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_catalogue_header(language):
    po = catalogue(language)
    assert not po.metadata_is_fuzzy
    assert po.metadata["Language"] == language
    assert "charset=UTF-8" in po.metadata["Content-Type"]
    assert po.metadata["Plural-Forms"].startswith("nplurals=2;")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_compiled_catalogue_matches_the_po(language):
    """Content, not modification times (a checkout sets every mtime)."""
    po = po_path(language)
    mo = po.with_suffix(".mo")
    assert mo.is_file(), f"{mo.relative_to(BASE_DIR)} is missing: run `make messages`"
    compiled = translations(polib.mofile(str(mo)))
    source = {k: v for k, v in translations(catalogue(language)).items() if any(v)}
    assert compiled == source, f"{mo.relative_to(BASE_DIR)} is stale: run `make messages`"


def test_django_uses_the_catalogues():
    with translation.override("es"):
        assert translation.gettext("Leagues") == "Ligas"
        assert translation.ngettext("%(n)s event", "%(n)s events", 2) == "%(n)s eventos"
    with translation.override("de"):
        assert translation.gettext("Leagues") == "Ligen"
        assert translation.ngettext("%(n)s event", "%(n)s events", 1) == "%(n)s Ereignis"


def test_extractor_reads_every_form_of_marking():
    template = """{% load i18n %}
    {% translate "plain" %} {% trans 'old tag' %} {% translate "in context" context "menu" %}
    {% blocktranslate with n=x %}Hello {{ n }}{% endblocktranslate %}
    {% blocktranslate count counter=k %}one {{ counter }}{% plural %}many {{ counter }}
    {% endblocktranslate %}
    {% blocktranslate trimmed %}
      spread
      over lines
    {% endblocktranslate %}
    {{ value|default:_("filter (default)") }} {% translate variable %}
    """
    assert template_messages(template, "t.html") == {
        (None, "plain", None),
        (None, "old tag", None),
        ("menu", "in context", None),
        (None, "Hello %(n)s", None),
        (None, "one %(counter)s", "many %(counter)s\n    "),
        (None, "spread over lines", None),
        (None, "filter (default)", None),
    }
    code = """
from django.utils.translation import gettext_lazy as _, ngettext, pgettext_lazy
from django.utils import translation
A = _("lazy " "joined")
B = ngettext("%(n)d card", "%(n)d cards", 3)
C = pgettext_lazy("verb", "Draw")
D = translation.gettext("attribute")
E = _(variable)
"""
    assert python_messages(code) == {
        (None, "lazy joined", None),
        (None, "%(n)d card", "%(n)d cards"),
        ("verb", "Draw", None),
        (None, "attribute", None),
    }


XGETTEXT_ARGS = [
    "--language=Python",
    "--from-code=UTF-8",
    "--keyword=gettext_noop",
    "--keyword=gettext_lazy",
    "--keyword=ngettext_lazy:1,2",
    "--keyword=pgettext:1c,2",
    "--keyword=npgettext:1c,2,3",
    "--keyword=pgettext_lazy:1c,2",
    "--keyword=npgettext_lazy:1c,2,3",
]


@pytest.mark.skipif(not shutil.which("xgettext"), reason="GNU gettext (xgettext) not installed")
def test_the_extractor_agrees_with_xgettext(tmp_path, marked):
    """What makemessages does (templatize, then xgettext with Django's keywords), into a
    temporary directory: the extractor above finds the same messages."""
    from django.utils.translation.template import templatize

    inputs = []
    for i, path in enumerate(source_files()):
        if path.suffix == ".py":
            inputs.append(str(path))
        else:
            text = templatize(path.read_text(encoding="utf-8"), origin=str(path))
            copy = tmp_path / f"{i}.py"
            copy.write_text(text, encoding="utf-8")
            inputs.append(str(copy))
    pot = tmp_path / "all.pot"
    subprocess.run(
        ["xgettext", *XGETTEXT_ARGS, f"--output={pot}", *inputs], check=True, cwd=tmp_path
    )
    found = {(e.msgctxt or None, e.msgid, e.msgid_plural or None) for e in polib.pofile(str(pot))}
    assert found == set(marked)

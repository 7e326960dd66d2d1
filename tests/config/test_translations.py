"""Every user-facing string has its Hungarian translation, and the compiled catalogue
matches the source catalogue (the .mo is committed so a fresh machine needs no gettext)."""

import gettext
import re
import shutil
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.test import override_settings

LOCALE = Path(settings.BASE_DIR) / "locale"
PO = LOCALE / "hu" / "LC_MESSAGES" / "django.po"
MO = LOCALE / "hu" / "LC_MESSAGES" / "django.mo"
ENTRY = re.compile(r'^msgid ((?:".*"\n)+)msgstr ((?:".*"\n?)+)', re.M)


def _unquote(lines: str) -> str:
    return (
        "".join(re.findall(r'"(.*)"', lines))
        .encode()
        .decode("unicode_escape")
        .encode("latin-1")
        .decode("utf-8")
    )


def _catalogue(path: Path) -> dict[str, str]:
    text = path.read_text(encoding="utf-8")
    entries = {}
    for block in text.split("\n\n"):
        if block.lstrip().startswith("#~"):
            continue  # obsolete
        match = ENTRY.search(block + "\n")
        if match and _unquote(match.group(1)):
            entries[_unquote(match.group(1))] = _unquote(match.group(2))
    return entries


def test_every_message_is_translated_to_hungarian():
    missing = [msgid for msgid, msgstr in _catalogue(PO).items() if not msgstr]
    assert missing == []
    assert "#, fuzzy" not in PO.read_text(encoding="utf-8")


def test_compiled_catalogue_matches_the_source():
    with MO.open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    for msgid, msgstr in _catalogue(PO).items():
        assert compiled.gettext(msgid) == msgstr, msgid


def test_catalogue_holds_every_string_in_the_code(tmp_path, monkeypatch):
    """makemessages over the code finds no string the committed catalogue lacks.

    It runs on a copy of the source tree: makemessages writes into every ``locale``
    folder it finds under the current directory, and must not touch the real one."""
    base = Path(settings.BASE_DIR)
    for name in ("config", "games", "tournaments", "chouette", "templates", "locale"):
        shutil.copytree(base / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.chdir(tmp_path)  # makemessages walks the current directory
    with override_settings(LOCALE_PATHS=[tmp_path / "locale"]):
        call_command("makemessages", locale=["hu"], no_obsolete=True, verbosity=0)
    fresh = set(_catalogue(tmp_path / "locale" / "hu" / "LC_MESSAGES" / "django.po"))
    assert fresh - set(_catalogue(PO)) == set()

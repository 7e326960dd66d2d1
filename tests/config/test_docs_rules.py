"""docs/rules.md defines every rule the code cites.

The code, the tests and the README cite the rules by section number ("R12", "(R4-R7)",
"R9 offer"). docs/rules.md is the project's copy of the rules, one ``## R<n> <title>``
heading per section. These tests fail when a file cites a section that docs/rules.md does
not define, naming each file and line, and when the sections are not exactly R1..R15 in
order. No database, no Django: plain file reading.

What is scanned: every ``.py``, ``.html``, ``.js`` and ``.md`` file under the app, config,
template, static, test and bench folders, and README.md (a virtualenv or ``__pycache__``
inside them is skipped). A citation is an ``R`` followed by one or two digits as a whole
word. The one look-alike in the tree is a tournament slot key, ``R<round>-<board>`` or
``R<round>-bye`` (tournaments/services/draw.py builds them, tournaments/models.py shows
one): an ``R`` number followed by a hyphen and a digit or ``bye`` is not a citation.
A range is written with an ``R`` on both ends, so both ends are checked.
"""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "docs" / "rules.md"

SCAN_DIRS = ("games", "tournaments", "chouette", "config", "templates", "static", "tests", "bench")
SCAN_FILES = ("README.md",)
SUFFIXES = frozenset({".py", ".html", ".js", ".md"})
SKIP_DIRS = frozenset({".venv", "venv", "__pycache__", "node_modules"})

HEADING = re.compile(r"^## (R\d+) ", re.MULTILINE)
# "R<round>-<board>" / "R<round>-bye" are tournament slot keys, not rule citations.
CITATION = re.compile(r"\bR(\d{1,2})\b(?!-(?:\d|bye\b))")

EXPECTED = [f"R{n}" for n in range(1, 16)]


def defined_rules() -> list[str]:
    """The section numbers of docs/rules.md's ``## R<n> `` headings, in file order."""
    return HEADING.findall(RULES.read_text(encoding="utf-8"))


def scanned_files() -> list[Path]:
    files = [ROOT / name for name in SCAN_FILES]
    for folder in SCAN_DIRS:
        for path in sorted((ROOT / folder).rglob("*")):
            rel = path.relative_to(ROOT)
            if path.suffix in SUFFIXES and path.is_file() and not SKIP_DIRS & set(rel.parts):
                files.append(path)
    return files


def citations() -> list[tuple[str, int, str]]:
    """Every citation in the scanned files: (relative path, line number, "R<n>")."""
    found = []
    for path in scanned_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        rel = path.relative_to(ROOT).as_posix()
        for number, line in enumerate(text.splitlines(), 1):
            found.extend((rel, number, f"R{m}") for m in CITATION.findall(line))
    return found


def test_rules_doc_defines_r1_to_r15_in_order():
    assert defined_rules() == EXPECTED, (
        f"docs/rules.md must have the headings '## R1 ' .. '## R15 ' in order, "
        f"found {defined_rules()}"
    )


def test_every_cited_rule_is_defined():
    defined = set(defined_rules())
    found = citations()
    assert found, "no rule citation found at all: is the scan looking in the right place?"
    undefined = [f"{path}:{line}: {rule}" for path, line, rule in found if rule not in defined]
    assert not undefined, "cited but not defined in docs/rules.md:\n" + "\n".join(undefined)


def test_slot_keys_are_not_citations():
    """The special case above, and that real citations around it are still seen."""
    line = 'slot "R2-3", "R15-bye" and "M2-3"; rules (R4-R7), R12: R9 offer, R1/R2'
    assert CITATION.findall(line) == ["4", "7", "12", "9", "1", "2"]

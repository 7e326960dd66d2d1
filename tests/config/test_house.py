"""The house stays finished (issue 31): no module of ours over 800 lines, at most 14
modules directly under ``games/`` (the rest lives in its feature packages), and a test
folder for each feature package of ``games/``."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: Where our Python lives; migrations are generated and left out.
SOURCES = ("games", "tournaments", "chouette", "config", "bench")
MAX_LINES = 800
MAX_GAMES_MODULES = 14


def _modules() -> list[Path]:
    return [
        path
        for package in SOURCES
        for path in sorted((ROOT / package).rglob("*.py"))
        if "migrations" not in path.parts
    ]


def test_no_module_is_over_800_lines():
    long = {
        str(path.relative_to(ROOT)): lines
        for path in _modules()
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert not long, f"split these by responsibility (at most {MAX_LINES} lines): {long}"


def test_games_keeps_its_code_in_feature_packages():
    top = sorted(path.name for path in (ROOT / "games").glob("*.py"))
    assert len(top) <= MAX_GAMES_MODULES, top


def test_the_tests_mirror_the_feature_packages_of_games():
    # Not features: the models (tested through the features that use them), the
    # management commands and template tags (each tested with its feature), migrations.
    plumbing = {"models", "management", "templatetags", "migrations"}
    features = {path.parent.name for path in (ROOT / "games").glob("*/__init__.py")} - plumbing
    tested = {path.name for path in (ROOT / "tests" / "games").iterdir() if path.is_dir()}
    assert features <= tested, f"games/ packages without a tests/games/ folder: {features - tested}"

"""docs/architecture.md names real places: every file, folder and module it cites exists.

The page is the house as built (issue 14); a move that forgets it fails here. A citation is
anything in backticks that looks like a path of the repository (``games/play/services.py``,
``tournaments/pairing/``) or a dotted module of ours (``games.play.services``, optionally
followed by ``.function``: the longest prefix that is a module must exist, and the rest
must be a name defined in it), or a registered Celery task's name (``games.game_clock_alarm``).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "architecture.md"
PACKAGES = ("games", "tournaments", "chouette", "config", "tests", "bench")
TOP_FILES = ("README.md", "pyproject.toml", "manage.py", "dev", ".ci/run")

CODE = re.compile(r"`([^`\s]+)`")
_ROOTS = "|".join((*PACKAGES, "templates", "static", "locale", "docs"))
_FILES = "|".join(re.escape(f) for f in TOP_FILES)
PATH = re.compile(rf"^(?:(?:{_ROOTS})/[\w./-]*|{_FILES})$")
DOTTED = re.compile(rf"^(?:{'|'.join(PACKAGES[:4])})(?:\.\w+)+$")


def citations() -> list[tuple[int, str]]:
    found = []
    for number, line in enumerate(PAGE.read_text(encoding="utf-8").splitlines(), 1):
        for token in CODE.findall(line):
            token = token.rstrip(",.;:)")
            token = re.sub(r"\(\)$", "", token)
            if PATH.match(token) or DOTTED.match(token):
                found.append((number, token))
    return found


def _defined(module: Path, name: str) -> bool:
    tree = ast.parse(module.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if node.name == name:
                return True
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                return True
    return False


def _task_names() -> set[str]:
    from celery import current_app

    return set(current_app.tasks)


def exists(token: str) -> bool:
    if token in _task_names():
        return True
    if "/" in token or token in TOP_FILES:
        path = token.split(":", 1)[0]
        return (ROOT / path).exists()
    parts = token.split(".")
    for cut in range(len(parts), 0, -1):
        base = ROOT.joinpath(*parts[:cut])
        module = (
            base.with_suffix(".py") if base.with_suffix(".py").is_file() else base / "__init__.py"
        )
        if module.is_file():
            rest = parts[cut:]
            if not rest:
                return True
            # A name in the module (for Class.attribute, the class must be there).
            return _defined(module, rest[0])
    return False


def test_the_page_cites_many_places():
    # The walks alone name dozens of files; an empty list means the pattern broke.
    assert len(citations()) >= 60


def test_every_path_and_module_the_architecture_page_names_exists():
    missing = [f"line {number}: {token}" for number, token in citations() if not exists(token)]
    assert not missing, "docs/architecture.md names what is not there:\n" + "\n".join(missing)


def test_the_check_itself_can_fail():
    assert not exists("games/nowhere.py")
    assert not exists("games.play.nowhere")
    assert not exists("games.play.services.no_such_service")
    assert exists("games.play.services.cube_offer")
    assert exists("games/play/")
    assert exists("games.sweep_clock_alarms")
    assert not exists("games.sweep_the_clocks")

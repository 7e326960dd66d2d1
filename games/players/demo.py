"""Demo logins for the one-command local run (issue 30): ``./dev run`` gives a few of the
demo club's players a login, so that a newcomer can play a first match with no admin step.

The passwords are made on the machine that runs the demo (``secrets``), never shipped:
they are kept in a local file (``settings.DEMO_LOGINS_FILE``, next to ``db.sqlite3``,
git-ignored, readable by its owner only) so that every run prints the same logins. A
database made again gets the stored passwords back; a file deleted gets new ones.

What keeps a real club's database from getting them: the local settings alone name the
file (base and production leave it ``None``), and the file is refused unless ``DEBUG`` is
on too; an account that is not the demo login it should be (a superuser, a login of
another player, a demo player who was given another login) is left alone and said so.
"""

from __future__ import annotations

import json
import os
import secrets
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction

from games.errors import PermissionDenied
from games.models import Player


@dataclass(frozen=True)
class DemoLogin:
    """One demo login: the username, the demo club player it belongs to, and whether it is
    a director's (staff; it runs the demo tournament too)."""

    username: str
    player_name: str
    director: bool = False


#: Four players to play each other, and a director who is a player as well (staff: may
#: arrange matches between others, sees what staff see; ``load_demo_tournament`` makes
#: this login a director of the demo event, for its desk).
DEMO_LOGINS: tuple[DemoLogin, ...] = (
    DemoLogin("anna", "Kovács Anna"),
    DemoLogin("peter", "Nagy Péter"),
    DemoLogin("eszter", "Szabó Eszter"),
    DemoLogin("gabor", "Tóth Gábor"),
    DemoLogin("zsofia", "Horváth Zsófia", director=True),
)
DIRECTOR_USERNAME = next(d.username for d in DEMO_LOGINS if d.director)

#: Letters and digits that cannot be mistaken for each other when read off a terminal.
_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"


def demo_password() -> str:
    """A fresh password, three groups of four (about 59 bits), easy to type."""
    return "-".join("".join(secrets.choice(_ALPHABET) for _ in range(4)) for _ in range(3))


@dataclass(frozen=True)
class DemoLoginResult:
    login: DemoLogin
    password: str
    #: "" when the login is ready; otherwise why it was left alone.
    skipped: str = ""


def demo_logins_file() -> Path:
    """The local file of the demo passwords. Refused (``PermissionDenied``, code
    ``not_a_demo``) where the demo does not run: settings without ``DEMO_LOGINS_FILE``
    (every one but the local run's), or ``DEBUG`` off."""
    path = getattr(settings, "DEMO_LOGINS_FILE", None)
    if not path or not settings.DEBUG:
        raise PermissionDenied(
            "not_a_demo",
            "Demo logins are made only by the one-command local run (config.settings.local, "
            "DEBUG on): never in a club's real database.",
        )
    return Path(path)


def _read(path: Path) -> dict[str, Any]:
    try:
        stored = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError):
        # Unreadable or not ours: new passwords are made and the file written again.
        return {}
    return stored.get("logins", {}) if isinstance(stored, dict) else {}


def _write(path: Path, logins: dict[str, Any]) -> None:
    """Write the file whole (a temporary file renamed over it), readable by its owner only
    (``mkstemp`` makes it 0600)."""
    body = json.dumps(
        {
            "about": "Demo logins of this machine's local run (./dev run). Delete this file "
            "for new passwords.",
            "logins": logins,
        },
        indent=2,
        ensure_ascii=False,
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".demo-logins-")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(body + "\n")
        os.chmod(temporary, 0o600)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _ensure_one(login: DemoLogin, password: str, known_hash: str) -> tuple[str, str]:
    """Make or refresh one login; returns (why it was left alone or "", its password
    hash). The password is hashed again only when the stored hash is not the account's
    (new account, new password, or one changed elsewhere): hashing is slow on purpose."""
    player = Player.objects.select_for_update().filter(name=login.player_name).first()
    if player is None:
        return "there is no demo player of this name (run load_demo_club first)", known_hash
    user_model = get_user_model()
    user = user_model.objects.filter(username__iexact=login.username).first()
    if user is not None and user.is_superuser:
        return f"the username {login.username} is a superuser's", known_hash
    if user is not None and Player.objects.filter(user=user).exclude(pk=player.pk).exists():
        return f"the username {login.username} is another player's login", known_hash
    if player.user_id is not None and (user is None or player.user_id != user.pk):
        return f"{player.name} already has another login", known_hash
    if user is None:
        user = user_model.objects.create_user(username=login.username, password=password)
    elif user.password != known_hash or not user.is_active:
        user.set_password(password)
        user.is_active = True
        user.save(update_fields=["password", "is_active"])
    if login.director and not user.is_staff:
        user.is_staff = True
        user.save(update_fields=["is_staff"])
    if player.user_id != user.pk:
        player.user = user
        player.save(update_fields=["user"])
    return "", str(user.password)


def demo_logins_ensure() -> list[DemoLoginResult]:
    """Give the demo players their logins (idempotent); answers each login with its
    password, or why it was left alone. Refused outside the demo: see
    :func:`demo_logins_file`."""
    path = demo_logins_file()
    stored = _read(path)
    if path.exists() and path.stat().st_mode & 0o077:
        path.chmod(0o600)  # passwords: its owner's to read, nobody else's
    entries: dict[str, dict[str, str]] = {}
    for login in DEMO_LOGINS:
        entry = stored.get(login.username)
        if isinstance(entry, dict) and isinstance(entry.get("password"), str):
            entries[login.username] = {
                "password": entry["password"],
                "hash": str(entry.get("hash", "")),
            }
        else:
            entries[login.username] = {"password": demo_password(), "hash": ""}
    # The passwords are on disk before any account has them: a run cut short in between
    # leaves accounts the next run can still print.
    if entries != stored:
        _write(path, entries)
    results = []
    with transaction.atomic():
        for login in DEMO_LOGINS:
            entry = entries[login.username]
            skipped, entry["hash"] = _ensure_one(login, entry["password"], entry["hash"])
            results.append(DemoLoginResult(login, entry["password"], skipped))
    if entries != stored:
        _write(path, entries)
    return results

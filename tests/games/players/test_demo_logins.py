"""``manage.py demo_logins`` (issue 30, games.players.demo): the one-command local run's
logins for demo players, with passwords made on this machine and kept in a local file.

Run as ``./dev run`` runs it (call_command) with the local run's two settings turned on
for the test (``DEMO_LOGINS_FILE`` in a temporary directory, ``DEBUG``), and refused
without them: the test settings, as production's, name no file.
"""

from __future__ import annotations

import re
import stat
import subprocess
from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from games.management.commands.demo_logins import site_url
from games.models import Player
from games.players.demo import DEMO_LOGINS, DIRECTOR_USERNAME
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[3]
#: A printed login: two spaces, the username, the password, who it is.
LINE = re.compile(r"^  ([a-z]+)\s+([a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4})  (.+)$")


@pytest.fixture
def demo(settings, tmp_path):
    """The local run's settings: a password file (in a temporary directory), DEBUG on;
    and the demo players the logins are for."""
    settings.DEBUG = True
    settings.DEMO_LOGINS_FILE = tmp_path / ".demo-logins.json"
    for login in DEMO_LOGINS:
        PlayerFactory(name=login.player_name)
    return settings.DEMO_LOGINS_FILE


def run(**options) -> tuple[dict[str, str], str]:
    """The command's printed logins (username: password), and all it printed."""
    out = StringIO()
    call_command("demo_logins", stdout=out, **options)
    text = out.getvalue()
    return {m[1]: m[2] for line in text.splitlines() if (m := LINE.match(line))}, text


def logs_in(username: str, password: str) -> bool:
    """Whether the login page would let this username and password in (the site's login
    backend, django-axes, wants a request: the password and the account are checked)."""
    user = get_user_model().objects.filter(username=username).first()
    return bool(user and user.is_active and user.check_password(password))


def test_every_demo_player_gets_a_login_and_the_printout_says_where_to_log_in(demo):
    logins, text = run()
    assert set(logins) == {d.username for d in DEMO_LOGINS}
    assert len(set(logins.values())) == len(DEMO_LOGINS)  # each its own
    for login in DEMO_LOGINS:
        player = Player.objects.select_related("user").get(name=login.player_name)
        assert player.user.username == login.username
        assert logs_in(login.username, logins[login.username])
        assert player.user.is_superuser is False
        assert player.user.is_staff is login.director
    assert "Log in at http://127.0.0.1:8000/accounts/login/" in text
    assert "director" in next(line for line in text.splitlines() if DIRECTOR_USERNAME in line)
    # The file: the passwords, readable by its owner only.
    assert stat.S_IMODE(demo.stat().st_mode) == 0o600
    for password in logins.values():
        assert password in demo.read_text()


def test_again_the_same_logins_nothing_new_and_the_file_mode_put_right(demo):
    first, _ = run()
    users = get_user_model().objects.count()
    demo.chmod(0o644)
    again, _ = run()
    assert again == first
    assert get_user_model().objects.count() == users
    assert stat.S_IMODE(demo.stat().st_mode) == 0o600
    for username, password in again.items():
        assert logs_in(username, password)


def test_a_new_database_gets_the_stored_passwords_back(demo):
    first, _ = run()
    get_user_model().objects.filter(username__in=first).delete()
    again, _ = run()
    assert again == first
    for username, password in first.items():
        assert logs_in(username, password)


def test_without_the_file_new_passwords_and_the_old_ones_no_longer_work(demo):
    first, _ = run()
    demo.unlink()
    again, _ = run()
    assert set(again) == set(first)
    for username in first:
        assert again[username] != first[username]
        assert logs_in(username, again[username])
        assert not logs_in(username, first[username])


def test_a_password_changed_elsewhere_is_put_back_to_the_printed_one(demo):
    first, _ = run()
    user = get_user_model().objects.get(username="anna")
    user.set_password("something-else-42")
    user.save()
    again, _ = run()
    assert again == first
    assert logs_in("anna", first["anna"])


def test_accounts_that_are_not_demo_logins_are_left_alone(demo):
    boss = UserFactory(username="anna", is_superuser=True, is_staff=True)
    peter = Player.objects.get(name="Nagy Péter")
    peter.user = UserFactory(username="peti")
    peter.save()
    logins, text = run()
    assert "anna" not in logins and "peter" not in logins
    assert "(anna: not made, the username anna is a superuser's)" in text
    assert "(peter: not made, Nagy Péter already has another login)" in text
    boss.refresh_from_db()
    assert boss.check_password("jelszo-123") and boss.is_superuser
    assert not get_user_model().objects.filter(username="peter").exists()
    assert Player.objects.get(name="Kovács Anna").user_id is None
    assert logs_in("eszter", logins["eszter"])


@pytest.mark.parametrize(("debug", "file"), [(False, None), (True, None), (False, "set")], ids=str)
def test_refused_outside_the_local_run_and_nothing_written(settings, tmp_path, debug, file):
    settings.DEBUG = debug
    settings.DEMO_LOGINS_FILE = tmp_path / ".demo-logins.json" if file else None
    for login in DEMO_LOGINS:
        PlayerFactory(name=login.player_name)
    with pytest.raises(CommandError, match="only by the one-command local run"):
        call_command("demo_logins", stdout=StringIO())
    assert not get_user_model().objects.exists()
    assert not list(tmp_path.iterdir())


def test_only_the_local_settings_name_a_password_file():
    """What keeps production's database from demo logins: its settings (as the base and
    the tests') name no file; the local run's does, next to db.sqlite3."""
    from config.settings import base, local

    assert base.DEMO_LOGINS_FILE is None
    assert django_settings.DEMO_LOGINS_FILE is None  # the test settings
    assert "DEMO_LOGINS_FILE" not in (ROOT / "config/settings/production.py").read_text()
    assert local.DEMO_LOGINS_FILE == ROOT / ".demo-logins.json"
    assert local.DEBUG is True


def test_no_password_is_in_the_repository(demo):
    """The passwords are made here: none is in a file git holds, and the local file is
    ignored by git."""
    logins, _ = run()
    tracked = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.split(b"\0")
    assert b".demo-logins.json" not in tracked
    for name in filter(None, tracked):
        path = ROOT / name.decode()
        if path.is_file():
            body = path.read_bytes()
            assert not any(p.encode() in body for p in logins.values()), name
    # The file, and the temporary one it is written through, are ignored by git.
    names = [".demo-logins.json", ".demo-logins-x1y2"]
    ignored = subprocess.run(
        ["git", "check-ignore", *names], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert ignored.stdout.split() == names


def test_the_demo_tournament_is_run_by_the_demo_director_too(demo, client):
    for n in range(len(DEMO_LOGINS), 8):
        PlayerFactory(name=f"Extra {n}")
    run()
    call_command("load_demo_tournament", stdout=StringIO())
    call_command("load_demo_tournament", stdout=StringIO())  # again: still one director
    from tournaments.models import Event

    event = Event.objects.get(slug="demo-kupa")
    director = get_user_model().objects.get(username=DIRECTOR_USERNAME)
    assert event.is_director(director)
    assert event.directors.filter(pk=director.pk).count() == 1
    assert not event.is_director(get_user_model().objects.get(username="anna"))
    client.force_login(director)
    assert client.get("/events/demo-kupa/manage/desk/").status_code == 200
    client.force_login(get_user_model().objects.get(username="anna"))
    assert client.get("/events/demo-kupa/manage/desk/").status_code in {403, 404}


@pytest.mark.parametrize(
    ("address", "url"),
    [
        ("127.0.0.1:8000", "http://127.0.0.1:8000"),
        ("0.0.0.0:8080", "http://127.0.0.1:8080"),
        ("8081", "http://127.0.0.1:8081"),
        ("localhost", "http://localhost:8000"),
        ("[::]:8000", "http://[::1]:8000"),
        ("[::1]:9000", "http://[::1]:9000"),
    ],
)
def test_the_login_address_follows_runservers_address(address, url):
    assert site_url(address) == url


def test_the_printed_address_is_the_one_given(demo):
    _, text = run(address="0.0.0.0:8080")
    assert "Log in at http://127.0.0.1:8080/accounts/login/" in text
    assert "From another device" in text

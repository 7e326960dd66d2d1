"""``manage.py demo_logins``: the demo club's logins for the one-command local run.

``./dev run`` calls it after ``load_demo_club`` and before the server starts: a few demo
players get a login (one of them a director: staff), with passwords made on this machine
and kept in ``settings.DEMO_LOGINS_FILE`` (games.players.demo), and it prints them with
the address to log in at. Refused outside the local run (no ``DEMO_LOGINS_FILE`` or
``DEBUG`` off): nothing is written then.

The printed lines are the interface (the browser test reads the logins from them):
two spaces, the username, the password, then who it is.
"""

from __future__ import annotations

import os

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.urls import reverse

from games.errors import ApplicationError
from games.players.demo import demo_logins_ensure

DEFAULT_ADDRESS = "127.0.0.1:8000"


def site_url(address: str) -> str:
    """The address a browser on this machine opens for runserver's ``address``
    (``[host:]port``, as ``./dev run``'s ADDRESS): a server listening on every interface
    (0.0.0.0, ::) is reached here at 127.0.0.1 or [::1]."""
    address = address.strip() or DEFAULT_ADDRESS
    if address.startswith("["):  # [v6]:port
        host, _, port = address[1:].partition("]")
        port = port.lstrip(":") or "8000"
        host = "::1" if host in {"", "::"} else host
        return f"http://[{host}]:{port}"
    if address.count(":") > 1:  # a bare IPv6 address, runserver's default port
        host = "::1" if address == "::" else address
        return f"http://[{host}]:8000"
    host, colon, port = address.rpartition(":")
    if not colon:  # runserver takes a lone port, or a lone host
        host, port = ("127.0.0.1", address) if address.isdigit() else (address, "8000")
    if host in {"", "0", "0.0.0.0"}:  # noqa: S104 - read, not listened on
        host = "127.0.0.1"
    return f"http://{host}:{port}"


class Command(BaseCommand):
    help = "Give demo players logins (local run only) and print them with where to log in."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--address",
            default=os.environ.get("ADDRESS") or DEFAULT_ADDRESS,
            help="runserver's address ([host:]port; ./dev run passes ADDRESS).",
        )

    def handle(self, *args: object, **options: object) -> None:
        try:
            results = demo_logins_ensure()
        except ApplicationError as exc:
            raise CommandError(str(exc.detail)) from None
        url = site_url(str(options["address"])) + reverse("login")
        out = self.stdout
        out.write("")
        out.write("Demo logins (made on this machine; the same at every ./dev run):")
        for result in results:
            login = result.login
            if result.skipped:
                out.write(f"  ({login.username}: not made, {result.skipped})")
                continue
            who = login.player_name
            if login.director:
                who += " (director: staff, runs the demo tournament)"
            out.write(f"  {login.username:<8} {result.password}  {who}")
        out.write(f"Log in at {url}")
        address = str(options["address"])
        if address.startswith(("0.0.0.0:", "[::]:")) or address in {"0.0.0.0", "::"}:  # noqa: S104
            out.write(
                "From another device: this machine's address instead of 127.0.0.1 "
                "(named in ALLOWED_HOSTS)."
            )
        out.write(
            "A match: one player in this browser, another in a second browser or a private "
            "window (or invite GNU Backgammon from the lobby)."
        )
        out.write("")

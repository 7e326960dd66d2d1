"""Benchmark: the printed sheets (issue 17, tournaments.pages.paper) of a 32-player flight.

Run from the repository root: ``python bench/paper.py`` (it re-runs itself under
``.venv``). It is not a test. It talks to nothing but PostgreSQL on 127.0.0.1:5432.

1. Drops and recreates the PostgreSQL database ``bench_paper`` (trust auth, user
   ``postgres``) and migrates it (the test settings, in this process).
2. Through the services: a director, an event, a 32-player single elimination (5 point
   matches, round 1 half played) and a 32-player main + consolation of the losers of
   round 1 (two parts, both on the draw sheet).
3. Asks Django's test client for each PDF ``--rounds`` times, after one warm-up (the
   first PDF of a process loads WeasyPrint, Pango and the fonts), and prints the median
   and worst time (and the median CPU time of this process, which other load on the
   machine disturbs less), the size and the pages: the draw sheet on A4 and A3, round 1's
   pairings and 16 score sheets, the finishing order.

The last line is ``seconds <worst time of the 32-player draw sheet on A4>``; the goal is
well under 2 s.
"""

from __future__ import annotations

import argparse
import statistics
import time

import _host  # bench/_host.py: this folder is on sys.path when run as a script

DB_NAME = "bench_paper"


def flights() -> tuple[object, list[tuple[str, object]]]:
    """The two 32-player flights, drawn, round 1 of the first half played."""
    import datetime
    from decimal import Decimal

    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Permission

    from games.models import Player
    from tournaments.models import TournamentMatch
    from tournaments.services.draw import flight_draw
    from tournaments.services.entries import entry_register
    from tournaments.services.events import event_create
    from tournaments.services.flights import flight_create
    from tournaments.services.results import result_enter

    director = get_user_model().objects.create_user("bench-director")
    director.user_permissions.add(Permission.objects.get(codename="add_event"))
    director = get_user_model().objects.get(pk=director.pk)
    event = event_create(by=director, name="Bench Open", starts_on=datetime.date(2026, 12, 1))
    out = []
    for name, fmt, options in (
        ("single", "single_elimination", {}),
        ("consolation", "consolation", {"entry_rounds": 1}),
    ):
        flight = flight_create(
            event_id=event.pk, by=director, name=name, format=fmt, match_length=5, options=options
        )
        for i in range(32):
            player = Player.objects.create(
                name=f"Versenyző Zsófia-Árpád {name[:4]} {i:02d}", rating=Decimal(2000 - i)
            )
            entry_register(flight_id=flight.pk, by=director, player_id=player.pk)
        flight_draw(flight_id=flight.pk, by=director)
        ready = TournamentMatch.objects.filter(flight=flight, round=1, status="ready")
        for m in list(ready.order_by("index"))[:8]:
            result_enter(match_id=m.pk, by=director, score_a=5, score_b=3)
        out.append((name, flight))
    return director, out


def pages_of(data: bytes) -> str:
    """The PDF's page count by ``pdfinfo`` (poppler-utils), or ``?`` without it."""
    import shutil
    import subprocess
    import tempfile

    tool = shutil.which("pdfinfo")
    if not tool:
        return "?"
    with tempfile.NamedTemporaryFile(suffix=".pdf") as file:
        file.write(data)
        file.flush()
        info = subprocess.run([tool, file.name], capture_output=True, text=True, check=True)  # noqa: S603 - pdfinfo on our file
    return next((x.split()[1] for x in info.stdout.splitlines() if x.startswith("Pages:")), "?")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--keep-db", action="store_true", help=f"keep {DB_NAME} afterwards")
    args = parser.parse_args()
    _host.warn_if_busy()
    with _host.django_bench_database(DB_NAME, keep=args.keep_db):
        import logging

        from django.core.management import call_command
        from django.test import Client
        from django.urls import reverse

        logging.getLogger("fontTools").setLevel(logging.WARNING)
        logging.getLogger("weasyprint").setLevel(logging.WARNING)
        call_command("migrate", verbosity=0, interactive=False)
        client = Client()
        director, made = flights()
        client.force_login(director)  # the event is a draft: its directors' to read
        cases = []
        for name, flight in made:
            kw = {"slug": flight.event.slug, "flight_id": flight.pk}  # type: ignore[attr-defined]
            draw = reverse("tournaments:flight-draw-pdf", kwargs=kw)
            cases += [(f"{name} draw A4", draw), (f"{name} draw A3", f"{draw}?size=a3")]
        kw = {"slug": made[0][1].event.slug, "flight_id": made[0][1].pk}  # type: ignore[attr-defined]
        round_url = reverse("tournaments:flight-round-pdf", kwargs={**kw, "number": 1})
        cases += [
            ("single round 1 sheets", f"{round_url}?part=main"),
            ("single standings", reverse("tournaments:flight-standings-pdf", kwargs=kw)),
        ]
        began = time.perf_counter()
        warm = client.get(cases[0][1])
        assert warm.status_code == 200, warm.status_code
        print(f"first PDF of the process (loads WeasyPrint): {time.perf_counter() - began:.2f} s")
        worst_a4 = 0.0
        for label, url in cases:
            times, cpu = [], []
            for _ in range(args.rounds):
                began, began_cpu = time.perf_counter(), time.process_time()
                response = client.get(url)
                times.append(time.perf_counter() - began)
                cpu.append(time.process_time() - began_cpu)
                assert response.status_code == 200, (url, response.status_code)
            data = response.content
            print(
                f"{label:24} {len(data):>9,} bytes {pages_of(data):>3} pages  "
                f"median {statistics.median(times):.2f} s  worst {max(times):.2f} s  "
                f"(CPU median {statistics.median(cpu):.2f} s)",
                flush=True,
            )
            if label == "single draw A4":
                worst_a4 = max(times)
        print(f"seconds {worst_a4:.2f}")


if __name__ == "__main__":
    _host.ensure_venv(__file__, "BENCH_PAPER_IN_VENV")
    main()

"""``manage.py ratings_recompute``: replay every rated result in order from 1500/0 and
write back the rows and players whose numbers differ
(:func:`games.ratings.services.ratings_replay`).

The numbers are those the incremental updates give (the same pure function on the same
stored ratings); a run on a consistent ledger writes nothing. The progress bar goes to
stderr (``--no-progress`` turns it off), the summary to stdout."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, OutputWrapper

from games.ratings.services import ratings_replay


class ProgressBar:
    """A one-line text progress bar, redrawn with ``\\r`` (at most every 0.1 s)."""

    def __init__(self, stream: OutputWrapper, width: int = 40, label: str = "replaying") -> None:
        self.stream, self.width, self.label = stream, width, label
        self.started = time.perf_counter()
        self.drawn = 0.0

    def __call__(self, done: int, total: int) -> None:
        now = time.perf_counter()
        if done < total and now - self.drawn < 0.1:
            return
        self.drawn = now
        share = done / total if total else 1.0
        filled = round(self.width * share)
        bar = "#" * filled + "-" * (self.width - filled)
        self.stream.write(
            f"\r{self.label} [{bar}] {done}/{total} {share:4.0%} {now - self.started:5.1f}s",
            ending="\n" if done >= total else "",
        )
        self.stream.flush()


class Command(BaseCommand):
    help = "Recompute all ratings by replaying every rated result in order from 1500."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--no-progress", action="store_true", help="No progress bar.")

    def handle(self, *args: object, **options: Any) -> None:
        progress = None if options["no_progress"] else ProgressBar(self.stderr)
        started = time.perf_counter()
        report = ratings_replay(progress=progress)
        self.stdout.write(
            f"{report.results} rated results replayed in {time.perf_counter() - started:.2f} s "
            f"(read {report.read_seconds:.2f}, compute {report.compute_seconds:.2f}, "
            f"write {report.write_seconds:.2f}): {report.rows_written} results and "
            f"{report.players_written} players changed."
        )

"""``manage.py analyse_matches [--plies N] [--sync] [--limit N]``: back-fill: queue every
finished match that has no analysis yet (those the triggers would have queued: played to
a score, with at least one checker play), oldest first. ``--sync`` runs each in this
process instead of on the ``analysis`` queue."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from games.analysis.receivers import analysis_wanted
from games.analysis.services import analysis_request, analysis_run
from games.models import Match, MatchAnalysis


class Command(BaseCommand):
    help = "Queue (or with --sync run) GNU Backgammon's analysis of every unanalysed match."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--plies", type=int, default=None, help="gnubg's lookahead")
        parser.add_argument("--sync", action="store_true", help="analyse here, one by one")
        parser.add_argument("--limit", type=int, default=None, help="at most this many")

    def handle(self, *args: object, **options: Any) -> None:
        plies = options["plies"] if options["plies"] is not None else settings.ANALYSIS_PLIES
        matches = (
            Match.objects.filter(status=Match.Status.FINISHED, analysis__isnull=True)
            .exclude(length=0)
            .order_by("finished_at", "pk")
        )
        queued = done = failed = 0
        for match in matches.iterator():
            if options["limit"] is not None and queued >= options["limit"]:
                break
            if not analysis_wanted(match):
                continue
            analysis = analysis_request(match_id=match.pk, plies=plies, send=not options["sync"])
            queued += 1
            if options["sync"]:
                result = analysis_run(analysis_id=analysis.pk)
                if result is not None and result.status == MatchAnalysis.Status.DONE:
                    done += 1
                else:
                    failed += 1
                    reason = result.failure_reason if result else "held by a worker"
                    self.stderr.write(f"match {match.pk}: {reason}")
        if options["sync"]:
            self.stdout.write(f"{done} analysed, {failed} failed")
        else:
            self.stdout.write(f"{queued} queued")

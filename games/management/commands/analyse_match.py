"""``manage.py analyse_match MATCH_ID [--plies N] [--json]``: analyse one match with GNU
Backgammon now, in this process, by the code the ``analysis`` queue's task runs, and
print each player's figures (``--json``: one JSON object, below). The match's stored
analysis is replaced. Exits non-zero with the reason when gnubg cannot analyse it.

JSON: ``{"match", "plies", "players": [{"player", "name", "unforced_moves",
"close_cube_decisions", "error_total_emg", "error_rate_memg", "pr",
"snowie_error_rate", "luck_rate_memg", "luck_adjusted_result"}]}`` (``player``: the
player's id)."""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.analysis.services import analysis_request, analysis_run
from games.models import Match, MatchAnalysis, PlayerAnalysis

FIELDS = (
    "unforced_moves",
    "close_cube_decisions",
    "error_total_emg",
    "error_rate_memg",
    "pr",
    "snowie_error_rate",
    "luck_rate_memg",
    "luck_adjusted_result",
)


def analysis_figures(analysis: MatchAnalysis) -> dict[str, Any]:
    """The command's JSON of a done analysis."""
    rows = PlayerAnalysis.objects.filter(analysis=analysis).select_related("player")
    return {
        "match": analysis.match_id,
        "plies": analysis.plies,
        "players": [
            {
                "player": row.player_id,
                "name": row.player.name,
                **{name: getattr(row, name) for name in FIELDS},
            }
            for row in rows.order_by("index")
        ],
    }


class Command(BaseCommand):
    help = "Analyse one match with GNU Backgammon now and print each player's figures."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("match_id", type=int)
        parser.add_argument(
            "--plies",
            type=int,
            default=None,
            help=f"gnubg's lookahead (default ANALYSIS_PLIES = {settings.ANALYSIS_PLIES})",
        )
        parser.add_argument("--json", action="store_true", help="print one JSON object")

    def handle(self, *args: object, **options: Any) -> None:
        match_id = options["match_id"]
        plies = options["plies"] if options["plies"] is not None else settings.ANALYSIS_PLIES
        if not 0 <= plies <= 4:
            raise CommandError("--plies must be between 0 and 4")
        if not Match.objects.filter(pk=match_id).exists():
            raise CommandError(f"no match {match_id}")
        analysis = analysis_request(match_id=match_id, plies=plies, again=True, send=False)
        done = analysis_run(analysis_id=analysis.pk, plies=plies)
        if done is None:
            raise CommandError(f"match {match_id} is being analysed by a worker now")
        if done.status != MatchAnalysis.Status.DONE:
            raise CommandError(f"{done.failure_code}: {done.failure_reason}")
        figures = analysis_figures(done)
        if options["json"]:
            self.stdout.write(json.dumps(figures))
            return
        self.stdout.write(f"Match {match_id}, {plies}-ply ({done.gnubg_version})")
        header = f"{'player':<24} {'moves':>6} {'cube':>5} {'EMG':>8} {'mEMG':>7} {'PR':>6}"
        self.stdout.write(header + f" {'Snowie':>7} {'luck':>7} {'adj.':>7}")
        for row in figures["players"]:
            adjusted = row["luck_adjusted_result"]
            adjusted_text = "n/a" if adjusted is None else f"{adjusted:+.2f}"
            self.stdout.write(
                f"{row['name'][:24]:<24} {row['unforced_moves']:>6} "
                f"{row['close_cube_decisions']:>5} {row['error_total_emg']:>8.3f} "
                f"{row['error_rate_memg']:>7.1f} {row['pr']:>6.2f} "
                f"{row['snowie_error_rate']:>7.1f} {row['luck_rate_memg']:>+7.1f} "
                f"{adjusted_text:>7}"
            )

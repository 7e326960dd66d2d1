"""Benchmark: matches analysed per CPU-hour at 2-ply by the project's analysis job against
GNU Backgammon alone on the same matches in the same run (issue 28); and the practice
opponent's reply times.

Run from the repository root: ``python bench/analysis.py [--matches 3] [--length 3]
[--plies 2]``. It is not a test. It talks to nothing but PostgreSQL on 127.0.0.1:5432
and the gnubg program (``GNUBG_PROGRAM``).

1. Drops and recreates the database ``bench_analysis`` and migrates it.
2. Has gnubg play ``--matches`` matches to ``--length`` against itself (0-ply with
   noise, as the tests' matches) and records each with the project's ``.mat`` import.
3. For each match, in turn: the project's job (``games.analysis.services.analysis_run``:
   the ``.mat`` export, gnubg in its child process game by game, the statistics read
   back, every decision stored), and gnubg alone (``gnubg -t -q``: ``import mat`` +
   ``analyse match`` of the same file, one thread, the same plies). CPU is counted as
   the children's (``RUSAGE_CHILDREN``) plus, for the job, this process's own.
4. Prints both rates in matches per CPU-hour and their ratio (goal: >= 0.9).
5. The practice opponent's reply times (p50/p99), from ``bench/analysis_bot.py`` when
   that module is there.

The last line is ``ratio <job's rate / gnubg's rate>``.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import _host  # bench/_host.py: this folder is on sys.path when run as a script

DB_NAME = "bench_analysis"


def cpu_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cpu_self() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def gnubg_run(program: str, commands: list[str], home: str) -> str:
    return subprocess.run(  # noqa: S603 - our own setting, no shell
        [program, "-t", "-q"],
        input="\n".join(commands) + "\n",
        capture_output=True,
        text=True,
        timeout=1800,
        env={"PATH": "/usr/bin:/bin", "HOME": home, "LANG": "C", "LC_ALL": "C"},
        check=False,
    ).stdout


def selfplay(program: str, path: Path, *, length: int, seed: int, home: str) -> str:
    commands = ["set threads 1", f"set seed {seed}"]
    for player in (0, 1):
        commands += [
            f"set player {player} gnubg",
            f"set player {player} chequerplay evaluation plies 0",
            f"set player {player} cubedecision evaluation plies 0",
            f"set player {player} chequerplay evaluation noise 0.04",
            f"set player {player} cubedecision evaluation noise 0.04",
        ]
    gnubg_run(program, [*commands, f"new match {length}", f"export match mat {path}"], home)
    return path.read_text(encoding="utf-8")


def per_hour(matches: int, cpu: float) -> float:
    return matches / cpu * 3600 if cpu else float("inf")


def bot_figures() -> None:
    # ---- The practice opponent's reply times (issue 28, C). bench/analysis_bot.py is
    # ---- written with the bot; its bot_reply_times(turns) returns the quantiles.
    try:
        import analysis_bot  # type: ignore[import-not-found]
    except ImportError:
        print("bot reply times: bench/analysis_bot.py is missing (not measured)")
        return
    times = analysis_bot.bot_reply_times(turns=30)
    print(
        f"bot reply, a whole turn (world class, 2-ply): p50 {times['turn_p50']:.3f} s, "
        f"p99 {times['turn_p99']:.3f} s; each decision: p50 {times['reply_p50']:.3f} s, "
        f"p99 {times['reply_p99']:.3f} s ({times['turns']} turns, {times['decisions']} "
        "decisions)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--length", type=int, default=3)
    parser.add_argument("--plies", type=int, default=2)
    parser.add_argument("--keep-db", action="store_true", help=f"keep {DB_NAME} afterwards")
    args = parser.parse_args()
    _host.warn_if_busy()
    with _host.django_bench_database(DB_NAME, keep=args.keep_db):
        from django.conf import settings
        from django.core.management import call_command

        from games.analysis.services import analysis_request, analysis_run
        from games.models import DecisionAnalysis, GameAction, MatchAnalysis
        from games.play.interchange import match_import_mat
        from games.signals import match_recorded

        call_command("migrate", verbosity=0, interactive=False)
        # The bench runs the jobs itself: nothing is sent to a queue.
        match_recorded.disconnect(dispatch_uid="analysis_on_match_recorded")
        program = settings.GNUBG_PROGRAM
        print(f"gnubg: {program}; {args.matches} matches to {args.length}, {args.plies}-ply")
        job_cpu = alone_cpu = 0.0
        decisions = 0
        with tempfile.TemporaryDirectory(prefix="bench-analysis-") as work:
            files = []
            for number in range(args.matches):
                path = Path(work) / f"match{number}.mat"
                text = selfplay(program, path, length=args.length, seed=1000 + number, home=work)
                match = match_import_mat(text=text, by=None)
                plays = GameAction.objects.filter(game__match=match, kind="play").count()
                files.append((path, match))
                print(f"match {number + 1}: {match.games.count()} games, {plays} plays")
            for number, (path, match) in enumerate(files, start=1):
                before_children, before_self = cpu_children(), cpu_self()
                started = time.monotonic()
                analysis = analysis_request(match_id=match.pk, plies=args.plies, send=False)
                done = analysis_run(analysis_id=analysis.pk)
                wall = time.monotonic() - started
                cpu = cpu_children() - before_children + cpu_self() - before_self
                assert done is not None and done.status == MatchAnalysis.Status.DONE, done
                stored = DecisionAnalysis.objects.filter(analysis=done).count()
                decisions += stored
                job_cpu += cpu
                before = cpu_children()
                started = time.monotonic()
                gnubg_run(
                    program,
                    [
                        "set threads 1",
                        f"set analysis chequerplay evaluation plies {args.plies}",
                        f"set analysis cubedecision evaluation plies {args.plies}",
                        f"import mat {path}",
                        "analyse match",
                    ],
                    work,
                )
                alone_wall = time.monotonic() - started
                alone = cpu_children() - before
                alone_cpu += alone
                print(
                    f"match {number}: job {cpu:.1f} CPU-s ({wall:.1f} s wall, {stored} "
                    f"decisions stored), gnubg alone {alone:.1f} CPU-s ({alone_wall:.1f} s wall)",
                    flush=True,
                )
        job_rate = per_hour(args.matches, job_cpu)
        alone_rate = per_hour(args.matches, alone_cpu)
        print(
            f"job: {job_rate:.0f} matches per CPU-hour ({job_cpu:.1f} CPU-s, "
            f"{job_cpu / max(decisions, 1) * 1000:.0f} ms per stored decision)"
        )
        print(f"gnubg alone: {alone_rate:.0f} matches per CPU-hour ({alone_cpu:.1f} CPU-s)")
        bot_figures()  # on the bench's database too (its bot and matches go with it)
    print(f"ratio {job_rate / alone_rate:.2f}")


if __name__ == "__main__":
    _host.ensure_venv(__file__, "BENCH_ANALYSIS_VENV")
    sys.path.insert(0, os.fspath(Path(__file__).resolve().parent))
    main()

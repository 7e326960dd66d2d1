"""Benchmark: the replay page and API of a long game (issue 27).

Run from the repository root: ``python bench/replay.py``. It is not a test. It talks to
nothing but PostgreSQL on 127.0.0.1:5432.

1. Drops and recreates the PostgreSQL database ``bench_replay`` (trust auth, user
   ``postgres``) and migrates it (the test settings, in this process).
2. Plays, with the engine's own self-play (``games.engine.selfplay``), long money games
   with no resignation and no drop until one has at least ``--moves`` steps, and imports
   it as a one-game ``.mat`` match (``games.play.interchange``): its log is replayed as
   any game's.
3. Gets ``/matches/<id>/replay/1/?move=K`` (the start, the middle and the last step)
   and ``GET /api/v1/games/<id>/replay/`` ``--rounds`` times each through Django's test
   client as a visitor, and prints the median and worst time, the answer's size, and
   what the page would weigh with every step's board drawn in it (the choice the page
   made: one step's board at a time, the next one fetched).

The last line is ``seconds <worst time of the page at the last step>``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import _host  # bench/_host.py: this folder is on sys.path when run as a script

DB_NAME = "bench_replay"


def long_game_text(min_steps: int, seed: int = 1) -> tuple[str, int]:
    """A ``.mat`` text of one money game with at least ``min_steps`` replay steps (a roll
    with its play is one), and its number of log entries."""
    from games.engine.actions import apply_action
    from games.engine.game import new_game
    from games.engine.match import MatchState
    from games.engine.matfile.record import build_record
    from games.engine.matfile.write import export_mat
    from games.engine.rules import RuleOptions
    from games.engine.selfplay import random_action

    options = RuleOptions()
    rng = random.Random(seed)
    while True:
        state, log = new_game(options, MatchState.money()), []
        while not state.is_over:
            action = random_action(state, rng)
            if action.kind in ("resign", "drop", "double"):
                continue
            state = apply_action(state, action)
            log.append(action)
        plays = sum(1 for a in log if a.kind == "play")
        if plays >= min_steps:
            record = build_record(("Alice", "Bob"), 0, [log], options=options)
            return export_mat(record), len(log)


def _timed(client: object, url: str, rounds: int) -> tuple[list[float], int, int]:
    times, size, status = [], 0, 0
    for _ in range(rounds):
        began = time.perf_counter()
        response = client.get(url, HTTP_ACCEPT_LANGUAGE="en")  # type: ignore[attr-defined]
        times.append(time.perf_counter() - began)
        size, status = len(response.content), response.status_code
    return times, size, status


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--moves", type=int, default=60, help="at least this many plays")
    parser.add_argument("--keep-db", action="store_true", help=f"keep {DB_NAME} afterwards")
    args = parser.parse_args()
    _host.warn_if_busy()
    with _host.django_bench_database(DB_NAME, keep=args.keep_db):
        from django.core.management import call_command
        from django.test import Client

        from games.models import Game, GameAction
        from games.play import interchange, replay

        call_command("migrate", verbosity=0, interactive=False)
        text, entries = long_game_text(args.moves)
        match = interchange.match_import_mat(text=text, by=None, limits=interchange.NO_LIMITS)
        game = Game.objects.get(match=match, number=1)
        steps = replay.game_replay_steps(game=game)
        every_board = sum(
            len(replay.step_board_svg(s, viewer=0, home="right", names=("A", "B"), number=1))
            for s in steps
        )
        print(
            f"game: {GameAction.objects.filter(game=game).count()} log entries "
            f"({entries} in the file), {len(steps) - 1} steps; every step's board together "
            f"{every_board / 1024:,.0f} KB",
            flush=True,
        )
        client = Client()
        base = f"/matches/{match.pk}/replay/1/"
        worst_last = 0.0
        for name, url in (
            ("start", base),
            ("middle", f"{base}?move={len(steps) // 2}"),
            ("last", f"{base}?move=last"),
            ("api", f"/api/v1/games/{game.pk}/replay/"),
        ):
            times, size, status = _timed(client, url, args.rounds)
            print(
                f"{name:7} status {status}  {size / 1024:6.1f} KB  "
                f"median {statistics.median(times) * 1000:6.1f} ms  "
                f"worst {max(times) * 1000:6.1f} ms",
                flush=True,
            )
            if name == "last":
                worst_last = max(times)
        print(f"seconds {worst_last:.3f}")


if __name__ == "__main__":
    main()

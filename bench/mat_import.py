"""Benchmark: the ``.mat`` import page with the largest files its limits admit (issue 16).

Run from the repository root: ``python bench/mat_import.py``. It is not a test. It talks
to nothing but PostgreSQL on 127.0.0.1:5432.

1. Drops and recreates the PostgreSQL database ``bench_mat`` (trust auth, user
   ``postgres``) and migrates it (the test settings, in this process).
2. Writes, with the engine's own self-play and export (``games.engine.selfplay``,
   ``games.engine.matfile.write.export_mat``), the worst files the limits of
   :mod:`games.play.interchange` admit:

   * **played**: a money session of random legal games with no resignation and no drop
     (so the games are long, about 100 entries each), games added while the file stays
     under the move, game and byte limits;
   * **doubles**: the same with every roll a double (legal in a file: its dice are what
     it says), whose plays take longer to find: the longest a crafted file under the
     limits holds a worker;
   * **over**: the played file and one game more, over the move limit: refused before
     its replay.

3. Posts each ``--rounds`` times to ``/matches/import/`` through Django's test client as
   a staff user (each import rolled back) and prints the median and worst time, the
   answer's status and the file's size, games and entries.

The last line is ``seconds <worst time of the played file>``; the goal is well under 2 s.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import statistics
import time

import _host  # bench/_host.py: this folder is on sys.path when run as a script

DB_NAME = "bench_mat"


def outline_of(text: str) -> object:
    """The file's :class:`~games.engine.matfile.read.MatOutline` (read, not replayed)."""
    from games.engine.matfile.read import import_mat

    found: list[object] = []

    def stop(outline: object) -> None:
        found.append(outline)
        raise StopIteration

    with contextlib.suppress(StopIteration):
        import_mat(text, before_replay=stop)
    return found[0]


def session_text(*, doubles: bool, over: bool = False, seed: int = 1) -> str:
    """A money session of long random games as large as the limits admit (``over``: one
    game more than they admit)."""
    from games.engine.actions import Action, apply_action
    from games.engine.game import apply_result, new_game
    from games.engine.match import MatchState
    from games.engine.matfile.record import build_record
    from games.engine.matfile.write import export_mat
    from games.engine.rules import RuleOptions
    from games.engine.selfplay import random_action
    from games.play import interchange

    options = RuleOptions(beavers=True)
    rng = random.Random(seed)
    match = MatchState.money()
    logs: list[list[Action]] = []
    moves = 0
    while True:
        state, log = new_game(options, match), []
        while not state.is_over:
            action = random_action(state, rng)
            if action.kind in ("resign", "drop"):
                continue
            if doubles and action.kind == "roll":
                die = rng.randint(1, 6)
                action = Action("roll", action.player, {"dice": [die, die]})
            state = apply_action(state, action)
            log.append(action)
        assert state.result is not None
        # The game's checker moves as the limit counts them (MatOutline.moves): the
        # opening roll (2) and each roll (2, a double 4), each cube action and "Wins" (1).
        moves += 3 + sum(
            (4 if a.data["dice"][0] == a.data["dice"][1] else 2)
            if a.kind == "roll"
            else int(a.kind in ("double", "take", "beaver"))
            for a in log
        )
        logs.append(log)
        match = apply_result(match, state.result)
        if moves > interchange.MAX_MAT_MOVES or len(logs) > interchange.MAX_MAT_GAMES:
            break
    if not over:
        logs.pop()
    while True:
        text = export_mat(build_record(("Alice", "Bob"), 0, logs, options=options))
        if over or len(text.encode()) <= interchange.MAX_MAT_BYTES:
            return text
        logs.pop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--keep-db", action="store_true", help=f"keep {DB_NAME} afterwards")
    args = parser.parse_args()
    _host.warn_if_busy()
    with _host.django_bench_database(DB_NAME, keep=args.keep_db):
        from django.contrib.auth import get_user_model
        from django.core.management import call_command
        from django.db import transaction
        from django.test import Client

        from games.models import Match
        from games.play import interchange

        call_command("migrate", verbosity=0, interactive=False)
        user = get_user_model().objects.create_user("bench-import", is_staff=True)
        client = Client()
        client.force_login(user)
        print(
            f"limits: {interchange.MAX_MAT_BYTES:,} bytes, {interchange.MAX_MAT_GAMES} games, "
            f"{interchange.MAX_MAT_MOVES:,} checker moves",
            flush=True,
        )

        class Rollback(Exception):
            pass

        worst_played = 0.0
        for name, text in (
            ("played", session_text(doubles=False)),
            ("doubles", session_text(doubles=True)),
            ("over", session_text(doubles=False, over=True)),
        ):
            found = outline_of(text)
            times, statuses = [], set()
            for _ in range(args.rounds):
                try:
                    with transaction.atomic():
                        began = time.perf_counter()
                        response = client.post("/matches/import/", {"text": text})
                        times.append(time.perf_counter() - began)
                        statuses.add(response.status_code)
                        raise Rollback
                except Rollback:
                    pass
            assert not Match.objects.exists()
            print(
                f"{name:8} {len(text.encode()):>9,} bytes {found.games:>4} games "  # type: ignore[attr-defined]
                f"{found.moves:>6,} moves  status {sorted(statuses)}  "  # type: ignore[attr-defined]
                f"median {statistics.median(times):.2f} s  worst {max(times):.2f} s",
                flush=True,
            )
            if name == "played":
                worst_played = max(times)
        print(f"seconds {worst_played:.2f}")


if __name__ == "__main__":
    main()

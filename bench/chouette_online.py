"""Benchmark: online chouette play (issue 19) on PostgreSQL, through the services and the
table's page.

Run from the repository root: ``python bench/chouette_online.py`` (``--quick``: 5 games).
It is not a test. It talks to nothing but PostgreSQL on 127.0.0.1:5432 (the database
``bench_chouette``, dropped at the end unless ``--keep-db``) and, for the live layer's
publish, Redis on 127.0.0.1:6379 (database 14).

1. A four-player session (classic profile) plays ``--games`` games online to their end
   through :func:`chouette.online.services.online_game_act`, each action its own
   transaction as a request's is: the movers roll (seeded dice) and play the first legal
   play; in every game the box doubles once before one of its rolls and each member takes
   or drops (seeded), so cube decisions and acting captains are in the mix. Every
   finished game is recorded in the ledger in the same transaction as its last action.
2. **actions**: the latency of every action (lock the session and the game, rebuild the
   pure table, decide, store the state, the log row and, at the end, the ledger lines),
   median and p99, by kind.
3. **page**: the table's page (``/chouette/<id>/play/``) rendered through Django's test
   client for a member of the team, during a game: median and p99 of ``--pages`` renders,
   with its query count.

The last line is ``p99_ms <p99 of all actions> page_p99_ms <p99 of the page>``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import _host  # bench/_host.py: this folder is on sys.path when run as a script

DB_NAME = "bench_chouette"


def _p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--pages", type=int, default=200)
    parser.add_argument("--quick", action="store_true", help="5 games, 50 page renders")
    parser.add_argument("--keep-db", action="store_true", help=f"keep {DB_NAME} afterwards")
    args = parser.parse_args()
    if args.quick:
        args.games, args.pages = 5, 50
    _host.ensure_venv(__file__, "BENCH_CHOUETTE_VENV")
    _host.warn_if_busy()
    with _host.django_bench_database(DB_NAME, keep=args.keep_db):
        run(args)


def run(args: argparse.Namespace) -> None:
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from chouette.models import ChouetteOnlineGame
    from chouette.online import services
    from chouette.online.table import BOX, Table
    from chouette.services.sessions import session_create
    from chouette.services.summary import session_totals
    from games.engine.position import position_id
    from tests.factories import UserPlayerFactory

    call_command("migrate", verbosity=0, interactive=False)
    rng = random.Random(19)
    cast = [UserPlayerFactory(name=n) for n in ("Anna", "Béla", "Csaba", "Dóra")]
    users = {p.pk: p.user for p in cast}
    order = [p.pk for p in cast]
    session = session_create(by=cast[0].user, name="bench", player_ids=order, order=order)
    timings: dict[str, list[float]] = {}
    page_ms: list[float] = []
    page_queries = 0
    client = Client()
    began = time.perf_counter()
    for number in range(args.games):
        game = services.online_game_start(session_id=session.pk, by=cast[0].user, dice=rng)
        doubled = False
        while True:
            game = ChouetteOnlineGame.objects.get(pk=game.pk)
            if not game.is_playing:
                break
            table = Table.from_dict(game.table)
            kwargs: dict[str, object] = {}
            if table.decisions:
                d = table.decisions[0]
                kind, who = "answer", d.decider
                kwargs = {"member": d.member, "answer": rng.choice(["take", "take", "drop"])}
            elif (
                not doubled
                and table.board.turn == BOX
                and table.board.phase == "roll"
                and table.actions_for(table.box).get("box_double")
            ):
                kind, who, doubled = "box_double", table.box, True
            elif table.board.phase == "roll":
                kind, who, kwargs = "roll", table.mover, {"dice": rng}
            else:
                kind, who = "play", table.mover
                kwargs = {"position_id": position_id(table.board.legal_plays()[0].result)}
            started = time.perf_counter()
            services.online_game_act(
                game_id=game.pk,
                by=users[who],
                action=kind,
                expected_version=game.version,
                **kwargs,
            )
            timings.setdefault(kind, []).append((time.perf_counter() - started) * 1000)
            if number == 0 and len(page_ms) < args.pages and table.members:
                viewer = users[table.members[-1]]
                client.force_login(viewer)
                for _ in range(max(1, args.pages // 20)):
                    t0 = time.perf_counter()
                    with CaptureQueriesContext(connection) as queries:
                        client.get(f"/chouette/{session.pk}/play/")
                    page_ms.append((time.perf_counter() - t0) * 1000)
                    page_queries = max(page_queries, len(queries))
        session.refresh_from_db()
    seconds = time.perf_counter() - began
    every = [v for values in timings.values() for v in values]
    totals = session_totals(session)
    print(
        f"bench/chouette_online.py: {args.games} games, {len(every)} actions in "
        f"{seconds:.1f} s; ledger sums to {sum(totals.values())}"
    )
    for kind, values in sorted(timings.items()):
        print(
            f"  {kind:<11} n={len(values):>5}  median {statistics.median(values):6.2f} ms"
            f"  p99 {_p(values, 0.99):6.2f} ms"
        )
    print(
        f"  page        n={len(page_ms):>5}  median {statistics.median(page_ms):6.2f} ms"
        f"  p99 {_p(page_ms, 0.99):6.2f} ms  queries {page_queries}"
    )
    print(f"p99_ms {_p(every, 0.99):.2f} page_p99_ms {_p(page_ms, 0.99):.2f}")


if __name__ == "__main__":
    main()

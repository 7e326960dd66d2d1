"""Benchmark: the practice opponent's reply time at world class (gnubg 2-ply), issue 28.

Run from the repository root: ``python bench/analysis_bot.py [--turns N]``. It is not a
test. It talks to nothing but PostgreSQL on 127.0.0.1:5432 (and gnubg's child process).

1. Drops and recreates the PostgreSQL database ``bench_bot`` and migrates it (the test
   settings, in this process; the bot's turns are not sent to any queue).
2. Invites the bot (``games.practice``) to 7-point matches at ``world_class`` and plays
   them: a scripted person (random legal plays, takes every double) against the bot,
   whose every decision is :func:`games.practice.services.bot_act` -- the same call the
   task ``games.bot_turn`` makes: it reads the game, asks gnubg (its child already
   started: a warm-up request first) and stores the action through the play services.
3. Times each ``bot_act`` from the call (the game had just become the bot's to act) to
   its return (the action committed), until ``turns`` bot turns are played. A **turn**
   is the bot's roll (with its cube decision, a 2-ply evaluation, before it) and its
   move; each is also timed alone. Prints p50 and p99 of each, in seconds.

The last line is ``reply_p99 <seconds>``: the goal is about 2 s a turn at 2-ply.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

import _host  # bench/_host.py: this folder is on sys.path when run as a script

DB_NAME = "bench_bot"


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def bot_reply_times(turns: int, *, seed: int = 28) -> dict[str, Any]:
    """Play until the bot made ``turns`` turns; p50/p99 seconds of its replies (see the
    module docstring). Needs Django set up on a database it may write to."""
    from django.conf import settings

    from games.engine import actions as engine_actions
    from games.engine.position import position_id
    from games.models import Match
    from games.play import invitations, services
    from games.practice import brain
    from games.practice import services as practice
    from tests.factories import UserPlayerFactory

    settings.PRACTICE_BOT_INPROCESS = True  # no queue: this loop is the bot's driver
    brain.brain().ping()  # the child's start-up is not a reply
    rng = random.Random(seed)
    person = UserPlayerFactory(name="Bench")
    bot = practice.bot_player_get_or_create()
    by_kind: dict[str, list[float]] = {}
    per_turn: list[float] = []
    current = 0.0
    done = 0
    while done < turns:
        invitation = invitations.invitation_send(
            inviter=person, invitee=bot, length=7, bot_level="world_class", dice=rng
        )
        match = Match.objects.get(pk=invitation.match_id)
        while done < turns:
            match.refresh_from_db()
            if match.status != Match.Status.PLAYING:
                break
            game = match.games.order_by("-number").first()
            state = engine_actions.state_from_dict(game.state)
            common = {"game_id": game.pk, "player": person, "expected_version": game.version}
            if state.player_to_act == 1:
                began = time.perf_counter()
                outcome = practice.bot_act(game_id=game.pk, version=game.version, dice=rng)
                spent = time.perf_counter() - began
                by_kind.setdefault(outcome, []).append(spent)
                current += spent
                if outcome in ("played", "dropped", "took", "accepted", "declined"):
                    per_turn.append(current)
                    current = 0.0
                    done += outcome == "played"
            elif state.resignation is not None:
                services.resign_decline(**common)
            elif state.phase == "doubled":
                services.cube_take(**common)
            elif state.phase == "roll":
                services.game_roll(**common, dice=rng)
            else:
                play = rng.choice(state.legal_plays())
                services.game_play(**common, result_position_id=position_id(play.result))
    replies = [t for times in by_kind.values() for t in times]
    return {
        "turns": done,
        "decisions": len(replies),
        "reply_p50": _quantile(replies, 0.5),
        "reply_p99": _quantile(replies, 0.99),
        "turn_p50": _quantile(per_turn, 0.5),
        "turn_p99": _quantile(per_turn, 0.99),
        "by_kind": {
            kind: {
                "n": len(times),
                "p50": _quantile(times, 0.5),
                "p99": _quantile(times, 0.99),
                "mean": statistics.fmean(times),
            }
            for kind, times in sorted(by_kind.items())
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=200, help="bot turns to time")
    parser.add_argument("--keep-db", action="store_true", help=f"keep {DB_NAME} afterwards")
    args = parser.parse_args()
    _host.warn_if_busy()
    with _host.django_bench_database(DB_NAME, keep=args.keep_db):
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        figures = bot_reply_times(args.turns)
    print(f"bot turns {figures['turns']}, decisions {figures['decisions']} (world class, 2-ply)")
    for kind, row in figures["by_kind"].items():
        print(
            f"  {kind:<9} n={row['n']:<4} p50 {row['p50']:.3f} s  p99 {row['p99']:.3f} s"
            f"  mean {row['mean']:.3f} s"
        )
    p50, p99 = figures["turn_p50"], figures["turn_p99"]
    print(f"turn (cube + roll + move)  p50 {p50:.3f} s  p99 {p99:.3f} s")
    print(f"reply_p50 {figures['reply_p50']:.3f}")
    print(f"reply_p99 {figures['reply_p99']:.3f}")


if __name__ == "__main__":
    main()

"""bench/clocks.py's children: the seeding (:func:`child_seed`: one seed-002 match through
the services, its game copied in bulk, one per clock) and the arming (:func:`child_arm`:
each game's deadline stored as games.play.clock computes it and its alarm task sent with
its ETA, as the services do after commit). Each runs in a child process with the
servers' settings (``clocks.py --child seed|arm``).
"""

from __future__ import annotations

import json
import random
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import _host  # bench/_host.py: this folder is on sys.path when run as a script


def _django() -> None:
    sys.path.insert(0, str(_host.ROOT))
    import django

    django.setup()


def child_seed(n_games: int, tag: str, email: bool, out: Path) -> None:
    """(Child process, production settings.) ``n_games`` started seed-002 matches, each
    between two fresh players with users; writes ``[[game id, version], ...]``."""
    began = time.monotonic()
    _django()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    from games.models import Game, GameAction, Match, Player
    from games.play import services

    # The template's own ETA timer stays unsent: its alarm is set when all are armed.
    settings.GAMES_CLOCK_TIMERS = False
    user_model = get_user_model()
    unusable = make_password(None)  # no hashing per user: seeding stays fast
    users = user_model.objects.bulk_create(
        (
            user_model(
                username=f"clock{tag}-{i:05d}",
                email=f"clock{tag}-{i:05d}@bench.invalid" if email else "",
                password=unusable,
            )
            for i in range(2 * n_games)
        ),
        batch_size=2000,
    )
    players = Player.objects.bulk_create(
        (Player(name=f"Clock {tag}-{i:05d}", user=user) for i, user in enumerate(users)),
        batch_size=2000,
    )
    template_match = services.match_create(
        player1=players[0], player2=players[1], length=7, clock="seed002", timeout_claim=True
    )
    template = services.match_start(match_id=template_match.pk)
    Game.objects.filter(pk=template.pk).update(deadline_at=None, alarm_at=None, armed_version=None)
    template_match.refresh_from_db()
    matches = Match.objects.bulk_create(
        (
            Match(
                player1=players[2 * i],
                player2=players[2 * i + 1],
                length=template_match.length,
                rules=template_match.rules,
                state=template_match.state,
                status=template_match.status,
                clock=template_match.clock,
                timeout_claim=template_match.timeout_claim,
                started_at=template_match.started_at,
            )
            for i in range(1, n_games)
        ),
        batch_size=2000,
    )
    games = Game.objects.bulk_create(
        (
            Game(
                match=match,
                number=1,
                state=template.state,
                version=template.version,
                position_id=template.position_id,
                gnubg_match_id=template.gnubg_match_id,
                crawford=template.crawford,
                clock=template.clock,
            )
            for match in matches
        ),
        batch_size=2000,
    )
    log = list(template.actions.order_by("seq").values("seq", "kind", "player_index", "data"))
    GameAction.objects.bulk_create(
        (GameAction(game=game, **row) for game in games for row in log), batch_size=5000
    )
    ids = [[template.pk, template.version]] + [[g.pk, g.version] for g in games]
    out.write_text(json.dumps({"games": ids, "seconds": time.monotonic() - began}))


def child_arm(
    games_file: Path, spread_ms: int, lead_ms: int, n_empty: int, seed: int, out: Path
) -> None:
    """(Child process.) Give every seeded game its deadline, store the clock columns,
    then send the timer tasks and the empty tasks in ETA order; writes the plan."""
    _django()
    from django.db import connection

    from config.celery import app
    from games import wallclock
    from games.engine.clock import ClockState
    from games.models import Game
    from games.play import clock as game_clock
    from games.play.tasks import game_clock_alarm

    rng = random.Random(seed)
    games = json.loads(games_file.read_text())["games"]
    stored = ClockState.from_dict(Game.objects.get(pk=games[0][0]).clock)
    running = stored.running
    assert running is not None, "the template's clock runs for the opening roll's winner"
    reserve = max(1, game_clock.low_time_ms() // 2)  # under the low-time threshold
    settings_ = stored.settings
    at = wallclock.now()
    t0 = wallclock.to_ms(at) + lead_ms
    ids, clock_json, deadlines, plan = [], [], [], []
    for game_id, version in games:
        deadline = t0 + rng.randrange(spread_ms)
        reserves = (reserve, 60_000) if running == 0 else (60_000, reserve)
        clock = ClockState(
            settings_, reserves, running, deadline - settings_.delay_ms - reserve, None
        )
        columns = game_clock.clock_columns(clock, version=version, at=at)
        assert columns["alarm_at"] == columns["deadline_at"] == wallclock.from_ms(deadline)
        assert columns["armed_version"] == version
        ids.append(game_id)
        clock_json.append(json.dumps(columns["clock"]))
        deadlines.append(columns["deadline_at"])
        plan.append((deadline, game_id, version))
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE games_game g SET clock = v.clock::jsonb, deadline_at = v.deadline,"
            " alarm_at = v.deadline, armed_version = g.version"
            " FROM unnest(%s::bigint[], %s::text[], %s::timestamptz[]) AS v(id, clock, deadline)"
            " WHERE g.id = v.id",
            [ids, clock_json, deadlines],
        )
        assert cursor.rowcount == len(ids)
    empties = [t0 + rng.random() * spread_ms for _ in range(n_empty)]
    sends: list[tuple[float, int, int]] = [(float(d), g, v) for d, g, v in plan]
    sends += [(eta, 0, 0) for eta in empties]
    sends.sort()
    began = time.monotonic()
    for eta_ms, game_id, version in sends:
        eta = wallclock.from_ms(int(eta_ms)) if game_id else None
        if game_id:
            # As clocks.arm_on_commit sends it after an action's commit.
            game_clock_alarm.apply_async((game_id, version), eta=eta)
        else:
            eta_s = eta_ms / 1000.0
            app.send_task(
                "clockbench.empty_eta", args=[eta_s], eta=datetime.fromtimestamp(eta_s, tz=UTC)
            )
    out.write_text(
        json.dumps(
            {
                "t0_ms": t0,
                "armed_ms": wallclock.to_ms(at),
                "deadlines": [[g, d] for d, g, _ in plan],
                "empties": n_empty,
                "enqueue_s": time.monotonic() - began,
                "enqueued_ms": wallclock.to_ms(wallclock.now()),
            }
        )
    )

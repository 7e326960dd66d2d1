"""``manage.py audit_games``: replay every stored game from its action log and compare
with the stored state (R14). Exits non-zero naming each game that differs."""

from django.core.management.base import BaseCommand, CommandError

from games.engine.actions import state_from_dict
from games.engine.errors import EngineError
from games.models import Game
from games.play.selectors import game_replayed_state


class Command(BaseCommand):
    help = "Replay every game's action log through the engine and compare with its state."

    def handle(self, *args: object, **options: object) -> None:
        checked = 0
        bad: list[str] = []
        games = Game.objects.select_related("match").prefetch_related("actions")
        for game in games.iterator(chunk_size=200):
            checked += 1
            try:
                same = game_replayed_state(game=game) == state_from_dict(game.state)
            except EngineError as exc:
                bad.append(f"game {game.pk}: the log does not replay ({exc.code})")
                continue
            if not same:
                bad.append(f"game {game.pk}: the replayed state differs from the stored one")
        for line in bad:
            self.stderr.write(line)
        if bad:
            raise CommandError(f"{len(bad)} of {checked} games failed the audit")
        self.stdout.write(f"{checked} games replayed: all equal their stored state.")

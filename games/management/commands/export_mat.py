"""``manage.py export_mat <match id>``: the match as a ``.mat`` file on stdout."""

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.errors import ApplicationError
from games.models import Match
from games.play.interchange import match_export_mat


class Command(BaseCommand):
    help = "Write a match as a .mat file (GNU Backgammon / Jellyfish) to standard output."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("match_id", type=int)

    def handle(self, *args: object, **options: object) -> None:
        try:
            match = Match.objects.select_related("player1", "player2").get(pk=options["match_id"])
        except Match.DoesNotExist:
            raise CommandError(f"there is no match {options['match_id']}") from None
        try:
            self.stdout.write(match_export_mat(match=match), ending="")
        except ApplicationError as exc:
            raise CommandError(f"{exc.code}: {exc.detail}") from None

"""``manage.py import_mat <file> [--player1 NAME --player2 NAME]``: record a match
played elsewhere; prints the new match's id, or exits non-zero with the reason (the game
and move of the first illegal action). Nothing is stored for a refused file."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.errors import ApplicationError
from games.play.interchange import match_import_mat


class Command(BaseCommand):
    help = "Record a match from a .mat file, validating every move with the rules engine."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--player1", help="name of the file's first (left) player here")
        parser.add_argument("--player2", help="name of the file's second (right) player here")

    def handle(self, *args: object, **options: object) -> None:
        path = options["file"]
        assert isinstance(path, Path)
        try:
            text = path.read_text(encoding="utf-8-sig", errors="strict")
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"cannot read {path}: {exc}") from None
        try:
            match = match_import_mat(
                text=text,
                player1_name=options.get("player1"),  # type: ignore[arg-type]
                player2_name=options.get("player2"),  # type: ignore[arg-type]
            )
        except ApplicationError as exc:
            raise CommandError(f"{exc.code}: {exc.detail}") from None
        self.stdout.write(str(match.pk))

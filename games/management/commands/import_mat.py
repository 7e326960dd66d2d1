"""``manage.py import_mat <file> [--player1 NAME --player2 NAME] [--no-limits]``: record a
match played elsewhere; prints the new match's id, or exits non-zero with the reason (the
game and move of the first illegal action, a name too long, a file over the limits).
Nothing is stored for a refused file.

The operator at the command line may import any two players' match (the match is marked
as imported, by nobody: the command has no user). The limits of one file are those of the
page (:data:`games.play.interchange.DEFAULT_LIMITS`); ``--no-limits`` lifts them for a
file the operator knows, such as a club's whole archive of a long session."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.errors import ApplicationError
from games.play import interchange


class Command(BaseCommand):
    help = "Record a match from a .mat file, validating every move with the rules engine."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--player1", help="name of the file's first (left) player here")
        parser.add_argument("--player2", help="name of the file's second (right) player here")
        parser.add_argument(
            "--no-limits",
            action="store_true",
            help="import a file over the size, game and move limits of the import page",
        )

    def handle(self, *args: object, **options: object) -> None:
        path = options["file"]
        assert isinstance(path, Path)
        limits = interchange.NO_LIMITS if options.get("no_limits") else interchange.DEFAULT_LIMITS
        try:
            if limits.bytes is not None:
                interchange.mat_check_size(size=path.stat().st_size, limits=limits)
            text = path.read_text(encoding="utf-8-sig", errors="strict")
            match = interchange.match_import_mat(
                text=text,
                player1_name=options.get("player1"),  # type: ignore[arg-type]
                player2_name=options.get("player2"),  # type: ignore[arg-type]
                by=None,
                limits=limits,
            )
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"cannot read {path}: {exc}") from None
        except ApplicationError as exc:
            hint = " (--no-limits lifts the limits)" if exc.code == "mat_too_large" else ""
            raise CommandError(f"{exc.code}: {exc.detail}{hint}") from None
        self.stdout.write(str(match.pk))

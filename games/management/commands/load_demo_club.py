"""``manage.py load_demo_club``: a handful of players so a fresh install has a club.

Safe to run again: players are matched by name and brought back to the demo values.
"""

from decimal import Decimal

from django.core.management.base import BaseCommand
from django.db import transaction

from games.models import Player

DEMO_PLAYERS: list[tuple[str, Decimal, int]] = [
    ("Kovács Anna", Decimal("1642.18"), 812),
    ("Nagy Péter", Decimal("1588.40"), 655),
    ("Szabó Eszter", Decimal("1561.02"), 430),
    ("Tóth Gábor", Decimal("1533.75"), 390),
    ("Horváth Zsófia", Decimal("1507.33"), 214),
    ("Varga Bence", Decimal("1498.90"), 122),
    ("Kiss Katalin", Decimal("1476.11"), 301),
    ("Molnár Dávid", Decimal("1455.60"), 96),
]


class Command(BaseCommand):
    help = "Create or refresh the demo club's players."

    @transaction.atomic
    def handle(self, *args: object, **options: object) -> None:
        created = 0
        for name, rating, experience in DEMO_PLAYERS:
            _player, was_created = Player.objects.update_or_create(
                name=name, defaults={"rating": rating, "experience": experience}
            )
            created += was_created
        self.stdout.write(f"Demo club ready: {len(DEMO_PLAYERS)} players ({created} new).")

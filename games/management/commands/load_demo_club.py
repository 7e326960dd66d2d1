"""``manage.py load_demo_club``: a club of eight players with a year of rated club matches.

The ratings are not typed in: a seeded year of club matches (typed-in results, source
``club``) goes through the rating ledger like any result, so the player pages have a
history to chart, every change shows its calculation, and ``ratings_recompute`` gives the
same numbers back.

Safe to run again: players are matched by name, and each demo result has a fixed key
(``club:demo-<n>``), recorded once.
"""

import random
from datetime import timedelta

from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from games.models import Player, RatedResult, SignupMode
from games.players.signup.services import club_settings_set_signup, signup_mode
from games.practice.services import bot_player_get_or_create
from games.ratings.services import rating_record

#: Name, club, and a hidden strength that decides who tends to win (1 is even).
DEMO_PLAYERS: list[tuple[str, str, float]] = [
    ("Kovács Anna", "Budapesti Backgammon Kör", 1.6),
    ("Nagy Péter", "Budapesti Backgammon Kör", 1.35),
    ("Szabó Eszter", "Szegedi Ostábla Klub", 1.2),
    ("Tóth Gábor", "Budapesti Backgammon Kör", 1.1),
    ("Horváth Zsófia", "Szegedi Ostábla Klub", 1.0),
    ("Varga Bence", "Budapesti Backgammon Kör", 0.9),
    ("Kiss Katalin", "Szegedi Ostábla Klub", 0.85),
    ("Molnár Dávid", "Budapesti Backgammon Kör", 0.75),
]
DEMO_MATCHES = 240
LENGTHS = (1, 3, 5, 5, 7, 7, 9, 11)
SEED = 2026


class Command(BaseCommand):
    help = "Create or refresh the demo club: eight players and a year of rated club matches."

    @transaction.atomic
    def handle(self, *args: object, **options: object) -> None:
        created = 0
        players = []
        for name, club, _strength in DEMO_PLAYERS:
            player, was_created = Player.objects.get_or_create(name=name, defaults={"club": club})
            if player.club != club:
                player.club = club
                player.save(update_fields=["club"])
            players.append(player)
            created += was_created
        already = set(
            RatedResult.objects.filter(source_key__startswith="club:demo-").values_list(
                "source_key", flat=True
            )
        )
        rng = random.Random(SEED)
        # A year back from now, a club night every few days, oldest first.
        start = timezone.now() - timedelta(days=365)
        recorded = 0
        for n in range(DEMO_MATCHES):
            a, b = rng.sample(range(len(players)), 2)
            length = rng.choice(LENGTHS)
            sa, sb = DEMO_PLAYERS[a][2], DEMO_PLAYERS[b][2]
            winner = players[a] if rng.random() < sa / (sa + sb) else players[b]
            at = start + timedelta(days=n * 365 / DEMO_MATCHES, hours=rng.randint(17, 22))
            key = f"club:demo-{n}"
            if key in already:
                continue
            rating_record(
                source=RatedResult.Source.CLUB,
                source_key=key,
                player1=players[a],
                player2=players[b],
                length=length,
                winner=winner,
                at=at,
            )
            recorded += 1
        # The practice opponent (games.practice), to invite from the lobby.
        bot_player_get_or_create()
        # Sign-up on, approved by staff (issue 30): the demo shows both halves, the
        # newcomer's form and mail and staff's list at /accounts/signups/. Left as it is
        # when the club already chose.
        if signup_mode() == SignupMode.OFF:
            club_settings_set_signup(mode=SignupMode.APPROVED)
        self.stdout.write(
            f"Demo club ready: {len(DEMO_PLAYERS)} players ({created} new), "
            f"{recorded} club matches recorded."
        )

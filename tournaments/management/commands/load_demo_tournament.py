"""``manage.py load_demo_tournament``: a demo event for the one-command local run.

The demo club's eight players (``load_demo_club`` first) in a main + consolation
knockout to 5 points (semi-finals 7, final 9), drawn by rating, with the first round
played, so the event, bracket, director and player pages have something to show (the
services store the places as the results come: the main draw's first-round losers share
5-8 and play on in the consolation). The event's director is the user ``demo-director``
(no password), and the demo club's director login (``demo_logins``, games.players.demo),
when there is one, is a director of it too, to try the desk. Safe to run again: an
existing demo event is left as it is (but for that director). Money (issue 17): a 3000
HUF entry fee, 10 % to the house, the format's split (main 40/25, consolation 25/10), and
a 1000 HUF side pool of four players (the entry fees' paid flags are the desk's to tick).
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone

from games.models import Player
from games.players.demo import DIRECTOR_USERNAME
from tournaments.models import Event, TournamentMatch
from tournaments.services.draw import flight_draw
from tournaments.services.entries import entry_register
from tournaments.services.events import event_create
from tournaments.services.flights import flight_create, flight_round_set
from tournaments.services.money import flight_money_set, side_pool_create, side_pool_enter
from tournaments.services.results import result_enter

SLUG = "demo-kupa"
#: Round 1 results by seed pairing (score of side a, side b): the upsets make it a story.
ROUND_ONE = [(5, 3), (2, 5), (5, 4), (5, 1)]


class Command(BaseCommand):
    help = "Create the demo club's tournament (after load_demo_club)."

    @transaction.atomic
    def handle(self, *args: object, **options: object) -> None:
        event = Event.objects.filter(slug=SLUG).first()
        if event is not None:
            self._demo_director(event)
            self.stdout.write("Demo tournament already there.")
            return
        players = list(Player.objects.order_by("-rating")[:8])
        if len(players) < 8:
            raise CommandError("Run load_demo_club first: the demo event needs 8 players.")
        director, _ = get_user_model().objects.get_or_create(username="demo-director")
        director.set_unusable_password()
        director.save()
        director.user_permissions.add(Permission.objects.get(codename="add_event"))
        director = get_user_model().objects.get(pk=director.pk)  # fresh permission cache
        event = event_create(
            by=director,
            name="Demo Kupa",
            slug=SLUG,
            starts_on=timezone.localdate(),
            location="Klubhelyiség",
        )
        flight = flight_create(
            event_id=event.pk,
            by=director,
            name="Open",
            format="consolation",
            options={"entry_rounds": 1},
            match_length=5,
        )
        for player in players:
            entry_register(flight_id=flight.pk, by=director, player_id=player.pk)
        # Round settings once the entries say how many rounds there are.
        flight_round_set(flight_id=flight.pk, by=director, part="main", number=2, match_length=7)
        flight_round_set(flight_id=flight.pk, by=director, part="main", number=3, match_length=9)
        flight_draw(flight_id=flight.pk, by=director)
        flight_money_set(flight_id=flight.pk, by=director, fee=3000, house_percent=10)
        pool = side_pool_create(flight_id=flight.pk, by=director, name="Jackpot", fee=1000)
        for entry in flight.entries.order_by("seed")[:4]:
            side_pool_enter(pool_id=pool.pk, by=director, entry_id=entry.pk, paid=True)
        first = TournamentMatch.objects.filter(
            flight=flight, part="main", round=1, status=TournamentMatch.Status.READY
        ).order_by("index")
        for row, (a, b) in zip(first, ROUND_ONE, strict=False):
            result_enter(match_id=row.pk, by=director, score_a=a, score_b=b)
        self._demo_director(event)
        self.stdout.write(f"Demo tournament ready: /events/{SLUG}/")

    def _demo_director(self, event: Event) -> None:
        """The demo director login (``manage.py demo_logins``, local run only) runs the
        event too: its desk and director pages are there to try. Only that login, and
        only while it is a demo player's: a user of that name elsewhere is not made one."""
        user = (
            get_user_model()
            .objects.filter(username=DIRECTOR_USERNAME, is_staff=True, player__isnull=False)
            .first()
        )
        if user is not None:
            event.directors.add(user)

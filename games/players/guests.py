"""A player made on the spot from a typed name: a tournament's walk-in
(``tournaments.services.entries.entry_register``), a newcomer joining a chouette session
who is not yet a club member (``chouette.services.seating.session_join_guest``). Such a player
has no login (``Player.user`` empty); an administrator can give them one later.

Both places share these two functions, so a typed name is checked one way
(:func:`games.players.names.player_name_clean`) and a name already taken is answered one
way: ``Player.name`` is unique whatever the case (``player_name_unique_ci``), so "kiss
anna" typed for an existing "Kiss Anna" is refused with 409 ``player_exists`` naming that
player (``extra["player_id"]``): the caller offers them instead of failing obscurely.
:func:`player_namesakes` finds the players a name could also mean once accents are
folded too ("Kovacs Anna" for "Kovács Anna"), which the uniqueness rule allows but a
careful caller asks about first.

Who may create a player is the caller's decision (a director, a session's writer):
these functions check only the name.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from games.errors import Conflict
from games.models import Player
from games.players.names import player_name_clean
from games.text.fold import fold


def _taken(name: str) -> Conflict | None:
    existing = Player.objects.filter(name__iexact=name).first()
    if existing is None:
        return None
    return Conflict(
        "player_exists",
        _("A player of this name exists already: choose them from the list."),
        extra={"player_id": existing.pk, "name": existing.name},
    )


def player_create_guest(*, name: str) -> Player:
    """A new active player without a login, named ``name`` as cleaned (400
    ``invalid_name`` saying what is wrong); 409 ``player_exists`` with the existing
    player's id when the name is taken, whatever the case (also when another request
    took it a moment ago: the database's unique constraint decides)."""
    name = player_name_clean(name=name)
    taken = _taken(name)
    if taken is not None:
        raise taken
    try:
        with transaction.atomic():  # a savepoint: the caller's transaction goes on
            return Player.objects.create(name=name)
    except IntegrityError:
        taken = _taken(name)
        if taken is None:
            raise
        raise taken from None


def player_namesakes(*, name: str) -> list[Player]:
    """The players ``name`` could mean: the same name once case and accents are folded
    ("kovacs anna" -> Kovács Anna), by name."""
    folded = fold(" ".join(name.split()))
    if not folded:
        return []
    return list(Player.objects.filter(search_name=folded).order_by("name"))

"""Builders for the chouette tests on the database (factory_boy players, services)."""

from __future__ import annotations

from typing import Any

from chouette.models import ChouetteEvent, ChouetteLine, ChouetteParticipant, ChouetteSession
from chouette.services.sessions import session_create
from tests.factories import PlayerFactory, UserFactory, UserPlayerFactory

#: The scripted session's roll-off (tests/chouette/rulesdata.py): Bob 6, Ann 5, Cy and
#: Eve tie at 3 (re-rolls 4 and 1), Dee 2: Bob box, Ann captain, then Cy, Eve, Dee.
SCRIPT_NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve")
SCRIPT_ROLLS: dict[str, Any] = {"Ann": 5, "Bob": 6, "Cy": [3, 4], "Dee": 2, "Eve": [3, 1]}


def scorekeeper(**kwargs: Any) -> Any:
    """A user who holds the club scorekeeper's permission (``chouette.keep_score``): may
    start and keep any session without playing in it."""
    from django.contrib.auth.models import Permission

    user = UserFactory(**kwargs)
    user.user_permissions.add(
        Permission.objects.get(content_type__app_label="chouette", codename="keep_score")
    )
    return user


def players(names: tuple[str, ...] = SCRIPT_NAMES, *, with_login: bool = True) -> dict[str, Any]:
    """Players by name (with logins unless told otherwise)."""
    factory = UserPlayerFactory if with_login else PlayerFactory
    return {n: factory(name=n) for n in names}


def session_with(
    cast: dict[str, Any],
    *,
    by: Any = None,
    rolls: dict[str, Any] | None = None,
    profile: dict[str, Any] | None = None,
    **kwargs: Any,
) -> ChouetteSession:
    """A session of ``cast`` seated by ``rolls`` (default: the script's roll-off),
    started by ``by`` (default: a scorekeeper who does not play)."""
    rolls = rolls or SCRIPT_ROLLS
    return session_create(
        by=by or scorekeeper(),
        name=kwargs.pop("name", "Péntek esti chouette"),
        player_ids=[cast[n].pk for n in rolls],
        rolls={cast[n].pk: r for n, r in rolls.items()},
        profile=profile,
        **kwargs,
    )


def simple_entry(session: ChouetteSession, *, winner: str = "team", kind: str = "single"):
    """A game entry for the session's seating: every member took at cube 1."""
    seating = session.seating
    return {
        "box": seating["box"],
        "captain": seating["line"][0],
        "members": [{"player": p, "cube": 1, "fate": "took"} for p in seating["line"]],
        "winner": winner,
        "kind": kind,
    }


def snapshot() -> tuple[list[dict[str, Any]], ...]:
    """Every chouette row, to show that a refused write changed nothing."""
    return (
        list(ChouetteSession.objects.order_by("pk").values()),
        list(ChouetteParticipant.objects.order_by("pk").values()),
        list(ChouetteEvent.objects.order_by("pk").values()),
        list(ChouetteLine.objects.order_by("pk").values()),
    )


def online_act(game: Any, user: Any, action: str, **kwargs: Any) -> Any:
    """One online action (chouette.online.services) at the game's present version; the
    game read again after it."""
    from chouette.online import services as online

    game.refresh_from_db()
    online.online_game_act(
        game_id=game.pk, by=user, action=action, expected_version=game.version, **kwargs
    )
    game.refresh_from_db()
    return game


def online_play_first(game: Any, user: Any) -> Any:
    """The mover ``user`` plays the first legal play of the dice (as the page preselects)."""
    from chouette.online.table import Table
    from games.engine.position import position_id

    game.refresh_from_db()
    plays = Table.from_dict(game.table).board.legal_plays()
    return online_act(game, user, "play", position_id=position_id(plays[0].result))

"""What the writes of chouette share: who may write, the session's lock and version, the
ledger replayed from the log, a new log row, the refusals of the pure rules as
application errors (the package's docstring has the house rules)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db.models import Max
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from chouette import live, rules
from chouette.messages import CONFLICT_CODES, rule_message
from chouette.models import ChouetteEvent, ChouetteOnlineGame, ChouetteSession
from chouette.stored import profile_of, stored_event
from games import wallclock
from games.errors import ApplicationError, Conflict, NotFound, PermissionDenied, ValidationFailed
from games.models import Player

#: A session's name: at most this many characters (the column).
MAX_NAME = 120


def rule_error(exc: rules.ChouetteError) -> ApplicationError:
    cls = Conflict if exc.code in CONFLICT_CODES else ValidationFailed
    return cls(exc.code, rule_message(exc.code), extra={"reason": exc.message})


def is_authenticated(user: Any) -> bool:
    return bool(user is not None and getattr(user, "is_authenticated", False) and user.is_active)


#: Who may write to a session, as the refusal says it (the API's and the pages').
NOT_IN_SESSION = gettext_lazy(
    "Only the session's players, the club's scorekeeper and staff may do this."
)
#: The permission of the club's scorekeeper (``ChouetteSession.Meta.permissions``).
KEEP_SCORE = "chouette.keep_score"


def keeps_any_score(user: Any) -> bool:
    """Staff and the club's scorekeeper may start and keep any session."""
    return bool(user.is_staff or user.is_superuser or user.has_perm(KEEP_SCORE))


def may_write(user: Any, session: ChouetteSession) -> bool:
    """The session's members with a login, the scorekeeper, staff (the package's docstring)."""
    if not is_authenticated(user):
        return False
    if keeps_any_score(user):
        return True
    player = Player.of_user(user)
    return player is not None and session.participants.filter(player=player).exists()


def may_start(user: Any, player_ids: Sequence[int]) -> bool:
    """Whether ``user`` may start a session of these players: one of them, the
    scorekeeper, staff."""
    if not is_authenticated(user):
        return False
    if keeps_any_score(user):
        return True
    player = Player.of_user(user)
    return player is not None and player.pk in player_ids


def lock_session(session_id: int) -> ChouetteSession:
    try:
        return ChouetteSession.objects.select_for_update().get(pk=session_id)
    except ChouetteSession.DoesNotExist:
        raise NotFound(
            "session_not_found", _("There is no chouette session with this id.")
        ) from None


def get_session(session_id: int) -> ChouetteSession:
    try:
        return ChouetteSession.objects.get(pk=session_id)
    except ChouetteSession.DoesNotExist:
        raise NotFound(
            "session_not_found", _("There is no chouette session with this id.")
        ) from None


def check_writer(user: Any, session: ChouetteSession) -> None:
    if not is_authenticated(user):
        raise PermissionDenied("not_logged_in", _("Log in to do this."))
    if not may_write(user, session):
        raise PermissionDenied("not_in_session", NOT_IN_SESSION)


def check_open(session: ChouetteSession) -> None:
    if not session.is_open:
        raise Conflict("session_ended", _("This chouette session has ended."))


def check_version(session: ChouetteSession, expected_version: int | None) -> None:
    if expected_version is not None and expected_version != session.version:
        raise Conflict(
            "stale_version",
            _("The session has changed since you looked: reload and try again."),
            extra={"version": session.version},
        )


def lock_for_write(*, session_id: int, by: Any, expected_version: int | None) -> ChouetteSession:
    """The session locked for a write by ``by`` (a writer, the session open, the version
    expected): every write of a session starts here, the online play's too
    (:mod:`chouette.online.services`)."""
    session = lock_session(session_id)
    check_writer(by, session)
    check_open(session)
    check_version(session, expected_version)
    return session


def ledger_of(session: ChouetteSession) -> rules.Ledger:
    """The session's ledger, replayed from the events that count (not undone)."""
    events = session.events.filter(undone=False).order_by("place", "seq")
    return rules.Ledger.replay(
        profile_of(session),
        rules.Seating.from_dict(session.start_seating),
        [stored_event(e) for e in events],
    )


def _next_seq(session: ChouetteSession) -> int:
    top = session.events.aggregate(top=Max("seq"))["top"]
    return (top or 0) + 1


def append_event(
    session: ChouetteSession,
    *,
    by: Any,
    kind: str,
    data: dict[str, Any],
    corrects: ChouetteEvent | None = None,
) -> ChouetteEvent:
    """A new row at the end of the log; a correction replays in the place of the game it
    ``corrects`` (which the caller has flagged undone)."""
    seq = _next_seq(session)
    return ChouetteEvent.objects.create(
        session=session,
        seq=seq,
        place=seq if corrects is None else corrects.place,
        corrects=corrects,
        kind=kind,
        data=data,
        created_by=by if is_authenticated(by) else None,
        created_at=wallclock.now(),
    )


def touch(session: ChouetteSession, seating: rules.Seating, *fields: str) -> None:
    session.seating = seating.to_dict()
    session.version += 1
    session.save(update_fields=["seating", "version", *fields])
    live.session_changed(session.pk)


def check_player_ids(player_ids: Any) -> list[int]:
    if not isinstance(player_ids, list | tuple):
        raise ValidationFailed("invalid_player", rule_message("invalid_player"))
    ids = list(player_ids)
    for pid in ids:
        if isinstance(pid, bool) or not isinstance(pid, int):
            raise ValidationFailed("invalid_player", rule_message("invalid_player"))
    if len(set(ids)) != len(ids):
        raise ValidationFailed("duplicate_player", rule_message("duplicate_player"))
    found = set(Player.objects.filter(pk__in=ids).values_list("pk", flat=True))
    missing = [pid for pid in ids if pid not in found]
    if missing:
        raise NotFound(
            "player_not_found", _("There is no player with this id."), extra={"players": missing}
        )
    return ids


def clean_session_name(name: Any) -> str:
    """The session's name, stripped (400 ``invalid_name`` if empty or too long)."""
    name = (name if isinstance(name, str) else "").strip()
    if not name or len(name) > MAX_NAME:
        raise ValidationFailed(
            "invalid_name",
            ngettext(
                "Name the session (at most %(max)d character).",
                "Name the session (at most %(max)d characters).",
                MAX_NAME,
            )
            % {"max": MAX_NAME},
        )
    return name


def clean_player_id(value: Any) -> int:
    """A player id as a caller passed it: an int, not a bool (400 ``invalid_player``)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValidationFailed("invalid_player", rule_message("invalid_player"))
    return value


def check_no_online_game(session: ChouetteSession) -> None:
    """While a game is played online its seating is fixed: nothing typed in, no seat
    change, no end, until it ends (409 ``online_game_in_progress``)."""
    if session.online_games.filter(status=ChouetteOnlineGame.Status.PLAYING).exists():
        raise Conflict(
            "online_game_in_progress",
            _(
                "A game of this session is being played online: wait until it ends "
                "(or abandon it on its page)."
            ),
        )

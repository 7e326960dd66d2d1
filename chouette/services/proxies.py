"""A player's proxy for their cube decisions (a club rule, issue 19): named and cleared."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from chouette import live, rules
from chouette.models import ChouetteParticipant, ChouetteSession
from chouette.services.common import (
    NOT_IN_SESSION,
    check_open,
    check_version,
    clean_player_id,
    is_authenticated,
    keeps_any_score,
    lock_session,
    may_write,
    rule_error,
)
from games.errors import PermissionDenied
from games.models import Player


def may_set_proxy(user: Any, session: ChouetteSession, player_id: int) -> bool:
    """The player themself (their login), the club's scorekeeper and staff: nobody
    else names a proxy for a player (not the box, not another member)."""
    if not is_authenticated(user):
        return False
    if keeps_any_score(user):
        return True
    own = Player.of_user(user)
    return own is not None and own.pk == player_id


#: Called as ``hook(session=...)`` in the transaction of a proxy named or cleared, the
#: session locked: online play (which builds on this module) takes the player away or
#: back in the game being played (chouette.apps registers
#: :func:`chouette.online.alarms.online_presence_changed`).
_PRESENCE_HOOKS: list[Callable[..., None]] = []


def register_presence_hook(hook: Callable[..., None]) -> None:
    if hook not in _PRESENCE_HOOKS:
        _PRESENCE_HOOKS.append(hook)


#: Who may name a player's proxy, as the refusal says it.
NOT_YOUR_PROXY = gettext_lazy(
    "Only the player themself, the club's scorekeeper and staff may name their proxy."
)


def participant_proxy_set(
    *,
    session_id: int,
    by: Any,
    player_id: int,
    proxy_id: int | None,
    expected_version: int | None = None,
) -> ChouetteParticipant:
    """``player_id`` steps away from the table and ``proxy_id`` takes their cube
    decisions (``None``: the proxy is cleared, the player is back). The rules
    (:mod:`chouette.rules.proxies`) refuse a proxy who is the player (400
    ``proxy_self``), not in the session (400 ``proxy_not_in_session``) or chained (409
    ``proxy_chained``: the proxy is away too, or the player answers for someone); a
    player not in the session is 400 ``not_a_participant``. Who may: the player
    themself, the club's scorekeeper and staff (403 ``proxy_not_yours``; a user who is
    none of the session's writers, 403 ``not_in_session``). The ledger is untouched (no
    event: a proxy changes who decides, not the score), but the version is bumped and the
    scoreboards redraw, as for every write. A player who names a proxy is away from the
    table: the game being played online takes it at once
    (:func:`chouette.online.alarms.online_presence_changed`). Returns the participant."""
    player_id = clean_player_id(player_id)
    proxy_id = None if proxy_id is None else clean_player_id(proxy_id)
    with transaction.atomic():
        session = lock_session(session_id)
        if not is_authenticated(by):
            raise PermissionDenied("not_logged_in", _("Log in to do this."))
        if not may_set_proxy(by, session, player_id):
            if not may_write(by, session):
                raise PermissionDenied("not_in_session", NOT_IN_SESSION)
            raise PermissionDenied("proxy_not_yours", NOT_YOUR_PROXY)
        check_open(session)
        check_version(session, expected_version)
        rows = {row.player_id: row for row in session.participants.all()}
        current = {p: row.proxy_id for p, row in rows.items() if row.proxy_id is not None}
        try:
            after = rules.set_proxy(current, rows.keys(), player_id, proxy_id)
        except rules.ChouetteError as exc:
            raise rule_error(exc) from None
        row = rows[player_id]
        row.proxy_id = after.get(player_id)
        row.save(update_fields=["proxy"])
        session.version += 1
        session.save(update_fields=["version"])
        for hook in _PRESENCE_HOOKS:
            hook(session=session)
        live.session_changed(session.pk)
    return row

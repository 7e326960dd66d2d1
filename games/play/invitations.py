"""Invitations to a casual match (issue 18): a match between two players starts when the
one invited accepts.

``invitation_send`` makes the match (waiting, :func:`games.play.services.match_create`)
and its :class:`~games.models.MatchInvitation`, and tells the invitee (notification kind
``match_invitation``). The invitee accepts (``invitation_accept``: the match starts, by
:func:`games.play.services.match_start`, and the inviter is told, ``invitation_answered``)
or declines (``invitation_decline``: the match is called off, the inviter told); the
inviter may withdraw it while nobody answered (``invitation_withdraw``: called off, the
invitee told, ``invitation_withdrawn``). Only a player who can log in (``Player.user``
set and active) can be invited: nobody else could answer. Two players have at most one
open invitation between them, whoever sent it.

Each service is one transaction. Sending locks both players' rows (in id order, so two
invitations between the same two players, either way, wait for each other and the
second finds the first); an answer locks the match, then the invitation, and moves it
from pending to its final status once (the status is its version: a second answer is
409 ``invitation_answered``). A refusal changes nothing. After commit the match page
(``match:<id>``) and both players' pages (``user:<user id>``: the lobby's invitations,
the header's count) are told (games.live).

A **computer player** (``Player.bot``, the practice opponent of games.practice) is
invited the same way with a ``bot_level`` (``Match.bot_level``); the app that plays it
may refuse (signal ``bot_invited``: e.g. GNU Backgammon is not available here), else it
accepts at once, in the same transaction, so the match starts. It has no login, and it
only plays standard backgammon or nackgammon.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.errors import Conflict, NotFound, PermissionDenied, ValidationFailed
from games.models import BOT_LEVELS, Game, Match, MatchInvitation, Player
from games.notifications import live as user_live
from games.notifications.services import Notice, notify_all
from games.play import live, services
from games.play.dice import SYSTEM_DICE, DiceSource
from games.signals import bot_invited, bot_status

Status = MatchInvitation.Status


def player_can_be_invited(player: Player) -> bool:
    """Whether ``player`` can answer an invitation: an active member with an active login,
    or an active computer player (it answers by itself)."""
    if player.bot:
        return player.is_active
    user = player.user if player.user_id is not None else None
    return player.is_active and user is not None and user.is_active


def invitation_send(
    *,
    inviter: Player,
    invitee: Player,
    length: int,
    rules: Mapping[str, Any] | None = None,
    clock: str | Mapping[str, Any] | None = None,
    timeout_claim: bool = True,
    created_by: Any = None,
    bot_level: str = "",
    dice: DiceSource = SYSTEM_DICE,
) -> MatchInvitation:
    """Invite ``invitee`` to a match against ``inviter`` (``length`` points, 0 = money
    session; ``rules``, ``clock``, ``timeout_claim`` as for
    :func:`~games.play.services.match_create`). The inviter is the match's player 1.
    A computer player needs ``bot_level`` (one of ``BOT_LEVELS``) and accepts at once
    (``dice``: the opening roll's)."""
    with transaction.atomic():
        if inviter.pk == invitee.pk:
            raise ValidationFailed(
                "same_player",
                _("A player cannot play against themselves."),
                extra={"field": "opponent"},
            )
        locked = {
            p.pk: p
            for p in Player.objects.select_for_update(of=("self",))
            .select_related("user")
            .filter(pk__in=[inviter.pk, invitee.pk])
            .order_by("pk")
        }
        if len(locked) != 2:
            raise NotFound("player_not_found", _("There is no player with this id."))
        inviter, invitee = locked[inviter.pk], locked[invitee.pk]
        if not player_can_be_invited(invitee):
            raise ValidationFailed(
                "opponent_no_login",
                _("%(name)s has no login on this site, so cannot answer an invitation.")
                % {"name": invitee.name},
                extra={"field": "opponent"},
            )
        if not player_can_be_invited(inviter):
            raise PermissionDenied(
                "no_login", _("Only a player who can log in can send an invitation.")
            )
        if invitee.bot:
            _check_bot_invitation(invitee, bot_level, rules)
        elif bot_level:
            raise ValidationFailed(
                "not_a_bot",
                _("A level is chosen only for the computer opponent."),
                extra={"field": "bot_level"},
            )
        if inviter.bot:
            raise PermissionDenied(
                "no_login", _("Only a player who can log in can send an invitation.")
            )
        _refuse_a_second(inviter, invitee)
        match = services.match_create(
            player1=inviter,
            player2=invitee,
            length=length,
            rules=rules,
            clock=clock,
            timeout_claim=timeout_claim,
            created_by=created_by,
        )
        if invitee.bot:
            match.bot_level = bot_level
            match.save(update_fields=["bot_level"])
        invitation = MatchInvitation.objects.create(match=match, inviter=inviter, invitee=invitee)
        if invitee.bot:
            # The computer answers at once: the match starts in this transaction.
            invitation, _game = invitation_accept(
                invitation_id=invitation.pk, by=invitee, dice=dice
            )
            return invitation
        _tell(invitation, invitee, "match_invitation", opponent=inviter, length=length)
        _changed(invitation)
    return invitation


def bot_offered() -> tuple[Player | None, str | None]:
    """The computer opponent offered by the app that plays it (signal ``bot_status``):
    its account and why it cannot play here (``None`` when it can); ``(None, None)``
    when no app offers one."""
    for _receiver, answer in bot_status.send(sender=Player):
        if answer is not None:
            player, reason = answer
            return player, reason
    return None, None


def _check_bot_invitation(invitee: Player, bot_level: str, rules: Mapping[str, Any] | None) -> None:
    if bot_level not in dict(BOT_LEVELS):
        raise ValidationFailed(
            "bot_level_required",
            _("Choose the computer's level: %(levels)s.")
            % {"levels": ", ".join(str(label) for _key, label in BOT_LEVELS)},
            extra={"field": "bot_level"},
        )
    if (rules or {}).get("variant", "standard") not in ("standard", "nackgammon"):
        raise ValidationFailed(
            "bot_variant",
            _("The computer plays standard backgammon and nackgammon only."),
            extra={"field": "variant"},
        )
    # The app that plays it may refuse (its engine unavailable here): it raises.
    bot_invited.send(sender=Player, invitee=invitee, level=bot_level)


def match_rematch(*, match_id: int, by: Player, created_by: Any = None) -> MatchInvitation:
    """From a finished match, one of its players invites the other to a new match with
    the same settings: length, rules (variant, Jacoby, beavers, ...), clock and how a
    win on time is had. Refused, with nothing changed: not one of its players (403
    ``not_a_player``), a match not finished (409 ``match_not_finished``), an open
    invitation between the two already (409 ``invitation_exists``, from
    :func:`invitation_send`)."""
    match = (
        Match.objects.select_related("player1__user", "player2__user").filter(pk=match_id).first()
    )
    if match is None:
        raise NotFound("match_not_found", _("There is no match with this id."))
    index = match.player_index(by.pk)
    if index is None:
        raise PermissionDenied(
            "not_a_player", _("Only a player of this match may ask for a rematch.")
        )
    if match.status != Match.Status.FINISHED:
        raise Conflict(
            "match_not_finished", _("A rematch is asked for once the match is finished.")
        )
    opponent = match.player2 if index == 0 else match.player1
    if by.bot:
        raise PermissionDenied(
            "no_login", _("Only a player who can log in can send an invitation.")
        )
    return invitation_send(
        inviter=by,
        invitee=opponent,
        length=match.length,
        rules=match.rules,
        clock=match.clock,
        timeout_claim=match.timeout_claim,
        created_by=created_by,
        bot_level=match.bot_level if opponent.bot else "",
    )


def _refuse_a_second(inviter: Player, invitee: Player) -> None:
    """409 ``invitation_exists`` when the two already have an open invitation (with its
    id): the invitee's own to the inviter is answered, not crossed with another."""
    open_ = (
        MatchInvitation.objects.filter(status=Status.PENDING)
        .filter(inviter__in=[inviter.pk, invitee.pk], invitee__in=[inviter.pk, invitee.pk])
        .first()
    )
    if open_ is None:
        return
    if open_.inviter_id == invitee.pk:
        detail = _("%(name)s has already invited you: accept or decline that invitation.")
    else:
        detail = _("You have already invited %(name)s: wait for the answer, or withdraw it.")
    raise Conflict(
        "invitation_exists",
        detail % {"name": invitee.name},
        extra={"invitation": open_.pk, "match": open_.match_id},
    )


def invitation_accept(
    *, invitation_id: int, by: Player, dice: DiceSource = SYSTEM_DICE
) -> tuple[MatchInvitation, Game]:
    """The invitee accepts: the match starts (game 1 and its opening roll) and the
    inviter is told. Returns the invitation and the first game."""
    with transaction.atomic():
        match, invitation = _lock(invitation_id)
        _require(invitation, by, invitee=True)
        _answer(invitation, Status.ACCEPTED)
        game = services.match_start(match_id=match.pk, by=by, dice=dice)
        if not by.bot:  # the computer accepts while the inviter waits: nothing to tell
            _tell(
                invitation,
                invitation.inviter,
                "invitation_answered",
                opponent=by,
                answer="accepted",
            )
        _changed(invitation)
    return invitation, game


def invitation_decline(*, invitation_id: int, by: Player) -> MatchInvitation:
    """The invitee declines: the match is called off and the inviter is told."""
    with transaction.atomic():
        match, invitation = _lock(invitation_id)
        _require(invitation, by, invitee=True)
        _answer(invitation, Status.DECLINED)
        _call_off(match)
        _tell(invitation, invitation.inviter, "invitation_answered", opponent=by, answer="declined")
        _changed(invitation)
    return invitation


def invitation_withdraw(*, invitation_id: int, by: Player) -> MatchInvitation:
    """The inviter withdraws an invitation nobody answered: the match is called off and
    the invitee is told."""
    with transaction.atomic():
        match, invitation = _lock(invitation_id)
        _require(invitation, by, invitee=False)
        _answer(invitation, Status.WITHDRAWN)
        _call_off(match)
        _tell(invitation, invitation.invitee, "invitation_withdrawn", opponent=by)
        _changed(invitation)
    return invitation


def _lock(invitation_id: int) -> tuple[Match, MatchInvitation]:
    """The invitation's match, then the invitation, locked in that order (the order
    :func:`~games.play.services.match_start` locks the match in)."""
    match_id = (
        MatchInvitation.objects.filter(pk=invitation_id).values_list("match_id", flat=True).first()
    )
    if match_id is None:
        raise NotFound("invitation_not_found", _("There is no invitation with this id."))
    match = Match.objects.select_for_update().get(pk=match_id)
    invitation = (
        MatchInvitation.objects.select_for_update(of=("self",))
        .select_related("inviter__user", "invitee__user")
        .get(pk=invitation_id)
    )
    invitation.match = match
    return match, invitation


def _require(invitation: MatchInvitation, by: Player, *, invitee: bool) -> None:
    if invitee and by.pk != invitation.invitee_id:
        raise PermissionDenied(
            "not_invited", _("Only the invited player may accept or decline this invitation.")
        )
    if not invitee and by.pk != invitation.inviter_id:
        raise PermissionDenied(
            "not_inviter", _("Only the player who sent this invitation may withdraw it.")
        )
    if invitation.status != Status.PENDING:
        done = {
            Status.ACCEPTED: _("This invitation was accepted already: the match has started."),
            Status.DECLINED: _("This invitation was declined already."),
            Status.WITHDRAWN: _("This invitation was withdrawn already."),
        }
        raise Conflict(
            "invitation_answered",
            done[Status(invitation.status)],
            extra={"status": invitation.status},
        )


def _answer(invitation: MatchInvitation, status: str) -> None:
    invitation.status = status
    invitation.answered_at = timezone.now()
    invitation.save(update_fields=["status", "answered_at"])


def _call_off(match: Match) -> None:
    match.status = Match.Status.CANCELLED
    match.save(update_fields=["status"])


def _tell(
    invitation: MatchInvitation, recipient: Player, kind: str, *, opponent: Player, **context: Any
) -> None:
    notify_all(
        [
            Notice(
                recipient=recipient,
                kind=kind,
                subject=f"invitation:{invitation.pk}",
                context={
                    "match_id": invitation.match_id,
                    "invitation_id": invitation.pk,
                    "opponent": opponent.name,
                    **context,
                },
            )
        ]
    )


def _changed(invitation: MatchInvitation) -> None:
    """After commit: the match page, and both players' open pages (the lobby lists the
    invitations; a notification alone would not tell them when its channel is off)."""
    live.publish_match_changed(match_id=invitation.match_id)
    user_live.user_changed(invitation.inviter.user_id, invitation.invitee.user_id)

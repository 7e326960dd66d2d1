"""Invitations to a casual match (issue 18, games.play.invitations): a match starts when
the invited player accepts; they may decline, the inviter may withdraw; only a player
who can log in is invited; each answer is given once, a refusal changes nothing, and
racing answers are serialised."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from django.utils import translation

from games.errors import ApplicationError
from games.models import Game, Match, MatchInvitation, Notification
from games.play import invitations, services
from games.play.dice import ScriptedDice
from tests.factories import PlayerFactory, UserFactory, UserPlayerFactory

Status = MatchInvitation.Status


@pytest.fixture(autouse=True)
def _english(settings):
    """Notifications are written in the club's language (settings.LANGUAGE_CODE, games.
    notifications.services.notify_all): an English club here, so the texts read as
    written below."""
    settings.LANGUAGE_CODE = "en"
    with translation.override("en"):
        yield


@pytest.fixture
def pair(db):
    return UserPlayerFactory(name="Anna"), UserPlayerFactory(name="Bence")


def _invite(inviter, invitee, **extra):
    return invitations.invitation_send(inviter=inviter, invitee=invitee, length=5, **extra)


def _refused(call, code):
    with pytest.raises(ApplicationError) as refused:
        call()
    assert refused.value.code == code, refused.value
    return refused.value


def _snapshot():
    return (
        list(Match.objects.order_by("pk").values_list("pk", "status")),
        list(MatchInvitation.objects.order_by("pk").values_list("pk", "status")),
        Game.objects.count(),
        Notification.objects.count(),
    )


def _told(player, kind):
    return list(
        Notification.objects.filter(recipient=player, kind=kind).values_list("subject", "title")
    )


def test_an_invitation_makes_a_waiting_match_and_tells_the_invitee(pair):
    anna, bence = pair
    invitation = _invite(anna, bence, clock="usbgf")
    match = invitation.match
    assert (invitation.status, invitation.inviter, invitation.invitee) == (
        Status.PENDING,
        anna,
        bence,
    )
    assert (match.status, match.player1, match.player2, match.length) == ("waiting", anna, bence, 5)
    assert match.clock is not None and match.games.count() == 0
    assert _told(bence, "match_invitation") == [
        (f"invitation:{invitation.pk}", "Anna invites you to a match")
    ]
    assert _told(anna, "match_invitation") == []
    # Nobody starts it past the invitation: not the inviter, not a task without a player.
    for by in (anna, None):
        _refused(lambda by=by: services.match_start(match_id=match.pk, by=by), "invitation_pending")
    assert match.games.count() == 0


def test_accepting_starts_the_match_and_tells_the_inviter(pair):
    anna, bence = pair
    invitation = _invite(anna, bence)
    accepted, game = invitations.invitation_accept(
        invitation_id=invitation.pk, by=bence, dice=ScriptedDice((3, 1))
    )
    assert accepted.status == Status.ACCEPTED and accepted.answered_at is not None
    match = Match.objects.get(pk=invitation.match_id)
    assert match.status == "playing" and match.started_at is not None
    assert game.match_id == match.pk and game.number == 1
    assert _told(anna, "invitation_answered") == [
        (f"invitation:{invitation.pk}", "Bence accepted your invitation")
    ]
    # Once: a second answer of any kind is refused and changes nothing.
    before = _snapshot()
    for call in (
        lambda: invitations.invitation_accept(invitation_id=invitation.pk, by=bence),
        lambda: invitations.invitation_decline(invitation_id=invitation.pk, by=bence),
        lambda: invitations.invitation_withdraw(invitation_id=invitation.pk, by=anna),
    ):
        refused = _refused(call, "invitation_answered")
        assert refused.status == 409 and refused.extra == {"status": "accepted"}
    assert _snapshot() == before


def test_declining_calls_the_match_off_and_tells_the_inviter(pair):
    anna, bence = pair
    invitation = _invite(anna, bence)
    invitations.invitation_decline(invitation_id=invitation.pk, by=bence)
    invitation.refresh_from_db()
    assert invitation.status == Status.DECLINED
    assert Match.objects.get(pk=invitation.match_id).status == Match.Status.CANCELLED
    assert _told(anna, "invitation_answered") == [
        (f"invitation:{invitation.pk}", "Bence declined your invitation")
    ]
    _refused(lambda: services.match_start(match_id=invitation.match_id), "match_called_off")
    # The two may try again: a new invitation, a new match.
    again = _invite(anna, bence)
    assert again.match_id != invitation.match_id and again.status == Status.PENDING


def test_the_inviter_withdraws_and_the_invitee_is_told(pair):
    anna, bence = pair
    invitation = _invite(anna, bence)
    invitations.invitation_withdraw(invitation_id=invitation.pk, by=anna)
    invitation.refresh_from_db()
    assert invitation.status == Status.WITHDRAWN
    assert invitation.match.status == Match.Status.CANCELLED
    assert _told(bence, "invitation_withdrawn") == [
        (f"invitation:{invitation.pk}", "Anna withdrew the invitation")
    ]


def test_only_the_invitee_answers_and_only_the_inviter_withdraws(pair):
    anna, bence = pair
    stranger = UserPlayerFactory(name="Cili")
    invitation = _invite(anna, bence)
    before = _snapshot()
    for by in (anna, stranger):
        assert (
            _refused(
                lambda by=by: invitations.invitation_accept(invitation_id=invitation.pk, by=by),
                "not_invited",
            ).status
            == 403
        )
        _refused(
            lambda by=by: invitations.invitation_decline(invitation_id=invitation.pk, by=by),
            "not_invited",
        )
    for by in (bence, stranger):
        _refused(
            lambda by=by: invitations.invitation_withdraw(invitation_id=invitation.pk, by=by),
            "not_inviter",
        )
    assert (
        _refused(
            lambda: invitations.invitation_accept(invitation_id=999_999, by=bence),
            "invitation_not_found",
        ).status
        == 404
    )
    assert _snapshot() == before


def test_only_a_player_who_can_log_in_is_invited(pair):
    anna, _bence = pair
    no_login = PlayerFactory(name="Dénes")
    locked_out = UserPlayerFactory(name="Erika", user=UserFactory(is_active=False))
    retired = UserPlayerFactory(name="Feri", is_active=False)
    before = _snapshot()
    for who in (no_login, locked_out):
        refused = _refused(lambda who=who: _invite(anna, who), "opponent_no_login")
        assert refused.status == 400 and refused.extra == {"field": "opponent"}
        assert who.name in str(refused.detail)
    _refused(lambda: _invite(anna, retired), "opponent_no_login")
    _refused(lambda: _invite(anna, anna), "same_player")
    # An invitation from a player who cannot log in either (a service caller's mistake).
    _refused(lambda: _invite(no_login, anna), "no_login")
    assert _snapshot() == before


def test_two_players_have_one_open_invitation_whoever_sent_it(pair):
    anna, bence = pair
    first = _invite(anna, bence)
    before = _snapshot()
    mine = _refused(lambda: _invite(anna, bence), "invitation_exists")
    assert mine.status == 409 and mine.extra == {"invitation": first.pk, "match": first.match_id}
    assert "You have already invited Bence" in str(mine.detail)
    theirs = _refused(lambda: _invite(bence, anna), "invitation_exists")
    assert "Anna has already invited you" in str(theirs.detail)
    assert _snapshot() == before
    # Others are free to invite either of them.
    _invite(UserPlayerFactory(name="Cili"), bence)


def test_a_settings_refusal_leaves_no_match_or_invitation(pair):
    anna, bence = pair
    _refused(lambda: _invite(anna, bence, rules={"beavers": True}), "money_option_in_match")
    _refused(
        lambda: invitations.invitation_send(inviter=anna, invitee=bence, length=99),
        "invalid_length",
    )
    assert _snapshot() == ([], [], 0, 0)


def test_tournament_matches_start_without_an_invitation(db):
    """A match played for something else (a tournament's) has no invitation and starts
    as before."""
    a, b = PlayerFactory(), PlayerFactory()
    match = services.match_create(player1=a, player2=b, length=3, played_for="tmatch:1")
    game = services.match_start(match_id=match.pk, by=a, dice=ScriptedDice((3, 1)))
    assert game.match.status == "playing"
    assert not MatchInvitation.objects.exists()


# ====================================================================== racing
def _race(*calls):
    """Run ``calls`` at once, each on its own connection; their outcomes in order."""
    barrier = threading.Barrier(len(calls))
    outcomes: list[object] = [None] * len(calls)

    def run(i, call):
        try:
            barrier.wait()
            outcomes[i] = call()
        except ApplicationError as exc:
            outcomes[i] = exc.code
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return outcomes


@pytest.mark.django_db(transaction=True)
def test_accepting_and_withdrawing_at_once_do_one_of_them():
    for _round in range(5):
        anna, bence = UserPlayerFactory(), UserPlayerFactory()
        invitation = _invite(anna, bence)
        outcomes = _race(
            lambda i=invitation, b=bence: invitations.invitation_accept(invitation_id=i.pk, by=b),
            lambda i=invitation, a=anna: invitations.invitation_withdraw(invitation_id=i.pk, by=a),
        )
        assert sorted(isinstance(o, str) for o in outcomes) == [False, True], outcomes
        assert "invitation_answered" in outcomes
        invitation.refresh_from_db()
        match = invitation.match
        if invitation.status == Status.ACCEPTED:
            assert match.status == "playing" and match.games.count() == 1
        else:
            assert invitation.status == Status.WITHDRAWN
            assert match.status == "cancelled" and match.games.count() == 0


@pytest.mark.django_db(transaction=True)
def test_crossed_invitations_at_once_leave_one():
    anna, bence = UserPlayerFactory(), UserPlayerFactory()
    outcomes = _race(lambda: _invite(anna, bence), lambda: _invite(bence, anna))
    assert sorted(isinstance(o, str) for o in outcomes) == [False, True], outcomes
    assert "invitation_exists" in outcomes
    assert MatchInvitation.objects.count() == 1 and Match.objects.count() == 1

"""Invitations on the pages (issue 18): the lobby's form invites only players who can log
in and keeps what was typed when refused; the lobby lists the invitations sent and
received with their answers; the match page says where its invitation stands."""

from __future__ import annotations

import re

import pytest

from games.models import Match, MatchInvitation, Notification
from games.play import invitations
from games.practice import services as practice
from tests.factories import PlayerFactory, UserFactory, UserPlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def anna():
    return UserPlayerFactory(name="Anna")


@pytest.fixture
def bence():
    return UserPlayerFactory(name="Bence")


def _as(client, player):
    client.force_login(player.user)
    client.cookies["django_language"] = "en"
    return client


def _offered(html: str) -> list[str]:
    form = html[html.index('name="opponent"') :]
    form = form[: form.index("</select>")]
    return re.findall(r"<option [^>]*>([^<]+)</option>", form)


def test_the_lobby_offers_only_players_who_can_log_in(client, anna, bence):
    PlayerFactory(name="Cili")  # no login
    UserPlayerFactory(name="Dénes", user=UserFactory(is_active=False))
    UserPlayerFactory(name="Erika", is_active=False)
    html = _as(client, anna).get("/matches/").content.decode()
    # The practice opponent (issue 28) answers by itself: it is offered too, last (so a
    # person stays the form's default).
    assert _offered(html) == ["Bence", "GNU Backgammon (computer, practice)"]
    assert '<button type="submit">Invite</button>' in html


def test_inviting_from_the_lobby_and_the_invitations_listed(client, anna, bence, settings):
    settings.LANGUAGE_CODE = "en"  # the club's language, which notifications are written in
    response = _as(client, anna).post("/matches/new/", {"opponent": bence.pk, "length": "3"})
    invitation = MatchInvitation.objects.get()
    assert response["Location"] == f"/matches/{invitation.match_id}/"
    page = client.get(response["Location"]).content.decode()
    assert "Bence is invited: the match starts when they accept." in page
    assert "Waiting for Bence to accept your invitation" in page
    assert f'action="/matches/invitations/{invitation.pk}/withdraw/"' in page

    lobby = client.get("/matches/").content.decode()
    sent = re.search(r'<li class="invitation sent" data-invitation="(\d+)">(.*?)</li>', lobby, re.S)
    assert sent and sent.group(1) == str(invitation.pk)
    assert "You invited Bence" in sent.group(2) and "a 3-point match" in sent.group(2)

    _as(client, bence)
    lobby = client.get("/matches/").content.decode()
    received = re.search(r'<li class="invitation received"[^>]*>(.*?)</li>', lobby, re.S)
    assert received and "Anna invites you" in received.group(1)
    assert f'action="/matches/invitations/{invitation.pk}/accept/"' in received.group(1)
    assert f'action="/matches/invitations/{invitation.pk}/decline/"' in received.group(1)
    page = client.get(f"/matches/{invitation.match_id}/").content.decode()
    assert "Anna invites you to this match." in page
    # The header counts the notification, which links to the match.
    note = Notification.objects.get(recipient=bence, kind="match_invitation")
    assert note.title == "Anna invites you to a match"


def test_a_refused_invitation_keeps_the_form_and_names_the_field(client, anna, bence):
    nobody = PlayerFactory(name="Cili")
    response = _as(client, anna).post(
        "/matches/new/", {"opponent": nobody.pk, "length": "7", "variant": "nackgammon"}
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert 'data-code="opponent_no_login"' in html
    assert "Cili has no login on this site" in html
    assert re.search(r'<select name="opponent" required aria-invalid="true"', html)
    assert '<option value="7" selected>' in html
    assert '<option value="nackgammon" selected>' in html
    assert not Match.objects.exists()

    invitations.invitation_send(inviter=bence, invitee=anna, length=5)
    again = client.post("/matches/new/", {"opponent": bence.pk, "length": "5"})
    assert again.status_code == 409
    assert "Bence has already invited you: accept or decline that invitation." in (
        again.content.decode()
    )
    assert client.post("/matches/new/", {"opponent": "x"}).status_code == 400


def test_declining_and_withdrawing_from_the_pages(client, anna, bence):
    first = invitations.invitation_send(inviter=anna, invitee=bence, length=5)
    response = _as(client, bence).post(f"/matches/invitations/{first.pk}/decline/")
    assert response["Location"] == "/matches/"
    assert "You declined the invitation of Anna." in client.get("/matches/").content.decode()
    page = client.get(f"/matches/{first.match_id}/").content.decode()
    assert "Bence declined the invitation: this match is not played." in page
    assert 'action="/matches/invitations/' not in page
    assert 'data-testid="match-rating"' not in page  # nothing at stake in it any more

    second = invitations.invitation_send(inviter=anna, invitee=bence, length=5)
    # Bence may not withdraw Anna's invitation: refused, and it still waits.
    client.post(f"/matches/invitations/{second.pk}/withdraw/")
    assert (
        "Only the player who sent this invitation may withdraw it."
        in client.get("/matches/").content.decode()
    )
    _as(client, anna).post(f"/matches/invitations/{second.pk}/withdraw/")
    second.refresh_from_db()
    assert second.status == "withdrawn"
    page = client.get(f"/matches/{second.match_id}/").content.decode()
    assert "Anna withdrew the invitation: this match is not played." in page


def test_a_spectator_reads_where_the_invitation_stands(client, anna, bence):
    invitation = invitations.invitation_send(inviter=anna, invitee=bence, length=5)
    client.cookies["django_language"] = "en"
    page = client.get(f"/matches/{invitation.match_id}/").content.decode()
    assert "At stake" in page  # before the answer, what the match would be worth
    assert "Anna invited Bence: the match starts when Bence accepts." in page
    assert "<form" not in page[page.index('id="match-invitation"') :].split("</section>")[0]


def test_accepting_from_the_lobby_goes_to_the_started_match(client, anna, bence):
    invitation = invitations.invitation_send(inviter=anna, invitee=bence, length=5)
    response = _as(client, bence).post(f"/matches/invitations/{invitation.pk}/accept/")
    assert response["Location"] == f"/matches/{invitation.match_id}/"
    page = client.get(response["Location"]).content.decode()
    assert "<svg" in page and 'id="match-invitation"' not in page


def test_the_lobby_of_a_player_costs_a_bounded_number_of_queries(
    client, anna, bence, django_assert_max_num_queries
):
    for _ in range(5):
        other = UserPlayerFactory()
        invitations.invitation_send(inviter=other, invitee=anna, length=3)
        invitations.invitation_send(inviter=anna, invitee=UserPlayerFactory(), length=5)
    _as(client, anna)
    practice.bot_player_get_or_create()  # the practice opponent, offered: one query more
    with django_assert_max_num_queries(13):
        html = client.get("/matches/").content.decode()
    assert html.count('class="invitation received"') == 5
    assert html.count('class="invitation sent"') == 5


# ---------------------------------------------------------------- staff arrange (issue 30)
def _arrange(client, a, b, **extra):
    return client.post(
        "/matches/arrange/", {"player1": a.pk, "player2": b.pk, "length": "5", **extra}
    )


def test_staff_without_a_player_arrange_a_match_from_the_lobby(client, anna, bence):
    """The probe: staff with no player of their own could not arrange a match (403
    ``no_player``), though the README says they may. The lobby offers them the form;
    the match is created (started when asked), with no invitation."""
    client.force_login(UserFactory(username="director", is_staff=True))
    client.cookies["django_language"] = "en"
    lobby = client.get("/matches/").content.decode()
    assert 'id="arrange-match"' in lobby and 'name="opponent"' not in lobby
    assert "Log in" not in lobby[lobby.index("<main") :]
    assert 'href="/matches/import/"' in lobby  # staff import any match (README)
    response = _arrange(client, anna, bence, start="1")
    assert response.status_code == 302
    match = Match.objects.get()
    assert response["Location"] == f"/matches/{match.pk}/"
    assert match.status == Match.Status.PLAYING and match.created_by.username == "director"
    assert not MatchInvitation.objects.exists()
    response = _arrange(client, bence, anna, length="7")
    waiting = Match.objects.exclude(pk=match.pk).get()
    assert waiting.status == Match.Status.WAITING and waiting.length == 7


def test_a_refused_arrangement_keeps_the_form_and_changes_nothing(client, anna, bence):
    client.force_login(UserFactory(is_staff=True))
    client.cookies["django_language"] = "en"
    response = _arrange(client, anna, anna)
    assert response.status_code == 400
    page = response.content.decode()
    assert 'id="arrange-error" data-code="same_player"' in page
    missing = client.post("/matches/arrange/", {"player1": anna.pk, "player2": ""})
    assert missing.status_code == 400
    assert 'aria-invalid="true" aria-describedby="arrange-error"' in missing.content.decode()
    assert not Match.objects.exists()


def test_only_staff_arrange(client, anna, bence):
    client.force_login(UserFactory())
    assert _arrange(client, anna, bence).status_code == 403
    _as(client, anna)
    assert 'id="arrange-match"' not in client.get("/matches/").content.decode()
    assert _arrange(client, anna, bence).status_code == 403
    assert not Match.objects.exists()

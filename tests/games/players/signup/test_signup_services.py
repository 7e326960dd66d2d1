"""Sign-up's services (issue 30) on the real database: the setting, the confirmation, a
claim that only staff grant, staff's decisions (twice, stale, at the same moment), an
address already used, resending, and the expiry of sign-ups never confirmed."""

from __future__ import annotations

import re
import threading

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.db import connection

from games.errors import Conflict, NotFound, PermissionDenied, ValidationFailed
from games.models import Notification, Player, SignUp, SignupMode
from games.players.signup import mails, services, tasks
from tests.factories import PlayerFactory, UserFactory, UserPlayerFactory

pytestmark = pytest.mark.django_db

PASSWORD = "Backgammon-2025-tavasz"
SITE = "https://club.example.org"
User = get_user_model()


def _mode(mode: str) -> None:
    services.club_settings_set_signup(mode=mode)


def _sign_up(**kwargs):
    values = {
        "name": "Szabó Lili",
        "username": "lili",
        "email": "lili@example.org",
        "password": PASSWORD,
        "language": "en",
        "site_url": SITE,
    }
    values.update(kwargs)
    return services.signup_create(**values)


def _link_token(message) -> str:
    link = re.search(r"https://club\.example\.org/accounts/signup/confirm/(\S+)/", message.body)
    assert link, message.body
    return link.group(1)


def _confirm(message):
    read = mails.confirmation_read(_link_token(message))
    assert read is not None
    return services.signup_confirm(signup_id=read[0], version=read[1], site_url=SITE)


@pytest.fixture
def staff():
    return UserFactory(username="boss", is_staff=True, email="boss@example.org")


def test_the_setting_is_off_by_default_and_refuses_a_sign_up() -> None:
    assert services.signup_mode() == "off"
    with pytest.raises(PermissionDenied) as refused:
        _sign_up()
    assert refused.value.code == "signup_closed"
    assert not User.objects.filter(username="lili").exists() and not SignUp.objects.exists()


def test_open_sign_up_confirmed_makes_an_active_login_with_a_new_player() -> None:
    _mode("open")
    made = _sign_up()
    assert made.mail_sent and made.signup is not None
    user = User.objects.get(username="lili")
    assert not user.is_active and user.check_password(PASSWORD)
    (message,) = mail.outbox
    assert message.to == ["lili@example.org"]
    assert "confirm your sign-up" in message.subject
    confirmed = _confirm(message)
    assert confirmed.now
    user.refresh_from_db()
    assert user.is_active
    assert Player.objects.get(user=user).name == "Szabó Lili"
    signup = SignUp.objects.get()
    assert signup.state == "approved" and signup.decided_by is None
    # The link opened again changes nothing and logs nobody in.
    again = _confirm(message)
    assert not again.now and Player.objects.filter(name="Szabó Lili").count() == 1


def test_the_mail_is_in_the_visitors_language() -> None:
    _mode("open")
    _sign_up(language="hu")
    (message,) = mail.outbox
    assert "erősítsd meg" in message.subject.lower() or "megerősít" in message.subject.lower()


def test_approved_sign_up_waits_for_staff_who_are_told(staff) -> None:
    _mode("approved")
    staff_player = UserPlayerFactory(user__is_staff=True, user__email="")
    _sign_up()
    signup = _confirm(mail.outbox[0]).signup
    assert signup.state == "waiting"
    assert not User.objects.get(username="lili").is_active
    assert not Player.objects.filter(name="Szabó Lili").exists()
    # The staff member with an address got an e-mail; the one who is a player, in the app.
    told = [m for m in mail.outbox if m.to == ["boss@example.org"]]
    assert told and "/accounts/signups/" in told[0].body
    assert Notification.objects.filter(recipient=staff_player, kind="signup_waiting").exists()
    done = services.signup_approve(
        signup_id=signup.pk, by=staff, version=signup.version, site_url=SITE
    )
    assert done.state == "approved" and done.decided_by == staff
    user = User.objects.get(username="lili")
    assert user.is_active and user.player.name == "Szabó Lili"
    assert mail.outbox[-1].to == ["lili@example.org"]
    assert "approved" in mail.outbox[-1].subject


def test_a_claim_is_never_granted_without_staff_even_when_open(staff) -> None:
    _mode("open")
    anna = PlayerFactory(name="Kovács Anna", rating=1612)
    # The same name without accents and case: the claim is offered, not taken silently.
    with pytest.raises(Conflict) as offered:
        _sign_up(name="kovacs anna", username="anna", email="anna@example.org")
    assert offered.value.code == "name_taken" and offered.value.extra["claimable"] is True
    assert not User.objects.filter(username="anna").exists()
    _sign_up(name="kovacs anna", username="anna", email="anna@example.org", claim=True)
    signup = _confirm(mail.outbox[0]).signup
    assert signup.state == "waiting" and signup.claim == anna
    assert signup.name == "Kovács Anna"  # the club's spelling, not the typed one
    anna.refresh_from_db()
    assert anna.user is None
    services.signup_approve(signup_id=signup.pk, by=staff, site_url=SITE)
    anna.refresh_from_db()
    assert anna.user.get_username() == "anna" and anna.user.is_active
    assert Player.objects.count() == 1  # linked, no new player


def test_a_refused_claim_deletes_the_login_and_leaves_the_player(staff) -> None:
    _mode("open")
    anna = PlayerFactory(name="Kovács Anna")
    _sign_up(name="Kovács Anna", username="anna", email="anna@example.org", claim=True)
    signup = _confirm(mail.outbox[0]).signup
    refused = services.signup_refuse(signup_id=signup.pk, by=staff, site_url=SITE)
    assert refused.state == "refused" and refused.user is None
    assert not User.objects.filter(username="anna").exists()
    anna.refresh_from_db()
    assert anna.user is None
    assert "not approved" in mail.outbox[-1].subject


def test_a_decision_twice_or_on_a_stale_version_is_409_and_changes_nothing(staff) -> None:
    _mode("approved")
    _sign_up()
    signup = _confirm(mail.outbox[0]).signup
    with pytest.raises(Conflict) as stale:
        services.signup_approve(
            signup_id=signup.pk, by=staff, version=signup.version - 1, site_url=SITE
        )
    assert stale.value.code == "stale_signup"
    assert SignUp.objects.get().state == "waiting"
    services.signup_approve(signup_id=signup.pk, by=staff, site_url=SITE)
    with pytest.raises(Conflict) as twice:
        services.signup_refuse(signup_id=signup.pk, by=staff, site_url=SITE)
    assert twice.value.code == "signup_not_waiting"
    assert User.objects.get(username="lili").is_active


def test_only_staff_decide() -> None:
    _mode("approved")
    _sign_up()
    signup = _confirm(mail.outbox[0]).signup
    with pytest.raises(PermissionDenied):
        services.signup_approve(signup_id=signup.pk, by=UserFactory(), site_url=SITE)
    assert SignUp.objects.get().state == "waiting"


@pytest.mark.django_db(transaction=True)
def test_two_approvals_at_once_link_the_player_once() -> None:
    staff = UserFactory(username="boss", is_staff=True)
    _mode("open")
    anna = PlayerFactory(name="Kovács Anna")
    _sign_up(name="Kovács Anna", username="anna", email="anna@example.org", claim=True)
    signup = _confirm(mail.outbox[0]).signup
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def approve() -> None:
        try:
            barrier.wait()
            services.signup_approve(
                signup_id=signup.pk, by=staff, version=signup.version, site_url=SITE
            )
            outcomes.append("approved")
        except Conflict as exc:
            outcomes.append(exc.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=approve) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["approved", "signup_not_waiting"]
    anna.refresh_from_db()
    assert anna.user.get_username() == "anna"
    assert SignUp.objects.get().version == signup.version + 1


def test_a_taken_username_is_said_and_nothing_is_written() -> None:
    _mode("open")
    UserFactory(username="Lili")
    with pytest.raises(Conflict) as taken:
        _sign_up()
    assert taken.value.code == "username_taken" and taken.value.extra["field"] == "username"
    assert not SignUp.objects.exists() and mail.outbox == []


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"name": "\u200b"}, "invalid_name"),
        ({"username": "with space"}, "invalid_username"),
        ({"email": "not-an-address"}, "invalid_email"),
        ({"email": ""}, "invalid_email"),
        ({"password": "12345"}, "invalid_password"),
        ({"claim": True}, "nothing_to_claim"),
    ],
)
def test_bad_input_is_refused_with_its_code_and_nothing_is_written(change, code) -> None:
    _mode("open")
    with pytest.raises(ValidationFailed) as refused:
        _sign_up(**change)
    assert refused.value.code == code
    assert not SignUp.objects.exists() and User.objects.count() == 0 and mail.outbox == []


def test_a_name_with_a_login_or_being_signed_up_is_taken() -> None:
    _mode("open")
    UserPlayerFactory(name="Kiss Béla")
    with pytest.raises(Conflict) as taken:
        _sign_up(name="kiss bela")
    assert taken.value.code == "name_taken" and "claimable" not in taken.value.extra
    _sign_up(name="Tóth Ede", username="ede", email="ede@example.org")
    with pytest.raises(Conflict):
        _sign_up(name="Toth Ede", username="ede2", email="ede2@example.org")


def test_an_address_already_used_mails_its_owner_instead() -> None:
    _mode("open")
    UserFactory(username="old", email="Lili@Example.org")
    made = _sign_up()
    assert made.signup is None and made.mail_sent
    assert not User.objects.filter(username="lili").exists()
    (message,) = mail.outbox
    assert message.to == ["lili@example.org"]
    assert "old" in message.body and f"{SITE}/accounts/password_reset/" in message.body


def test_resend_waits_a_minute_and_says_nothing_of_unknown_addresses(wall) -> None:
    _mode("open")
    _sign_up()
    services.signup_resend(email="LILI@example.org", site_url=SITE)
    assert len(mail.outbox) == 1  # too soon
    wall.advance(seconds=61)
    services.signup_resend(email="lili@example.org", site_url=SITE)
    assert len(mail.outbox) == 2
    services.signup_resend(email="nobody@example.org", site_url=SITE)
    assert len(mail.outbox) == 2
    # Both links work (the version is the same until confirmed).
    assert _confirm(mail.outbox[1]).now


def test_unconfirmed_sign_ups_expire_with_their_logins(wall, settings) -> None:
    _mode("open")
    _sign_up()
    assert tasks.signup_sweep() == 0
    wall.advance(hours=settings.SIGNUP_CONFIRM_HOURS + 1)
    assert tasks.signup_sweep() == 1
    assert tasks.signup_sweep() == 0  # twice: nothing more
    assert not SignUp.objects.exists() and not User.objects.filter(username="lili").exists()
    with pytest.raises(NotFound):
        _confirm(mail.outbox[0])
    # The username is free again.
    _sign_up()
    assert SignUp.objects.count() == 1


def test_an_expired_link_is_refused(wall, settings) -> None:
    _mode("open")
    _sign_up()
    wall.advance(hours=settings.SIGNUP_CONFIRM_HOURS + 1)
    with pytest.raises(NotFound) as refused:
        _confirm(mail.outbox[0])
    assert refused.value.code == "signup_link_invalid"
    assert not User.objects.get(username="lili").is_active


def test_a_forged_link_is_not_read() -> None:
    assert mails.confirmation_read("eyJpZCI6MSwidiI6MH0:forged:sig") is None


def test_the_mode_can_only_be_one_of_three() -> None:
    with pytest.raises(ValidationFailed):
        services.club_settings_set_signup(mode="maybe")
    assert services.club_settings_set_signup(mode=SignupMode.OPEN).signup == "open"


def test_signing_up_again_with_an_unconfirmed_address_resends_its_link(wall) -> None:
    _mode("open")
    _sign_up()
    made = _sign_up(username="lili2")  # too soon: nothing more
    assert made.signup is None and len(mail.outbox) == 1
    wall.advance(seconds=61)
    _sign_up(username="lili2")
    assert len(mail.outbox) == 2 and "confirm your sign-up" in mail.outbox[1].subject
    assert SignUp.objects.count() == 1

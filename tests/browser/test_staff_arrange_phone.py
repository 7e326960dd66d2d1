"""Staff without a player of their own arrange a match from the lobby (issue 30, the
probe found them refused with 403 ``no_player``), on a 390 px phone: the form fits the
screen and passes axe, a refusal names the field, and the arranged match opens started;
their notifications page is an empty list, not a refusal."""

from __future__ import annotations

import pytest

from games.models import Match
from tests.browser.axe import assert_accessible
from tests.browser.conftest import WAIT_SECONDS, sign_in
from tests.browser.phone import page_fit
from tests.factories import UserFactory, UserPlayerFactory

pytestmark = pytest.mark.django_db(transaction=True)


def test_staff_without_a_player_arrange_a_match_on_a_phone(phone, live_server) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    anna, bence = UserPlayerFactory(name="Anna"), UserPlayerFactory(name="Bence")
    director = UserFactory(username="director", is_staff=True)
    sign_in(phone, live_server.url, director)

    phone.get(f"{live_server.url}/matches/")
    form = phone.find_element(By.CSS_SELECTOR, "#arrange-match form")
    fit = page_fit(phone)
    assert fit.fits, str(fit)
    assert_accessible(phone, "the lobby of staff without a player")

    # The same player twice: refused, the lobby again with the error read out.
    Select(form.find_element(By.NAME, "player1")).select_by_visible_text("Anna")
    Select(form.find_element(By.NAME, "player2")).select_by_visible_text("Anna")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    error = WebDriverWait(phone, WAIT_SECONDS).until(
        lambda d: d.find_elements(By.ID, "arrange-error")
    )
    assert error[0].get_attribute("data-code") == "same_player"
    assert not Match.objects.exists()

    form = phone.find_element(By.CSS_SELECTOR, "#arrange-match form")
    Select(form.find_element(By.NAME, "player2")).select_by_visible_text("Bence")
    Select(form.find_element(By.NAME, "length")).select_by_value("3")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    WebDriverWait(phone, WAIT_SECONDS).until(lambda d: "/matches/arrange/" not in d.current_url)
    match = Match.objects.get()
    assert (match.player1_id, match.player2_id, match.length) == (anna.pk, bence.pk, 3)
    assert match.status == Match.Status.PLAYING
    assert phone.current_url.endswith(f"/matches/{match.pk}/")
    assert "is arranged" in phone.find_element(By.CSS_SELECTOR, ".messages").text

    phone.get(f"{live_server.url}/notifications/")
    assert "receives no notifications" in phone.find_element(By.TAG_NAME, "main").text
    assert_accessible(phone, "the notifications of staff without a player")

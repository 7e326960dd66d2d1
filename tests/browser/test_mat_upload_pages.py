"""Issue 28 on a phone (390 x 844, headless Chromium): a player of a match played at the
board uploads its .mat file from the flight page (a refused paste keeps what was typed
and chosen), and the flight page's PR table shows the analysed match; both pages fit
the phone and pass axe (WCAG 2.1 AA, serious and critical)."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest
from django.utils import timezone
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from games.models import MatchAnalysis, PlayerAnalysis
from tests.browser.axe import assert_accessible
from tests.browser.conftest import WAIT_SECONDS, sign_in
from tests.browser.phone import PHONE_WIDTH, page_fit
from tests.factories import UserPlayerFactory
from tests.tournaments.factories import DirectorFactory, EventFactory, flight_with
from tournaments.models import TournamentMatch
from tournaments.services.draw import flight_draw

pytestmark = pytest.mark.django_db(transaction=True)

MAT3 = Path(__file__).resolve().parents[1] / "games" / "engine" / "data" / "gnubg_3pt.mat"


def _fits(driver) -> None:
    fit = page_fit(driver)
    assert fit.fits, str(fit)
    assert fit.screen_width == PHONE_WIDTH


def test_a_player_uploads_the_mat_file_and_the_flight_shows_the_pr_table(phone, live_server):
    director = DirectorFactory()
    event = EventFactory(director=director)
    anna = UserPlayerFactory(name="Anna", rating=Decimal(2000))
    bea = UserPlayerFactory(name="Bea", rating=Decimal(1990))
    flight = flight_with(event, [anna, bea], match_length=3)
    flight_draw(flight_id=flight.pk, by=director)
    row = TournamentMatch.objects.get(flight=flight, slot_key="M1-1")
    wait = WebDriverWait(phone, WAIT_SECONDS)

    sign_in(phone, live_server.url, anna.user)
    flight_url = f"{live_server.url}/events/{event.slug}/flights/{flight.pk}/"
    phone.get(flight_url)
    # The link followed by script: a WebDriver click on the phone went nowhere now and
    # then with four test processes on two cores (the page's own link is what is tested).
    link = phone.find_element(By.CSS_SELECTOR, f"#my-match-{row.pk} a.mat-upload")
    phone.get(link.get_attribute("href"))
    form = wait.until(lambda d: d.find_element(By.ID, "mat-form"))
    _fits(phone)
    assert_accessible(phone, "the .mat upload page")

    # A broken paste: refused, with what was typed and chosen kept.
    form.find_element(By.ID, "text").send_keys("not a match")
    Select(form.find_element(By.ID, "first_side")).select_by_value("a")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    error = wait.until(lambda d: d.find_element(By.ID, "mat-error"))
    assert error.get_attribute("data-code").startswith("mat_")
    form = phone.find_element(By.ID, "mat-form")
    assert form.find_element(By.ID, "text").get_attribute("value") == "not a match"
    assert (
        Select(form.find_element(By.ID, "first_side")).first_selected_option.get_attribute("value")
        == "a"
    )
    _fits(phone)
    assert_accessible(phone, "the .mat upload page, a file refused")
    for control in form.find_elements(By.CSS_SELECTOR, "select, button"):
        assert control.size["height"] >= 44, control.get_attribute("outerHTML")

    # The file itself.
    form.find_element(By.ID, "text").clear()
    form.find_element(By.ID, "file").send_keys(str(MAT3))
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait.until(lambda d: d.find_elements(By.ID, "mat-done"))
    assert "its analysis is on its way" in phone.page_source
    status = phone.find_element(By.CSS_SELECTOR, "#mat-recorded .analysis-status")
    assert status.get_attribute("data-status") == "queued"
    row.refresh_from_db()
    assert row.status == TournamentMatch.Status.REPORTED and row.mat_match_id is not None
    assert (row.mat_match.player1, row.mat_match.player2) == (anna, bea)

    # The analysis done (its figures as the analysis job stores them): the PR table.
    analysis = MatchAnalysis.objects.get(match_id=row.mat_match_id)
    MatchAnalysis.objects.filter(pk=analysis.pk).update(status=MatchAnalysis.Status.DONE)
    for index, (player, pr) in enumerate(((anna, 3.8), (bea, 9.25))):
        PlayerAnalysis.objects.create(
            analysis=analysis,
            match_id=row.mat_match_id,
            player=player,
            index=index,
            unforced_moves=35,
            close_cube_decisions=4,
            chequer_error_emg=0.2,
            cube_error_emg=0.05,
            error_total_emg=0.25,
            error_rate_memg=2 * pr,
            pr=pr,
            snowie_error_rate=pr,
            luck_total_emg=0.1,
            luck_rate_memg=-2.5 if index else 2.5,
            luck_adjusted_result=0.3,
            rating_words="Expert" if index == 0 else "Intermediate",
            counts=True,
            played_at=timezone.now(),
        )
    phone.get(flight_url)
    table = wait.until(lambda d: d.find_element(By.ID, "pr-matches"))
    phone.execute_script("arguments[0].scrollIntoView()", table)
    rows = table.find_elements(By.CSS_SELECTOR, "tbody tr")
    assert len(rows) == 2
    assert "Anna" in rows[0].text and "3.80" in rows[0].text
    assert "Bea" in rows[1].text and "9.25" in rows[1].text
    summary = phone.find_element(By.ID, "pr-summary").text
    assert summary.index("Anna") < summary.index("Bea")  # best average PR first
    link = rows[0].find_element(By.CSS_SELECTOR, "a")
    assert link.get_attribute("href").endswith(f"/matches/{row.mat_match_id}/")
    _fits(phone)
    assert_accessible(phone, "the flight page with its PR table")

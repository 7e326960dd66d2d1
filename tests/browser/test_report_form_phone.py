"""Issue 29, item 7: a player's report form on a 390 x 844 phone (the flight's public
page, "Your match"): each score box has its player's name on the same row (long
Hungarian names too: no name wraps under the other box), and "Play it online" is its own
section, apart from the Report button and styled as the other way; axe finds nothing
serious."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.browser.axe import assert_accessible
from tests.browser.conftest import WAIT_SECONDS, sign_in
from tests.browser.phone import page_fit
from tests.factories import UserPlayerFactory
from tests.tournaments.factories import DirectorFactory, EventFactory, flight_with
from tournaments.models import TournamentMatch
from tournaments.services.draw import flight_draw

pytestmark = pytest.mark.django_db(transaction=True)

# Where each score row's name and box are, and the Report and Play online buttons.
MEASURE = """
const card = arguments[0];
function box(el) {
  const r = el.getBoundingClientRect();
  return {top: r.top + window.scrollY, bottom: r.bottom + window.scrollY,
          left: r.left, right: r.right};
}
const rows = [...card.querySelectorAll('.result-score [data-score-row]')].map(function (row) {
  const name = row.querySelector('.score-name');
  return {side: row.dataset.scoreRow, name: box(name), input: box(row.querySelector('input')),
          text: name.textContent.trim()};
});
const report = card.querySelector('button[data-report]');
const online = card.querySelector('button[data-play-online]');
const style = function (el) {
  const s = getComputedStyle(el);
  return s.backgroundColor + '|' + s.color;
};
const section = online.closest('section.play-online');
return {rows: rows, report: box(report), online: box(online),
        sameForm: report.form === online.form,
        onlineSection: !!section && !section.contains(report),
        next: report.form.nextElementSibling === online.form,
        styles: [style(report), style(online)]};
"""


def test_the_report_form_on_a_phone(phone, live_server) -> None:
    director = DirectorFactory()
    event = EventFactory(director=director)
    me = UserPlayerFactory(name="Kisfaludy-Szentgyörgyi Anna")
    rival = UserPlayerFactory(name="Vásárhelyi-Nagy Béla Bertalan")
    flight = flight_with(event, [me, rival])
    flight_draw(flight_id=flight.pk, by=director)
    match = TournamentMatch.objects.get(flight=flight, status="ready")
    sign_in(phone, live_server.url, me.user)
    phone.get(f"{live_server.url}/events/{event.slug}/flights/{flight.pk}/")
    card = WebDriverWait(phone, WAIT_SECONDS).until(
        lambda d: d.find_element(By.ID, f"my-match-{match.pk}")
    )
    fit = page_fit(phone)
    assert fit.fits, fit
    m = phone.execute_script(MEASURE, card)

    # Each name on its own box's row: side a's row above side b's, each name level
    # with its box and left of it, the other row wholly below.
    a, b = m["rows"]
    assert (a["side"], b["side"]) == ("a", "b")
    assert {a["text"], b["text"]} == {me.name, rival.name}
    for row in (a, b):
        assert row["name"]["right"] <= row["input"]["left"], row
        assert row["name"]["top"] < row["input"]["bottom"], row
        assert row["input"]["top"] < row["name"]["bottom"], row
    assert b["name"]["top"] >= a["input"]["bottom"] - 1 and b["name"]["top"] >= a["name"]["bottom"]

    # Play it online: another form, in its own section, not right under Report, and
    # not styled as Report.
    assert not m["sameForm"] and m["onlineSection"] and not m["next"], m
    assert m["online"]["top"] - m["report"]["bottom"] >= 40, m
    assert m["styles"][0] != m["styles"][1], m
    assert_accessible(phone, "the player's report form")

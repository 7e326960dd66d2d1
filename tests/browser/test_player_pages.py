"""The player page and the leaderboard in a real, headless Chromium (issue 8): the rating
history chart drawn (its line has a size, its last value label shows the player's rating
and is seen in a screenshot), a result's calculation readable, head-to-head picked from
the page's form; the leaderboard filtered by club and period through its form, and a
player reached from it."""

from __future__ import annotations

import datetime
import random

import pytest
from django.utils import timezone
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from games.models import Player, RatedResult
from games.ratings import services as ratings
from tests.browser.test_tournament_pages import _dark_pixels
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db(transaction=True)


def _club_history(players: list[Player], n: int, *, days: int, seed: int) -> None:
    """``n`` rated club results among ``players`` over the last ``days`` days."""
    rng = random.Random(seed)
    start = timezone.now() - datetime.timedelta(days=days)
    for i in range(n):
        a, b = rng.sample(players, 2)
        ratings.rating_record(
            source=RatedResult.Source.CLUB,
            source_key=f"club:b{seed}-{i}",
            player1=a,
            player2=b,
            length=rng.choice((1, 3, 5, 7)),
            winner=a if rng.random() < 0.6 else b,
            at=start + datetime.timedelta(hours=i * days * 24 / n),
        )


def _english(browser, live_server) -> None:
    browser.get(f"{live_server.url}/")
    browser.add_cookie({"name": "django_language", "value": "en", "path": "/"})


def test_player_page_chart_calculation_and_head_to_head(browser, live_server, wait) -> None:
    cast = [PlayerFactory(name=n, club="Pest") for n in ("Anna", "Béla", "Cili", "Dani")]
    _club_history(cast, 60, days=120, seed=3)
    anna = Player.objects.get(name="Anna")
    _english(browser, live_server)
    browser.get(f"{live_server.url}/players/{anna.pk}/")
    assert (
        browser.find_element(By.CSS_SELECTOR, "[data-testid=rating]").text == f"{anna.rating:.2f}"
    )

    # The chart: an SVG image whose rating line has a real size on the page.
    chart = browser.find_element(By.CSS_SELECTOR, "[data-testid=rating-chart] svg")
    assert chart.get_attribute("role") == "img"
    line = chart.find_element(By.CSS_SELECTOR, ".rating-line")
    box = browser.execute_script(
        "const r = arguments[0].getBoundingClientRect(); return [r.width, r.height];", line
    )
    assert box[0] > 300 and box[1] > 20, box
    # The last value's label is Anna's rating, drawn in ink a screenshot can see.
    label = chart.find_element(By.CSS_SELECTOR, ".last .last-value")
    assert label.text.replace(",", ".") == f"{anna.rating:.2f}"
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'});", label)
    left, top, right, bottom, ratio = browser.execute_script(
        "const r = arguments[0].getBoundingClientRect();"
        "return [r.left, r.top, r.right, r.bottom, window.devicePixelRatio];",
        label,
    )
    crop = (int(left * ratio), int(top * ratio), int(right * ratio + 1), int(bottom * ratio + 1))
    dark, total = _dark_pixels(browser.get_screenshot_as_png(), crop)
    assert total > 0 and 0.03 < dark / total < 0.9, (dark, total, crop)

    # The newest result shows its calculation, ending in the change the ledger holds.
    newest = (
        RatedResult.objects.filter(player1=anna).union(RatedResult.objects.filter(player2=anna))
    ).order_by("-at", "-id")[0]
    change = newest.change1 if newest.player1_id == anna.pk else newest.change2
    first_row = browser.find_element(By.CSS_SELECTOR, "[data-testid=results] tbody tr")
    calc = first_row.find_element(By.CSS_SELECTOR, "[data-testid=calculation]").text
    assert "P" in calc and calc.endswith(f"{change:+.2f}"), calc

    # Head-to-head against Béla from the page's form.
    Select(browser.find_element(By.ID, "vs")).select_by_visible_text("Béla")
    browser.find_element(By.CSS_SELECTOR, ".head-to-head-pick button[type=submit]").click()
    wait.until(lambda b: "/vs/" in b.current_url)
    between = RatedResult.objects.filter(player1__in=cast[:2], player2__in=cast[:2])
    won = between.filter(winner=anna).count()
    score = browser.find_element(By.CSS_SELECTOR, "[data-testid=h2h-score]").text
    assert score == f"{won} \u2013 {between.count() - won}"
    assert len(browser.find_elements(By.CSS_SELECTOR, "[data-testid=results] tbody tr")) == min(
        between.count(), 25
    )


def test_leaderboard_filters_and_links(browser, live_server, wait) -> None:
    pest = [PlayerFactory(name=n, club="Pest") for n in ("Anna", "Béla", "Cili")]
    szeged = [PlayerFactory(name=n, club="Szeged") for n in ("Dóra", "Emil", "Feri")]
    _club_history(pest, 40, days=300, seed=5)  # the last of these are recent
    _club_history(szeged, 30, days=300, seed=6)
    # Feri's only recent match: the last 30 days show him with it.
    old = timezone.now() - datetime.timedelta(days=400)
    RatedResult.objects.filter(source_key__startswith="club:b6-").update(at=old)
    ratings.ratings_replay()
    ratings.rating_record(
        source=RatedResult.Source.CLUB,
        source_key="club:recent",
        player1=szeged[2],
        player2=szeged[0],
        length=5,
        winner=szeged[2],
        at=timezone.now() - datetime.timedelta(days=2),
    )
    _english(browser, live_server)
    browser.get(f"{live_server.url}/ratings/")

    def names() -> list[str]:
        return [
            r.find_element(By.CSS_SELECTOR, "td a").text
            for r in browser.find_elements(By.CSS_SELECTOR, "[data-testid=leaderboard] tbody tr")
        ]

    everyone = sorted(
        (p for p in Player.objects.all() if p.experience >= 25), key=lambda p: (-p.rating, p.name)
    )
    assert names() == [p.name for p in everyone]

    Select(browser.find_element(By.ID, "id_club")).select_by_visible_text("Szeged")
    Select(browser.find_element(By.ID, "id_period")).select_by_value("30d")
    field = browser.find_element(By.ID, "id_min_experience")
    field.clear()
    field.send_keys("0")
    browser.find_element(By.CSS_SELECTOR, ".leaderboard-filter button[type=submit]").click()
    wait.until(lambda b: "period=30d" in b.current_url)
    assert sorted(names()) == ["Dóra", "Feri"]
    feri_row = browser.find_element(By.CSS_SELECTOR, f"tr[data-player='{szeged[2].pk}']")
    recent = RatedResult.objects.get(source_key="club:recent")
    assert feri_row.find_elements(By.CSS_SELECTOR, "td")[-1].text == f"{recent.change1:+.2f}"

    feri_row.find_element(By.CSS_SELECTOR, "td a").click()
    wait.until(lambda b: f"/players/{szeged[2].pk}/" in b.current_url)
    assert browser.find_element(By.TAG_NAME, "h1").text == "Feri"

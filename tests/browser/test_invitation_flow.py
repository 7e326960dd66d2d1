"""An invitation in two real browsers (issue 18), over the real ASGI server and Redis
channel layer: Anna invites Bence, whose lobby shows it at once (and his header counts
the notification); he declines, and Anna's page says so; she invites again, he accepts,
and both see the match start, neither page reloaded by hand."""

from __future__ import annotations

import pytest
from selenium.webdriver.support.ui import WebDriverWait

from games.models import Match, MatchInvitation
from tests.browser.conftest import WAIT_SECONDS
from tests.factories import PlayerFactory, UserPlayerFactory

pytestmark = pytest.mark.django_db(transaction=True)

#: How long a live change may take to show on the other page.
LIVE_SECONDS = WAIT_SECONDS


def _text(driver, css: str) -> str:
    """An element's text, read in one script (a live region may be swapped between two
    WebDriver calls)."""
    return driver.execute_script(
        "const e = document.querySelector(arguments[0]); return e ? e.textContent : '';", css
    )


def _until(driver, check, seconds: float = LIVE_SECONDS) -> None:
    WebDriverWait(driver, seconds).until(lambda d: check(d))


def _click(driver, css: str) -> None:
    """Click the element once it is there and enabled, in one script (see _text)."""
    _until(
        driver,
        lambda d: d.execute_script(
            "const e = document.querySelector(arguments[0]);"
            " if (e && !e.disabled) { e.click(); return true; } return false;",
            css,
        ),
    )


def _watching(driver) -> None:
    _until(driver, lambda d: d.execute_script("return document.body.dataset.liveState === 'up';"))


def _mark(driver) -> None:
    driver.execute_script("window.__noReload = 1;")


def _not_reloaded(driver) -> bool:
    return driver.execute_script("return window.__noReload === 1;")


def _invite(driver, server) -> MatchInvitation:
    driver.get(f"{server.url}/matches/")
    _click(driver, "#new-match button[type=submit]")
    _until(driver, lambda d: "Waiting for Bence to accept" in _text(d, "#match-invitation"))
    return MatchInvitation.objects.order_by("-pk").first()


def test_an_invitation_declined_then_accepted_in_two_browsers(
    browser, second_browser, asgi_server, log_in_at
):
    anna, bence = UserPlayerFactory(name="Anna"), UserPlayerFactory(name="Bence")
    PlayerFactory(name="Cili")  # no login: not offered
    log_in_at(asgi_server, anna.user, driver=browser)
    log_in_at(asgi_server, bence.user, driver=second_browser)
    second_browser.get(f"{asgi_server.url}/matches/")
    _watching(second_browser)
    _mark(second_browser)
    assert "No invitation waits for an answer." in _text(second_browser, "#lobby-invitations")

    # Anna invites Bence (the only one offered) and waits on the match page.
    browser.get(f"{asgi_server.url}/matches/")
    options = browser.execute_script(
        "return [...document.querySelectorAll('select[name=opponent] option')]"
        ".map(o => o.textContent);"
    )
    # The practice opponent (issue 28) is offered last, so a person stays the default.
    assert options == ["Bence", "GNU Backgammon (computer, practice)"]
    first = _invite(browser, asgi_server)
    _watching(browser)
    _mark(browser)

    # Bence's lobby shows it, and his header counts the notification, without a reload.
    _until(second_browser, lambda d: "Anna invites you" in _text(d, "#lobby-invitations"))
    _until(second_browser, lambda d: _text(d, ".unread-count").strip() == "1")
    assert _not_reloaded(second_browser)

    # He declines: his lobby has none left; Anna's page says so, live.
    _click(second_browser, f"li[data-invitation='{first.pk}'] button[data-action=decline]")
    _until(
        second_browser,
        lambda d: "No invitation waits for an answer." in _text(d, "#lobby-invitations"),
    )
    _until(browser, lambda d: "Bence declined the invitation" in _text(d, "#match-invitation"))
    assert _not_reloaded(browser)
    assert Match.objects.get(pk=first.match_id).status == "cancelled"

    # Anna invites again; Bence accepts from his lobby and is taken to the match.
    second = _invite(browser, asgi_server)
    _watching(browser)
    _mark(browser)
    _until(
        second_browser,
        lambda d: d.execute_script(
            "return !!document.querySelector(arguments[0]);",
            f"li[data-invitation='{second.pk}'] button[data-action=accept]",
        ),
    )
    _click(second_browser, f"li[data-invitation='{second.pk}'] button[data-action=accept]")
    _until(second_browser, lambda d: f"/matches/{second.match_id}/" in d.current_url)
    _until(
        second_browser,
        lambda d: bool(d.execute_script("return !!document.querySelector('.board svg');")),
    )

    # Anna's waiting page becomes the board of the started match, live.
    _until(
        browser, lambda d: bool(d.execute_script("return !!document.querySelector('.board svg');"))
    )
    assert _text(browser, "#match-invitation") == ""
    assert "Game 1" in _text(browser, ".panel h2")
    assert _not_reloaded(browser)
    assert Match.objects.get(pk=second.match_id).status == "playing"

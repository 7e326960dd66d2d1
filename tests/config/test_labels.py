"""What people read instead of codes (issue 18, item 6): the clock presets by their
names wherever a menu offers them (table clocks, the admin's flights and rounds), the
correction log's results in words in the admin too. (That the new labels are in the
catalogue is tests/config/test_translations.py's check.)"""

from __future__ import annotations

import html
import re

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import translation

from games.play.presets import preset_label
from tests.factories import PlayerFactory
from tests.tournaments.factories import DirectorFactory, EventFactory, flight_with
from tournaments.models import FlightRound, ResultCorrection, TournamentMatch
from tournaments.services.draw import flight_draw
from tournaments.services.results import result_correct, result_enter

pytestmark = pytest.mark.django_db

PRESET_IDS = ("seed002", "usbgf", "galaxy-casual", "wbgf-speed")


@pytest.fixture
def staff(client):
    client.force_login(get_user_model().objects.create_superuser("root", "r@example.org", "pw"))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def _options(html: str, name: str) -> dict[str, str]:
    select = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', html, re.S)
    assert select, f"no select {name}"
    return dict(re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)</option>', select.group(1)))


def test_the_table_clock_menu_names_the_presets_as_the_lobby_does(client) -> None:
    client.force_login(get_user_model().objects.create_user("owner", password="pw"))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    options = _options(client.get("/clocks/new/").content.decode(), "preset")
    with translation.override("en"):
        assert {name: options[name] for name in PRESET_IDS} == {
            name: preset_label(name) for name in PRESET_IDS
        }
    assert all(name not in label for label in options.values() for name in PRESET_IDS)
    assert "seed 002" not in " ".join(options.values())
    assert "custom" in options


def test_the_admin_offers_the_presets_by_name_for_flights_and_rounds(staff) -> None:
    flight = flight_with(EventFactory(), [PlayerFactory(), PlayerFactory()])
    page = staff.get(f"/admin/tournaments/flight/{flight.pk}/change/").content.decode()
    options = _options(page, "clock_preset")
    with translation.override("en"):
        assert options["seed002"] == preset_label("seed002")
    assert options[""] == "no clock"
    round_options = _options(page, "rounds-__prefix__-clock_preset")
    assert round_options["usbgf"].startswith("USBGF (")
    # A name out of the menu is refused; one in it is saved.
    FlightRound.objects.filter(flight=flight).delete()
    form = {
        "name": flight.name,
        "event": flight.event_id,
        "format": flight.format,
        "match_length": flight.match_length,
        "clock_policy": flight.clock_policy,
        "clock_preset": "seed003",
        "rounds-TOTAL_FORMS": "0",
        "rounds-INITIAL_FORMS": "0",
    }
    page = staff.get(f"/admin/tournaments/flight/{flight.pk}/change/").content.decode()
    for name, value in re.findall(
        r'<input type="(?:text|number|hidden)" name="([a-z_]+)" value="([^"]*)"', page
    ):
        form.setdefault(name, html.unescape(value))
    for name, options in re.findall(r'<select name="([a-z_]+)"[^>]*>(.*?)</select>', page, re.S):
        chosen = re.search(r'<option value="([^"]*)" selected>', options)
        if chosen:
            form.setdefault(name, chosen.group(1))
    for name in re.findall(r'<textarea name="([a-z_]+)"[^>]*>', page):
        found = re.search(rf'<textarea name="{name}"[^>]*>\n?(.*?)</textarea>', page, re.S)
        form.setdefault(name, html.unescape(found.group(1)) if found else "")
    refused = staff.post(f"/admin/tournaments/flight/{flight.pk}/change/", form)
    assert refused.status_code == 200 and "Select a valid choice" in refused.content.decode()
    saved = staff.post(
        f"/admin/tournaments/flight/{flight.pk}/change/", {**form, "clock_preset": "usbgf"}
    )
    assert saved.status_code == 302, re.findall(r"errorlist.*?</ul>", saved.content.decode())
    flight.refresh_from_db()
    assert flight.clock_preset == "usbgf"


def test_the_admin_says_a_correction_in_words(staff) -> None:
    director = DirectorFactory()
    anna, bela = PlayerFactory(name="Kiss Anna"), PlayerFactory(name="Nagy Béla")
    flight = flight_with(EventFactory(director=director), [anna, bela])
    flight_draw(flight_id=flight.pk, by=director)
    final = TournamentMatch.objects.get(flight=flight, slot_key="M1-1")
    result_enter(match_id=final.pk, by=director, score_a=5, score_b=2)
    result_correct(match_id=final.pk, by=director, reason="typo", score_a=2, score_b=5)
    correction = ResultCorrection.objects.get(match=final)
    final.refresh_from_db()
    winner, loser = (
        (final.entry_a.player.name, final.entry_b.player.name)
        if final.winner == "a"
        else (final.entry_b.player.name, final.entry_a.player.name)
    )
    page = staff.get(f"/admin/tournaments/resultcorrection/{correction.pk}/change/")
    text = page.content.decode()
    assert f"{loser} won 5–2" in text  # noqa: RUF001 - the score's en dash
    assert f"{winner} won 5–2" in text  # noqa: RUF001
    assert "(confirmed" not in text

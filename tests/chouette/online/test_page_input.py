"""The online table's form posts (chouette.online.pages) with odd and huge inputs: a
refusal is the page again with its message (a redirect), never a 500, and nothing is
written."""

from __future__ import annotations

import pytest
from django.urls import reverse

from chouette.models import ChouetteOnlineGame
from chouette.online import services
from games.play.dice import ScriptedDice
from tests.chouette.api.test_online import FOUR, FOUR_ROLLS, everything
from tests.chouette.factories import players, session_with

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(monkeypatch):
    cast = players(FOUR)
    session = session_with(cast, rolls=FOUR_ROLLS)  # Bob box, Ann captain
    monkeypatch.setattr(services, "SYSTEM_DICE", ScriptedDice((6, 1, 3, 2, 4, 1, 5, 2)))
    started = services.online_game_start(session_id=session.pk, by=cast["Ann"].user)
    return {"cast": cast, "session": session, "game": started}


def _post(client, user, name: str, kwargs: dict, data: dict):
    client.force_login(user)
    return client.post(reverse(name, kwargs=kwargs), data)


ACT_BODIES = [
    {"action": "fly", "expected_version": "1"},
    {"action": "play", "expected_version": "1", "position_id": "x" * 10_000},
    {"action": "play", "expected_version": "1", "position_id": "%00<>"},
    {"action": "box_double", "expected_version": "1", "members": [str(n) for n in range(10_000)]},
    {"action": "box_double", "expected_version": "1", "members": ["a", "9" * 5000]},
    {"action": "answer", "expected_version": "1", "member": "Ann", "answer": "take"},
    {"action": "answer", "expected_version": "1", "member": "9" * 5000, "answer": "x" * 5000},
    {"action": "choose_double", "expected_version": "1", "value": "six"},
    {"action": "roll", "expected_version": "1", "as_player": "-5"},
    {"action": "roll", "expected_version": "x"},
    {"action": "roll", "expected_version": "99999999999999999999999"},
]


@pytest.mark.parametrize("data", ACT_BODIES)
def test_odd_action_posts_are_refused_with_the_page(client, game, data):
    before = everything()
    response = _post(
        client, game["cast"]["Bob"].user, "chouette:play-act", {"game_id": game["game"].pk}, data
    )
    # 10,000 members are past DATA_UPLOAD_MAX_NUMBER_FIELDS: Django's own 400.
    assert response.status_code == (400 if len(data.get("members", ())) > 1000 else 302)
    assert everything() == before


@pytest.mark.parametrize("version", ["²", "9" * 5000])
def test_an_expected_version_that_is_no_number_is_refused(client, game, version):
    # str.isdigit() is true for both, int() refuses them: read as no version at all (the
    # roll is then judged on the game as it is), never a 500.
    client.raise_request_exception = True
    response = _post(
        client,
        game["cast"]["Bob"].user,
        "chouette:play-act",
        {"game_id": game["game"].pk},
        {"action": "roll", "expected_version": version},
    )
    assert response.status_code == 302


@pytest.mark.parametrize(
    "data",
    [
        {"text": "x" * 10_000},
        {"play": "x" * 10_000},
        {"text": ""},
        {"play": "4HPwATDgc/ABMA"},
    ],
)
def test_odd_team_posts_are_refused_with_the_page(client, game, data):
    before = everything()
    response = _post(
        client, game["cast"]["Cy"].user, "chouette:play-team", {"game_id": game["game"].pk}, data
    )
    assert response.status_code == 302
    assert everything() == before


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"decision_seconds": "-1", "decision_default": "take"},
        {"decision_seconds": "9" * 5000, "decision_default": "take"},
        {"decision_seconds": "30", "decision_default": "x" * 10_000},
        {"decision_seconds": "30", "decision_default": "take", "clock_preset": "nope"},
    ],
)
def test_odd_settings_posts_are_refused_with_the_page(client, game, data):
    ChouetteOnlineGame.objects.filter(pk=game["game"].pk).update(status="abandoned")
    before = everything()
    response = _post(
        client,
        game["cast"]["Ann"].user,
        "chouette:play-settings",
        {"session_id": game["session"].pk},
        data,
    )
    assert response.status_code == 302
    assert everything() == before


def test_the_posts_of_an_unknown_game_are_404(client, game):
    client.force_login(game["cast"]["Bob"].user)
    for name in ("chouette:play-act", "chouette:play-team", "chouette:play-abandon"):
        assert client.post(reverse(name, kwargs={"game_id": 987654321}), {}).status_code == 404

"""The chouette web pages (chouette/pages/): the list and the new-session form, the
scoreboard and its wall view, the game entry with Preview (saves nothing) and Save,
seat changes, undo and the end as plain form posts, who may post, the summary and a
player's totals; the scoreboard's query count does not grow with the games."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from chouette.models import ChouetteEvent, ChouetteSession
from chouette.services.games import game_record
from tests.chouette.factories import players, scorekeeper, session_with, simple_entry
from tests.factories import PlayerFactory, UserFactory, UserPlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def en(client):
    client.cookies["django_language"] = "en"
    return client


def _url(name: str, **kwargs) -> str:
    return reverse(f"chouette:{name}", kwargs=kwargs)


def _entry_post(session: ChouetteSession, action: str, **override) -> dict[str, str]:
    entry = simple_entry(session)
    post = {
        "action": action,
        "expected_version": str(session.version),
        "box": str(entry["box"]),
        "captain": str(entry["captain"]),
        "winner": "team",
        "kind": "single",
    }
    for m in entry["members"]:
        post[f"cube-{m['player']}"] = "1"
        post[f"fate-{m['player']}"] = "took"
    post.update(override)
    return post


def test_list_and_new_session_form(en) -> None:
    cast = players(("Anna", "Béla", "Cili"), with_login=False)
    page = en.get(_url("session-list"))
    assert page.status_code == 200 and "Log in to start a session." in page.text
    en.force_login(scorekeeper())  # none of the three has a login: the scorekeeper starts
    page = en.get(_url("session-list"))
    assert "Start the session" in page.text
    response = en.post(
        _url("session-create"),
        {
            "name": "Péntek",
            "players": [p.pk for p in cast.values()],
            "rolls": "Anna 3 5\nBéla 3 2\ncili: 6",
            "stake_per_point": "100",
            "currency": "huf",
            "kind": "classic",
            "rotation": "standard",
            "automatic_doubles": "0",
            "backgammon_value": "3",
        },
    )
    session = ChouetteSession.objects.get()
    assert response.status_code == 302 and response.url == _url("scoreboard", session_id=session.pk)
    assert session.seating["box"] == cast["Cili"].pk
    assert session.seating["line"] == [cast["Anna"].pk, cast["Béla"].pk]
    assert session.currency == "HUF" and session.stake_per_point == Decimal("100")
    assert session.rolled_by_server is False
    # A tie left unbroken is refused with the rules' message, nothing created.
    refused = en.post(
        _url("session-create"),
        {
            "name": "Szombat",
            "players": [p.pk for p in cast.values()],
            "rolls": "Anna 4\nBéla 4\nCili 1",
            "kind": "classic",
            "rotation": "standard",
            "automatic_doubles": "0",
            "backgammon_value": "3",
        },
    )
    assert refused.status_code == 400
    # Said at the roll-off field, naming who must roll again, with what was typed kept.
    assert "Anna, Béla tied in the roll-off" in refused.text
    assert "Anna 4\nBéla 4\nCili 1" in refused.text
    assert ChouetteSession.objects.count() == 1


def test_scoreboard_and_wall(en) -> None:
    cast = players()
    session = session_with(cast, stake_per_point=Decimal("0.5"), currency="EUR")
    game_record(session_id=session.pk, by=session.created_by, entry=simple_entry(session))
    page = en.get(_url("scoreboard", session_id=session.pk))
    assert page.status_code == 200
    text = page.text
    assert 'http-equiv="refresh"' not in text  # it follows the session live
    assert f"chouette:{session.pk}" in text and 'id="chouette-board" data-live-region' in text
    assert 'data-role="box"' in text and 'data-role="captain"' in text
    # After the team won: Ann (captain) has the box, Cy is captain.
    assert f'data-player="{cast["Ann"].pk}" data-role="box"' in text
    assert f'data-player="{cast["Cy"].pk}" data-role="captain"' in text
    assert 'data-total="-4"' in text
    assert "Enter a game" not in text  # anonymous: no forms
    wall = en.get(_url("scoreboard", session_id=session.pk) + "?wall=1")
    assert wall.status_code == 200 and "chouette-wall" in wall.text
    assert 'http-equiv="refresh"' not in wall.text and 'id="live-status"' in wall.text
    assert f'data-live-topics="chouette:{session.pk}"' in wall.text
    assert "site-header" not in wall.text
    assert en.get(_url("scoreboard", session_id=999999)).status_code == 404


def test_scoreboard_query_count_does_not_grow_with_games(en) -> None:
    cast = players()
    session = session_with(cast)
    url = _url("scoreboard", session_id=session.pk)
    en.force_login(cast["Ann"].user)

    def count() -> int:
        with CaptureQueriesContext(connection) as ctx:
            assert en.get(url).status_code == 200
        return len(ctx.captured_queries)

    game_record(session_id=session.pk, by=session.created_by, entry=simple_entry(session))
    few = count()
    for _ in range(12):
        session.refresh_from_db()
        game_record(session_id=session.pk, by=session.created_by, entry=simple_entry(session))
    assert count() == few


def test_who_may_use_the_game_entry(en) -> None:
    cast = players()
    session = session_with(cast)
    url = _url("game-entry", session_id=session.pk)
    response = en.get(url)
    assert response.status_code == 302 and "/accounts/login/" in response.url
    en.force_login(UserPlayerFactory(name="Idegen").user)
    assert en.get(url).status_code == 403
    assert en.post(_url("undo", session_id=session.pk)).status_code == 403
    for user in (cast["Dee"].user, session.created_by, UserFactory(is_staff=True)):
        en.force_login(user)
        assert en.get(url).status_code == 200


def test_game_entry_preview_then_save(en) -> None:
    cast = players()
    session = session_with(cast)
    en.force_login(cast["Ann"].user)
    url = _url("game-entry", session_id=session.pk)
    page = en.get(url)
    # Box and captain prefilled from the seating.
    assert f'<option value="{cast["Bob"].pk}" selected>Bob</option>' in page.text
    # The box doubled to 2 (one team cube): Cy dropped, the others took; team gammon.
    cubes = {f"cube-{cast[n].pk}": "2" for n in ("Ann", "Cy", "Eve", "Dee")}
    post = _entry_post(session, "preview", kind="gammon", **cubes)
    post[f"fate-{cast['Cy'].pk}"] = "dropped"
    preview = en.post(url, post)
    assert preview.status_code == 200, preview.text
    assert "Points for this game" in preview.text
    assert preview.text.count('class="num preview-points">+4<') == 3
    assert 'class="num preview-points">-1<' in preview.text
    assert 'class="num preview-points">-11<' in preview.text
    assert ChouetteEvent.objects.count() == 0  # a preview saves nothing
    # The form keeps what was posted.
    assert '<option value="2" selected>2</option>' in preview.text
    saved = en.post(url, _entry_post(session, "save"))
    assert saved.status_code == 302 and saved.url == _url("scoreboard", session_id=session.pk)
    assert ChouetteEvent.objects.filter(kind="game").count() == 1
    # Saving the same form again: the version moved on, refused, nothing saved.
    again = en.post(url, _entry_post(session, "save"))
    assert again.status_code == 400 and "reload" in again.text
    assert ChouetteEvent.objects.filter(kind="game").count() == 1
    session.refresh_from_db()
    bad = en.post(url, _entry_post(session, "save", winner=""))
    assert bad.status_code == 400
    assert "Members played on: enter the winner" in bad.text
    assert ChouetteEvent.objects.filter(kind="game").count() == 1


def test_seat_changes_undo_end_and_summary(en) -> None:
    cast = players()
    session = session_with(cast, stake_per_point=Decimal("1.00"), currency="EUR")
    newcomer = PlayerFactory(name="Flo")
    en.force_login(session.created_by)
    seats = _url("seat-change", session_id=session.pk)
    assert en.post(seats, {"action": "join", "player": newcomer.pk}).status_code == 302
    assert en.post(seats, {"action": "sit_out", "player": cast["Dee"].pk}).status_code == 302
    session.refresh_from_db()
    assert session.seating["line"][-1] == newcomer.pk and session.seating["out"] == [cast["Dee"].pk]
    page = en.get(_url("scoreboard", session_id=session.pk))
    assert "Comes back" in page.text
    game_record(session_id=session.pk, by=session.created_by, entry=simple_entry(session))
    session.refresh_from_db()
    after_game = session.seating
    assert en.post(_url("undo", session_id=session.pk)).status_code == 302
    session.refresh_from_db()
    assert session.seating != after_game
    assert en.get(_url("scoreboard", session_id=session.pk)).text.count('data-total="0"') == 6
    refused = en.post(_url("undo", session_id=session.pk), follow=True)
    assert "No game has been entered yet." in refused.text
    game_record(
        session_id=session.pk, by=session.created_by, entry=simple_entry(session, winner="box")
    )
    ended = en.post(_url("end", session_id=session.pk))
    assert ended.status_code == 302 and ended.url == _url("summary", session_id=session.pk)
    summary = en.get(ended.url)
    assert summary.status_code == 200
    assert "Bob pays" not in summary.text  # the box won
    assert "pays Bob 1 point (€1.00)" in summary.text  # one point, not "1 points"
    assert "1 points" not in summary.text
    assert "+4" in summary.text and "+€4.00" in summary.text  # the reader's format
    # An ended session: no forms; the entry page sends back.
    assert "Enter a game" not in en.get(_url("scoreboard", session_id=session.pk)).text
    assert en.get(_url("game-entry", session_id=session.pk)).status_code == 302


def test_player_page_lists_totals_per_session(en) -> None:
    cast = players()
    session = session_with(cast, name="Csütörtök")
    game_record(session_id=session.pk, by=session.created_by, entry=simple_entry(session))
    # The old address sends to the player page, which shows the chouette section.
    moved = en.get(_url("player", player_id=cast["Bob"].pk))
    assert moved.status_code == 301
    assert moved.url == reverse("games:player", args=[cast["Bob"].pk])
    page = en.get(moved.url)
    assert page.status_code == 200
    assert "Csütörtök" in page.text and "-4" in page.text
    assert en.get(_url("player", player_id=999999)).status_code == 404


def test_pages_in_hungarian(client) -> None:
    client.cookies["django_language"] = "hu"
    cast = players()
    session = session_with(cast, stake_per_point=Decimal("100"), currency="HUF")
    game_record(session_id=session.pk, by=session.created_by, entry=simple_entry(session))
    board = client.get(_url("scoreboard", session_id=session.pk))
    assert board.status_code == 200
    assert "Ülésrend" in board.text and "kapitány" in board.text
    assert "1 játszma" in board.text and "pontonként 100\u00a0Ft" in board.text
    summary = client.get(_url("summary", session_id=session.pk))
    assert "Ki kinek fizet" in summary.text and "fizet" in summary.text
    client.force_login(session.created_by)
    entry = client.get(_url("game-entry", session_id=session.pk))
    assert "Előnézet" in entry.text and "Kapitány" in entry.text

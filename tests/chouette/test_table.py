"""At the chouette table (issue 18): the summary's plurals, undo and end confirmed,
an ended session reopened, the roll-off read from any unambiguous part of a name, a
newcomer joining by name as a guest player, and the last games in a stable column order."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.urls import reverse

from chouette import services
from tests.chouette.factories import players, session_with, simple_entry
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def en(client):
    client.cookies["django_language"] = "en"
    return client


def _url(name: str, **kwargs) -> str:
    return reverse(f"chouette:{name}", kwargs=kwargs)


# ====================================================================== plurals
def test_summary_says_one_point_and_two_points(en) -> None:
    cast = players(("Ann", "Bob", "Cy"), with_login=False)
    # Ann 6 box, Bob 5 captain, Cy 4.
    session = session_with(
        cast, rolls={"Ann": 6, "Bob": 5, "Cy": 4}, stake_per_point=Decimal("1.00"), currency="EUR"
    )
    # The box wins a single against two members: +2, and each member pays 1 point.
    services.game_record(
        session_id=session.pk, by=session.created_by, entry=simple_entry(session, winner="box")
    )
    page = en.get(_url("summary", session_id=session.pk)).text
    assert "Bob pays Ann 1 point (1.00 EUR)" in page
    assert "Cy pays Ann 1 point (1.00 EUR)" in page
    assert "1 points" not in page
    # A second box win: each owes 2 points now, without money too.
    session.refresh_from_db()
    services.game_record(
        session_id=session.pk, by=session.created_by, entry=simple_entry(session, winner="box")
    )
    page = en.get(_url("summary", session_id=session.pk)).text
    assert "pays Ann 2 points (2.00 EUR)" in page
    plain = session_with(
        players(("Dió", "Eper", "Füge"), with_login=False), rolls={"Dió": 6, "Eper": 5, "Füge": 4}
    )
    services.game_record(
        session_id=plain.pk, by=plain.created_by, entry=simple_entry(plain, winner="box")
    )
    page = en.get(_url("summary", session_id=plain.pk)).text
    assert "Eper pays Dió 1 point<" in page and "1 points" not in page


# ====================================================================== last games
def _columns(html: str) -> list[str]:
    head = html[html.index('class="matches chouette-games"') :]
    head = head[: head.index("</thead>")]
    return re.findall(r'<th scope="col" class="num">([^<#]+)</th>', head)


def test_last_games_columns_keep_the_join_order(en) -> None:
    cast = players()
    session = session_with(cast)  # seated Bob (box), Ann, Cy, Eve, Dee
    joined = ["Bob", "Ann", "Cy", "Eve", "Dee"]
    url = _url("scoreboard", session_id=session.pk)
    for winner in ("team", "box", "team"):
        session.refresh_from_db()
        services.game_record(
            session_id=session.pk, by=session.created_by, entry=simple_entry(session, winner=winner)
        )
    session.refresh_from_db()
    assert session.seating["box"] != cast["Bob"].pk  # the seating has moved on
    assert _columns(en.get(url).text) == joined
    assert _columns(en.get(url + "?wall=1").text) == joined
    # A newcomer's column comes last; one who sits out keeps theirs.
    flo = PlayerFactory(name="Flo")
    services.session_join(session_id=session.pk, by=session.created_by, player_id=flo.pk)
    services.session_sit_out(session_id=session.pk, by=session.created_by, player_id=cast["Ann"].pk)
    session.refresh_from_db()
    services.game_record(session_id=session.pk, by=session.created_by, entry=simple_entry(session))
    page = en.get(url).text
    assert _columns(page) == [*joined, "Flo"]
    # Each row's cells follow the same columns: the newest game's points, Ann's empty.
    newest = page[page.index('<tr data-game="4">') :]
    cells = re.findall(r'<td class="num">([^<]*)</td>', newest[: newest.index("</tr>")])
    assert cells[0] == "4"  # the game number, then one cell per column
    assert len(cells[1:]) == 6 and cells[1 + joined.index("Ann")] == ""

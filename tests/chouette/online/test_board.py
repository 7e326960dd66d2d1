"""The online chouette table's board (issue 27): the image of a position on the way through
the team's roll (what static/games/board.js shows after each move), refused for anything
else; the team's suggestions listed under the captain's board; the list of plays kept, folded
away, when the play is arranged on the board."""

from __future__ import annotations

import pytest

from chouette.online import services
from chouette.online.table import Table
from games.engine.notation import format_play
from games.engine.position import Position, position_id
from games.engine.steps import state_play_steps
from games.play.dice import ScriptedDice
from tests.chouette.factories import players, session_with
from tests.svgtools import find_all, parse_svg

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(monkeypatch):
    cast = players(("Ann", "Bob", "Cy", "Dee"))
    session = session_with(cast, rolls={"Bob": 6, "Ann": 5, "Cy": 4, "Dee": 3})
    # The box's die 5, the team's 6: the team opens with 6-5, Ann (captain) to move.
    monkeypatch.setattr(services, "SYSTEM_DICE", ScriptedDice((5, 6, 3, 1)))
    started = services.online_game_start(session_id=session.pk, by=cast["Ann"].user)
    return cast, session, started


def test_the_board_of_a_position_on_the_way(client, game) -> None:
    cast, _, started = game
    table = Table.from_dict(started.table)
    graph = state_play_steps(table.board)
    assert graph is not None
    url = f"/chouette/play/{started.pk}/board/"
    client.force_login(cast["Ann"].user)
    on_the_way = position_id(graph.nodes[1].position)
    answer = client.get(url, {"position": on_the_way})
    assert answer.status_code == 200 and answer["Content-Type"].startswith("image/svg+xml")
    assert find_all(parse_svg(answer.content.decode()), "hit", "rect")
    assert client.get(url, {"position": "nonsense"}).status_code == 400
    far = position_id(Position((1,) + (0,) * 24, (1,) + (0,) * 24, 0, 0))  # not this turn's
    assert client.get(url, {"position": far}).status_code == 400
    assert (
        client.get(f"/chouette/play/{started.pk + 99}/board/", {"position": far}).status_code == 404
    )


def test_the_captain_arranges_on_the_board_and_sees_the_suggestions(client, game) -> None:
    cast, session, started = game
    table = Table.from_dict(started.table)
    run = next(p for p in table.board.legal_plays() if format_play(p) == "24/13")
    services.online_team_message_post(
        game_id=started.pk, by=cast["Cy"].user, play=position_id(run.result)
    )
    client.force_login(cast["Ann"].user)
    html = client.get(f"/chouette/{session.pk}/play/").content.decode()
    assert 'id="arrange"' in html and 'id="play-steps"' in html
    assert 'id="team-suggestions"' in html and "Cy: 24/13" in html
    assert '<details class="play-list">' in html  # the list, folded away
    # The box sees neither the steps nor the suggestions.
    client.force_login(cast["Bob"].user)
    html = client.get(f"/chouette/{session.pk}/play/").content.decode()
    assert 'id="arrange"' not in html and "team-suggestions" not in html

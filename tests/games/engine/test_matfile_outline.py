"""The outline of a ``.mat`` file, read before its replay (issue 16: the import's limits
are checked on it), and the replay's final states kept for whoever stores the games."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.engine.actions import apply_action
from games.engine.game import new_game
from games.engine.matfile.read import MatOutline, import_mat
from games.engine.matfile.record import MatError

DATA = Path(__file__).resolve().parent / "data"


class Seen(Exception):
    pass


def _outline(text: str) -> MatOutline:
    found: list[MatOutline] = []

    def stop(outline: MatOutline) -> None:
        found.append(outline)
        raise Seen

    with pytest.raises(Seen):
        import_mat(text, before_replay=stop)
    return found[0]


def test_the_outline_counts_games_entries_and_checker_moves():
    outline = _outline((DATA / "gnubg_5pt.mat").read_text())
    assert (outline.length, outline.games) == (5, 4)
    assert outline.entries == 271
    # A roll is two checker moves, a double four, a cube action or "Wins" line one.
    assert outline.entries < outline.moves <= 4 * outline.entries


def test_a_double_counts_four_moves_and_other_rolls_two():
    text = (
        " 1 point match\n\n Game 1\n Anna : 0                       Bence : 0\n"
        "  1) 31: 8/5 6/5                 44: 24/20(2) 13/9(2)\n"
    )
    outline = _outline(text)
    assert outline.players == ("Anna", "Bence")
    assert (outline.entries, outline.moves) == (2, 6)


def test_the_outline_comes_before_any_move_is_replayed():
    """An illegal move is not reached when the caller refuses the outline."""
    text = " 1 point match\n\n Game 1\n Anna : 0       Bence : 0\n  1) 31: 24/1\n"
    with pytest.raises(MatError, match="24/1"):
        import_mat(text)
    assert _outline(text).entries == 1


def test_each_game_keeps_the_state_its_replay_reached():
    record = import_mat((DATA / "gnubg_7pt.mat").read_text())
    for game in record.games:
        assert game.final is not None
        assert game.final.match.score == game.score
        state = new_game(record.options, game.final.match)
        for action in game.actions:
            state = apply_action(state, action)
        assert game.final.result == state.result
        assert game.final.position == state.position

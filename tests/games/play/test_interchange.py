""".mat export and import through the database and the command line; the export is
read by GNU Backgammon itself (Debian's gnubg, headless) with the same final score."""

from __future__ import annotations

import io
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from games.engine.actions import state_from_dict
from games.engine.selfplay import random_action
from games.models import Game, GameAction, Match, Player
from games.play import services
from games.play.dice import ScriptedDice
from tests.factories import PlayerFactory
from tests.games.play.test_services import _perform

pytestmark = pytest.mark.django_db

DATA = Path(__file__).resolve().parent.parent / "engine" / "data"
GNUBG = shutil.which("gnubg") or "/usr/games/gnubg"


def _play_match(length: int, seed: int) -> Match:
    """A whole match through the services, random legal actions, no beavers."""
    rng = random.Random(seed)
    players = (PlayerFactory(name=f"Anna {seed}"), PlayerFactory(name=f"Bence {seed}"))
    match = services.match_create(player1=players[0], player2=players[1], length=length)
    game = services.match_start(
        match_id=match.pk, dice=ScriptedDice(rng.randint(1, 6) for _ in range(50))
    )
    while True:
        state = state_from_dict(game.state)
        if state.is_over:
            game = Game.objects.filter(match=match).order_by("-number").first()
            if game.is_over:
                break
            continue
        action = random_action(state, rng)
        if action.kind == "double" and state.match.post_crawford:
            continue  # gnubg refuses the leader's post-Crawford double (GNUBG.md)
        game = _perform(game, players, action, rng).game
    match.refresh_from_db()
    return match


def _gnubg_score(path: Path) -> str:
    if not Path(GNUBG).exists():
        pytest.fail("GNU Backgammon is missing: apt-get install gnubg (.ci/run does it)")
    out = subprocess.run(
        [GNUBG, "-t", "-q"],
        input=f"import mat {path}\nshow score\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    ).stdout
    found = re.search(r"The score \(after (\d+) games?\) is: (.+) (\d+), (.+) (\d+) \(match", out)
    assert found, out[-2000:]
    return found.group(0)


def test_an_exported_match_is_read_by_gnubg_with_the_same_score(tmp_path):
    match = _play_match(5, seed=11)
    out = io.StringIO()
    call_command("export_mat", str(match.pk), stdout=out)
    path = tmp_path / "match.mat"
    path.write_text(out.getvalue(), encoding="utf-8")
    games = match.games.count()
    found = _gnubg_score(path)
    assert f"after {games} game" in found
    assert f"Anna 11 {match.score1}" in found
    assert f"Bence 11 {match.score2}" in found


def test_export_then_import_reproduces_every_game(tmp_path):
    match = _play_match(3, seed=5)
    out = io.StringIO()
    call_command("export_mat", str(match.pk), stdout=out)
    path = tmp_path / "m.mat"
    path.write_text(out.getvalue(), encoding="utf-8")
    printed = io.StringIO()
    call_command("import_mat", str(path), "--player1", "Kiss Katalin", stdout=printed)
    copy = Match.objects.get(pk=int(printed.getvalue()))
    assert copy.player1.name == "Kiss Katalin"
    assert copy.player2 == match.player2  # found by name, not duplicated
    assert (copy.score1, copy.score2) == (match.score1, match.score2)
    assert copy.status == Match.Status.FINISHED
    original = list(match.games.order_by("number").values_list("state", flat=True))
    imported = list(copy.games.order_by("number").values_list("state", flat=True))
    assert [state_from_dict(s).result for s in imported] == [
        state_from_dict(s).result for s in original
    ]
    call_command("audit_games", stdout=io.StringIO())  # the imported logs replay


def test_a_gnubg_match_file_is_recorded(tmp_path):
    fixtures = sorted(DATA.glob("*.mat"))
    assert fixtures
    out = io.StringIO()
    call_command("import_mat", str(fixtures[0]), stdout=out)
    match = Match.objects.get(pk=int(out.getvalue()))
    assert match.games.count() >= 1
    assert GameAction.objects.filter(game__match=match).count() > 10


def test_an_illegal_move_names_game_and_move_and_stores_nothing(tmp_path):
    match = _play_match(3, seed=8)
    out = io.StringIO()
    call_command("export_mat", str(match.pk), stdout=out)
    lines = out.getvalue().splitlines()
    # Break the first move of game 1: a 6-point move with dice that can't make it.
    index = next(i for i, line in enumerate(lines) if re.match(r"\s+1\)", line))
    lines[index] = re.sub(r"(\d\d): (\S+)", r"\1: 24/1", lines[index], count=1)
    path = tmp_path / "bad.mat"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    before = (Match.objects.count(), Game.objects.count(), GameAction.objects.count())
    players_before = Player.objects.count()
    with pytest.raises(CommandError, match=r"mat_\w+: .*game 1, move 1"):
        call_command("import_mat", str(path), stdout=io.StringIO())
    assert (Match.objects.count(), Game.objects.count(), GameAction.objects.count()) == before
    assert Player.objects.count() == players_before


def test_export_of_an_unknown_match_fails_cleanly():
    with pytest.raises(CommandError, match="there is no match 424242"):
        call_command("export_mat", "424242", stdout=io.StringIO())


def test_the_pages_export_and_import_a_match(client):
    from tests.factories import UserFactory

    match = _play_match(3, seed=21)
    response = client.get(f"/matches/{match.pk}/export.mat")
    assert response.status_code == 200
    assert response["Content-Disposition"].endswith(f'match-{match.pk}.mat"')
    text = response.content.decode()
    assert " 3 point match" in text
    # One of the match's players imports it (issue 16: a stranger may not).
    player = match.player1
    player.user = UserFactory()
    player.save()
    client.force_login(player.user)
    bad = client.post("/matches/import/", {"text": text.replace("Game 1", "Game x")})
    assert bad.status_code == 400
    assert Match.objects.count() == 1
    good = client.post("/matches/import/", {"text": text})
    assert good.status_code == 302
    copy = Match.objects.exclude(pk=match.pk).get()
    assert (copy.score1, copy.score2) == (match.score1, match.score2)


def test_a_file_resuming_at_the_crawford_score_is_stored_as_the_crawford_game():
    """R11: a record whose first game starts with exactly one player 1-away begins with
    the Crawford game (gnubg reads it so); the stored game carries the mark."""
    from games.engine.game import new_game
    from games.engine.matfile.record import build_record, first_match_state
    from games.engine.matfile.write import export_mat
    from games.engine.rules import RuleOptions
    from games.engine.selfplay import random_game
    from games.play.interchange import match_import_mat

    start = first_match_state(3, (2, 1))
    assert start.crawford
    _, log = random_game(new_game(RuleOptions(), start), random.Random(4))
    text = export_mat(build_record(("Kiss Katalin", "Tóth Gábor"), 3, [log], start_score=(2, 1)))
    match = match_import_mat(text=text, by=None)
    (game,) = match.games.all()
    assert game.crawford is True
    assert state_from_dict(game.state).match.crawford is True

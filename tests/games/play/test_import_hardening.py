"""The ``.mat`` import, hardened (issue 16, defects 1, 5, 6 and 7): what one file may hold,
who may import a match and what an imported match is, a file cut between two games, and
names too long for a player. Every refusal stores nothing."""

from __future__ import annotations

import io
import random

import pytest
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.utils import translation

from games.engine.actions import Action, apply_action, state_from_dict
from games.engine.game import GameState, apply_result, new_game
from games.engine.match import MatchState
from games.engine.matfile.record import build_record
from games.engine.matfile.write import export_mat
from games.engine.notation import parse_play
from games.engine.position import position_id
from games.engine.rules import RuleOptions
from games.engine.selfplay import random_game
from games.models import Game, GameAction, Match, Player, RatedResult
from games.play import interchange, services
from tests.factories import UserFactory, UserPlayerFactory, api_client

pytestmark = pytest.mark.django_db

URL = "/matches/import/"


# ====================================================================== files
def _act(state: GameState, log: list[Action], kind: str, player: int | None, **data) -> GameState:
    action = Action(kind, player, data)
    log.append(action)
    return apply_action(state, action)


def _opening(match: MatchState) -> tuple[GameState, list[Action]]:
    """A game's opening roll 3-1 (player 0 starts) and its play 8/5 6/5."""
    log: list[Action] = []
    state = _act(new_game(RuleOptions(), match), log, "opening_roll", None, dice=[3, 1])
    play = parse_play(state.position, "8/5 6/5", 3, 1)
    state = _act(state, log, "play", 0, position_id=position_id(play.result))
    return state, log


def _dropped(match: MatchState) -> tuple[GameState, list[Action]]:
    """The opening, then player 1 doubles and player 0 drops: player 1 wins 1 point."""
    state, log = _opening(match)
    state = _act(state, log, "double", 1)
    state = _act(state, log, "drop", 0)
    assert state.result is not None and state.result.winner == 1
    return state, log


def _mat(length: int, games: int, *, unfinished: bool = False, names=("Anna", "Bence")) -> str:
    """A match to ``length`` of ``games`` dropped games (player 1 wins each), and when
    ``unfinished`` one more game cut after its opening play."""
    match = MatchState.new(length)
    logs = []
    for _ in range(games):
        state, log = _dropped(match)
        logs.append(log)
        match = apply_result(match, state.result)
    if unfinished:
        logs.append(_opening(match)[1])
    return export_mat(build_record(names, length, logs))


def _finished(length: int = 3, *, seed: int = 3, names=("Anna", "Bence")) -> str:
    """A whole match to ``length`` of random legal self-play games."""
    rng = random.Random(seed)
    match, logs = MatchState.new(length), []
    while not match.is_over:
        final, log = random_game(new_game(RuleOptions(), match), rng)
        logs.append(log)
        match = apply_result(match, final.result)
    return export_mat(build_record(names, length, logs))


def _renamed(text: str, old: str, new: str) -> str:
    """``text`` with a player's name changed in every game's header (the export keeps
    31 characters of a name, as gnubg does; other writers keep more)."""
    return "\n".join(
        line.replace(old, new) if " : " in line else line for line in text.splitlines()
    )


def _crafted(games: int, lines_per_game: int) -> str:
    """A file that reads (its header and layout are right) but need not replay: the size
    limits are checked before any move is."""
    out = [" 0 point match", ""]
    for number in range(1, games + 1):
        out += [f" Game {number}", " Anna : 0                       Bence : 0"]
        out += ["  1) 31: 8/5 6/5                 62: 24/18 13/11"] * lines_per_game
        out.append("")
    return "\n".join(out) + "\n"


def _counts() -> tuple[int, int, int, int]:
    return (
        Match.objects.count(),
        Game.objects.count(),
        GameAction.objects.count(),
        Player.objects.count(),
    )


@pytest.fixture
def anna(client):
    """Anna, a member logged in to the page."""
    player = UserPlayerFactory(name="Anna")
    client.force_login(player.user)
    return player


# ====================================================================== 1: limits
def test_a_file_over_the_move_limit_is_refused_before_its_replay(client, anna):
    # 2 games of 1,300 lines, each line two rolls: 2 x 1,300 x 4 = 10,400 checker moves.
    text = _crafted(2, 1_300)
    before = _counts()
    response = client.post(URL, {"text": text}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    html = response.content.decode()
    assert 'data-code="mat_too_large"' in html
    assert "10,400 checker moves" in html and "at most 5,000" in html
    assert _counts() == before


def test_a_file_over_the_game_limit_is_refused(client, anna):
    text = _crafted(interchange.MAX_MAT_GAMES + 1, 1)
    before = _counts()
    response = client.post(URL, {"text": text}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert "151 games, at most 150" in response.content.decode()
    assert _counts() == before


def test_an_upload_over_the_byte_limit_is_refused_unread(client, anna):
    big = SimpleUploadedFile("big.mat", b"; padding\n" * 30_000, content_type="text/plain")
    before = _counts()
    response = client.post(URL, {"file": big}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    html = response.content.decode()
    assert 'data-code="mat_too_large"' in html
    assert "300,000 bytes, at most 262,144 bytes" in html
    assert _counts() == before


def test_the_command_refuses_a_file_over_the_limits_unless_lifted(tmp_path):
    path = tmp_path / "big.mat"
    path.write_text(_crafted(2, 1_300), encoding="utf-8")
    before = _counts()
    with pytest.raises(CommandError, match=r"^mat_too_large: .*--no-limits"):
        call_command("import_mat", str(path), stdout=io.StringIO())
    # Lifted, the file is replayed (and this crafted one refused for its moves).
    with pytest.raises(CommandError, match=r"^mat_illegal_action: .*game 1"):
        call_command("import_mat", str(path), "--no-limits", stdout=io.StringIO())
    assert _counts() == before


def test_an_imported_session_stores_the_states_its_one_replay_reached(client, anna):
    """Self-play games of a money session: each game is stored as the import's one replay
    left it, and its log replays to the same result (no second replay needed)."""
    rng = random.Random(7)
    match, logs = MatchState.money(), []
    for _ in range(6):
        final, log = random_game(new_game(RuleOptions(), match), rng)
        logs.append(log)
        match = apply_result(match, final.result)
    text = export_mat(build_record(("Anna", "Bence"), 0, logs))
    response = client.post(URL, {"text": text})
    assert response.status_code == 302
    imported = Match.objects.get()
    assert imported.status == Match.Status.FINISHED
    games = list(imported.games.order_by("number"))
    assert len(games) == 6
    for game in games:
        actions = [Action(a.kind, a.player_index, a.data) for a in game.actions.order_by("seq")]
        replayed = new_game(RuleOptions(), state_from_dict(game.state).match)
        for action in actions:
            replayed = apply_action(replayed, action)
        assert replayed.result == state_from_dict(game.state).result
        assert game.version == len(actions)
    call_command("audit_games", stdout=io.StringIO())


# ====================================================================== 5: who may import
def test_a_stranger_may_not_import_a_match_of_two_other_members(client):
    stranger = UserPlayerFactory(name="Csaba")
    client.force_login(stranger.user)
    before = _counts()
    response = client.post(URL, {"text": _finished()}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 403
    html = response.content.decode()
    assert 'data-code="cannot_import_match"' in html
    assert "You may only import a match you played" in html and "(Csaba)" in html
    assert _counts() == before  # no match, and neither Anna nor Bence created


def test_an_account_without_a_player_may_not_import(client):
    client.force_login(UserFactory())
    before = _counts()
    response = client.post(URL, {"text": _finished()})
    assert response.status_code == 403
    assert _counts() == before


def test_a_player_of_the_match_imports_it_marked_as_imported_by_them(client):
    me = UserPlayerFactory(name="Kiss Anna")
    client.force_login(me.user)
    # The file says "kiss anna": matched without case to the member.
    response = client.post(URL, {"text": _finished(names=("kiss anna", "Bence"))})
    assert response.status_code == 302
    match = Match.objects.get()
    assert match.player1 == me
    assert match.imported_by == me.user and match.imported_at is not None
    assert match.created_by == me.user
    page = client.get(f"/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Imported from a .mat file by Kiss Anna" in page
    assert "This match is not rated." in page
    lobby = client.get("/matches/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert ">imported</span>" in lobby
    assert client.get(f"/api/v1/matches/{match.pk}/").json()["imported_at"] is not None


def test_a_player_may_give_their_own_name_for_the_files_spelling(client, anna):
    response = client.post(URL, {"text": _finished(names=("A. Nagy", "Bence")), "player1": "ANNA"})
    assert response.status_code == 302
    assert Match.objects.get().player1 == anna


@pytest.mark.parametrize("grant", ["staff", "permission"])
def test_staff_and_scorekeepers_may_import_any_match(client, grant):
    user = UserFactory()
    if grant == "staff":
        user.is_staff = True
        user.save()
    else:
        user.user_permissions.add(Permission.objects.get(codename="import_any_match"))
    client.force_login(user)
    response = client.post(URL, {"text": _finished()})
    assert response.status_code == 302
    assert Match.objects.get().imported_by == user


def test_an_imported_match_finished_here_is_not_rated(client, anna):
    """A player imports a match they lead 0-1 cut in game 2 and finishes it here: the
    result is not rated (else anyone could farm rating with invented wins)."""
    response = client.post(URL, {"text": _mat(3, 1, unfinished=True)})
    assert response.status_code == 302
    match = Match.objects.get()
    game = match.games.get(number=2)
    players = (match.player1, match.player2)
    mover = state_from_dict(game.state).player_to_act
    offered = services.resign_offer(
        game_id=game.pk, player=players[mover], expected_version=game.version, kind="backgammon"
    )
    services.resign_accept(
        game_id=game.pk, player=players[1 - mover], expected_version=offered.game.version
    )
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert not RatedResult.objects.exists()
    for player in players:
        player.refresh_from_db()
        assert player.experience == 0


# ====================================================================== 6: cut between games
def test_a_file_cut_between_two_games_goes_on_with_the_next_game(client):
    anna = UserPlayerFactory(name="Anna")
    bence = UserPlayerFactory(name="Bence")
    web = client
    web.force_login(anna.user)
    response = web.post(URL, {"text": _mat(5, 2)})  # 0-2 after two games, cut there
    assert response.status_code == 302
    match = Match.objects.get()
    assert match.status == Match.Status.PLAYING
    assert (match.score1, match.score2) == (0, 2)
    game = match.games.get(number=3)
    state = state_from_dict(game.state)
    assert state.match.score == (0, 2) and state.phase == "move"  # opening roll made
    assert game.actions.first().kind == "opening_roll"
    # Its players play it on through the API: the starter plays, the other doubles and
    # the starter drops; the next game begins.
    clients = [api_client(anna.user), api_client(bence.user)]
    view = clients[state.player_to_act].get(f"/api/v1/games/{game.pk}/").json()
    (play,) = [a for a in view["legal_actions"] if a["action"] == "play"]
    body = {"action": "play", "version": view["version"], "play": play["plays"][0]["play"]}
    mover = state.player_to_act
    answer = clients[mover].post(f"/api/v1/games/{game.pk}/actions/", body, format="json")
    assert answer.status_code == 200, answer.json()
    version = answer.json()["version"]
    other = 1 - mover
    double = {"action": "double", "version": version}
    assert (
        clients[other].post(f"/api/v1/games/{game.pk}/actions/", double, format="json").status_code
        == 200
    )
    drop = {"action": "drop", "version": version + 1}
    final = clients[mover].post(f"/api/v1/games/{game.pk}/actions/", drop, format="json")
    assert final.status_code == 200, final.json()
    assert final.json()["next_game"] is not None
    match.refresh_from_db()
    assert match.games.count() == 4
    assert (match.score1, match.score2) == ((1, 2) if other == 0 else (0, 3))
    page = web.get(f"/matches/{match.pk}/")
    assert page.status_code == 200


# ====================================================================== 7: long names
def test_a_name_too_long_is_refused_on_the_page_with_the_form_kept(client, anna):
    long_name = "B" * 81
    text = _renamed(_finished(), "Bence", long_name)
    before = _counts()
    response = client.post(URL, {"text": text, "player1": "Anna"}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    html = response.content.decode()
    assert 'data-code="name_too_long"' in html
    assert "is longer than 80 characters" in html
    assert long_name in html  # the pasted text is given back in the form
    assert 'value="Anna"' in html
    assert 'id="player2" name="player2" maxlength="80" value="" aria-invalid="true"' in html
    assert _counts() == before


def test_a_name_given_too_long_is_refused(client, anna):
    before = _counts()
    response = client.post(URL, {"text": _finished(), "player2": "x" * 200})
    assert response.status_code == 400
    assert 'data-code="name_too_long"' in response.content.decode()
    assert _counts() == before


def test_the_command_refuses_a_name_too_long_cleanly(tmp_path):
    path = tmp_path / "long.mat"
    path.write_text(_renamed(_finished(), "Anna", "A" * 100), encoding="utf-8")
    before = _counts()
    with (
        translation.override("en"),  # the sentence checked is English (the site's is Hungarian)
        pytest.raises(CommandError, match=r"^name_too_long: The name .* longer than 80"),
    ):
        call_command("import_mat", str(path), stdout=io.StringIO())
    assert _counts() == before


@pytest.mark.parametrize("name", ["\u200b", "Anna\u202eBéla", "Bé\u0000la"])
def test_an_invisible_or_direction_name_in_a_file_is_refused(client, anna, name):
    # The one check of a typed name (games.players.names) applies to a file's names too.
    before = _counts()
    response = client.post(URL, {"text": _finished(), "player2": name})
    assert response.status_code == 400
    assert 'data-code="invalid_name"' in response.content.decode()
    assert _counts() == before

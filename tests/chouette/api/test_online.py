"""The online chouette API on PostgreSQL (issue 19): start (201, 403 for a stranger, 409
while a game is played), the public read (``actions`` only for the caller), the team's
chat closed to the box, every refusal of an action with its status and code and nothing
written (rows compared before and after), huge and odd inputs refused without a 500,
abandon, the online settings (PUT), and the endpoints in the OpenAPI schema."""

from __future__ import annotations

from typing import Any

import pytest

from chouette.models import ChouetteOnlineAction, ChouetteOnlineGame, ChouetteTeamMessage
from chouette.online import services
from chouette.online.table import Table
from games.engine.position import position_id
from games.play.dice import ScriptedDice
from tests.chouette.factories import players, session_with, snapshot
from tests.factories import UserFactory, UserPlayerFactory, api_client

pytestmark = pytest.mark.django_db

FOUR = ("Ann", "Bob", "Cy", "Dee")
FOUR_ROLLS = {"Bob": 6, "Ann": 5, "Cy": 4, "Dee": 3}  # Bob box, Ann captain, Cy, Dee


def _dice(monkeypatch, *faces: int) -> None:
    """The server's dice, scripted (the services read ``SYSTEM_DICE`` when called)."""
    monkeypatch.setattr(services, "SYSTEM_DICE", ScriptedDice(faces))


def everything() -> tuple[list[dict[str, Any]], ...]:
    """Every chouette row, the online ones too: a refusal must leave them as they were."""
    return (
        *snapshot(),
        list(ChouetteOnlineGame.objects.order_by("pk").values()),
        list(ChouetteOnlineAction.objects.order_by("pk").values()),
        list(ChouetteTeamMessage.objects.order_by("pk").values()),
    )


@pytest.fixture
def club():
    """A session of four (Bob box, Ann captain, Cy, Dee), classic, no game yet."""
    cast = players(FOUR)
    session = session_with(cast, rolls=FOUR_ROLLS)
    return {"session": session, "cast": cast, "stranger": UserPlayerFactory(name="Idegen").user}


@pytest.fixture
def playing(club, monkeypatch):
    """The club with a game started online: the box won the opening roll with 6-1 and
    is to play it (more dice scripted: a refused roll still throws them)."""
    _dice(monkeypatch, 6, 1, 3, 2, 4, 1, 5, 2)
    response = api_client(club["cast"]["Ann"].user).post(_start_url(club), {}, format="json")
    assert response.status_code == 201, response.content
    club["game"] = ChouetteOnlineGame.objects.get(pk=response.json()["id"])
    return club


def _start_url(c) -> str:
    return f"/api/v1/chouette/sessions/{c['session'].pk}/online-games/"


def _settings_url(c) -> str:
    return f"/api/v1/chouette/sessions/{c['session'].pk}/online-settings/"


def _game_url(c, tail: str = "") -> str:
    return f"/api/v1/chouette/online-games/{c['game'].pk}/{tail}"


def _user(c, name: str):
    return c["cast"][name].user


def _table(c) -> Table:
    c["game"].refresh_from_db()
    return Table.from_dict(c["game"].table)


def _legal(c) -> str:
    return position_id(_table(c).board.legal_plays()[0].result)


# ====================================================================== start
def test_start_makes_the_game_and_answers_it_as_the_caller_sees_it(club, monkeypatch):
    _dice(monkeypatch, 6, 1)
    before = club["session"].version
    response = api_client(_user(club, "Ann")).post(_start_url(club), {}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["status"] == "playing" and body["number"] == 1 and body["version"] == 1
    assert body["box"]["player"] == club["cast"]["Bob"].pk
    assert [m["player"] for m in body["members"]] == [
        club["cast"][n].pk for n in ("Ann", "Cy", "Dee")
    ]
    assert body["viewer_role"] == "member" and body["in_team"] is True
    assert body["side_on_roll"] == "box" and body["dice"] == [6, 1]
    club["session"].refresh_from_db()
    assert club["session"].version == before + 1
    assert ChouetteOnlineAction.objects.filter(kind="opening_roll").count() == 1


def test_start_is_refused_to_a_stranger_and_open_to_staff(club, monkeypatch):
    _dice(monkeypatch, 6, 1)
    before = everything()
    response = api_client(club["stranger"]).post(_start_url(club), {}, format="json")
    assert response.status_code == 403, response.content
    assert response.json()["code"] and response.json()["detail"]
    assert everything() == before
    staff = api_client(UserFactory(is_staff=True)).post(_start_url(club), {}, format="json")
    assert staff.status_code == 201, staff.content
    assert staff.json()["viewer_role"] == "spectator"


def test_start_anonymous_is_401(club):
    before = everything()
    assert api_client().post(_start_url(club), {}, format="json").status_code == 401
    assert everything() == before


def test_start_while_a_game_is_played_is_409(playing):
    before = everything()
    response = api_client(_user(playing, "Bob")).post(_start_url(playing), {}, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "online_game_in_progress"
    assert everything() == before


def test_start_with_a_stale_version_is_409(club, monkeypatch):
    _dice(monkeypatch, 6, 1)
    before = everything()
    response = api_client(_user(club, "Ann")).post(
        _start_url(club), {"expected_version": club["session"].version + 5}, format="json"
    )
    assert response.status_code == 409 and response.json()["code"] == "stale_version"
    assert everything() == before


@pytest.mark.parametrize(
    "body", [{"expected_version": "x"}, {"expected_version": -1}, {"expected_version": [1]}]
)
def test_start_with_odd_input_is_400(club, monkeypatch, body):
    _dice(monkeypatch, 6, 1)
    before = everything()
    response = api_client(_user(club, "Ann")).post(_start_url(club), body, format="json")
    assert response.status_code == 400 and response.json()["code"] == "invalid"
    assert everything() == before


def test_start_of_an_unknown_session_is_404(club):
    response = api_client(_user(club, "Ann")).post(
        "/api/v1/chouette/sessions/987654321/online-games/", {}, format="json"
    )
    assert response.status_code == 404


# ====================================================================== detail
def test_detail_is_public_and_actions_are_only_the_callers(playing):
    anonymous = api_client().get(_game_url(playing))
    assert anonymous.status_code == 200
    body = anonymous.json()
    assert body["viewer"] is None and body["viewer_role"] == "spectator"
    assert body["actions"] == {} and body["in_team"] is False
    box = api_client(_user(playing, "Bob")).get(_game_url(playing)).json()
    assert box["viewer_role"] == "box" and box["actions"].get("play")
    member = api_client(_user(playing, "Cy")).get(_game_url(playing)).json()
    assert member["viewer_role"] == "member" and not member["actions"].get("play")
    stranger = api_client(playing["stranger"]).get(_game_url(playing)).json()
    assert stranger["viewer_role"] == "spectator" and stranger["actions"] == {}


def test_detail_of_an_unknown_game_is_404():
    for game_id in ("987654321", "99999999999999999999"):
        response = api_client().get(f"/api/v1/chouette/online-games/{game_id}/")
        assert response.status_code == 404
        assert response.json()["code"]


# ====================================================================== team messages
def test_team_messages_are_the_teams_only(playing):
    url = _game_url(playing, "team-messages/")
    posted = api_client(_user(playing, "Cy")).post(url, {"text": "Take it"}, format="json")
    assert posted.status_code == 201, posted.content
    assert posted.json()["text"] == "Take it"
    lines = api_client(_user(playing, "Dee")).get(url)
    assert lines.status_code == 200 and [m["text"] for m in lines.json()] == ["Take it"]
    before = everything()
    for user in (_user(playing, "Bob"), playing["stranger"]):
        read = api_client(user).get(url)
        assert read.status_code == 403 and read.json()["code"] == "not_in_team"
        write = api_client(user).post(url, {"text": "I see you"}, format="json")
        assert write.status_code == 403 and write.json()["code"] == "not_in_team"
    assert api_client().get(url).status_code == 401
    assert everything() == before


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({}, "invalid_message"),
        ({"text": ""}, "invalid_message"),
        ({"text": "x" * 10_000}, "invalid"),
        ({"play": "x" * 10_000}, "invalid"),
        ({"text": ["a"]}, "invalid"),
    ],
)
def test_team_message_odd_input_is_400(playing, body, code):
    before = everything()
    response = api_client(_user(playing, "Cy")).post(
        _game_url(playing, "team-messages/"), body, format="json"
    )
    assert response.status_code == 400, response.content
    assert response.json()["code"] == code
    assert everything() == before


# ====================================================================== act
def test_a_play_and_a_roll_go_through(playing, monkeypatch):
    game = playing["game"]
    box = api_client(_user(playing, "Bob"))
    played = box.post(
        _game_url(playing, "actions/"),
        {"action": "play", "position_id": _legal(playing), "expected_version": game.version},
        format="json",
    )
    assert played.status_code == 200, played.content
    assert played.json()["version"] == game.version + 1
    assert played.json()["side_on_roll"] == "team"
    _dice(monkeypatch, 3, 2)
    rolled = api_client(_user(playing, "Ann")).post(
        _game_url(playing, "actions/"),
        {"action": "roll", "expected_version": game.version + 1},
        format="json",
    )
    assert rolled.status_code == 200, rolled.content
    assert rolled.json()["dice"] == [3, 2]
    kinds = list(ChouetteOnlineAction.objects.filter(game=game).values_list("kind", flat=True))
    assert kinds == ["opening_roll", "play", "roll"]


#: (who, body, status, code); ``V`` stands for the game's version, ``P`` a legal play.
REFUSALS = [
    # the version
    ("Bob", {"action": "play", "position_id": "P", "expected_version": 0}, 409, "stale_version"),
    ("Bob", {"action": "play", "position_id": "P"}, 400, "invalid"),
    # the input
    ("Bob", {"action": "fly", "expected_version": "V"}, 400, "invalid"),
    ("Bob", {"expected_version": "V"}, 400, "invalid"),
    ("Bob", {"action": "play", "expected_version": "V"}, 400, "invalid_play"),
    (
        "Bob",
        {"action": "play", "position_id": "4HPwATDgc/ABMA", "expected_version": "V"},
        400,
        "illegal_play",
    ),
    (
        "Bob",
        {"action": "play", "position_id": "x" * 10_000, "expected_version": "V"},
        400,
        "invalid",
    ),
    (
        "Bob",
        {"action": "play", "position_id": "%%%%", "expected_version": "V"},
        400,
        "illegal_play",
    ),
    ("Bob", {"action": "play", "position_id": 12, "expected_version": "V"}, 400, "illegal_play"),
    ("Bob", {"action": "play", "position_id": ["P"], "expected_version": "V"}, 400, "invalid"),
    ("Bob", {"action": "play", "position_id": "P", "expected_version": "one"}, 400, "invalid"),
    ("Bob", {"action": "play", "position_id": "P", "expected_version": -1}, 400, "invalid"),
    (
        "Bob",
        {"action": "play", "position_id": "P", "expected_version": 10**30},
        409,
        "stale_version",
    ),
    (
        "Bob",
        {"action": "box_double", "members": list(range(10_000)), "expected_version": "V"},
        400,
        "invalid",
    ),
    (
        "Bob",
        {"action": "box_double", "members": ["a", "b"], "expected_version": "V"},
        400,
        "invalid",
    ),
    ("Bob", {"action": "box_double", "members": "all", "expected_version": "V"}, 400, "invalid"),
    (
        "Ann",
        {"action": "answer", "member": "Ann", "answer": "take", "expected_version": "V"},
        400,
        "invalid",
    ),
    ("Ann", {"action": "answer", "answer": "maybe", "expected_version": "V"}, 400, "invalid"),
    ("Ann", {"action": "answer", "answer": 1, "expected_version": "V"}, 400, "invalid"),
    ("Bob", {"action": "choose_double", "value": 7, "expected_version": "V"}, 400, "invalid"),
    ("Bob", {"action": "choose_double", "value": "six", "expected_version": "V"}, 400, "invalid"),
    ("Cy", {"action": "roll", "as_player": "Ann", "expected_version": "V"}, 400, "invalid"),
    # who acts
    ("stranger", {"action": "roll", "expected_version": "V"}, 403, "not_in_game"),
    (
        "Cy",
        {"action": "answer", "answer": "take", "as_player": 10**12, "expected_version": "V"},
        403,
        "not_a_proxy",
    ),
    # the moment
    ("Ann", {"action": "roll", "expected_version": "V"}, 409, "not_your_turn"),
    ("Ann", {"action": "play", "position_id": "P", "expected_version": "V"}, 409, "not_your_turn"),
    ("Bob", {"action": "roll", "expected_version": "V"}, 409, "already_rolled"),
    ("Ann", {"action": "propose_double", "expected_version": "V"}, 409, "cube_not_available"),
    ("Bob", {"action": "box_double", "expected_version": "V"}, 409, "cube_not_available"),
    ("Ann", {"action": "box_double", "expected_version": "V"}, 409, "not_your_turn"),
    (
        "Ann",
        {"action": "answer", "answer": "take", "expected_version": "V"},
        409,
        "no_decision_pending",
    ),
    (
        "Ann",
        {"action": "consent", "answer": "yes", "expected_version": "V"},
        409,
        "no_decision_pending",
    ),
    ("Ann", {"action": "double", "expected_version": "V"}, 400, "not_individual"),
    (
        "Bob",
        {"action": "choose_double", "value": 3, "expected_version": "V"},
        409,
        "no_double_to_choose",
    ),
]


def _body(c, body: dict[str, Any]) -> dict[str, Any]:
    names = {n: p.pk for n, p in c["cast"].items()}
    out = {}
    for key, value in body.items():
        if value == "V":
            value = c["game"].version
        elif value == "P":
            value = _legal(c)
        elif value == ["P"]:
            value = [_legal(c)]
        elif key in ("member", "as_player") and value in names:
            value = str(value)  # a name where an id goes
        out[key] = value
    return out


@pytest.mark.parametrize(("who", "body", "status", "code"), REFUSALS)
def test_every_refusal_has_its_code_and_changes_nothing(playing, who, body, status, code):
    user = playing["stranger"] if who == "stranger" else _user(playing, who)
    sent = _body(playing, body)
    before = everything()
    response = api_client(user).post(_game_url(playing, "actions/"), sent, format="json")
    assert response.status_code == status, response.content
    assert response.json()["code"] == code, response.json()
    assert response.json()["detail"]
    assert everything() == before


def test_act_anonymous_is_401_and_unknown_game_404(playing):
    body = {"action": "roll", "expected_version": 1}
    before = everything()
    assert api_client().post(_game_url(playing, "actions/"), body, format="json").status_code == 401
    response = api_client(_user(playing, "Bob")).post(
        "/api/v1/chouette/online-games/987654321/actions/", body, format="json"
    )
    assert response.status_code == 404
    assert everything() == before


@pytest.mark.parametrize("raw", ["not json", "[1, 2]", '"roll"', "{" * 5000])
def test_act_with_a_body_that_is_not_an_object_is_400(playing, raw):
    before = everything()
    response = api_client(_user(playing, "Bob")).post(
        _game_url(playing, "actions/"), raw, content_type="application/json"
    )
    assert response.status_code == 400, response.content
    assert everything() == before


def test_acting_on_a_finished_game_is_409_game_over(playing):
    api_client(_user(playing, "Ann")).post(_game_url(playing, "abandon/"), {}, format="json")
    playing["game"].refresh_from_db()
    before = everything()
    response = api_client(_user(playing, "Bob")).post(
        _game_url(playing, "actions/"),
        {"action": "roll", "expected_version": playing["game"].version},
        format="json",
    )
    assert response.status_code == 409 and response.json()["code"] == "game_over"
    assert everything() == before


def test_a_box_double_and_the_answers_through_the_api(playing, monkeypatch):
    """The box plays, the team rolls and plays, the box doubles, each member answers."""
    game = playing["game"]
    box, ann = api_client(_user(playing, "Bob")), api_client(_user(playing, "Ann"))
    act = _game_url(playing, "actions/")

    def version() -> int:
        game.refresh_from_db()
        return game.version

    assert (
        box.post(
            act,
            {"action": "play", "position_id": _legal(playing), "expected_version": version()},
            format="json",
        ).status_code
        == 200
    )
    _dice(monkeypatch, 3, 2, 5, 5)
    assert (
        ann.post(act, {"action": "roll", "expected_version": version()}, format="json").status_code
        == 200
    )
    assert (
        ann.post(
            act,
            {"action": "play", "position_id": _legal(playing), "expected_version": version()},
            format="json",
        ).status_code
        == 200
    )
    doubled = box.post(act, {"action": "box_double", "expected_version": version()}, format="json")
    assert doubled.status_code == 200, doubled.content
    decisions = doubled.json()["decisions"]
    assert {d["member"] for d in decisions} == {playing["cast"][n].pk for n in ("Ann", "Cy", "Dee")}
    # Nobody rolls while a decision waits; an answer that is not the member's is refused.
    before = everything()
    stuck = box.post(act, {"action": "roll", "expected_version": version()}, format="json")
    assert stuck.status_code == 409 and stuck.json()["code"] == "decision_pending"
    wrong = api_client(_user(playing, "Cy")).post(
        act,
        {
            "action": "answer",
            "member": playing["cast"]["Ann"].pk,
            "answer": "take",
            "expected_version": version(),
        },
        format="json",
    )
    assert wrong.status_code == 409 and wrong.json()["code"] == "not_your_decision"
    odd = api_client(_user(playing, "Cy")).post(
        act,
        {"action": "answer", "answer": "raccoon", "expected_version": version()},
        format="json",
    )
    assert odd.status_code == 400 and odd.json()["code"] == "invalid_answer"
    assert everything() == before
    for name, answer in (("Ann", "drop"), ("Cy", "take"), ("Dee", "take")):
        response = api_client(_user(playing, name)).post(
            act,
            {"action": "answer", "answer": answer, "expected_version": version()},
            format="json",
        )
        assert response.status_code == 200, response.content
    body = api_client().get(_game_url(playing)).json()
    fates = {m["player"]: m["fate"] for m in body["members"]}
    assert fates[playing["cast"]["Ann"].pk] == "dropped"
    assert body["acting_captain"] == playing["cast"]["Cy"].pk


# ====================================================================== abandon
def test_abandon_ends_the_game_with_nothing_in_the_ledger(playing):
    url = _game_url(playing, "abandon/")
    before = everything()
    refused = api_client(playing["stranger"]).post(url, {}, format="json")
    assert refused.status_code == 403
    stale = api_client(_user(playing, "Ann")).post(url, {"expected_version": 999}, format="json")
    assert stale.status_code == 409 and stale.json()["code"] == "stale_version"
    odd = api_client(_user(playing, "Ann")).post(url, {"expected_version": "x"}, format="json")
    assert odd.status_code == 400
    assert api_client().post(url, {}, format="json").status_code == 401
    assert everything() == before
    response = api_client(_user(playing, "Ann")).post(url, {}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "abandoned" and response.json()["result"] is None
    ledger_rows = snapshot()[2:]
    assert ledger_rows == before[2:4]  # no event, no line
    again = api_client(_user(playing, "Ann")).post(url, {}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "game_over"


# ====================================================================== online settings
def test_online_settings_put(club):
    url = _settings_url(club)
    response = api_client(_user(club, "Ann")).put(
        url,
        {"decision_seconds": 45, "decision_default": "drop", "clock_preset": ""},
        format="json",
    )
    assert response.status_code == 200, response.content
    club["session"].refresh_from_db()
    assert response.json() == {
        "decision_seconds": 45,
        "decision_default": "drop",
        "clock_preset": "",
        "version": club["session"].version,
    }
    assert club["session"].decision_seconds == 45 and club["session"].decision_default == "drop"


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"decision_seconds": 45},
        {"decision_seconds": -1, "decision_default": "take"},
        {"decision_seconds": 10**9, "decision_default": "take"},
        {"decision_seconds": "soon", "decision_default": "take"},
        {"decision_seconds": 45, "decision_default": "maybe"},
        {"decision_seconds": 45, "decision_default": "take", "clock_preset": "nope"},
        {"decision_seconds": 45, "decision_default": "take", "clock_preset": "x" * 10_000},
        {"decision_seconds": 45, "decision_default": "take", "expected_version": "x"},
    ],
)
def test_online_settings_odd_input_is_400_and_changes_nothing(club, body):
    before = everything()
    response = api_client(_user(club, "Ann")).put(_settings_url(club), body, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["code"] and response.json()["detail"]
    assert everything() == before


def test_online_settings_refusals(playing):
    url = _settings_url(playing)
    body = {"decision_seconds": 30, "decision_default": "take"}
    before = everything()
    assert api_client().put(url, body, format="json").status_code == 401
    assert api_client(playing["stranger"]).put(url, body, format="json").status_code == 403
    busy = api_client(_user(playing, "Ann")).put(url, body, format="json")
    assert busy.status_code == 409 and busy.json()["code"] == "online_game_in_progress"
    stale = api_client(_user(playing, "Ann")).put(
        url, {**body, "expected_version": 0}, format="json"
    )
    assert stale.status_code == 409 and stale.json()["code"] == "stale_version"
    assert api_client(_user(playing, "Ann")).post(url, body, format="json").status_code == 405
    assert everything() == before


# ====================================================================== schema
ONLINE_PATHS = {
    "/api/v1/chouette/sessions/{session_id}/online-games/": {"post"},
    "/api/v1/chouette/sessions/{session_id}/online-settings/": {"put"},
    "/api/v1/chouette/online-games/{game_id}/": {"get"},
    "/api/v1/chouette/online-games/{game_id}/actions/": {"post"},
    "/api/v1/chouette/online-games/{game_id}/abandon/": {"post"},
    "/api/v1/chouette/online-games/{game_id}/team-messages/": {"get", "post"},
}


def test_schema_lists_the_online_endpoints_and_their_refusals(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    for path, methods in ONLINE_PATHS.items():
        assert path in schema["paths"], path
        assert methods <= set(schema["paths"][path]), path
    act = schema["paths"]["/api/v1/chouette/online-games/{game_id}/actions/"]["post"]
    assert {"200", "400", "403", "404", "409"} <= set(act["responses"])
    start = schema["paths"]["/api/v1/chouette/sessions/{session_id}/online-games/"]["post"]
    assert {"201", "403", "409"} <= set(start["responses"])
    detail = schema["paths"]["/api/v1/chouette/online-games/{game_id}/"]["get"]
    assert "403" not in detail["responses"]  # a public read


# ====================================================================== admin
def test_the_admin_shows_a_game_its_log_and_the_teams_chat_read_only(playing, client):
    from django.contrib.auth import get_user_model

    api_client(_user(playing, "Cy")).post(
        _game_url(playing, "team-messages/"), {"text": "Drop it"}, format="json"
    )
    game = playing["game"]
    client.force_login(get_user_model().objects.create_superuser("root", "r@example.org", "pw"))
    listing = client.get("/admin/chouette/chouetteonlinegame/")
    assert listing.status_code == 200
    assert f"/admin/chouette/chouetteonlinegame/{game.pk}/change/" in listing.content.decode()
    assert client.get("/admin/chouette/chouetteonlinegame/?status=playing").status_code == 200
    assert client.get("/admin/chouette/chouetteonlinegame/add/").status_code == 403
    page = client.get(f"/admin/chouette/chouetteonlinegame/{game.pk}/change/")
    html = page.content.decode()
    assert page.status_code == 200 and 'name="_save"' not in html
    assert "opening_roll" in html and "Drop it" in html
    assert "DELETE" not in html and "-DELETE" not in html
    before = everything()
    client.post(f"/admin/chouette/chouetteonlinegame/{game.pk}/change/", {"status": "abandoned"})
    assert client.post(f"/admin/chouette/chouetteonlinegame/{game.pk}/delete/").status_code == 403
    assert everything() == before

"""At the chouette table (issue 18): the summary's plurals, undo and end confirmed,
an ended session reopened, the roll-off read from any unambiguous part of a name, a
newcomer joining by name as a guest player, and the last games in a stable column order."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client
from django.urls import reverse
from django.utils import translation

from chouette import rolloff
from chouette.models import ChouetteSession
from chouette.services.games import game_record
from chouette.services.seating import session_join, session_join_guest, session_sit_out
from chouette.services.sessions import REOPEN_HOURS, may_reopen, session_end, session_reopen
from chouette.services.summary import session_summary, session_totals
from games.errors import Conflict, NotFound, PermissionDenied, ValidationFailed
from games.models import Player
from tests.chouette.factories import players, scorekeeper, session_with, simple_entry, snapshot
from tests.factories import PlayerFactory, UserFactory, UserPlayerFactory, api_client

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
    game_record(
        session_id=session.pk, by=session.created_by, entry=simple_entry(session, winner="box")
    )
    page = en.get(_url("summary", session_id=session.pk)).text
    assert "Bob pays Ann 1 point (€1.00)" in page
    assert "Cy pays Ann 1 point (€1.00)" in page
    assert "1 points" not in page
    # A second box win: each owes 2 points now, without money too.
    session.refresh_from_db()
    game_record(
        session_id=session.pk, by=session.created_by, entry=simple_entry(session, winner="box")
    )
    page = en.get(_url("summary", session_id=session.pk)).text
    assert "pays Ann 2 points (€2.00)" in page
    plain = session_with(
        players(("Dió", "Eper", "Füge"), with_login=False), rolls={"Dió": 6, "Eper": 5, "Füge": 4}
    )
    game_record(session_id=plain.pk, by=plain.created_by, entry=simple_entry(plain, winner="box"))
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
        game_record(
            session_id=session.pk, by=session.created_by, entry=simple_entry(session, winner=winner)
        )
    session.refresh_from_db()
    assert session.seating["box"] != cast["Bob"].pk  # the seating has moved on
    assert _columns(en.get(url).text) == joined
    assert _columns(en.get(url + "?wall=1").text) == joined
    # A newcomer's column comes last; one who sits out keeps theirs.
    flo = PlayerFactory(name="Flo")
    session_join(session_id=session.pk, by=session.created_by, player_id=flo.pk)
    session_sit_out(session_id=session.pk, by=session.created_by, player_id=cast["Ann"].pk)
    session.refresh_from_db()
    game_record(session_id=session.pk, by=session.created_by, entry=simple_entry(session))
    page = en.get(url).text
    assert _columns(page) == [*joined, "Flo"]
    # Each row's cells follow the same columns: the newest game's points, Ann's empty.
    newest = page[page.index('<tr data-game="4">') :]
    cells = re.findall(r'<td class="num">([^<]*)</td>', newest[: newest.index("</tr>")])
    assert cells[0] == "4"  # the game number, then one cell per column
    assert len(cells[1:]) == 6 and cells[1 + joined.index("Ann")] == ""


# ====================================================================== undo and end
def test_undo_and_end_are_confirmed_apart_and_name_the_game(en) -> None:
    cast = players()
    session = session_with(cast)
    game_record(
        session_id=session.pk, by=session.created_by, entry=simple_entry(session, kind="gammon")
    )
    en.force_login(cast["Ann"].user)
    page = en.get(_url("scoreboard", session_id=session.pk)).text
    # Each real submit sits inside a <details> opened by its summary (no script, CSP).
    undo = page[page.index('<details class="confirm" id="undo-confirm">') :]
    undo = undo[: undo.index("</details>")]
    assert "Undo the last game…" in undo
    assert "Undo game 1 (Bob in the box, team wins a gammon)?" in undo
    assert f'action="{_url("undo", session_id=session.pk)}"' in undo
    assert "Yes, undo game 1" in undo
    end = page[page.index('<details class="confirm" id="end-confirm">') :]
    end = end[: end.index("</details>")]
    assert "End the session…" in end and "End the session after 1 game?" in end
    assert f'action="{_url("end", session_id=session.pk)}"' in end
    # Apart: undo with the game entry at the top, the end in its own section at the bottom.
    assert page.index('id="undo-confirm"') < page.index("Between games")
    assert page.index("Between games") < page.index('id="end-session"')
    # No undo offered before any game.
    fresh = session_with(players(("Xa", "Yb", "Zc")), rolls={"Xa": 6, "Yb": 5, "Zc": 4})
    en.force_login(fresh.created_by)
    assert 'id="undo-confirm"' not in en.get(_url("scoreboard", session_id=fresh.pk)).text


def test_undo_and_end_posts_check_the_version(en) -> None:
    cast = players()
    session = session_with(cast)
    game_record(session_id=session.pk, by=session.created_by, entry=simple_entry(session))
    session.refresh_from_db()
    en.force_login(cast["Ann"].user)
    stale = session.version - 1
    for name in ("undo", "end"):
        refused = en.post(
            _url(name, session_id=session.pk), {"expected_version": stale}, follow=True
        )
        assert "The session has changed since you looked" in refused.text
    session.refresh_from_db()
    assert session.is_open and session.events.filter(undone=True).count() == 0


# ====================================================================== reopen
def _ended(cast=None, **kwargs):
    cast = cast or players()
    session = session_with(cast, stake_per_point=Decimal("1.00"), currency="EUR", **kwargs)
    game_record(session_id=session.pk, by=session.created_by, entry=simple_entry(session))
    session_end(session_id=session.pk, by=session.created_by)
    session.refresh_from_db()
    return cast, session


def test_reopen_leaves_the_ledger_as_it_was_and_games_go_on(wall) -> None:
    cast, session = _ended()
    totals = session_totals(session)
    seating, version = session.seating, session.version
    before = snapshot()[2:]  # events and lines
    wall.advance(minutes=5)
    reopened = session_reopen(session_id=session.pk, by=cast["Ann"].user, expected_version=version)
    assert reopened.is_open and reopened.ended_at is None
    assert reopened.reopened_by == cast["Ann"].user and reopened.reopened_at == wall.at
    assert reopened.version == version + 1
    assert snapshot()[2:] == before  # no event, no line written or changed
    assert session_totals(reopened) == totals and reopened.seating == seating
    assert session_summary(session_id=session.pk).session.is_open
    # Games go on where they stopped, and it can be ended again.
    game_record(session_id=session.pk, by=cast["Ann"].user, entry=simple_entry(reopened))
    assert sum(session_totals(reopened).values()) == 0
    ended = session_end(session_id=session.pk, by=cast["Ann"].user)
    assert not ended.is_open and ended.reopened_at == wall.at


def test_reopen_refusals_change_nothing(wall) -> None:
    cast, session = _ended()
    stranger = UserPlayerFactory(name="Idegen").user
    cases = [
        (AnonymousUser(), PermissionDenied, "not_logged_in", {}),
        (stranger, PermissionDenied, "not_in_session", {}),
        (cast["Ann"].user, Conflict, "stale_version", {"expected_version": session.version - 1}),
    ]
    before = snapshot()
    for by, error, code, extra in cases:
        with pytest.raises(error) as err:
            session_reopen(session_id=session.pk, by=by, **extra)
        assert err.value.code == code
        assert snapshot() == before
    with pytest.raises(NotFound):
        session_reopen(session_id=999999, by=cast["Ann"].user)
    session_reopen(session_id=session.pk, by=cast["Ann"].user)
    opened = snapshot()
    with pytest.raises(Conflict) as err:
        session_reopen(session_id=session.pk, by=cast["Ann"].user)
    assert err.value.code == "session_open" and snapshot() == opened


def test_only_the_scorekeeper_and_staff_reopen_after_the_evening(wall) -> None:
    cast, session = _ended()
    wall.advance(hours=REOPEN_HOURS, minutes=1)
    before = snapshot()
    with pytest.raises(PermissionDenied) as err:
        session_reopen(session_id=session.pk, by=cast["Ann"].user)
    assert err.value.code == "reopen_too_late" and "12 hours ago" in str(err.value.detail)
    assert snapshot() == before
    assert not may_reopen(cast["Ann"].user, session)
    keeper = scorekeeper()
    assert may_reopen(keeper, session)
    assert session_reopen(session_id=session.pk, by=keeper).is_open
    session_end(session_id=session.pk, by=keeper)
    wall.advance(days=30)
    staff = UserFactory(is_staff=True)
    assert session_reopen(session_id=session.pk, by=staff).reopened_by == staff


def test_reopen_page(en, wall) -> None:
    cast, session = _ended()
    url = _url("scoreboard", session_id=session.pk)
    assert "Reopen the session" not in en.get(url).text  # anonymous
    en.force_login(UserPlayerFactory(name="Idegen").user)
    assert "Reopen the session" not in en.get(url).text
    assert en.post(_url("reopen", session_id=session.pk)).status_code == 403
    en.force_login(cast["Cy"].user)
    page = en.get(url).text
    assert "This session has ended" in page and "Reopen the session" in page
    assert "Enter a game" not in page
    # A stale form is refused with the reason; nothing changes.
    stale = en.post(
        _url("reopen", session_id=session.pk),
        {"expected_version": session.version - 1},
        follow=True,
    )
    assert "The session has changed since you looked" in stale.text
    session.refresh_from_db()
    assert not session.is_open
    done = en.post(_url("reopen", session_id=session.pk), {"expected_version": session.version})
    assert done.status_code == 302 and done.url == url
    page = en.get(url).text
    assert "The session is open again: games can be entered." in page
    assert "Enter a game" in page and f"Reopened after an end by {cast['Cy'].user.username}" in page
    assert "This session has ended" not in page
    assert en.get(_url("reopen", session_id=session.pk)).status_code == 405
    # After the evening a player is no longer offered the button.
    session_end(session_id=session.pk, by=cast["Cy"].user)
    wall.advance(hours=13)
    assert "Reopen the session" not in en.get(url).text
    refused = en.post(_url("reopen", session_id=session.pk), follow=True)
    assert "only the club&#x27;s scorekeeper and staff may reopen it now" in refused.text


def test_reopen_api(wall) -> None:
    cast, session = _ended()
    path = f"/api/v1/chouette/sessions/{session.pk}/reopen/"
    assert api_client().post(path, {}, format="json").status_code == 401
    stranger = api_client(UserPlayerFactory(name="Idegen").user).post(path, {}, format="json")
    assert stranger.status_code == 403 and stranger.json()["code"] == "not_in_session"
    client = api_client(cast["Ann"].user)
    stale = client.post(path, {"expected_version": session.version - 1}, format="json")
    assert stale.status_code == 409 and stale.json()["code"] == "stale_version"
    ok = client.post(path, {"expected_version": session.version}, format="json")
    assert ok.status_code == 200, ok.content
    body = ok.json()
    assert body["status"] == "open" and body["ended_at"] is None
    assert body["reopened_at"] is not None and body["version"] == session.version + 1
    assert body["game_count"] == 1
    again = client.post(path, {}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "session_open"
    assert (
        api_client(cast["Ann"].user)
        .post("/api/v1/chouette/sessions/999999/reopen/", {}, format="json")
        .status_code
        == 404
    )
    session_end(session_id=session.pk, by=cast["Ann"].user)
    wall.advance(hours=13)
    late = client.post(path, {}, format="json")
    assert late.status_code == 403 and late.json()["code"] == "reopen_too_late"
    schema = Client().get("/api/schema/", HTTP_ACCEPT="application/json").json()
    reopen = schema["paths"]["/api/v1/chouette/sessions/{session_id}/reopen/"]["post"]
    assert {"200", "403", "409"} <= set(reopen["responses"])


# ====================================================================== roll-off
def _names(*names):
    return [PlayerFactory(name=n) for n in names]


def test_roll_off_names_any_unambiguous_part_of_a_name() -> None:
    anna, adam, bela = _names("Kovács Anna", "Fekete Ádám", "Szabó Béla")
    chosen = [anna, adam, bela]
    # The help's own example, and every part of a name, case and accents folded.
    for typed in ("Anna", "anna", "Kovács", "kovacs", "KOV", "Kovács Anna", "anna kovacs"):
        assert rolloff.match_player(typed, chosen) == anna, typed
    for typed in ("Ádám", "adam", "fekete adam", "Fek Á"):
        assert rolloff.match_player(typed, chosen) == adam, typed
    rolls = rolloff.parse_rolls(text="Anna 3 5\nadam: 3, 2\n\n  béla 6  ", players=chosen)
    assert rolls == {anna.pk: [3, 5], adam.pk: [3, 2], bela.pk: [6]}
    assert rolloff.parse_rolls(text=" \n ", players=chosen) is None


def test_roll_off_prefers_a_whole_name_or_word_to_a_beginning() -> None:
    ann, anna, kiss = _names("Ann", "Anna Nagy", "Kiss Annamária")
    chosen = [ann, anna, kiss]
    assert rolloff.match_player("Ann", chosen) == ann  # the whole name
    assert rolloff.match_player("anna", chosen) == anna  # a whole word
    assert rolloff.match_player("Annam", chosen) == kiss  # the beginning of one word only


@pytest.mark.parametrize(
    ("text", "code", "says"),
    [
        ("Kovács 3\nKiss 4\nBéla 2", "ambiguous_roll_name", "“Kiss” could be any of"),
        ("Zoli 3\nKiss Anna 4\nBéla 2", "unknown_roll_name", "“Zoli” is none of the chosen"),
        ("Kovács\nKiss Anna 4\nBéla 2", "invalid_roll_line", "not understood: “Kovács”"),
        ("Kovács 7\nKiss Anna 4\nBéla 2", "invalid_roll", "“Kovács 7”: a die shows 1 to 6"),
        ("Kovács 3\nKiss Anna 4\nKiss B 5", "missing_roll_line", "No roll-off line for Szabó Béla"),
        ("Kovács 3\nKiss Anna 4", "missing_roll_line", "No roll-off lines for Szabó Béla, Kiss B"),
        (
            "Kovács 3\nkovacs peter 4\nBéla 2\nKiss 5",
            "duplicate_roll_line",
            "“Kovács” and “kovacs peter” both name Kovács Péter",
        ),
        # The rules' own refusals, said with the players' names at the field.
        (
            "Kovács 3\nKiss Anna 3\nBéla 2\nKiss B 5",
            "tied_rolls",
            "Kovács Péter, Kiss Anna tied in the roll-off",
        ),
        ("Kovács 3 4\nKiss Anna 4\nBéla 2\nKiss B 5", "needless_reroll", "Kovács Péter was not"),
    ],
)
def test_roll_off_refusals_name_what_was_typed(text, code, says) -> None:
    chosen = _names("Kovács Péter", "Kiss Anna", "Szabó Béla", "Kiss Bence")
    with translation.override("en"), pytest.raises(ValidationFailed) as err:
        rolloff.parse_rolls(text=text, players=chosen)
    assert err.value.code == code
    assert says in str(err.value.detail)


def _create_post(cast, **override) -> dict:
    post = {
        "name": "Péntek",
        "players": [p.pk for p in cast],
        "rolls": "",
        "currency": "HUF",
        "kind": "classic",
        "rotation": "standard",
        "automatic_doubles": "0",
        "backgammon_value": "3",
    }
    post.update(override)
    return post


def test_new_session_form_reads_the_help_example_and_refuses_in_the_field(en) -> None:
    cast = _names("Kovács Anna", "Fekete Ádám", "Szabó Béla")
    en.force_login(scorekeeper())
    started = en.post(
        _url("session-create"), _create_post(cast, rolls="Anna 3 5\nAdam 3 2\nbela 1")
    )
    assert started.status_code == 302
    session = ChouetteSession.objects.get()
    assert session.seating == {"box": cast[0].pk, "line": [cast[1].pk, cast[2].pk], "out": []}
    rolled = {r["player"]: r["rolls"] for r in session.rolls}
    assert rolled == {cast[0].pk: [3, 5], cast[1].pk: [3, 2], cast[2].pk: [1]}
    # Refused: the rolls field says which name, the form keeps what was typed.
    typed = "Anna 3\nZoli 4\nbela 1"
    refused = en.post(_url("session-create"), _create_post(cast, name="Szombat", rolls=typed))
    assert refused.status_code == 400
    assert ChouetteSession.objects.count() == 1
    html = refused.text
    field = html[html.index('<textarea name="rolls"') :]
    assert field.index("Zoli 4") < field.index("</textarea>")  # kept
    errors = field[field.index("</textarea>") :]
    assert "is none of the chosen players" in errors[: errors.index("</div>")]
    assert 'value="Szombat"' in html


def test_new_session_form_shows_the_individual_options_apart(en) -> None:
    cast = _names("Kovács Anna", "Fekete Ádám", "Szabó Béla")
    en.force_login(scorekeeper())
    page = en.get(_url("session-list")).text
    assert 'src="/static/chouette/session-form.js"' in page
    part = page[page.index('data-profile-only="individual"') :]
    part = part[: part.index("</fieldset>")]
    for name in ("beavers", "raccoons", "box_must_take_half", "box_partner"):
        assert f'name="{name}"' in part
    assert 'name="jacoby"' not in part  # one team cube plays Jacoby too
    # Every box is inside its label: the whole row is the tap target.
    assert re.search(r'<label class="check" for="id_players_0"><input type="checkbox"', page)
    assert re.search(r'<label class="check" for="id_kind_1"><input type="radio"', page)
    # Without the script the options show; one team cube refuses them, in the field.
    refused = en.post(_url("session-create"), _create_post(cast, beavers="on"))
    assert refused.status_code == 400
    assert "Only with individual cubes: choose the individual profile." in refused.text
    assert not ChouetteSession.objects.exists()
    ok = en.post(
        _url("session-create"),
        _create_post(cast, kind="individual", beavers="on", box_partner="on"),
    )
    assert ok.status_code == 302
    profile = ChouetteSession.objects.get().profile
    assert profile["kind"] == "individual" and profile["beavers"] and profile["box_partner"]


# ====================================================================== guests
def test_a_newcomer_joins_by_name_as_a_guest() -> None:
    cast = players()
    session = session_with(cast)
    by = cast["Ann"].user
    joined = session_join_guest(
        session_id=session.pk, by=by, name="  Vendég   Viktor ", expected_version=session.version
    )
    guest = joined.player
    assert guest.name == "Vendég Viktor" and guest.user is None
    session.refresh_from_db()
    assert session.seating["line"][-1] == guest.pk
    assert joined.order == max(session.participants.values_list("order", flat=True))
    event = session.events.order_by("-seq").first()
    assert event.kind == "seat_change" and event.data == {"action": "join", "player": guest.pk}
    # The guest plays on like anybody.
    game_record(session_id=session.pk, by=by, entry=simple_entry(session))
    assert guest.pk in session_totals(session)


def test_a_guest_name_that_is_a_players_is_offered_not_made() -> None:
    cast = players()
    session = session_with(cast)
    kiss = PlayerFactory(name="Kiss Anna")
    kovacs = PlayerFactory(name="Kovács Anna")
    by = session.created_by
    before = snapshot(), Player.objects.count()
    cases = [
        ("kiss anna", Conflict, "player_exists"),  # the same name, whatever the case
        ("Kovacs Anna", Conflict, "namesake_exists"),  # the same once accents fold
        ("ann", ValidationFailed, "already_seated"),  # in the session already
        ("", ValidationFailed, "invalid_name"),
        ("x" * 81, ValidationFailed, "invalid_name"),
    ]
    for name, error, code in cases:
        with pytest.raises(error) as err:
            session_join_guest(session_id=session.pk, by=by, name=name)
        assert err.value.code == code, name
        assert (snapshot(), Player.objects.count()) == before
    with pytest.raises(Conflict) as err:
        session_join_guest(session_id=session.pk, by=by, name="KISS ANNA")
    assert err.value.extra["player_id"] == kiss.pk
    with pytest.raises(Conflict) as err:
        session_join_guest(session_id=session.pk, by=by, name="kovacs anna")
    assert err.value.extra["players"] == [
        {"id": kovacs.pk, "name": "Kovács Anna", "has_login": False}
    ]
    # Confirmed someone else: a second player, spelt without accents.
    other = session_join_guest(
        session_id=session.pk, by=by, name="Kovacs Anna", namesake_ok=True
    ).player
    assert other.pk != kovacs.pk and other.name == "Kovacs Anna"
    # Who may: the session's writers; a stale form; an ended session.
    stranger = UserPlayerFactory(name="Idegen").user
    with pytest.raises(PermissionDenied):
        session_join_guest(session_id=session.pk, by=stranger, name="Új Ember")
    with pytest.raises(Conflict) as err:
        session_join_guest(session_id=session.pk, by=by, name="Új Ember", expected_version=0)
    assert err.value.code == "stale_version"
    session_end(session_id=session.pk, by=by)
    with pytest.raises(Conflict) as err:
        session_join_guest(session_id=session.pk, by=by, name="Új Ember")
    assert err.value.code == "session_ended"
    assert not Player.objects.filter(name="Új Ember").exists()


def test_guest_page_joins_or_offers_the_existing_player(en) -> None:
    cast = players()
    session = session_with(cast)
    kovacs = PlayerFactory(name="Kovács Anna")
    en.force_login(cast["Ann"].user)
    board = en.get(_url("scoreboard", session_id=session.pk)).text
    assert 'id="guest-form"' in board and "Join as a guest" in board
    url = _url("join-guest", session_id=session.pk)
    done = en.post(url, {"name": "Vendég Viktor", "expected_version": session.version})
    assert done.status_code == 302 and done.url == _url("scoreboard", session_id=session.pk)
    page = en.get(done.url).text
    assert "Vendég Viktor joined at the end of the line, as a guest." in page
    assert Player.objects.get(name="Vendég Viktor").user is None
    # The same name with other accents: the page offers that player, or someone else.
    session.refresh_from_db()
    offer = en.post(url, {"name": "kovacs anna", "expected_version": session.version})
    assert offer.status_code == 409
    assert "Kovács Anna: already a player by that name" in offer.text
    assert f'name="player" value="{kovacs.pk}"' in offer.text and "Join Kovács Anna" in offer.text
    assert "No: add “kovacs anna” as a new guest" in offer.text
    assert 'value="kovacs anna"' in offer.text  # the name as typed, kept
    assert not Player.objects.filter(name="kovacs anna").exists()
    # Joining the offered player is the ordinary join.
    joined = en.post(
        _url("seat-change", session_id=session.pk),
        {"action": "join", "player": kovacs.pk, "expected_version": session.version},
    )
    assert joined.status_code == 302
    session.refresh_from_db()
    assert session.seating["line"][-1] == kovacs.pk
    # The same name in other case: that player is offered, no new guest can be made.
    kiss = PlayerFactory(name="Kiss Anna")
    taken = en.post(url, {"name": "KISS ANNA", "expected_version": session.version})
    assert taken.status_code == 409
    assert "Kiss Anna is a player already: join them instead." in taken.text
    assert f'name="player" value="{kiss.pk}"' in taken.text
    assert 'name="namesake_ok"' not in taken.text
    # A bad name: the page says why and keeps it.
    bad = en.post(url, {"name": "   ", "expected_version": session.version})
    assert bad.status_code == 400 and "Type the player&#x27;s name." in bad.text
    assert en.get(url).status_code == 405
    en.force_login(UserPlayerFactory(name="Idegen").user)
    assert en.post(url, {"name": "Más Valaki"}).status_code == 403
    assert not Player.objects.filter(name="Más Valaki").exists()


def test_guest_api() -> None:
    cast = players()
    session = session_with(cast)
    kiss = PlayerFactory(name="Kiss Anna")
    path = f"/api/v1/chouette/sessions/{session.pk}/join-guest/"
    assert api_client().post(path, {"name": "Új"}, format="json").status_code == 401
    client = api_client(cast["Ann"].user)
    ok = client.post(path, {"name": "Vendég Viktor"}, format="json")
    assert ok.status_code == 200, ok.content
    guest = Player.objects.get(name="Vendég Viktor")
    assert ok.json()["seating"]["line"][-1] == guest.pk
    taken = client.post(path, {"name": "kiss anna"}, format="json")
    assert taken.status_code == 409 and taken.json()["code"] == "player_exists"
    assert taken.json()["player_id"] == kiss.pk
    bad = client.post(path, {"name": ""}, format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "invalid_name"
    schema = Client().get("/api/schema/", HTTP_ACCEPT="application/json").json()
    assert "/api/v1/chouette/sessions/{session_id}/join-guest/" in schema["paths"]

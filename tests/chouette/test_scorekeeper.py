"""The scorekeeper in control (issue 27): box, captain and line set by hand (audited,
version-checked, refused while an online game is played); any typed game corrected in
its place with the later games replayed (still zero-sum, the old entry kept); the
roll-off shown; the wall of an ended session; money in the reader's format."""

from __future__ import annotations

import itertools
from decimal import Decimal

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chouette import rules
from chouette.models import ChouetteEvent, ChouetteLine, ChouetteOnlineGame, ChouetteSession
from chouette.services.common import ledger_of
from chouette.services.games import counted_game_events, game_edit, game_record, game_undo_last
from chouette.services.seating import session_seating_set, session_sit_out
from chouette.services.sessions import session_end
from chouette.services.summary import session_summary, session_totals
from games.errors import ApplicationError
from games.play.dice import ScriptedDice
from tests.chouette.factories import players, scorekeeper, session_with, simple_entry, snapshot
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def en(client):
    client.cookies["django_language"] = "en"
    return client


def _url(name: str, **kwargs) -> str:
    return reverse(f"chouette:{name}", kwargs=kwargs)


def _refused(code: str, call) -> ApplicationError:
    before = snapshot()
    with pytest.raises(ApplicationError) as exc:
        call()
    assert exc.value.code == code, exc.value
    assert snapshot() == before  # a refusal writes nothing
    return exc.value


def _seated(session: ChouetteSession) -> list[int]:
    session.refresh_from_db()
    return [session.seating["box"], *session.seating["line"]]


def _record(session: ChouetteSession, **kwargs) -> ChouetteEvent:
    session.refresh_from_db()
    return game_record(
        session_id=session.pk, by=session.created_by, entry=simple_entry(session, **kwargs)
    )


# ====================================================================== the seating by hand
def test_seating_set_by_hand_is_checked_recorded_and_replayed() -> None:
    cast = players()
    session = session_with(cast)  # Bob box, Ann captain, then Cy, Eve, Dee
    keeper = session.created_by
    bob, ann, cy, dee, eve = (cast[n].pk for n in ("Bob", "Ann", "Cy", "Dee", "Eve"))
    session_sit_out(session_id=session.pk, by=keeper, player_id=dee)
    session.refresh_from_db()
    version = session.version
    for code, box, line in (
        ("reseat_players_differ", cy, [ann, bob]),  # Eve left out
        ("reseat_players_differ", cy, [ann, bob, eve, dee]),  # Dee sits out
        ("duplicate_player", cy, [ann, bob, cy, eve]),
        ("too_few_players", cy, []),
        ("seating_unchanged", bob, [ann, cy, eve]),
        ("invalid_player", True, [ann, bob, eve]),
    ):
        _refused(
            code,
            lambda box=box, line=line: session_seating_set(
                session_id=session.pk, by=keeper, box=box, line=line, expected_version=version
            ),
        )
    _refused(
        "stale_version",
        lambda: session_seating_set(
            session_id=session.pk, by=keeper, box=cy, line=[eve, bob, ann], expected_version=0
        ),
    )
    outsider = UserFactory()
    _refused(
        "not_in_session",
        lambda: session_seating_set(
            session_id=session.pk, by=outsider, box=cy, line=[eve, bob, ann]
        ),
    )
    session_seating_set(
        session_id=session.pk, by=keeper, box=cy, line=[eve, bob, ann], expected_version=version
    )
    session.refresh_from_db()
    assert session.version == version + 1
    assert session.seating == {"box": cy, "line": [eve, bob, ann], "out": [dee]}
    event = session.events.order_by("-seq").first()
    assert event.kind == "seat_change" and event.created_by == keeper
    assert event.data == {
        "action": "set",
        "box": cy,
        "line": [eve, bob, ann],
        "before": {"box": bob, "line": [ann, cy, eve], "out": [dee]},
    }
    # The ledger replays it, and the next game is played from it.
    assert ledger_of(session).seating == rules.Seating.from_dict(session.seating)
    _record(session, winner="box")
    assert _seated(session) == [cy, bob, ann, eve]  # the box won: Eve to the end
    # An undo of that game gives the seating set by hand back.
    game_undo_last(session_id=session.pk, by=keeper)
    assert _seated(session) == [cy, eve, bob, ann]


def test_seating_set_is_refused_while_an_online_game_is_played() -> None:
    from chouette.online.services import online_game_start

    cast = players(("Ann", "Bob", "Cy"))
    session = session_with(cast, rolls={"Bob": 6, "Ann": 5, "Cy": 4})
    online_game_start(session_id=session.pk, by=cast["Ann"].user, dice=ScriptedDice([6, 2]))
    _refused(
        "online_game_in_progress",
        lambda: session_seating_set(
            session_id=session.pk,
            by=cast["Ann"].user,
            box=cast["Cy"].pk,
            line=[cast["Ann"].pk, cast["Bob"].pk],
        ),
    )


def test_the_scoreboard_form_sets_the_seating_and_shows_who_did(en) -> None:
    cast = players(("Anna", "Béla", "Cili", "Dani"))
    session = session_with(cast, rolls={"Anna": 6, "Béla": 5, "Cili": 4, "Dani": 3})
    en.force_login(cast["Cili"].user)
    page = en.get(_url("scoreboard", session_id=session.pk)).text
    assert 'id="reseat-form"' in page and 'for="reseat-0"' in page and "Place 3 in the line" in page
    ids = [cast[n].pk for n in ("Dani", "Cili", "Anna", "Béla")]
    post = {"expected_version": session.version, "box": ids[0], "line": ids[1:]}
    done = en.post(_url("seating", session_id=session.pk), post, follow=True)
    assert "The seating has been set." in done.text
    assert _seated(session) == ids
    assert "changes by hand" not in done.text and "1 change by hand" in done.text
    assert (
        "set the seating" in done.text and "from Anna, Béla, Cili, Dani to Dani, Cili" in done.text
    )
    # The same post again is stale (the version moved on) and says so.
    again = en.post(_url("seating", session_id=session.pk), post, follow=True)
    assert "The session has changed since you looked" in again.text
    # Nobody twice: refused with the rules' words.
    session.refresh_from_db()
    twice = {"expected_version": session.version, "box": ids[0], "line": [ids[1], ids[1], ids[2]]}
    refused = en.post(_url("seating", session_id=session.pk), twice, follow=True)
    assert "A player is named twice." in refused.text
    assert _seated(session) == ids


def test_the_game_entry_with_another_box_sets_the_seating_then_saves(en) -> None:
    """The finding: the entry form offered box and captain, then refused any other
    choice with "reload the scoreboard". Another choice now sets the seating first."""
    cast = players(("Anna", "Béla", "Cili", "Dani"))
    session = session_with(cast, rolls={"Anna": 6, "Béla": 5, "Cili": 4, "Dani": 3})
    en.force_login(cast["Anna"].user)
    anna, bela, cili, dani = (cast[n].pk for n in ("Anna", "Béla", "Cili", "Dani"))
    post = {
        "expected_version": str(session.version),
        "box": str(cili),
        "captain": str(dani),
        "winner": "box",
        "kind": "single",
    }
    for p in (anna, bela, dani):
        post[f"cube-{p}"] = "1"
        post[f"fate-{p}"] = "took"
    preview = en.post(_url("game-entry", session_id=session.pk), {**post, "action": "preview"})
    assert preview.status_code == 200 and "reload the scoreboard" not in preview.text
    assert 'id="preview"' in preview.text
    saved = en.post(_url("game-entry", session_id=session.pk), {**post, "action": "save"})
    assert saved.status_code == 302
    kinds = list(session.events.order_by("seq").values_list("kind", "data__action"))
    assert kinds == [("seat_change", "set"), ("game", None)]
    # Cili box, Dani captain, then Béla, then Anna (the old box leaves it last); the box
    # won: Dani goes to the end.
    assert _seated(session) == [cili, bela, anna, dani]
    totals = session_totals(session)
    assert totals[cili] == 3 and sum(totals.values()) == 0


def test_seating_api(client) -> None:
    cast = players(("Anna", "Béla", "Cili"))
    session = session_with(cast, rolls={"Anna": 6, "Béla": 5, "Cili": 4})
    client.force_login(cast["Béla"].user)
    url = reverse("chouette-api:session-seating", kwargs={"session_id": session.pk})
    ids = [cast[n].pk for n in ("Cili", "Anna", "Béla")]
    done = client.put(
        url,
        {"box": ids[0], "line": ids[1:], "expected_version": session.version},
        content_type="application/json",
    )
    assert done.status_code == 200, done.json()
    assert done.json()["seating"]["box"] == ids[0]
    stale = client.put(
        url,
        {"box": ids[1], "line": [ids[0], ids[2]], "expected_version": 0},
        content_type="application/json",
    )
    assert stale.status_code == 409 and stale.json()["code"] == "stale_version"
    differ = client.put(url, {"box": ids[1], "line": [ids[0]]}, content_type="application/json")
    assert differ.status_code == 400 and differ.json()["code"] == "reseat_players_differ"


# ====================================================================== a past game corrected
def _three_games(session: ChouetteSession) -> None:
    _record(session, winner="box")
    _record(session, winner="team")
    _record(session, winner="team", kind="gammon")


def test_a_past_game_corrected_recomputes_the_later_games() -> None:
    cast = players()
    session = session_with(cast)
    keeper = session.created_by
    _three_games(session)
    ledger = ledger_of(session)
    first = ledger.rows[0].entry.to_dict()
    corrected = {**first, "kind": "gammon"}  # the box won a gammon, not a single
    session.refresh_from_db()
    before_seating = session.seating
    old = counted_game_events(session)[0]
    new = game_edit(
        session_id=session.pk,
        by=keeper,
        number=1,
        entry=corrected,
        expected_version=session.version,
    )
    session.refresh_from_db()
    old.refresh_from_db()
    assert old.undone and old.undone_by == keeper and old.data == first  # kept as it was
    assert new.corrects == old and new.place == old.place and new.data["kind"] == "gammon"
    assert session.seating == before_seating  # same rotation: same seating
    games = counted_game_events(session)
    assert games[0].pk == new.pk and len(games) == 3
    # Every game sums to zero and the totals are those of the edited games typed fresh.
    for game in games:
        assert sum(game.lines.values_list("points", flat=True)) == 0
    expected = rules.Ledger.replay(
        ledger.profile, ledger.start, [rules.GameEntry.from_dict(corrected), *ledger.games[1:]]
    )
    assert session_totals(session) == {int(p): t for p, t in expected.totals}
    scoreboard = session_summary(session_id=session.pk)
    assert sum(p.points for p in scoreboard.summary.players) == 0


def test_an_edit_that_breaks_a_later_game_is_refused_naming_it() -> None:
    cast = players()
    session = session_with(cast)
    _three_games(session)
    first = ledger_of(session).rows[0].entry.to_dict()
    session.refresh_from_db()
    error = _refused(
        "edit_breaks_later_game",
        lambda: game_edit(
            session_id=session.pk,
            by=session.created_by,
            number=1,
            entry={**first, "winner": "team"},  # the captain won: the table rotates otherwise
        ),
    )
    assert error.status == 409 and error.extra["game"] == 2
    # The last game may change its rotation: nothing comes after it.
    last = ledger_of(session).rows[2].entry.to_dict()
    game_edit(
        session_id=session.pk, by=session.created_by, number=3, entry={**last, "winner": "box"}
    )
    totals = session_totals(session)
    assert sum(totals.values()) == 0


def test_edit_refusals() -> None:
    cast = players()
    session = session_with(cast)
    keeper = session.created_by
    _three_games(session)
    entry = ledger_of(session).rows[1].entry.to_dict()
    for number in (0, 4, True):
        _refused(
            "game_not_found",
            lambda number=number: game_edit(
                session_id=session.pk, by=keeper, number=number, entry=entry
            ),
        )
    _refused(  # game 2's entry does not fit game 1's seating
        "entry_seating_mismatch",
        lambda: game_edit(session_id=session.pk, by=keeper, number=1, entry=entry),
    )
    _refused(
        "stale_version",
        lambda: game_edit(
            session_id=session.pk, by=keeper, number=2, entry=entry, expected_version=0
        ),
    )
    _refused(
        "not_in_session",
        lambda: game_edit(session_id=session.pk, by=UserFactory(), number=2, entry=entry),
    )
    # A game played online is its table's record.
    event = counted_game_events(session)[1]
    ChouetteOnlineGame.objects.create(
        session=session, number=1, status="finished", table={}, event=event
    )
    _refused(
        "online_game_not_editable",
        lambda: game_edit(session_id=session.pk, by=keeper, number=2, entry=entry),
    )


def test_a_correction_is_undone_like_any_last_game() -> None:
    cast = players()
    session = session_with(cast)
    _record(session, winner="box")
    entry = ledger_of(session).rows[0].entry.to_dict()
    game_edit(
        session_id=session.pk, by=session.created_by, number=1, entry={**entry, "kind": "gammon"}
    )
    game_undo_last(session_id=session.pk, by=session.created_by)
    assert counted_game_events(session) == []
    assert set(session_totals(session).values()) == {0}
    assert not ChouetteLine.objects.filter(event__undone=False).exists()


def test_the_edit_page_is_prefilled_and_saves_the_correction(en) -> None:
    cast = players(("Anna", "Béla", "Cili", "Dani"))
    session = session_with(cast, rolls={"Anna": 6, "Béla": 5, "Cili": 4, "Dani": 3})
    en.force_login(scorekeeper())
    _record(session, winner="box")
    _record(session, winner="box")
    board = en.get(_url("scoreboard", session_id=session.pk)).text
    assert 'id="edit-game-1"' in board and 'id="edit-game-2"' in board
    edit_url = _url("game-edit", session_id=session.pk, number=1)
    page = en.get(edit_url)
    assert page.status_code == 200 and "Correct game 1" in page.text
    assert '<option value="box" selected' in page.text.replace("\n", "")  # as it was typed
    first = ledger_of(session).rows[0].entry
    post = {
        "action": "save",
        "expected_version": str(ChouetteSession.objects.get().version),
        "box": str(first.box),
        "captain": str(first.captain),
        "winner": "box",
        "kind": "backgammon",
    }
    for m in first.members:
        post[f"cube-{m.player}"] = "1"
        post[f"fate-{m.player}"] = "took"
    preview = en.post(edit_url, {**post, "action": "preview"})
    assert preview.status_code == 200 and "+9" in preview.text  # 3 members x 3
    saved = en.post(edit_url, post, follow=True)
    assert "Game 1 has been corrected." in saved.text
    assert "corrected game 1" in saved.text and 'class="badge corrected-badge"' in saved.text
    totals = session_totals(session)
    assert totals[cast["Anna"].pk] == 9 + 3 and sum(totals.values()) == 0
    assert en.get(_url("game-edit", session_id=session.pk, number=3)).status_code == 404


def test_game_edit_api(client) -> None:
    cast = players(("Anna", "Béla", "Cili"))
    session = session_with(cast, rolls={"Anna": 6, "Béla": 5, "Cili": 4})
    _record(session, winner="box")
    client.force_login(cast["Cili"].user)
    entry = ledger_of(session).rows[0].entry.to_dict()
    url = reverse("chouette-api:game-edit", kwargs={"session_id": session.pk, "number": 1})
    done = client.put(url, {"entry": {**entry, "kind": "gammon"}}, content_type="application/json")
    assert done.status_code == 200, done.json()
    body = done.json()
    assert body["number"] == 1 and body["kind"] == "gammon"
    assert {t["player"]: t["points"] for t in body["totals"]}[cast["Anna"].pk] == 4
    missing = client.put(
        reverse("chouette-api:game-edit", kwargs={"session_id": session.pk, "number": 9}),
        {"entry": entry},
        content_type="application/json",
    )
    assert missing.status_code == 404 and missing.json()["code"] == "game_not_found"


# A game that keeps the box's rotation (the box won) or the captain's (the team won), in
# any of the three kinds: an edit within the same winner never breaks a later game.
WINS = st.sampled_from(["box", "team"])
EXAMPLES = itertools.count()
KINDS = st.sampled_from(["single", "gammon", "backgammon"])


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    games=st.lists(st.tuples(WINS, KINDS), min_size=1, max_size=5),
    data=st.data(),
)
def test_edited_ledger_equals_the_edited_games_typed_fresh(games, data) -> None:
    run = next(EXAMPLES)  # every example on the same database: fresh names
    cast = players(tuple(f"P{run}-{i}" for i in range(4)), with_login=False)
    rolls = {f"P{run}-{i}": 6 - i for i in range(4)}
    session = session_with(cast, rolls=rolls)
    for winner, kind in games:
        _record(session, winner=winner, kind=kind)
    number = data.draw(st.integers(1, len(games)))
    kind = data.draw(KINDS)
    winner = games[number - 1][0]
    entry = ledger_of(session).rows[number - 1].entry.to_dict()
    session.refresh_from_db()
    game_edit(
        session_id=session.pk,
        by=session.created_by,
        number=number,
        entry={**entry, "kind": kind},
        expected_version=session.version,
    )
    edited = [*games]
    edited[number - 1] = (winner, kind)
    fresh = session_with(cast, rolls=rolls, name="typed fresh")
    for w, k in edited:
        _record(fresh, winner=w, kind=k)
    assert session_totals(session) == session_totals(fresh)
    session.refresh_from_db()
    fresh.refresh_from_db()
    assert session.seating == fresh.seating
    for one in (session, fresh):
        for game in counted_game_events(one):
            assert sum(game.lines.values_list("points", flat=True)) == 0


# ====================================================================== roll-off, the wall
def test_the_roll_off_is_shown(en) -> None:
    cast = players()
    session = session_with(cast)  # Bob 6, Ann 5, Cy 3 then 4, Eve 3 then 1, Dee 2
    page = en.get(_url("scoreboard", session_id=session.pk)).text
    assert "Roll-off:" in page
    assert "Bob 6" in page and "Ann 5" in page and "Cy 3 (re-rolled: 4)" in page
    assert "Eve 3 (re-rolled: 1)" in page and "Dee 2" in page
    assert page.index("Cy 3") < page.index("Eve 3") < page.index("Dee 2")
    wall = en.get(_url("scoreboard", session_id=session.pk) + "?wall=1").text
    assert 'id="rolloff"' in wall  # before the first game, on the wall too


def test_the_wall_of_an_ended_session(en) -> None:
    cast = players(("Anna", "Béla", "Cili"), with_login=False)
    session = session_with(
        cast,
        rolls={"Anna": 6, "Béla": 5, "Cili": 4},
        stake_per_point=Decimal("500"),
        currency="HUF",
    )
    _record(session, winner="box")
    wall_url = _url("scoreboard", session_id=session.pk) + "?wall=1"
    open_wall = en.get(wall_url).text
    assert 'class="seating"' in open_wall and 'id="wall-ended"' not in open_wall
    session_end(session_id=session.pk, by=session.created_by)
    wall = en.get(wall_url).text
    assert 'id="wall-ended"' in wall and ">Ended<" in wall
    assert 'class="seating"' not in wall and "cube 1" not in wall
    assert "Béla pays Anna 1 point (HUF\u00a0500)" in wall
    assert "Cili pays Anna 1 point (HUF\u00a0500)" in wall
    assert "+HUF\u00a01,000" in wall
    en.cookies["django_language"] = "hu"
    hu = en.get(wall_url).text
    assert ">Véget ért<" in hu and "Béla fizet Anna részére 1 pontot (500\u00a0Ft)" in hu
    assert "+1\u00a0000\u00a0Ft" in hu


# ====================================================================== money
@pytest.mark.parametrize(
    ("language", "amount", "currency", "signed", "text"),
    [
        ("hu", Decimal("10500.00"), "HUF", False, "10\u00a0500\u00a0Ft"),
        ("en", Decimal("10500.00"), "HUF", False, "HUF\u00a010,500"),
        ("hu", Decimal("12.5"), "EUR", False, "12,50\u00a0€"),
        ("en", Decimal("12.5"), "EUR", False, "€12.50"),
        ("en", Decimal("-1234.5"), "USD", True, "-$1,234.50"),
        ("hu", Decimal("1500"), "HUF", True, "+1\u00a0500\u00a0Ft"),
        ("hu", Decimal("-1.5"), "HUF", False, "-1,50\u00a0Ft"),  # half a forint a point
        ("en", Decimal("3"), "SEK", False, "SEK\u00a03.00"),
        ("en", Decimal("7"), "XYZ", False, "XYZ\u00a07.00"),
        ("hu", 0, "", False, "0"),
    ],
)
def test_money_in_the_readers_format(language, amount, currency, signed, text) -> None:
    from django.utils import translation

    from games.money.format import money_text

    with translation.override(language):
        assert money_text(amount, currency, signed=signed) == text


def test_the_summary_and_the_scoreboard_in_both_languages(client) -> None:
    cast = players(("Anna", "Béla", "Cili"), with_login=False)
    session = session_with(
        cast,
        rolls={"Anna": 6, "Béla": 5, "Cili": 4},
        stake_per_point=Decimal("10500"),
        currency="HUF",
    )
    _record(session, winner="box")
    client.cookies["django_language"] = "hu"
    summary = client.get(_url("summary", session_id=session.pk)).text
    assert "+21\u00a0000\u00a0Ft" in summary and "10500.00" not in summary
    assert (
        "pontonként 10\u00a0500\u00a0Ft"
        in client.get(_url("scoreboard", session_id=session.pk)).text
    )
    client.cookies["django_language"] = "en"
    summary = client.get(_url("summary", session_id=session.pk)).text
    assert "+HUF\u00a021,000" in summary and "(HUF\u00a010,500)" in summary
    assert "HUF\u00a010,500 a point" in client.get(_url("scoreboard", session_id=session.pk)).text
    listed = client.get(_url("session-list")).text
    assert "HUF\u00a010,500" in listed


# ====================================================================== the pure rules
def _entry(seating: rules.Seating, winner: str, kind: str) -> rules.GameEntry:
    return rules.GameEntry.from_dict(
        {
            "box": seating.box,
            "captain": seating.captain,
            "members": [{"player": p, "cube": 1, "fate": "took"} for p in seating.line],
            "winner": winner,
            "kind": kind,
        }
    )


def test_reseat_and_seating_for_roles_in_the_pure_rules() -> None:
    seating = rules.Seating(box="a", line=("b", "c", "d"), out=("e",))
    assert rules.reseat(seating, "d", ("c", "b", "a")) == rules.Seating(
        "d", ("c", "b", "a"), ("e",)
    )
    for box, line, code in (
        ("d", ("c", "b"), "reseat_players_differ"),
        ("d", ("c", "b", "a", "e"), "reseat_players_differ"),
        ("d", ("c", "c", "a"), "duplicate_player"),
        ("d", (), "too_few_players"),
    ):
        with pytest.raises(rules.ChouetteError) as exc:
            rules.reseat(seating, box, line)
        assert exc.value.code == code
    # Roles chosen: the others keep their order, the old box after them.
    assert rules.seating_for_roles(seating, "c", "d") == rules.Seating("c", ("d", "b", "a"), ("e",))
    assert rules.seating_for_roles(seating, "c", "d", "b") == rules.Seating(
        "c", ("d", "a", "b"), ("e",)
    )
    change = rules.Reseat(box="d", line=("c", "b", "a"), before=seating)
    assert rules.Reseat.from_dict(change.to_dict()) == change


@settings(max_examples=60, deadline=None)
@given(games=st.lists(st.tuples(WINS, KINDS), min_size=1, max_size=8), data=st.data())
def test_replace_equals_the_replay_of_the_edited_games(games, data) -> None:
    """Pure: a correction that keeps the winner equals the edited games replayed; one
    that changes it is the replay, or refused naming the first later game that no
    longer fits."""
    profile = rules.CLASSIC
    start = rules.Seating(box=1, line=(2, 3, 4))
    ledger = rules.Ledger.new(profile, start)
    for winner, kind in games:
        ledger = ledger.apply(_entry(ledger.seating, winner, kind))
    number = data.draw(st.integers(1, len(games)))
    winner, kind = data.draw(WINS), data.draw(KINDS)
    before = ledger.rows[number - 1].seating_before
    corrected = _entry(before, winner, kind)
    events = list(ledger.events)
    events[number - 1] = corrected
    try:
        expected = rules.Ledger.replay(profile, start, events)
    except rules.ChouetteError:
        expected = None
    if expected is None:
        with pytest.raises(rules.ChouetteError) as exc:
            ledger.replace(number, corrected)
        assert exc.value.code == "edit_breaks_later_game" and exc.value.game > number
    else:
        assert ledger.replace(number, corrected) == expected
        assert sum(t for _p, t in expected.totals) == 0
    if winner == games[number - 1][0]:
        assert expected is not None  # the same rotation never breaks a later game

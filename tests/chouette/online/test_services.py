"""Online chouette on the database (chouette.online.services, issue 19): games played
to the end go through the same ledger as games typed in; refusals change nothing; the
cube decision's time window; the team's chat."""

from __future__ import annotations

import random
from datetime import timedelta
from decimal import Decimal

import pytest

from chouette import rules
from chouette.models import (
    AWAY_WINDOW_SECONDS,
    ChouetteLine,
    ChouetteOnlineAction,
    ChouetteOnlineGame,
)
from chouette.online import alarms, selectors, services
from chouette.online.table import Table
from chouette.services.games import game_record, game_undo_last
from chouette.services.proxies import participant_proxy_set
from chouette.services.seating import session_sit_out
from chouette.services.sessions import session_end
from chouette.services.summary import session_totals
from chouette.stored import profile_of
from games import wallclock
from games.engine.position import position_id
from games.errors import ApplicationError
from games.play.dice import ScriptedDice
from tests.chouette.factories import (
    online_act,
    online_play_first,
    players,
    scorekeeper,
    session_with,
    simple_entry,
    snapshot,
)

pytestmark = pytest.mark.django_db

FOUR = ("Ann", "Bob", "Cy", "Dee")
FOUR_ROLLS = {"Bob": 6, "Ann": 5, "Cy": 4, "Dee": 3}  # Bob box, Ann captain, Cy, Dee


def _table(game: ChouetteOnlineGame) -> Table:
    game.refresh_from_db()
    return Table.from_dict(game.table)


def _user(cast, pid):
    return next(p.user for p in cast.values() if p.pk == pid)


def _play_out(game, cast, rnd: random.Random) -> ChouetteOnlineGame:
    """Roll and play (the first legal play) until the game ends; no cube actions."""
    for _ in range(2000):
        table = _table(game)
        if not game.is_playing:
            return game
        mover = table.mover
        assert mover is not None, table.decisions
        if table.board.phase == "roll":
            services.online_game_act(
                game_id=game.pk,
                by=_user(cast, mover),
                action="roll",
                expected_version=game.version,
                dice=rnd,
            )
        else:
            plays = table.board.legal_plays()
            services.online_game_act(
                game_id=game.pk,
                by=_user(cast, mover),
                action="play",
                expected_version=game.version,
                position_id=position_id(rnd.choice(plays).result),
            )
    raise AssertionError("the game did not end")


def _to_box_roll(game, cast, rnd):
    for _ in range(200):
        table = _table(game)
        if table.board.turn == 0 and table.board.phase == "roll":
            return
        mover = table.mover
        kind = "roll" if table.board.phase == "roll" else "play"
        extra = {}
        if kind == "play":
            extra["position_id"] = position_id(table.board.legal_plays()[0].result)
        else:
            extra["dice"] = rnd
        services.online_game_act(
            game_id=game.pk,
            by=_user(cast, mover),
            action=kind,
            expected_version=game.version,
            **extra,
        )
    raise AssertionError("never the box's roll")


def test_box_double_one_drops_the_others_take_and_the_ledger_is_the_settlement():
    cast = players(FOUR)
    session = session_with(cast, rolls=FOUR_ROLLS)
    rnd = random.Random(7)
    game = services.online_game_start(session_id=session.pk, by=cast["Ann"].user, dice=rnd)
    assert game.version == 1 and game.is_playing
    _to_box_roll(game, cast, rnd)
    services.online_game_act(
        game_id=game.pk, by=cast["Bob"].user, action="box_double", expected_version=game.version
    )
    for name, answer in (("Ann", "drop"), ("Cy", "take"), ("Dee", "take")):
        game.refresh_from_db()
        services.online_game_act(
            game_id=game.pk,
            by=cast[name].user,
            action="answer",
            answer=answer,
            expected_version=game.version,
        )
    table = _table(game)
    assert table.acting_captain == cast["Cy"].pk
    game = _play_out(game, cast, rnd)
    game.refresh_from_db()
    assert game.status == "finished" and game.event is not None
    entry = rules.GameEntry.from_dict(game.event.data)
    assert entry.member(cast["Ann"].pk).fate == "dropped"
    assert entry.acting_captain == cast["Cy"].pk
    expected = rules.settle(entry, profile_of(session))
    lines = dict(ChouetteLine.objects.filter(event=game.event).values_list("player_id", "points"))
    assert lines == expected and sum(lines.values()) == 0
    assert lines[cast["Ann"].pk] == -1
    session.refresh_from_db()
    # R13 rotation: the captain dropped, so lost: the box stays, Cy becomes captain.
    assert session.seating["box"] == cast["Bob"].pk
    assert session.seating["line"][0] == cast["Cy"].pk
    # Undo works on it as on a game typed in.
    game_undo_last(session_id=session.pk, by=cast["Ann"].user)
    session.refresh_from_db()
    assert session.seating["line"][0] == cast["Ann"].pk


def test_refusals_change_nothing():
    cast = players(FOUR)
    session = session_with(cast, rolls=FOUR_ROLLS)
    game = services.online_game_start(
        session_id=session.pk, by=cast["Ann"].user, dice=ScriptedDice([6, 2])
    )
    table = _table(game)
    assert table.board.turn == 0  # box 6, team 2: the box plays 6-2
    before = (snapshot(), list(ChouetteOnlineAction.objects.values()), _table(game))
    outsider = players(("Zoe",))["Zoe"]
    cases = [
        ({"by": cast["Ann"].user, "action": "roll", "expected_version": 1}, "not_your_turn"),
        ({"by": cast["Bob"].user, "action": "roll", "expected_version": 0}, "stale_version"),
        ({"by": cast["Bob"].user, "action": "dance", "expected_version": 1}, "invalid_action"),
        ({"by": outsider.user, "action": "play", "expected_version": 1}, "not_in_game"),
        (
            {
                "by": cast["Bob"].user,
                "action": "play",
                "expected_version": 1,
                "position_id": "x" * 5000,
            },
            "illegal_play",
        ),
        (
            {"by": cast["Cy"].user, "action": "answer", "expected_version": 1, "answer": "take"},
            "no_decision_pending",
        ),
        (
            {"by": cast["Ann"].user, "action": "propose_double", "expected_version": 1},
            "cube_not_available",
        ),
        (
            {"by": cast["Cy"].user, "action": "consent", "expected_version": 1, "answer": "yes"},
            "no_decision_pending",
        ),
        (
            {
                "by": cast["Cy"].user,
                "action": "answer",
                "expected_version": 1,
                "as_player": cast["Dee"].pk,
            },
            "not_a_proxy",
        ),
    ]
    for kwargs, code in cases:
        with pytest.raises(ApplicationError) as exc:
            services.online_game_act(game_id=game.pk, **kwargs)
        assert exc.value.code == code, kwargs
        assert exc.value.status in (400, 403, 409)
    assert (snapshot(), list(ChouetteOnlineAction.objects.values()), _table(game)) == before
    # While it plays, nothing is typed in, nobody changes seats, the session doesn't end.
    for call in (
        lambda: game_record(
            session_id=session.pk, by=cast["Ann"].user, entry=simple_entry(session)
        ),
        lambda: session_sit_out(
            session_id=session.pk, by=cast["Ann"].user, player_id=cast["Dee"].pk
        ),
        lambda: session_end(session_id=session.pk, by=cast["Ann"].user),
        lambda: services.online_game_start(session_id=session.pk, by=cast["Ann"].user),
    ):
        with pytest.raises(ApplicationError) as exc:
            call()
        assert exc.value.code == "online_game_in_progress"
    assert (snapshot()[2:], _table(game)) == (before[0][2:], before[2])


def test_team_double_needs_every_consent_then_the_box_drops():
    cast = players(FOUR)
    session = session_with(cast, rolls=FOUR_ROLLS)
    game = services.online_game_start(
        session_id=session.pk, by=cast["Ann"].user, dice=ScriptedDice([2, 6, 3, 1])
    )
    table = _table(game)
    assert table.board.turn == 1 and table.board.phase == "move"
    online_play_first(game, cast["Ann"].user)
    game.refresh_from_db()
    services.online_game_act(
        game_id=game.pk,
        by=cast["Bob"].user,
        action="roll",
        expected_version=game.version,
        dice=ScriptedDice([3, 1]),
    )
    table = _table(game)
    online_play_first(game, cast["Bob"].user)
    game.refresh_from_db()
    services.online_game_act(
        game_id=game.pk, by=cast["Cy"].user, action="propose_double", expected_version=game.version
    )
    for name in ("Ann", "Dee"):
        game.refresh_from_db()
        assert game.alarm_at is not None  # the decision's window
        services.online_game_act(
            game_id=game.pk,
            by=cast[name].user,
            action="consent",
            answer="yes",
            expected_version=game.version,
        )
    game.refresh_from_db()
    # One decision for the box (one answer turns every cube), said once to everybody,
    # with the default its countdown states.
    from django.test import Client

    from tests.factories import api_client

    box_page = Client()
    box_page.cookies["django_language"] = "en"
    box_page.force_login(cast["Bob"].user)
    html = box_page.get(f"/chouette/{session.pk}/play/").content.decode()
    assert html.count('<form method="post" action="/chouette/play/') >= 1
    assert html.count('class="decision"') == 1, html
    assert "The team (Ann, Cy, Dee) doubles you to 2: take or drop? One answer for all." in html
    assert "then by default Bob (box): take the team&#x27;s double." in html
    assert html.count('class="waiting-for"') == 1
    mine = api_client(cast["Bob"].user).get(f"/api/v1/chouette/online-games/{game.pk}/").json()
    team = [cast[n].pk for n in ("Ann", "Cy", "Dee")]
    assert [d["members"] for d in mine["actions"]["decisions"]] == [team]
    assert [d["members"] for d in mine["decisions"]] == [team]
    services.online_game_act(
        game_id=game.pk,
        by=cast["Bob"].user,
        action="answer",
        member=cast["Ann"].pk,
        answer="drop",
        expected_version=game.version,
    )
    game.refresh_from_db()
    assert game.status == "finished"
    lines = dict(ChouetteLine.objects.filter(event=game.event).values_list("player_id", "points"))
    assert lines == {cast["Bob"].pk: -3, cast["Ann"].pk: 1, cast["Cy"].pk: 1, cast["Dee"].pk: 1}
    session.refresh_from_db()
    assert session.seating["box"] == cast["Ann"].pk  # the captain won: takes the box


def test_a_decision_not_answered_in_time_takes_the_default_and_the_alarm_runs_once():
    cast = players(FOUR)
    session = session_with(cast, rolls=FOUR_ROLLS)
    session.decision_seconds = 30
    session.decision_default = "drop"
    session.save()
    rnd = random.Random(3)
    game = services.online_game_start(session_id=session.pk, by=cast["Ann"].user, dice=rnd)
    _to_box_roll(game, cast, rnd)
    now = wallclock.now()
    game.refresh_from_db()
    services.online_game_act(
        game_id=game.pk,
        by=cast["Bob"].user,
        action="box_double",
        expected_version=game.version,
        at=now,
    )
    game.refresh_from_db()
    services.online_game_act(
        game_id=game.pk,
        by=cast["Cy"].user,
        action="answer",
        answer="take",
        expected_version=game.version,
        at=now + timedelta(seconds=5),
    )
    game.refresh_from_db()
    assert game.alarm_at == now + timedelta(seconds=30)
    version = game.version
    assert alarms.online_game_alarm(game_id=game.pk, version=version, at=now) == "not_due"
    later = now + timedelta(seconds=31)
    assert alarms.online_game_alarm(game_id=game.pk, version=version, at=later) == "defaults"
    assert alarms.online_game_alarm(game_id=game.pk, version=version, at=later) in (
        "stale",
        "not_due",
    )
    table = _table(game)
    assert table.in_members == (cast["Cy"].pk,)
    row = ChouetteOnlineAction.objects.filter(game=game).order_by("-seq").first()
    assert row.kind == "defaults" and row.data["default"] == "drop"


def test_team_chat_is_the_teams_only():
    cast = players(FOUR)
    session = session_with(cast, rolls=FOUR_ROLLS)
    game = services.online_game_start(
        session_id=session.pk, by=cast["Ann"].user, dice=ScriptedDice([2, 6])
    )
    message = services.online_team_message_post(
        game_id=game.pk, by=cast["Cy"].user, text="  run   with the back checker "
    )
    assert message.text == "run with the back checker"
    table = _table(game)
    suggested = services.online_team_message_post(
        game_id=game.pk,
        by=cast["Dee"].user,
        play=position_id(table.board.legal_plays()[0].result),
    )
    assert suggested.play
    for kwargs, code in (
        ({"by": cast["Bob"].user, "text": "I can read you"}, "not_in_team"),
        ({"by": cast["Cy"].user, "text": "x" * 301}, "message_too_long"),
        ({"by": cast["Cy"].user, "text": "   "}, "invalid_message"),
        ({"by": cast["Cy"].user, "play": "nonsense"}, "illegal_play"),
    ):
        with pytest.raises(ApplicationError) as exc:
            services.online_team_message_post(game_id=game.pk, **kwargs)
        assert exc.value.code == code
    assert game.team_messages.count() == 2


def test_abandon_records_nothing():
    cast = players(FOUR)
    session = session_with(cast, rolls=FOUR_ROLLS)
    game = services.online_game_start(session_id=session.pk, by=cast["Ann"].user)
    outsider = players(("Zoe",))["Zoe"]
    with pytest.raises(ApplicationError) as exc:
        services.online_game_abandon(game_id=game.pk, by=outsider.user)
    assert exc.value.code == "not_in_session"
    services.online_game_abandon(game_id=game.pk, by=cast["Dee"].user)
    game.refresh_from_db()
    assert game.status == "abandoned" and game.event is None
    assert not session.events.filter(kind="game").exists()
    # The next game can start.
    services.online_game_start(session_id=session.pk, by=cast["Ann"].user)


def test_a_settlement_and_an_extra_online_go_to_the_ledger(settings):
    from django.test import Client

    settings.LANGUAGE_CODE = "en"
    cast = players(FOUR)
    session = session_with(cast, rolls=FOUR_ROLLS)
    session.online_clock = {"delay_ms": 600_000, "reserve_ms": 60_000}  # R12, 11 min a turn
    session.stake_per_point = Decimal("500")
    session.currency = "HUF"
    session.save()
    game = services.online_game_start(
        session_id=session.pk, by=cast["Ann"].user, dice=ScriptedDice([2, 6])
    )
    online_play_first(game, cast["Ann"].user)
    game.refresh_from_db()
    # Through the page's form: the box offers Dee a settlement; typed wrong first.
    client = Client()
    client.force_login(cast["Bob"].user)
    url = f"/chouette/play/{game.pk}/act/"
    for points, code in (("abc", "invalid_points"), ("9", "settlement_out_of_bounds")):
        before = _table(game)
        page = client.post(
            url,
            {
                "action": "offer_settlement",
                "member": cast["Dee"].pk,
                "points": points,
                "expected_version": game.version,
            },
            follow=True,
        )
        assert page.status_code == 200
        assert _table(game) == before, code
    client.post(
        url,
        {
            "action": "offer_settlement",
            "member": cast["Dee"].pk,
            "points": "\N{MINUS SIGN}1",  # as a phone keyboard types it
            "expected_version": game.version,
        },
    )
    game.refresh_from_db()
    assert _table(game).cube_of(cast["Dee"].pk).pending == "settlement_offered"
    page = Client()
    page.force_login(cast["Dee"].user)
    # Who pays whom, in points and money; the countdown states the default applied.
    html = page.get(f"/chouette/{session.pk}/play/").content.decode()
    assert "Bob (box) offers to let you leave this game: you pay Bob 1 point (HUF\u00a0500)" in html
    assert "then by default Dee: the settlement refused." in html
    services.online_game_act(
        game_id=game.pk,
        by=cast["Dee"].user,
        action="answer",
        answer="accept",
        expected_version=game.version,
    )
    game.refresh_from_db()
    services.online_game_act(
        game_id=game.pk,
        by=cast["Cy"].user,
        action="offer_extra",
        other=cast["Bob"].pk,
        backs="team",
        stake=2,
        price=1,
        expected_version=game.version,
    )
    game.refresh_from_db()
    services.online_game_act(
        game_id=game.pk,
        by=cast["Bob"].user,
        action="answer_extra",
        offer=0,
        answer="accept",
        expected_version=game.version,
    )
    game.refresh_from_db()
    assert len(_table(game).extras) == 1
    # Nobody moves: the box's clock runs out (R12), a gammon for the team.
    later = wallclock.now() + timedelta(hours=1)
    assert alarms.online_game_alarm(game_id=game.pk, at=later) == "flagged"
    game.refresh_from_db()
    lines = dict(ChouetteLine.objects.filter(event=game.event).values_list("player_id", "points"))
    # the team wins a gammon: Ann and Cy +2 each; Dee settled for -1; Cy's extra: +1 price
    # and 2 x 2 for the gammon, paid by the box.
    assert lines == {
        cast["Bob"].pk: -2 - 2 + 1 - 5,
        cast["Ann"].pk: 2,
        cast["Cy"].pk: 2 + 5,
        cast["Dee"].pk: -1,
    }


def test_online_and_typed_games_mix_in_one_ledger(settings):
    from django.test import Client

    settings.LANGUAGE_CODE = "en"
    cast = players(FOUR)
    session = session_with(cast, rolls=FOUR_ROLLS)
    ann = cast["Ann"].user
    game_record(session_id=session.pk, by=ann, entry=simple_entry(session))
    session.refresh_from_db()
    seating = rules.Seating.from_dict(session.seating)
    game = services.online_game_start(session_id=session.pk, by=ann, dice=ScriptedDice([6, 2]))
    table = _table(game)
    assert table.box == seating.box and table.members == seating.line  # the line of now
    # Abandoned: nothing counts, the seating stays.
    services.online_game_abandon(game_id=game.pk, by=ann)
    session.refresh_from_db()
    assert rules.Seating.from_dict(session.seating) == seating
    # The next one has a move clock (R12): nobody moves, the box's time runs out.
    session.online_clock = {"delay_ms": 1000, "reserve_ms": 1000}
    session.save()
    game = services.online_game_start(session_id=session.pk, by=ann, dice=ScriptedDice([6, 2]))
    later = wallclock.now() + timedelta(hours=1)
    assert alarms.online_game_alarm(game_id=game.pk, at=later) == "flagged"
    session.refresh_from_db()
    game_record(session_id=session.pk, by=ann, entry=simple_entry(session))
    totals = session_totals(session)
    assert sum(totals.values()) == 0
    games = session.events.filter(kind="game", undone=False).order_by("seq")
    assert games.count() == 3
    assert ChouetteOnlineGame.objects.get(pk=game.pk).event == games[1]
    # The scoreboard marks the online one and links to it.
    page = Client().get(f"/chouette/{session.pk}/").content.decode()
    assert page.count("online-badge") == 1 and f"play/?game={game.number}" in page
    assert Client().get(f"/chouette/{session.pk}/play/?game={game.number}").status_code == 200
    assert Client().get(f"/chouette/{session.pk}/play/?game=99").status_code == 404
    assert Client().get(f"/chouette/{session.pk}/play/?game=x").status_code == 404
    # Undo the typed game, then the online one: the ledger is back to the first game.
    game_undo_last(session_id=session.pk, by=ann)
    game_undo_last(session_id=session.pk, by=ann)
    session.refresh_from_db()
    assert session.events.filter(kind="game", undone=False).count() == 1


# ====================================================================== absent members (issue 27)
def _api_log(game, user) -> list[dict]:
    from tests.factories import api_client

    response = api_client(user).get(
        f"/api/v1/chouette/online-games/{game.pk}/", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 200, response.content
    return response.json()["log"]


def test_the_captain_drops_the_next_is_away_the_next_present_moves_and_a_timeout_is_named(
    settings,
):
    from django.test import Client

    settings.LANGUAGE_CODE = "en"
    cast = players(("Ann", "Bob", "Cy", "Dee", "Eve"))
    rolls = {"Bob": 6, "Ann": 5, "Cy": 4, "Dee": 3, "Eve": 2}  # Bob box, Ann captain, Cy...
    session = session_with(cast, rolls=rolls)
    session.decision_seconds = 20
    session.decision_default = "take"
    session.save()
    rnd = random.Random(5)
    game = services.online_game_start(session_id=session.pk, by=cast["Ann"].user, dice=rnd)
    _to_box_roll(game, cast, rnd)
    # Cy leaves the table: Dee answers his cube decisions. Only Cy (or the scorekeeper,
    # staff) may name his proxy; the game logs it.
    participant_proxy_set(
        session_id=session.pk, by=cast["Cy"].user, player_id=cast["Cy"].pk, proxy_id=cast["Dee"].pk
    )
    row = ChouetteOnlineAction.objects.filter(game=game).order_by("-seq").first()
    assert row.kind == "away" and row.data["away"] == [[cast["Cy"].pk, cast["Dee"].pk]]
    assert _table(game).away == (cast["Cy"].pk,)
    now = wallclock.now()
    game = online_act(game, cast["Bob"].user, "box_double", at=now)
    # The page shows the countdown with the defaults it will apply.
    page = Client()
    page.force_login(cast["Eve"].user)
    html = page.get(f"/chouette/{session.pk}/play/").content.decode()
    assert "then by default " in html
    game = online_act(game, cast["Ann"].user, "answer", answer="drop", at=now)
    game = online_act(game, cast["Dee"].user, "answer", answer="take", at=now)
    game = online_act(
        game, cast["Dee"].user, "answer", answer="take", as_player=cast["Cy"].pk, at=now
    )
    # Eve does not answer: the window runs out, her default (take) is applied and named.
    due = now + timedelta(seconds=21)
    assert alarms.online_game_alarm(game_id=game.pk, at=due) == "defaults"
    row = ChouetteOnlineAction.objects.filter(game=game).order_by("-seq").first()
    assert row.data["answers"] == [[cast["Eve"].pk, cast["Eve"].pk, "box_doubled", "take"]]
    texts = [r["text"] for r in _api_log(game, cast["Ann"].user)]
    assert "The time to answer ran out (20 s); by default: Eve: take." in texts
    html = page.get(f"/chouette/{session.pk}/play/").content.decode()
    assert "The time to answer ran out (20 s); by default: Eve: take." in html
    # Ann (captain) dropped, Cy is away: Dee, the next at the table, moves for the team.
    table = _table(game)
    assert table.in_members == (cast["Cy"].pk, cast["Dee"].pk, cast["Eve"].pk)
    game.refresh_from_db()
    game = online_act(game, cast["Bob"].user, "roll", dice=rnd)
    for _ in range(10):
        table = _table(game)
        if table.board.turn == 1:
            break
        game = online_play_first(game, cast["Bob"].user)
    assert _table(game).mover == cast["Dee"].pk
    with pytest.raises(ApplicationError) as exc:
        online_act(game, cast["Cy"].user, "roll")
    assert exc.value.code == "not_your_turn"
    # Cy comes back: he is first in the line again and moves.
    participant_proxy_set(
        session_id=session.pk, by=cast["Cy"].user, player_id=cast["Cy"].pk, proxy_id=None
    )
    assert _table(game).mover == cast["Cy"].pk
    assert ChouetteOnlineAction.objects.filter(game=game, kind="away").count() == 2


def test_with_nobody_at_the_table_for_the_team_and_no_clock_the_game_still_ends(settings):
    settings.LANGUAGE_CODE = "en"
    cast = players(("Ann", "Bob", "Cy"))
    session = session_with(cast, rolls={"Bob": 6, "Ann": 5, "Cy": 4})
    session.decision_seconds = 0  # no decision window, no move clock
    session.save()
    keeper = scorekeeper()
    # Both members leave (the scorekeeper names their proxy: Bob, the box, answers for
    # nobody on the team, so nobody at the table acts for the team at all).
    for name in ("Ann", "Cy"):
        participant_proxy_set(
            session_id=session.pk, by=keeper, player_id=cast[name].pk, proxy_id=cast["Bob"].pk
        )
    start = wallclock.now()
    game = services.online_game_start(
        session_id=session.pk, by=cast["Bob"].user, dice=ScriptedDice([2, 6]), at=start
    )
    table = _table(game)
    assert table.unmanned == "team" and table.mover is None
    game.refresh_from_db()
    assert game.alarm_at == start + timedelta(seconds=AWAY_WINDOW_SECONDS)
    view = selectors.online_game_view(game, viewer=cast["Bob"].pk, at=start)
    assert view["window"] == {"kind": "away", "seconds": AWAY_WINDOW_SECONDS, "side": "team"}
    early = start + timedelta(seconds=AWAY_WINDOW_SECONDS - 1)
    assert alarms.online_game_alarm(game_id=game.pk, at=early) == "not_due"
    late = start + timedelta(seconds=AWAY_WINDOW_SECONDS + 1)
    assert alarms.online_game_alarm(game_id=game.pk, at=late) == "forfeit"
    game.refresh_from_db()
    assert game.status == "finished"
    entry = rules.GameEntry.from_dict(game.event.data)
    assert (entry.winner, entry.kind) == ("box", "gammon")
    texts = [r["text"] for r in _api_log(game, cast["Bob"].user)]
    assert (
        f"Nobody at the table moved for the team in {AWAY_WINDOW_SECONDS} s: the team "
        "forfeits, a gammon." in texts
    )


def test_a_decision_nobody_at_the_table_answers_gets_the_away_window():
    cast = players(("Ann", "Bob", "Cy"))
    session = session_with(cast, rolls={"Bob": 6, "Ann": 5, "Cy": 4})
    session.decision_seconds = 0
    session.save()
    rnd = random.Random(11)
    game = services.online_game_start(session_id=session.pk, by=cast["Ann"].user, dice=rnd)
    _to_box_roll(game, cast, rnd)
    # Cy named the box as proxy: nobody answers for him in this game.
    participant_proxy_set(
        session_id=session.pk, by=cast["Cy"].user, player_id=cast["Cy"].pk, proxy_id=cast["Bob"].pk
    )
    now = wallclock.now()
    game = online_act(game, cast["Bob"].user, "box_double", at=now)
    assert game.alarm_at == now + timedelta(seconds=AWAY_WINDOW_SECONDS)
    game = online_act(game, cast["Ann"].user, "answer", answer="take", at=now)
    assert game.alarm_at == now + timedelta(seconds=AWAY_WINDOW_SECONDS)
    later = now + timedelta(seconds=AWAY_WINDOW_SECONDS + 1)
    assert alarms.online_game_alarm(game_id=game.pk, at=later) == "defaults"
    assert not _table(game).waiting


def test_a_flag_is_named_in_the_log(settings):
    settings.LANGUAGE_CODE = "en"
    cast = players(FOUR)
    session = session_with(cast, rolls=FOUR_ROLLS)
    session.online_clock = {"delay_ms": 1000, "reserve_ms": 1000}
    session.save()
    start = wallclock.now()
    game = services.online_game_start(
        session_id=session.pk, by=cast["Ann"].user, dice=ScriptedDice([2, 6]), at=start
    )
    assert alarms.online_game_alarm(game_id=game.pk, at=start + timedelta(seconds=5)) == "flagged"
    log = _api_log(game, cast["Bob"].user)
    assert log[-1]["kind"] == "flag"
    assert log[-1]["text"] == "ran out of time on the move clock (R12): the team loses a gammon."
    assert log[-1]["actor_name"] == "Ann"


@pytest.mark.parametrize("kind", ["consent", "box_doubled", "member_doubled", "settlement_offered"])
def test_the_countdown_states_the_default_the_window_applies(kind, settings):
    """What the countdown under a decision says is what the log says was applied."""
    import re

    from django.test import Client

    settings.LANGUAGE_CODE = "en"
    cast = players(FOUR)
    session = session_with(cast, rolls=FOUR_ROLLS)
    session.decision_seconds = 30
    session.decision_default = "drop"
    session.save()
    game = services.online_game_start(
        session_id=session.pk, by=cast["Ann"].user, dice=ScriptedDice([2, 6, 3, 1])
    )
    now = wallclock.now()
    if kind in ("consent", "member_doubled"):  # the team's turn, before its roll
        game = online_play_first(game, cast["Ann"].user)
        game = online_act(game, cast["Bob"].user, "roll", dice=ScriptedDice([3, 1]))
        game = online_play_first(game, cast["Bob"].user)
        game = online_act(game, cast["Cy"].user, "propose_double", at=now)
        if kind == "member_doubled":
            for name in ("Ann", "Dee"):
                game = online_act(game, cast[name].user, "consent", answer="yes", at=now)
    else:  # the box's turn, before its roll
        game = online_play_first(game, cast["Ann"].user)
        if kind == "box_doubled":
            game = online_act(game, cast["Bob"].user, "box_double", at=now)
            game = online_act(game, cast["Cy"].user, "answer", answer="take", at=now)
        else:
            game = online_act(
                game,
                cast["Bob"].user,
                "offer_settlement",
                member=cast["Dee"].pk,
                points=-1,
                at=now,
            )
    assert kind in {d.kind for d in _table(game).decisions}
    page = Client()
    page.force_login(cast["Ann"].user)
    html = page.get(f"/chouette/{session.pk}/play/").content.decode()
    stated = re.search(r"s to answer; then by default (.*?)\.</p>", html, re.S).group(1)
    assert alarms.online_game_alarm(game_id=game.pk, at=now + timedelta(seconds=31)) == "defaults"
    log = page.get(f"/chouette/{session.pk}/play/").content.decode()
    assert f"The time to answer ran out (30 s); by default: {stated}." in log
    expected = {
        "consent": "Ann: no to the team double",
        "box_doubled": "Ann: drop; Dee: drop",
        "member_doubled": "Bob (box): drop the team&#x27;s double",
        "settlement_offered": "Dee: the settlement refused",
    }[kind]
    assert stated == expected

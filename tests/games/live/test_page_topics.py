"""The unversioned topics of the pages that follow changes live, against the real Redis
channel layer: who may follow each (the same rule as the page), and that the services
touch them after commit, never before (tournaments.live, chouette.live,
games.clocks.live, games.notifications.live)."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth.models import AnonymousUser
from django.db import transaction

from chouette.services.games import game_record
from games.clocks import services as tableclocks
from games.errors import PermissionDenied
from games.notifications.services import notification_mark_all_read, notify
from games.play import services as play_services
from games.play.dice import ScriptedDice
from games.play.invitations import invitation_decline, invitation_send
from tests.chouette.factories import players as chouette_players
from tests.chouette.factories import session_with, simple_entry
from tests.factories import PlayerFactory, UserFactory, UserPlayerFactory
from tests.games.live.conftest import run
from tests.tournaments.factories import EventFactory, flight_with, rated_players
from tournaments.models import TournamentMatch
from tournaments.services.draw import flight_draw
from tournaments.services.results import result_enter

pytestmark = pytest.mark.django_db(transaction=True)


def _drawn_flight():
    event = EventFactory()
    director = event.directors.first()
    flight = flight_with(event, rated_players(4))
    flight_draw(flight_id=flight.pk, by=director)
    ready = TournamentMatch.objects.filter(flight=flight, status="ready").order_by("pk").first()
    return event, flight, director, ready


async def _watch(ws, topic: str) -> dict:
    await ws.send(op="watch", topic=topic)
    return await ws.receive()


# ====================================================================== who may follow
def test_the_directors_desk_is_refused_to_others_and_to_anonymous(socket) -> None:
    event = EventFactory()
    director = event.directors.first()
    stranger = UserFactory()

    async def scenario():
        ws = await socket(AnonymousUser()).open()
        refused = await _watch(ws, f"desk:{event.pk}")
        assert refused["t"] == "refused" and refused["code"] == "forbidden"
        await ws.close()

        ws = await socket(stranger).open()
        refused = await _watch(ws, f"desk:{event.pk}")
        assert refused["t"] == "refused" and refused["code"] == "forbidden"
        # The public pages' topics are open to anyone.
        assert (await _watch(ws, f"event:{event.pk}"))["t"] == "watching"
        await ws.close()

        ws = await socket(director).open()
        assert await _watch(ws, f"desk:{event.pk}") == {
            "t": "watching",
            "topic": f"desk:{event.pk}",
        }
        await ws.close()

    run(scenario)


def test_a_draft_events_topics_are_refused_as_its_pages_are(socket) -> None:
    """Issue 30's probe: a draft event is 404 over HTTP to all but its directors, so its
    ``event`` and its flights' ``flight`` topics are refused to the others exactly as
    topics that do not exist (``*_not_found``); its directors and a superuser follow."""
    event = EventFactory(status="draft")
    director = event.directors.first()
    flight = flight_with(event, [])
    stranger = UserFactory()
    root = UserFactory(is_superuser=True)
    topics = (f"event:{event.pk}", f"flight:{flight.pk}")

    async def scenario():
        for who in (AnonymousUser(), stranger):
            ws = await socket(who).open()
            for topic in topics:
                refused = await _watch(ws, topic)
                assert refused["t"] == "refused", (who, topic)
                assert refused["code"] == topic.split(":")[0] + "_not_found", refused
            await ws.close()
        for who in (director, root):
            ws = await socket(who).open()
            for topic in topics:
                assert await _watch(ws, topic) == {"t": "watching", "topic": topic}
            await ws.close()

    run(scenario)
    # Published, the same topics are anyone's (as the pages are).
    event.status = "running"
    event.save(update_fields=["status"])

    async def published():
        ws = await socket(AnonymousUser()).open()
        for topic in topics:
            assert (await _watch(ws, topic))["t"] == "watching", topic
        await ws.close()

    run(published)


def test_a_users_topic_is_theirs_alone(socket) -> None:
    anna, bence = UserFactory(), UserFactory()

    async def scenario():
        ws = await socket(bence).open()
        refused = await _watch(ws, f"user:{anna.pk}")
        assert refused["t"] == "refused" and refused["code"] == "forbidden"
        assert (await _watch(ws, f"user:{bence.pk}"))["t"] == "watching"
        await ws.close()

        ws = await socket(AnonymousUser()).open()
        assert (await _watch(ws, f"user:{anna.pk}"))["code"] == "forbidden"
        await ws.close()

    run(scenario)


def test_what_does_not_exist_is_refused(socket) -> None:
    async def scenario():
        ws = await socket(AnonymousUser()).open()
        for topic in ("flight:999999", "event:999999", "chouette:999999", "tableclock:999999"):
            refused = await _watch(ws, topic)
            assert refused["t"] == "refused", topic
            assert refused["code"].endswith("not_found"), refused
        assert (await _watch(ws, "clocks:some"))["code"] == "unknown_topic"
        assert (await _watch(ws, "clocks:all"))["t"] == "watching"
        await ws.close()

    run(scenario)


# ====================================================================== touched after commit
def test_a_result_entered_by_the_director_reaches_the_flights_followers_after_commit(
    socket,
) -> None:
    event, flight, director, ready = _drawn_flight()
    atomic = transaction.atomic()

    def enter_in_an_open_transaction():
        atomic.__enter__()
        result_enter(match_id=ready.pk, by=director, score_a=ready.match_length, score_b=0)

    def commit():
        atomic.__exit__(None, None, None)

    async def scenario():
        wall = await socket(AnonymousUser()).open()
        assert (await _watch(wall, f"flight:{flight.pk}"))["t"] == "watching"
        desk = await socket(director).open()
        assert (await _watch(desk, f"desk:{event.pk}"))["t"] == "watching"
        page = await socket(AnonymousUser()).open()
        assert (await _watch(page, f"event:{event.pk}"))["t"] == "watching"

        await sync_to_async(enter_in_an_open_transaction)()
        assert await wall.nothing(0.5)  # not before the commit
        await sync_to_async(commit)()
        assert await wall.receive() == {"t": "changed", "topic": f"flight:{flight.pk}"}
        assert await desk.receive() == {"t": "changed", "topic": f"desk:{event.pk}"}
        assert await page.receive() == {"t": "changed", "topic": f"event:{event.pk}"}
        assert await wall.nothing()  # one change, one message
        for ws in (wall, desk, page):
            await ws.close()

    run(scenario)


def test_a_refused_result_sends_nothing(socket) -> None:
    _event, flight, _director, ready = _drawn_flight()

    def refused_entry():
        with pytest.raises(PermissionDenied):
            result_enter(match_id=ready.pk, by=UserFactory(), score_a=1, score_b=0)

    async def scenario():
        wall = await socket(AnonymousUser()).open()
        assert (await _watch(wall, f"flight:{flight.pk}"))["t"] == "watching"
        await sync_to_async(refused_entry)()
        assert await wall.nothing(0.5)
        await wall.close()

    run(scenario)


def test_a_chouette_game_reaches_the_scoreboards(socket) -> None:
    session = session_with(chouette_players())

    def record():
        game_record(session_id=session.pk, by=session.created_by, entry=simple_entry(session))

    async def scenario():
        ws = await socket(AnonymousUser()).open()
        assert (await _watch(ws, f"chouette:{session.pk}"))["t"] == "watching"
        await sync_to_async(record)()
        assert await ws.receive() == {"t": "changed", "topic": f"chouette:{session.pk}"}
        await ws.close()

    run(scenario)


def test_a_table_clock_tap_reaches_its_tablets_and_the_list(socket) -> None:
    owner = UserFactory()
    clock = tableclocks.table_clock_create(
        label="Table 7",
        player1_name="Anna",
        player2_name="Bence",
        clock="seed002",
        match_length=5,
        created_by=owner,
    )

    def start():
        tableclocks.table_clock_start(clock_id=clock.pk, player=0, by=owner)

    async def scenario():
        ws = await socket(AnonymousUser()).open()
        assert (await _watch(ws, f"tableclock:{clock.pk}"))["t"] == "watching"
        assert (await _watch(ws, "clocks:all"))["t"] == "watching"
        await sync_to_async(start)()
        got = {(await ws.receive())["topic"], (await ws.receive())["topic"]}
        assert got == {f"tableclock:{clock.pk}", "clocks:all"}
        await ws.close()

    run(scenario)


def test_a_clocked_online_game_touches_the_list_of_clocks(socket) -> None:
    p1, p2 = PlayerFactory(), PlayerFactory()
    match = play_services.match_create(player1=p1, player2=p2, length=3, clock="seed002")

    def start():
        play_services.match_start(match_id=match.pk, dice=ScriptedDice((3, 1)))

    async def scenario():
        ws = await socket(AnonymousUser()).open()
        assert (await _watch(ws, "clocks:all"))["t"] == "watching"
        await sync_to_async(start)()  # the opening roll starts the clock
        assert await ws.receive() == {"t": "changed", "topic": "clocks:all"}
        await ws.close()

    run(scenario)


def test_a_notification_and_reading_it_reach_the_users_pages(socket) -> None:
    anna = UserPlayerFactory()

    def tell():
        notify(
            recipient=anna,
            kind="lost_on_time",
            subject="game:1",
            context={"match_id": 1, "opponent": "Bence"},
        )

    def read_all():
        notification_mark_all_read(player=anna)

    async def scenario():
        ws = await socket(anna.user).open()
        assert (await _watch(ws, f"user:{anna.user_id}"))["t"] == "watching"
        await sync_to_async(tell)()
        assert await ws.receive() == {"t": "changed", "topic": f"user:{anna.user_id}"}
        await sync_to_async(read_all)()
        assert await ws.receive() == {"t": "changed", "topic": f"user:{anna.user_id}"}
        await ws.close()

    run(scenario)


def test_an_invitation_and_its_answer_reach_both_players_pages(socket) -> None:
    """Issue 18: the lobby's invitations follow the user topic of each player, told by
    the invitation services even when a player turned the notification off."""
    anna, bence = UserPlayerFactory(), UserPlayerFactory()
    bence.notification_channels = {"match_invitation": []}  # not told, still shown live
    bence.save(update_fields=["notification_channels"])
    sent = []

    def invite():
        sent.append(invitation_send(inviter=anna, invitee=bence, length=3))

    def decline():
        invitation_decline(invitation_id=sent[0].pk, by=bence)

    async def scenario():
        ws_anna = await socket(anna.user).open()
        ws_bence = await socket(bence.user).open()
        assert (await _watch(ws_anna, f"user:{anna.user_id}"))["t"] == "watching"
        assert (await _watch(ws_bence, f"user:{bence.user_id}"))["t"] == "watching"
        await sync_to_async(invite)()
        assert await ws_bence.receive() == {"t": "changed", "topic": f"user:{bence.user_id}"}
        assert await ws_anna.receive() == {"t": "changed", "topic": f"user:{anna.user_id}"}
        await sync_to_async(decline)()
        assert await ws_anna.receive() == {"t": "changed", "topic": f"user:{anna.user_id}"}
        assert await ws_bence.receive() == {"t": "changed", "topic": f"user:{bence.user_id}"}
        await ws_anna.close()
        await ws_bence.close()

    run(scenario)

"""Issue 17, the director's night: an event ends only when its director ends it (defect
2), drafts and unpublished rounds are the directors' only and take no result (defect 3)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.errors import Conflict
from tests.factories import UserFactory, api_client
from tests.tournaments.factories import EventFactory, flight_with, rated_players
from tournaments import selectors
from tournaments.models import Event, Flight, TournamentMatch
from tournaments.services.draw import flight_draw, round_publish
from tournaments.services.events import event_finish, event_publish, event_reopen
from tournaments.services.flights import flight_create
from tournaments.services.results import result_enter, result_report

pytestmark = pytest.mark.django_db


def _play_all(flight, director) -> None:
    """Enter 3-0 for side a in every ready match until none is left (rounds publish
    themselves as the round before completes)."""
    while True:
        ready = TournamentMatch.objects.filter(flight=flight, status="ready").order_by("pk")
        if not ready:
            return
        for m in ready:
            result_enter(match_id=m.pk, by=director, score_a=m.match_length, score_b=0)


# ---------------------------------------------------------------------- defect 2
def test_a_finished_flight_does_not_end_the_event_the_director_does(event, director):
    flight = flight_with(event, rated_players(4), match_length=1)
    flight_draw(flight_id=flight.pk, by=director)
    _play_all(flight, director)
    flight.refresh_from_db()
    event.refresh_from_db()
    assert flight.status == Flight.Status.FINISHED
    assert event.status == Event.Status.RUNNING
    # The Swiss of the same night: a second flight of the same event.
    swiss = flight_create(
        event_id=event.pk, by=director, name="Swiss", format="swiss", options={"rounds": 3}
    )
    assert swiss.event_id == event.pk
    # A drawn flight still being played stops the end; one never drawn does not.
    flight_draw(flight_id=flight_with(event, rated_players(4), name="Late").pk, by=director)
    with pytest.raises(Conflict) as refused:
        event_finish(event_id=event.pk, by=director)
    assert refused.value.code == "flights_unfinished"
    assert [f["name"] for f in refused.value.extra["flights"]] == ["Late"]
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING
    _play_all(Flight.objects.get(event=event, name="Late"), director)
    assert event_finish(event_id=event.pk, by=director).status == Event.Status.FINISHED
    with pytest.raises(Conflict) as over:
        flight_create(event_id=event.pk, by=director, name="More", format="single_elimination")
    assert over.value.code == "event_finished"
    assert event_reopen(event_id=event.pk, by=director).status == Event.Status.RUNNING
    flight_create(event_id=event.pk, by=director, name="More", format="single_elimination")


def test_the_manage_page_ends_and_reopens_the_event_with_a_confirmation(client, event, director):
    client.force_login(director)
    client.cookies["django_language"] = "en"
    manage = reverse("tournaments:event-manage", kwargs={"slug": event.slug})
    page = client.get(manage).content.decode()
    assert "End the event" in page and 'name="confirm" required' in page
    finish = reverse("tournaments:event-finish", kwargs={"slug": event.slug})
    unconfirmed = client.post(finish, follow=True)
    assert "Tick the box to confirm" in unconfirmed.content.decode()
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING
    done = client.post(finish, {"confirm": "on"}, follow=True).content.decode()
    assert "The event is over." in done and "New flight" not in done
    assert "Reopen the event" in done
    client.post(reverse("tournaments:event-reopen", kwargs={"slug": event.slug}))
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING
    assert "New flight" in client.get(manage).content.decode()


def test_the_api_ends_an_event_and_names_the_flights_in_play(event, director):
    flight = flight_with(event, rated_players(4))
    flight_draw(flight_id=flight.pk, by=director)
    api = api_client(director)
    refused = api.post(f"/api/v1/events/{event.pk}/finish/")
    assert refused.status_code == 409
    assert refused.json()["code"] == "flights_unfinished"
    assert api_client(UserFactory()).post(f"/api/v1/events/{event.pk}/finish/").status_code == 403
    assert api.post(f"/api/v1/events/{event.pk}/reopen/").json()["status"] == "running"


# ---------------------------------------------------------------------- defect 3
def test_a_draft_event_is_its_directors_only_until_published(client, director):
    event = EventFactory(director=director, name="Titkos", slug="titkos", status="draft")
    flight = flight_with(event, rated_players(4))
    assert event.status == Event.Status.DRAFT
    urls = [
        reverse("tournaments:event", kwargs={"slug": event.slug}),
        reverse("tournaments:flight", kwargs={"slug": event.slug, "flight_id": flight.pk}),
        reverse("tournaments:flight", kwargs={"slug": event.slug, "flight_id": flight.pk})
        + "?wall=1",
        reverse(
            "tournaments:flight-finishing-order-csv",
            kwargs={"slug": event.slug, "flight_id": flight.pk},
        ),
    ]
    api = [
        f"/api/v1/events/{event.pk}/",
        f"/api/v1/flights/{flight.pk}/",
        f"/api/v1/flights/{flight.pk}/standings/",
        f"/api/v1/flights/{flight.pk}/finishing-order/",
    ]
    for viewer in (None, UserFactory()):
        if viewer is not None:
            client.force_login(viewer)
        assert "Titkos" not in client.get(reverse("tournaments:event-list")).content.decode()
        assert [client.get(u).status_code for u in urls] == [404] * 4
        assert [api_client(viewer).get(u).status_code for u in api] == [404] * 4
        assert api_client(viewer).get("/api/v1/events/").json()["count"] == 0
    client.force_login(director)
    assert "Titkos" in client.get(reverse("tournaments:event-list")).content.decode()
    assert [client.get(u).status_code for u in urls] == [200] * 4
    assert [api_client(director).get(u).status_code for u in api] == [200] * 4
    event_publish(event_id=event.pk, by=director)
    client.logout()
    assert "Titkos" in client.get(reverse("tournaments:event-list")).content.decode()
    assert [client.get(u).status_code for u in urls] == [200] * 4
    assert [api_client().get(u).status_code for u in api] == [200] * 4


def test_a_draft_event_is_not_on_the_player_page(client, director):
    player = rated_players(1)[0]
    event = EventFactory(director=director, name="Titkos", slug="titkos", status="draft")
    flight_with(event, [player, *rated_players(1)])
    assert selectors.player_placings(player_id=player.pk) == []
    event_publish(event_id=event.pk, by=director)
    assert [p.event.pk for p in selectors.player_placings(player_id=player.pk)] == [event.pk]


def test_an_unpublished_knockout_round_is_hidden_and_takes_no_result(client, event, director):
    players = rated_players(4, with_login=True)
    flight = flight_with(event, players, match_length=1)
    flight_draw(flight_id=flight.pk, by=director, publish="none")
    m11 = TournamentMatch.objects.get(flight=flight, slot_key="M1-1")
    with pytest.raises(Conflict) as refused:
        result_enter(match_id=m11.pk, by=director, score_a=1, score_b=0)
    assert refused.value.code == "round_not_published"
    with pytest.raises(Conflict):
        result_report(match_id=m11.pk, by=players[0].user, score_a=1, score_b=0)
    assert api_client().get(f"/api/v1/flights/{flight.pk}/").json()["matches"] == []
    assert api_client().get(f"/api/v1/tournament-matches/{m11.pk}/").status_code == 404
    assert len(api_client(director).get(f"/api/v1/flights/{flight.pk}/").json()["matches"]) == 3
    url = reverse("tournaments:flight", kwargs={"slug": event.slug, "flight_id": flight.pk})
    public = client.get(url).content.decode()
    svg = public[public.index("<svg") : public.rindex("</svg>")]
    assert players[0].name not in svg  # the bracket drawn without its players
    assert f"match-{m11.pk}" not in public  # no pairings table row
    # Round 1 published: playable and public; the final follows when round 1 is complete.
    round_publish(flight_id=flight.pk, by=director, part="main", number=1)
    assert players[0].name in client.get(url).content.decode()
    result_enter(match_id=m11.pk, by=director, score_a=1, score_b=0)
    final = TournamentMatch.objects.get(flight=flight, slot_key="M2-1")
    assert (final.part, final.round) not in selectors.published_rounds(flight)
    m12 = TournamentMatch.objects.get(flight=flight, slot_key="M1-2")
    result_enter(match_id=m12.pk, by=director, score_a=1, score_b=0)
    assert ("main", 2) in selectors.published_rounds(flight)
    result_enter(match_id=final.pk, by=director, score_a=1, score_b=0)


def test_a_round_two_shown_by_a_bye_stays_hidden_until_published(client, event, director):
    players = rated_players(6)  # an 8-slot bracket: seeds 1 and 2 have byes
    flight = flight_with(event, players, match_length=1)
    flight_draw(flight_id=flight.pk, by=director)  # round 1 published
    url = reverse("tournaments:flight", kwargs={"slug": event.slug, "flight_id": flight.pk})
    top = players[0].name

    def shown(c) -> int:
        page = c.get(url).content.decode()
        return page[page.index("<svg") : page.rindex("</svg>")].count(top)

    assert shown(client) == 1  # the bye in round 1 only
    client.force_login(director)
    assert shown(client) == 2  # the director also sees round 2


def test_an_unpublished_swiss_round_one_is_hidden_until_the_director_publishes_it(event, director):
    players = rated_players(4, with_login=True)
    flight = flight_with(event, players, format="swiss", options={"rounds": 2})
    flight_draw(flight_id=flight.pk, by=director, publish="none")
    assert api_client().get(f"/api/v1/flights/{flight.pk}/").json()["matches"] == []
    row = TournamentMatch.objects.filter(flight=flight, round=1).first()
    with pytest.raises(Conflict):
        result_enter(match_id=row.pk, by=director, score_a=5, score_b=0)
    round_publish(flight_id=flight.pk, by=director, number=1)
    assert len(api_client().get(f"/api/v1/flights/{flight.pk}/").json()["matches"]) == 2
    result_enter(match_id=row.pk, by=director, score_a=5, score_b=0)


# ---------------------------------------------------------------------- defect 9
def test_walk_ins_seed_after_the_rated_players(event, director):
    from decimal import Decimal

    from tests.factories import PlayerFactory
    from tournaments.services.entries import entry_register

    rated = [PlayerFactory(rating=Decimal(r), experience=40) for r in (1600, 1450, 1400)]
    flight = flight_with(event, rated)
    walk_in = entry_register(flight_id=flight.pk, by=director, name="Új Játékos")
    assert walk_in.rating == Decimal(1500)  # the rating list's starting point
    flight_draw(flight_id=flight.pk, by=director)
    seeds = dict(flight.entries.values_list("player__name", "seed"))
    assert [seeds[p.name] for p in rated] == [1, 2, 3]
    assert seeds["Új Játékos"] == 4


def test_the_correction_log_is_written_in_words(client, event, director):
    from tournaments.services.results import result_correct

    players = rated_players(2)
    flight = flight_with(event, players)
    flight_draw(flight_id=flight.pk, by=director)
    final = TournamentMatch.objects.get(flight=flight, slot_key="M1-1")
    result_enter(match_id=final.pk, by=director, score_a=5, score_b=1)
    result_correct(
        match_id=final.pk, by=director, reason="swapped", score_a=2, score_b=5, reset_later=False
    )
    result_correct(
        match_id=final.pk, by=director, reason="no-show", walkover_winner="a", reset_later=False
    )
    client.force_login(director)
    client.cookies["django_language"] = "en"
    page = client.get(
        reverse("tournaments:match-manage", kwargs={"slug": event.slug, "match_id": final.pk})
    ).content.decode()
    a, b = players[0].name, players[1].name
    assert f"{a} won 5\u20131" in page and f"{b} won 5\u20132" in page
    assert f"{a} won by walkover" in page
    assert "(confirmed, a)" not in page and "confirmed" not in page.split("Corrections")[1]


# ---------------------------------------------------------------------- defect 4
def _games_post(lines) -> dict[str, str]:
    post = {}
    for n, g in enumerate(lines, start=1):
        post[f"game-{n}-winner"] = str(g["winner"])
        post[f"game-{n}-points"] = str(g["points"])
        post[f"game-{n}-cube"] = str(g["cube"])
    return post


def test_a_refused_game_sheet_keeps_the_lines_and_marks_the_crawford_game(client, event, director):
    from tests.tournaments.factories import crawford_cube_sheet

    flight = flight_with(event, rated_players(2), match_length=3)
    flight_draw(flight_id=flight.pk, by=director)
    final = TournamentMatch.objects.get(flight=flight, slot_key="M1-1")
    client.force_login(director)
    client.cookies["django_language"] = "en"
    url = reverse("tournaments:match-enter", kwargs={"slug": event.slug, "match_id": final.pk})
    refused = client.post(url, {"version": final.version, **_games_post(crawford_cube_sheet(1, 3))})
    assert refused.status_code == 400
    page = refused.content.decode()
    # Every line as typed: game 1 and 2 won by side 1 for 1, game 3 with the cube on 2.
    for n in (1, 2, 3):
        assert f'name="game-{n}-winner"' in page
        winner = page.split(f'name="game-{n}-winner"')[1].split("</select>")[0]
        assert '<option value="1" selected>' in winner
    points = page.split('name="game-3-points"')[1].split(">")[0]
    assert 'value="2"' in points
    cube = page.split('name="game-3-cube"')[1].split("</select>")[0]
    assert '<option value="2" selected>' in cube
    # The refusal sits on game 3's line, not at the top of the page.
    line = page.split('id="game-3-error"')[1].split("</tbody>")[0]
    assert "Game 3 is the Crawford game: no doubling in it." in line
    assert '<details class="result-games" open>' in page
    final.refresh_from_db()
    assert final.decided_at is None


def test_a_refused_swiss_flight_keeps_its_name_and_format(client, event, director):
    client.force_login(director)
    client.cookies["django_language"] = "en"
    url = reverse("tournaments:flight-create", kwargs={"slug": event.slug})
    refused = client.post(
        url,
        {
            "name": "Esti svájci",
            "format": "swiss",
            "seeding": "rating",
            "match_length": "7",
            "clock_policy": "off",
            "entry_rounds": "1",
        },
    )
    assert refused.status_code == 400
    page = refused.content.decode()
    assert 'value="Esti svájci"' in page
    assert '<option value="swiss" selected>' in page
    assert 'name="match_length" value="7"' in page
    rounds = page.split('id="id_rounds"')[0].rsplit("<div", 1)[1]
    assert "A Swiss flight needs its number of rounds (1 to 30)." in rounds
    assert not Flight.objects.filter(event=event).exists()


def test_a_refused_quick_score_is_shown_on_its_match_with_the_scores_typed(client, event, director):
    flight = flight_with(event, rated_players(4), match_length=3)
    flight_draw(flight_id=flight.pk, by=director)
    first, second = TournamentMatch.objects.filter(flight=flight, status="ready").order_by("pk")
    client.force_login(director)
    client.cookies["django_language"] = "en"
    manage = reverse(
        "tournaments:flight-manage", kwargs={"slug": event.slug, "flight_id": flight.pk}
    )
    refused = client.post(
        reverse("tournaments:match-enter", kwargs={"slug": event.slug, "match_id": second.pk}),
        {"score_a": "2", "score_b": "1", "version": second.version, "next": manage, "quick": "1"},
    )
    assert refused.status_code == 400
    page = refused.content.decode()
    row = page.split(f'<tr data-match="{second.pk}">')[1].split("</tr>")[0]
    assert 'value="2"' in row and 'value="1"' in row  # nobody reached 3: refused
    assert f'id="quick-error-{second.pk}"' in row and second.slot_key in row
    other = page.split(f'<tr data-match="{first.pk}">')[1].split("</tr>")[0]
    assert "quick-error" not in other
    # Where the form goes back to is the flight's page, not the refused post's address.
    assert f'name="next" value="{manage}"' in row


@pytest.mark.parametrize(
    ("format", "options", "n"),
    [
        ("single_elimination", {}, 11),
        ("consolation", {"entry_rounds": 2}, 11),
        ("progressive_consolation", {}, 11),
        ("last_chance", {"entry_rounds": 2}, 11),
        ("double_elimination", {"bracket_reset": False}, 5),
        ("double_elimination", {"bracket_reset": True}, 8),
        ("round_robin", {}, 5),
    ],
)
def test_with_round_1_published_the_rounds_follow_to_a_champion(format, options, n):
    """The draw's default publishes round 1 only; every later round (a side part's first,
    a double elimination's grand final and its reset, numbered after the losers' bracket,
    included) is published as it becomes due, so the director never meets
    ``round_not_published`` on a match whose players are known."""
    event = EventFactory()
    director = event.directors.first()
    flight = flight_with(event, rated_players(n), format=format, options=options)
    flight_draw(flight_id=flight.pk, by=director)
    for _ in range(100):
        ready = list(
            TournamentMatch.objects.filter(flight=flight, status__in=("ready",)).order_by("pk")
        )
        if not ready:
            break
        m = ready[0]
        # Side B wins the grand final, so that a bracket reset is played too.
        a_wins = m.part != "final"
        result_enter(
            match_id=m.pk,
            by=director,
            score_a=m.match_length if a_wins else 0,
            score_b=0 if a_wins else m.match_length,
        )
    assert Flight.objects.get(pk=flight.pk).status == Flight.Status.FINISHED

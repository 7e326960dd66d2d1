"""Player pages, head-to-head, the leaderboard and the match page's rating box (issue 8):
the numbers shown are the ledger's and the formula's, each change shows its calculation,
and a player with 2,000 matches costs the same number of queries as one with two."""

from __future__ import annotations

import datetime
import random
import re
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.models import Match, Player, RatedResult
from games.play import services as game_services
from games.ratings import services as ratings
from tests.factories import PlayerFactory, UserPlayerFactory, finish_by_resignation

pytestmark = pytest.mark.django_db

T0 = datetime.datetime(2025, 1, 1, 12, tzinfo=datetime.UTC)


@pytest.fixture
def en(client):
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


def _record(key, p1, p2, *, length, winner, at, source=RatedResult.Source.CLUB, **kw):
    return ratings.rating_record(
        source=source,
        source_key=key,
        player1=p1,
        player2=p2,
        length=length,
        winner=p1 if winner == 1 else p2,
        at=at,
        **kw,
    )


#: A leaderboard row's place and name.
RANK_NAME = (
    r'<tr data-player="\d+"[^>]*><td class="num rank">(\d+)</td>'
    r'<td class="name"><a [^>]*>([^<]+)</a>'
)


def _text(html: str) -> str:
    """The page's text, tags out, spaces collapsed (what a reader sees)."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def _history(player: Player, opponents: list[Player], n: int, *, seed: int) -> None:
    """``n`` rated results of ``player`` against ``opponents`` in one go: rows written
    without numbers (as an import would), then one full replay computes them."""
    rng = random.Random(seed)
    rows = []
    for i in range(n):
        other = opponents[i % len(opponents)]
        first = rng.random() < 0.5
        p1, p2 = (player, other) if first else (other, player)
        rows.append(
            RatedResult(
                source=RatedResult.Source.CLUB,
                source_key=f"club:{player.pk}-{i}",
                player1=p1,
                player2=p2,
                length=rng.choice((1, 3, 5, 7, 9, 11)),
                winner=p1 if rng.random() < 0.5 else p2,
                at=T0 + datetime.timedelta(hours=i),
                rated=True,
            )
        )
    RatedResult.objects.bulk_create(rows, batch_size=1_000)
    ratings.ratings_replay()


def _queries(client, url: str) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200
    return len(ctx.captured_queries), response.content.decode()


# ====================================================================== the player page
def test_player_page_queries_do_not_grow_with_2000_matches(en, settings):
    settings.RATING_LEADERBOARD_MIN_EXPERIENCE = 0  # both listed: the same queries
    small, big = PlayerFactory(name="Kis Ádám"), PlayerFactory(name="Nagy Béla")
    opponents = PlayerFactory.create_batch(40)
    _history(small, opponents[:2], 2, seed=1)
    _history(big, opponents, 2_000, seed=2)
    assert RatedResult.objects.filter(rated=True).count() == 2_002

    few, _ = _queries(en, reverse("games:player", args=[small.pk]))
    many, html = _queries(en, reverse("games:player", args=[big.pk]))
    assert many == few, (few, many)
    assert many <= 14
    # And the page did show the big history: the chart has every rated result.
    big.refresh_from_db()
    assert "2000 rated matches" in _text(html)
    assert f"{big.rating:.2f}" in html
    # The second page of results costs the same.
    page2, html2 = _queries(en, reverse("games:player", args=[big.pk]) + "?page=2")
    assert page2 == many and "Page 2 of 80" in _text(html2)


def test_player_page_shows_rating_record_and_each_calculation(en):
    anna, bela, cili = (PlayerFactory(name=n) for n in ("Anna", "Béla", "Cili"))
    # Two newcomers, 1 point: P_upset 0.5, K 5: 4*5*1*0.5 = 10.00 each way.
    _record("club:1", anna, bela, length=1, winner=1, at=T0)
    # Anna (1510, exp 1) beats Cili (1500, exp 0) at 3: the favourite won.
    _record("club:2", cili, anna, length=3, winner=2, at=T0 + datetime.timedelta(days=1))
    # Béla (1490) beats Anna at 5: an upset.
    _record("club:3", anna, bela, length=5, winner=2, at=T0 + datetime.timedelta(days=2))
    # An unrated result (an event that is not rated) counts in the record, not the rating.
    _record(
        "club:4", anna, cili, length=7, winner=1, at=T0 + datetime.timedelta(days=3), rated=False
    )
    anna.refresh_from_db()
    html = en.get(reverse("games:player", args=[anna.pk])).content.decode()
    text = _text(html)
    assert f"Rating {anna.rating:.2f}" in text and f"Experience {anna.experience}" in text
    assert anna.experience == 9  # 1 + 3 + 5: the unrated 7 does not count
    assert "3 won, 1 lost" in text
    # Record by length, from the table's rows.
    record = dict(
        re.findall(r'data-length="(\w+)"><t[dh][^>]*>[^<]*</t[dh]>((?:<td[^>]*>[^<]*</td>)+)', html)
    )
    cells = {k: re.findall(r">([^<]*)<", v)[::2] for k, v in record.items()}
    assert cells["1"][:3] == ["1", "1", "0"] and cells["5"][:3] == ["1", "0", "1"]
    assert cells["all"][:3] == ["4", "3", "1"]
    # The first result's calculation, as FIBS shows it.
    row1 = RatedResult.objects.get(source_key="club:1")
    assert row1.change1 == Decimal("10.00")
    assert "P upset = 1/(10 D·√1/2000 +1) = 0.5000" in text
    assert "K = 5.00; 4·K·√1·P = +10.00" in text
    # The upset: P = 1 - P_upset for Béla, and Anna's loss shown with her own K.
    row3 = RatedResult.objects.get(source_key="club:3")
    assert "the underdog won: P = 1 \u2212 P upset" in text
    assert f"K = {row3.k1:.2f}; 4·K·√5·P = {row3.change1:.2f}" in text
    assert "not rated" in text
    # The chart is an SVG image with a title naming the player.
    assert 'role="img"' in html and "Rating history of Anna" in html
    # Opponents link to their pages; head-to-head is offered against them.
    assert reverse("games:player", args=[bela.pk]) in html
    assert f'<option value="{bela.pk}">Béla</option>' in html


def test_player_page_unknown_player_is_404_and_vs_redirects(en):
    a, b = PlayerFactory(), PlayerFactory()
    assert en.get(reverse("games:player", args=[999_999])).status_code == 404
    response = en.get(reverse("games:player", args=[a.pk]) + f"?vs={b.pk}")
    assert response.status_code == 302
    assert response.url == reverse("games:head-to-head", args=[a.pk, b.pk])
    assert en.get(reverse("games:head-to-head", args=[a.pk, 999_999])).status_code == 404
    same = en.get(reverse("games:head-to-head", args=[a.pk, a.pk]))
    assert same.status_code == 302 and same.url == reverse("games:player", args=[a.pk])


def test_head_to_head_record_results_and_stakes(en):
    anna, bela, cili = (PlayerFactory(name=n) for n in ("Anna", "Béla", "Cili"))
    for i, (length, winner) in enumerate([(1, 1), (3, 1), (5, 2), (7, 1)]):
        _record(
            f"club:ab{i}",
            anna,
            bela,
            length=length,
            winner=winner,
            at=T0 + datetime.timedelta(hours=i),
        )
    _record("club:ac", anna, cili, length=9, winner=2, at=T0 + datetime.timedelta(hours=9))
    anna.refresh_from_db()
    bela.refresh_from_db()
    html = en.get(reverse("games:head-to-head", args=[anna.pk, bela.pk])).content.decode()
    text = _text(html)
    assert "3 \u2013 1 4 matches between them" in text
    assert html.count("data-result=") == 4  # not the match against Cili
    # What each would gain or lose at 7 points now, computed by the formula.
    from games.engine.rating import preview

    p = preview(anna.rating, anna.experience, bela.rating, bela.experience, 7)
    assert re.search(
        rf'<tr><td class="line">7 points</td><td class="num" data-label="Anna wins">'
        rf"\+{p.player1_gain:.2f} / {p.if_player1_wins.player2.change:.2f}</td>",
        html,
    )
    # The other side's view swaps the score.
    other = _text(en.get(reverse("games:head-to-head", args=[bela.pk, anna.pk])).content.decode())
    assert "1 \u2013 3 4 matches between them" in other


def test_player_page_shows_other_apps_sections(en):
    anna = PlayerFactory(name="Anna")
    html = en.get(reverse("games:player", args=[anna.pk])).content.decode()
    assert 'class="chouette-player"' in html  # chouette registers its section


# ====================================================================== the leaderboard
def test_leaderboard_filters_by_club_period_and_experience(en, settings):
    settings.RATING_LEADERBOARD_MIN_EXPERIENCE = 5
    now = timezone.now()
    anna = PlayerFactory(name="Anna", club="Pest")
    bela = PlayerFactory(name="Béla", club="Pest")
    cili = PlayerFactory(name="Cili", club="Szeged")
    dani = PlayerFactory(name="Dani", club="Szeged")
    PlayerFactory(
        name="Emil", club="Szeged", is_active=False, rating=Decimal("1900"), experience=500
    )
    old = now - datetime.timedelta(days=200)
    _record("club:1", anna, bela, length=7, winner=1, at=old)
    _record("club:2", cili, anna, length=5, winner=1, at=old + datetime.timedelta(hours=1))
    _record("club:3", cili, bela, length=3, winner=2, at=now - datetime.timedelta(days=10))
    _record("club:4", dani, anna, length=1, winner=1, at=now - datetime.timedelta(days=5))

    def listed(query: str = "") -> list[tuple[str, str]]:
        response = en.get(reverse("games:leaderboard") + query)
        assert response.status_code == 200
        html = response.content.decode()
        return re.findall(RANK_NAME, html)

    players = {p.name: p for p in Player.objects.all()}
    by_rating = sorted(
        (p for p in players.values() if p.is_active and p.experience >= 5), key=lambda p: -p.rating
    )
    # Default: minimum experience 5 (Dani has 1), inactive Emil never listed.
    assert [name for _rank, name in listed()] == [p.name for p in by_rating]
    assert "Dani" not in dict(map(reversed, listed()))
    assert "Dani" in [n for _r, n in listed("?min_experience=0")]
    assert {n for _r, n in listed("?club=Szeged&min_experience=0")} == {"Cili", "Dani"}
    # Last 30 days: only those with a rated match in it, their matches and change then.
    recent = en.get(reverse("games:leaderboard") + "?period=30d&min_experience=0").content.decode()
    assert {n for _r, n in listed("?period=30d&min_experience=0")} == {
        "Anna",
        "Béla",
        "Cili",
        "Dani",
    }
    row4 = RatedResult.objects.get(source_key="club:4")
    assert f">{row4.change1:+.2f}<" in recent.replace("+", "+")  # Dani's change in the period
    only_old = {n for _r, n in listed("?period=30d&club=Pest&min_experience=0")}
    assert only_old == {"Anna", "Béla"}


def test_leaderboard_bad_filter_is_a_400_with_the_reason(en):
    PlayerFactory(experience=100)
    response = en.get(reverse("games:leaderboard") + "?min_experience=-3&period=forever")
    assert response.status_code == 400
    text = _text(response.content.decode())
    assert "Ensure this value is greater than or equal to 0" in text
    assert "Select a valid choice" in text


def test_leaderboard_shares_places_and_costs_two_queries(en, django_assert_num_queries):
    for name in ("A", "B", "C"):
        PlayerFactory(name=name, rating=Decimal("1600"), experience=100)
    PlayerFactory(name="D", rating=Decimal("1700"), experience=100)
    with django_assert_num_queries(3):  # the list, the period sums, the clubs
        html = en.get(reverse("games:leaderboard")).content.decode()
    ranks = re.findall(r'<tr data-player="\d+"[^>]*><td class="num rank">(\d+)</td>', html)
    assert ranks == ["1", "2", "2", "2"]


# ====================================================================== the match page
def _finish_one_point(match: Match, a: Player, b: Player) -> Player:
    return finish_by_resignation(match)[0]


def test_match_page_shows_the_stakes_before_and_the_change_after(en):
    a = UserPlayerFactory(name="Anna", rating=Decimal("1600.00"), experience=500)
    b = UserPlayerFactory(name="Béla")
    match = game_services.match_create(player1=a, player2=b, length=1)
    text = _text(en.get(reverse("games:match", args=[match.pk])).content.decode())
    # 1600 v 1500 at 1 point: P_upset = 1/(10^(100/2000)+1) = 1/2.12202 = 0.471249.
    assert "At stake" in text and "= 0.4712;" in text
    # Anna (K 1) wins 4*1*1*0.471249 = 1.885 -> 1.88; loses 4*0.528751 = 2.115 -> 2.12.
    # Béla (K 5) wins 20*0.528751 = 10.575 -> 10.58; loses 20*0.471249 = 9.425 -> 9.42.
    assert "Anna 1600.00 1.00 +1.88 -2.12" in text
    assert "Béla 1500.00 5.00 +10.58 -9.42" in text
    winner = _finish_one_point(match, a, b)
    html = en.get(reverse("games:match", args=[match.pk])).content.decode()
    text = _text(html)
    assert "Rating change" in text and "At stake" not in text
    row = RatedResult.objects.get(source_key=f"match:{match.pk}")
    change = row.change1 if winner.pk == a.pk else row.change2
    assert f"{winner.name} : {change:+.2f}" in text


def test_match_page_of_a_money_session_shows_no_rating(en):
    a, b = UserPlayerFactory(), UserPlayerFactory()
    match = game_services.match_create(player1=a, player2=b, length=0)
    html = en.get(reverse("games:match", args=[match.pk])).content.decode()
    assert 'data-testid="match-rating"' not in html


def test_match_page_says_when_casual_play_is_not_rated(en, settings):
    settings.RATING_SOURCES = {"online": False, "tournament": True, "club": True}
    a, b = UserPlayerFactory(), UserPlayerFactory()
    match = game_services.match_create(player1=a, player2=b, length=3)
    assert "This match is not rated." in _text(
        en.get(reverse("games:match", args=[match.pk])).content.decode()
    )


# ====================================================================== the demo club
def test_demo_club_ratings_come_from_its_ledger():
    call_command("load_demo_club", verbosity=0)
    assert RatedResult.objects.filter(source=RatedResult.Source.CLUB, rated=True).count() == 240
    before = list(Player.objects.order_by("pk").values_list("rating", "experience"))
    members = Player.objects.filter(bot="").values_list("rating", flat=True)
    assert len(set(members)) == 8  # the ratings moved apart (the practice opponent: unrated)
    report = ratings.ratings_replay()
    assert (report.rows_written, report.players_written) == (0, 0)
    call_command("load_demo_club", verbosity=0)  # again: nothing new
    assert RatedResult.objects.count() == 240
    assert list(Player.objects.order_by("pk").values_list("rating", "experience")) == before


def test_leaderboard_finds_a_player_by_name_at_their_place(en):
    PlayerFactory(name="Első Ede", rating=Decimal("1700"), experience=300)
    PlayerFactory(name="Kovács Anna", rating=Decimal("1600"), experience=300)
    PlayerFactory(name="Új Anikó", rating=Decimal("1510"), experience=3)  # a newcomer
    html = en.get(reverse("games:leaderboard") + "?name=an").content.decode()
    found = re.findall(RANK_NAME, html)
    # Anna is second on the list; the newcomer is found though below the minimum, ranked
    # on the list of all experiences.
    assert found == [("2", "Kovács Anna"), ("3", "Új Anikó")]


def test_head_to_head_against_anyone_by_name(en):
    anna = PlayerFactory(name="Anna")
    PlayerFactory(name="Kiss Béla")
    PlayerFactory(name="Kiss Cecília")
    dora = PlayerFactory(name="Nagy Dóra")
    url = reverse("games:player", args=[anna.pk])
    one = en.get(url + "?vs_name=dóra")
    assert one.status_code == 302
    assert one.url == reverse("games:head-to-head", args=[anna.pk, dora.pk])
    two = _text(en.get(url + "?vs_name=kiss").content.decode())
    assert "Kiss Béla" in two and "Kiss Cecília" in two
    assert "Nobody's name contains “zz”." in _text(en.get(url + "?vs_name=zz").content.decode())
    # Her own name finds nobody else.
    assert "Nobody's name contains “Anna”." in _text(en.get(url + "?vs_name=Anna").content.decode())


def test_leaderboard_pages_keep_the_filters(en):
    for i in range(105):
        PlayerFactory(name=f"P{i:03d}", club="Pest", rating=Decimal(1500 + i), experience=50)
    html = en.get(reverse("games:leaderboard") + "?club=Pest").content.decode()
    assert html.count('<tr data-player="') == 100
    assert "?club=Pest&amp;page=2" in html
    second = en.get(reverse("games:leaderboard") + "?club=Pest&page=2").content.decode()
    ranks = re.findall(r'<tr data-player="\d+"[^>]*><td class="num rank">(\d+)</td>', second)
    assert ranks == [str(n) for n in range(101, 106)]


def test_frequent_opponents_are_offered_for_head_to_head():
    from games.ratings import selectors

    anna = PlayerFactory(name="Anna")
    once, twice = PlayerFactory.create_batch(5), PlayerFactory.create_batch(40)
    for other in once:
        _record(f"club:once-{other.pk}", anna, other, length=1, winner=1, at=T0)
    for other in twice:  # on either side of the result
        _record(f"club:a-{other.pk}", anna, other, length=1, winner=1, at=T0)
        _record(f"club:b-{other.pk}", other, anna, length=1, winner=1, at=T0)
    offered = selectors.player_opponents(player_id=anna.pk)
    # The 40 she met most, by name.
    assert {p.pk for p in offered} == {p.pk for p in twice}
    assert [p.name for p in offered] == sorted(p.name for p in offered)

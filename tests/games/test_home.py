"""The landing page and the language switch (Hungarian default, English on request)."""

import pytest
from django.core.management import call_command
from django.urls import reverse

from games.models import Player


@pytest.fixture
def demo_club(db):
    call_command("load_demo_club", verbosity=0)


@pytest.mark.django_db
def test_home_in_hungarian_by_default(client, demo_club):
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert '<html lang="hu">' in html
    assert "Legjobb játékosok" in html
    assert "Kovács Anna" in html
    assert "Top rated players" not in html


@pytest.mark.django_db
def test_home_in_english_when_asked(client, demo_club):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="en")
    html = response.content.decode()
    assert '<html lang="en">' in html
    assert "Top rated players" in html
    assert "Legjobb játékosok" not in html


@pytest.mark.django_db
def test_language_switch_sets_the_language_for_the_next_pages(client, demo_club):
    response = client.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert response.status_code == 302
    assert "Top rated players" in client.get("/").content.decode()
    client.post(reverse("set_language"), {"language": "hu", "next": "/"})
    assert "Legjobb játékosok" in client.get("/").content.decode()


@pytest.mark.django_db
def test_home_lists_players_by_rating_with_one_query(client, demo_club, django_assert_num_queries):
    with django_assert_num_queries(1):
        html = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    positions = [html.index(p.name) for p in Player.objects.order_by("-rating")]
    assert positions == sorted(positions)


@pytest.mark.django_db
def test_home_without_players_says_so(client):
    html = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "No players yet" in html


@pytest.mark.django_db
def test_demo_club_loads_twice_without_duplicates():
    call_command("load_demo_club", verbosity=0)
    call_command("load_demo_club", verbosity=0)
    # Eight club members and the practice opponent (games.practice), each once.
    assert Player.objects.filter(bot="").count() == 8
    assert list(Player.objects.exclude(bot="").values_list("name", "bot")) == [
        ("GNU Backgammon", "gnubg")
    ]


@pytest.mark.django_db
def test_admin_is_enabled(client):
    response = client.get("/admin/")
    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]

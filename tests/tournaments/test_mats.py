"""Issue 28: the .mat file of a tournament match played at the board, uploaded by a
director or one of its players (tournaments.services.mats, its API), and a flight's PR
table (tournaments.analysis, its API)."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from games.errors import Conflict, NotFound, PermissionDenied, ValidationFailed
from games.models import Match, MatchAnalysis, Player, PlayerAnalysis, RatedResult
from tests.factories import UserPlayerFactory, api_client
from tests.tournaments.factories import EventFactory, flight_with
from tournaments.models import TournamentMatch
from tournaments.services.draw import flight_draw
from tournaments.services.mats import match_mat_upload
from tournaments.services.results import result_enter

pytestmark = pytest.mark.django_db

DATA = Path(__file__).resolve().parent.parent / "games" / "engine" / "data"
#: GNU Backgammon's own 3-point match: "gnubg" (player 1) against "root" (player 2).
MAT3 = (DATA / "gnubg_3pt.mat").read_text(encoding="utf-8")


def _final(event, director, *, length=3):
    """A two-player flight drawn: its one match (ready), side A Anna, side B Bea."""
    anna = UserPlayerFactory(name="Anna", rating=Decimal(2000))
    bea = UserPlayerFactory(name="Bea", rating=Decimal(1990))
    flight = flight_with(event, [anna, bea], match_length=length)
    flight_draw(flight_id=flight.pk, by=director)
    row = TournamentMatch.objects.get(flight=flight, slot_key="M1-1")
    assert (row.entry_a.player, row.entry_b.player) == (anna, bea)
    return row, anna, bea


def _file_winner() -> tuple[str, tuple[int, int]]:
    """The file's winner ("1": its player 1, gnubg) and final score (player 1, player 2):
    gnubg wins game 1 for a point and game 2 for four (a gammon at cube 2)."""
    return "1", (5, 0)


def test_a_directors_upload_enters_the_result_links_the_match_and_queues_its_analysis(
    event, director
):
    row, anna, bea = _final(event, director)
    winner, (s1, s2) = _file_winner()
    out = match_mat_upload(match_id=row.pk, by=director, text=MAT3)
    # The file's player 1 ("gnubg") is side A (no name matches: the file's order).
    assert out.status == TournamentMatch.Status.CONFIRMED and out.decided_at is not None
    assert (out.winner, out.score_a, out.score_b) == ("a" if winner == "1" else "b", s1, s2)
    assert [g["points"] for g in out.games] and sum(
        g["points"] for g in out.games if g["winner"] == 1
    ) == s1
    recorded = out.mat_match
    assert (recorded.player1, recorded.player2) == (anna, bea)
    assert recorded.is_imported and recorded.played_for == f"tmatch:{row.pk}"
    assert recorded.status == Match.Status.FINISHED
    analysis = MatchAnalysis.objects.get(match=recorded)
    assert analysis.status == MatchAnalysis.Status.QUEUED and analysis.requested_by == director
    # Rated once, as the tournament's result; the recorded match itself is never rated.
    assert RatedResult.objects.filter(source_key=f"tmatch:{row.pk}").count() == 1
    assert not RatedResult.objects.filter(source_key=f"match:{recorded.pk}").exists()
    assert RatedResult.objects.get(source_key=f"tmatch:{row.pk}").match_id is None
    row.flight.refresh_from_db()
    assert row.flight.status == "finished"


def test_the_uploader_says_which_side_the_files_first_player_is(event, director):
    row, anna, bea = _final(event, director)
    winner, (s1, s2) = _file_winner()
    out = match_mat_upload(match_id=row.pk, by=director, text=MAT3, first_side="b")
    assert (out.mat_match.player1, out.mat_match.player2) == (bea, anna)
    assert (out.score_a, out.score_b) == (s2, s1)
    assert out.winner == ("b" if winner == "1" else "a")


def test_the_names_in_the_file_decide_the_sides(event, director):
    row, anna, bea = _final(event, director)
    text = MAT3.replace(" gnubg :", " BEA :").replace(" root :", " Anna :")
    out = match_mat_upload(match_id=row.pk, by=director, text=text)
    assert (out.mat_match.player1, out.mat_match.player2) == (bea, anna)


def test_a_players_upload_is_their_report(event, director):
    row, anna, _ = _final(event, director)
    out = match_mat_upload(match_id=row.pk, by=anna.user, text=MAT3)
    assert out.status == TournamentMatch.Status.REPORTED and out.decided_at is None
    assert out.report_a is not None and out.report_a["games"]
    assert out.mat_match_id is not None
    assert MatchAnalysis.objects.filter(match_id=out.mat_match_id).exists()


def test_only_the_directors_and_the_two_players_may_upload(event, director):
    row, *_ = _final(event, director)
    others = (UserPlayerFactory(name="Cecil").user, EventFactory().directors.get())
    for outsider in others:
        with pytest.raises(PermissionDenied) as refused:
            match_mat_upload(match_id=row.pk, by=outsider, text=MAT3)
        assert refused.value.code == "not_your_match"
    with pytest.raises(NotFound):
        match_mat_upload(match_id=row.pk + 999, by=director, text=MAT3)
    assert not Match.objects.exists() and not MatchAnalysis.objects.exists()


def test_a_file_that_disagrees_with_the_result_is_refused_and_nothing_stored(event, director):
    row, _, bea = _final(event, director)
    _, (s1, s2) = _file_winner()
    # The other side won, as entered by the director.
    result_enter(match_id=row.pk, by=director, score_a=s2, score_b=s1)
    with pytest.raises(Conflict) as refused:
        match_mat_upload(match_id=row.pk, by=director, text=MAT3)
    assert refused.value.code == "mat_result_mismatch"
    assert refused.value.extra["file"]["score_a"] == s1
    assert not Match.objects.exists() and not MatchAnalysis.objects.exists()
    row.refresh_from_db()
    assert row.mat_match_id is None and (row.score_a, row.score_b) == (s2, s1)
    # With the sides said the other way round it is the same match: recorded.
    out = match_mat_upload(match_id=row.pk, by=bea.user, text=MAT3, first_side="b")
    assert out.mat_match_id is not None and (out.score_a, out.score_b) == (s2, s1)


def test_the_length_must_be_the_matchs(event, director):
    row, *_ = _final(event, director, length=5)
    with pytest.raises(Conflict) as refused:
        match_mat_upload(match_id=row.pk, by=director, text=MAT3)
    assert refused.value.code == "mat_length_mismatch"
    assert not Match.objects.exists()


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("this is not a match file", "mat_invalid"),
        (MAT3.replace("13/11 24/23", "13/11 24/20"), "mat_illegal_action"),
    ],
)
def test_a_broken_file_is_refused_with_its_reason(event, director, text, code):
    row, *_ = _final(event, director)
    with pytest.raises(ValidationFailed) as refused:
        match_mat_upload(match_id=row.pk, by=director, text=text)
    assert refused.value.code.startswith("mat_")
    assert not Match.objects.exists() and not MatchAnalysis.objects.exists()
    row.refresh_from_db()
    assert row.decided_at is None


def test_an_unfinished_file_is_refused(event, director):
    row, *_ = _final(event, director)
    cut = MAT3[: MAT3.index(" Game 2")]
    with pytest.raises(ValidationFailed) as refused:
        match_mat_upload(match_id=row.pk, by=director, text=cut)
    assert refused.value.code == "mat_unfinished"
    assert not Match.objects.exists()


def test_one_file_per_match(event, director):
    row, anna, _ = _final(event, director)
    first = match_mat_upload(match_id=row.pk, by=director, text=MAT3).mat_match_id
    for who in (anna.user, director):
        with pytest.raises(Conflict) as refused:
            match_mat_upload(match_id=row.pk, by=who, text=MAT3)
        assert refused.value.code == "mat_exists"
    assert list(Match.objects.values_list("pk", flat=True)) == [first]
    assert MatchAnalysis.objects.get().match_id == first


def test_an_online_match_or_a_walkover_takes_no_file(event, director):
    from tournaments.services.online import match_start_online

    row, anna, _ = _final(event, director)
    match_start_online(match_id=row.pk, by=anna.user)
    with pytest.raises(Conflict) as refused:
        match_mat_upload(match_id=row.pk, by=director, text=MAT3)
    assert refused.value.code == "played_online"


# ------------------------------------------------------------------------------ API
def test_the_api_takes_a_file_and_answers_with_the_queued_analysis(event, director):
    row, *_ = _final(event, director)
    url = reverse("tournaments-api:match-mat", args=[row.pk])
    upload = SimpleUploadedFile("m.mat", MAT3.encode(), content_type="text/plain")
    response = api_client(director).post(url, {"file": upload}, format="multipart")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["analysis"]["status"] == "queued"
    assert body["tournament_match"]["mat_match"] == body["match"]
    assert body["tournament_match"]["status"] == "confirmed"


def test_the_api_refusals(event, director):
    row, anna, _ = _final(event, director)
    url = reverse("tournaments-api:match-mat", args=[row.pk])
    other = api_client(UserPlayerFactory(name="Cecil").user)
    assert other.post(url, {"text": MAT3}, format="json").json()["code"] == "not_your_match"
    assert other.post(url, {"text": MAT3}, format="json").status_code == 403
    missing = reverse("tournaments-api:match-mat", args=[row.pk + 999])
    assert api_client(director).post(missing, {"text": MAT3}, format="json").status_code == 404
    broken = api_client(director).post(url, {"text": "nothing"}, format="json")
    assert broken.status_code == 400 and broken.json()["code"].startswith("mat_")
    binary = SimpleUploadedFile("m.mat", b"\xff\xfe\x00bad", content_type="text/plain")
    answer = api_client(director).post(url, {"file": binary}, format="multipart")
    assert answer.status_code == 400 and answer.json()["code"] == "mat_not_text"
    assert api_client(director).post(url, {"text": MAT3}, format="json").status_code == 201
    again = api_client(anna.user).post(url, {"text": MAT3}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "mat_exists"
    assert api_client().post(url, {"text": MAT3}, format="json").status_code in (401, 403)


# ------------------------------------------------------------------- the PR table
def _analysed(row: TournamentMatch, figures: dict[Player, float], *, counts=True) -> Match:
    """A finished analysis of ``row``'s recorded match with each player's PR."""
    match = row.mat_match or row.online_match
    analysis = MatchAnalysis.objects.create(match=match, status=MatchAnalysis.Status.DONE)
    for player, pr in figures.items():
        PlayerAnalysis.objects.create(
            analysis=analysis,
            match=match,
            player=player,
            index=match.player_index(player.pk),
            unforced_moves=40,
            close_cube_decisions=3,
            chequer_error_emg=0.1,
            cube_error_emg=0.0,
            error_total_emg=0.1,
            error_rate_memg=2 * pr,
            pr=pr,
            snowie_error_rate=pr,
            luck_total_emg=0.05,
            luck_rate_memg=1.5,
            luck_adjusted_result=0.2,
            rating_words="Expert",
            counts=counts,
            played_at=timezone.now(),
        )
    return match


def test_the_flights_pr_table_follows_the_pr_setting(event, director, settings, client):
    row, anna, bea = _final(event, director)
    match_mat_upload(match_id=row.pk, by=director, text=MAT3)
    row.refresh_from_db()
    MatchAnalysis.objects.filter(match_id=row.mat_match_id).delete()
    _analysed(row, {anna: 4.25, bea: 7.5})
    url = reverse("tournaments-api:flight-analysis", args=[row.flight_id])
    settings.ANALYSIS_PR_PUBLIC = True
    body = api_client().get(url).json()
    assert body["everything"] is True
    [line] = body["matches"]
    assert (line["side_a"]["pr"], line["side_b"]["pr"], line["source"]) == (4.25, 7.5, "file")
    assert [(p["name"], p["average_pr"]) for p in body["players"]] == [
        ("Anna", 4.25),
        ("Bea", 7.5),
    ]
    settings.ANALYSIS_PR_PUBLIC = False
    mine = api_client(bea.user).get(url).json()
    assert mine["everything"] is False
    assert mine["matches"][0]["side_a"] is None and mine["matches"][0]["side_b"]["pr"] == 7.5
    assert [p["name"] for p in mine["players"]] == ["Bea"]
    assert api_client().get(url).json()["matches"] == []
    assert api_client(director).get(url).json()["everything"] is True
    # The page: the table with the figures and the link to the match.
    client.force_login(bea.user)
    client.cookies["django_language"] = "en"
    page = client.get(reverse("tournaments:flight", args=[event.slug, row.flight_id]))
    text = page.content.decode()
    assert 'id="pr-matches"' in text and "7.50" in text and "4.25" not in text
    assert reverse("games:match", args=[row.mat_match_id]) in text
    client.logout()
    anonymous = client.get(reverse("tournaments:flight", args=[event.slug, row.flight_id]))
    assert 'id="pr-matches"' not in anonymous.content.decode()


# ------------------------------------------------------------------------------ page
def test_the_upload_page_keeps_what_was_typed_and_records_the_file(event, director, client):
    row, anna, _ = _final(event, director)
    url = reverse("tournaments:match-mat", args=[event.slug, row.pk])
    client.force_login(UserPlayerFactory(name="Cecil").user)
    assert client.get(url).status_code == 403
    client.force_login(anna.user)
    client.cookies["django_language"] = "en"
    flight_page = client.get(reverse("tournaments:flight", args=[event.slug, row.flight_id]))
    assert url in flight_page.content.decode()
    refused = client.post(url, {"text": "broken", "first_side": "b"})
    assert refused.status_code == 400
    text = refused.content.decode()
    assert 'id="mat-error"' in text and ">broken</textarea>" in text
    assert '<option value="b" selected>' in text
    wrong = client.post(url, {"text": MAT3[: MAT3.index(" Game 2")]})
    assert wrong.status_code == 400 and 'data-code="mat_unfinished"' in wrong.content.decode()
    upload = SimpleUploadedFile("m.mat", MAT3.encode(), content_type="text/plain")
    done = client.post(url, {"file": upload, "first_side": ""}, follow=True)
    assert done.status_code == 200
    row.refresh_from_db()
    assert row.mat_match_id is not None and row.status == TournamentMatch.Status.REPORTED
    page = done.content.decode()
    assert 'id="mat-done"' in page and 'data-status="queued"' in page


def test_the_pr_table_has_online_matches_too_and_averages_only_what_counts(event, director):
    from tests.factories import finish_by_resignation
    from tournaments.services.online import match_start_online

    anna = UserPlayerFactory(name="Anna", rating=Decimal(2000))
    bea = UserPlayerFactory(name="Bea", rating=Decimal(1990))
    cili = UserPlayerFactory(name="Cili", rating=Decimal(1980))
    dora = UserPlayerFactory(name="Dóra", rating=Decimal(1970))
    flight = flight_with(event, [anna, bea, cili, dora], match_length=3)
    flight_draw(flight_id=flight.pk, by=director)
    first, second = TournamentMatch.objects.filter(flight=flight, round=1).order_by("index")
    online = match_start_online(match_id=first.pk, by=director)
    finish_by_resignation(online)
    first.refresh_from_db()
    players = (first.entry_a.player, first.entry_b.player)
    _analysed(first, {players[0]: 5.0, players[1]: 6.0}, counts=False)
    match_mat_upload(match_id=second.pk, by=director, text=MAT3)
    second.refresh_from_db()
    MatchAnalysis.objects.filter(match_id=second.mat_match_id).delete()
    others = (second.entry_a.player, second.entry_b.player)
    _analysed(second, {others[0]: 2.0, others[1]: 12.0})
    url = reverse("tournaments-api:flight-analysis", args=[flight.pk])
    body = api_client().get(url).json()
    assert [m["source"] for m in body["matches"]] == ["online", "file"]
    averages = {p["name"]: (p["average_pr"], p["counted"]) for p in body["players"]}
    assert averages[players[0].name] == (None, 0)  # too short: not in the average
    assert averages[others[0].name] == (2.0, 1)
    assert body["players"][0]["name"] == others[0].name  # best average first

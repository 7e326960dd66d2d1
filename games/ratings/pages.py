"""Ratings pages (issue 8): the leaderboard, and the club results page.

The leaderboard is public reading: active players by rating, filtered by club, period,
minimum experience and name. On the club results page the club's directors type in the
result of a match played over the board outside a tournament, see what each player stands
to gain or lose before saving it, and void a result typed in by mistake.

Plain forms, no JavaScript. The form's Preview computes both outcomes from the players'
ratings at the date played and writes nothing; Save records the result. Voiding asks
for a confirmation first (a second POST). Every write goes through
:mod:`games.ratings.club_results`, as the API's do; its refusals are shown with the form.
Login required; users who are neither staff nor hold ``games.add_ratedresult`` get 403.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from games import wallclock
from games.errors import ApplicationError
from games.models import ClubResult, Player, RatedResult
from games.ratings import club_results
from games.ratings import selectors as ratings_selectors
from games.ratings.forms import LeaderboardFilter
from games.web import act_and_redirect, show_refusal

PAGE_SIZE = 50
TEMPLATE = "games/club_results.html"
#: The form's first guess at a club night's match length.
DEFAULT_LENGTH = 7

View = Callable[..., HttpResponse]

WINNER_CHOICES = [("1", gettext_lazy("player 1")), ("2", gettext_lazy("player 2"))]


def director_required(view: View) -> View:
    """Logged-in club directors only (:func:`games.ratings.club_results.club_result_can_enter`):
    other users get 403, anonymous visitors the login page."""

    @login_required
    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not club_results.club_result_can_enter(user=request.user):
            raise PermissionDenied
        return view(request, *args, **kwargs)

    return wrapped


class ClubResultForm(forms.Form):
    """The shape of a result only: the rules (length, date, players, winner) are the
    service's, which refuses with a sentence shown above the form."""

    player1 = forms.ModelChoiceField(
        label=gettext_lazy("Player 1"),
        queryset=Player.objects.filter(is_active=True).only("pk", "name"),
    )
    player2 = forms.ModelChoiceField(
        label=gettext_lazy("Player 2"),
        queryset=Player.objects.filter(is_active=True).only("pk", "name"),
    )
    length = forms.IntegerField(
        label=gettext_lazy("Match length (points)"),
        widget=forms.NumberInput(attrs={"min": 1, "max": club_results.MAX_LENGTH}),
    )
    winner = forms.ChoiceField(
        label=gettext_lazy("Winner"),
        choices=WINNER_CHOICES,
        widget=forms.RadioSelect,
        required=False,  # a preview shows both outcomes; saving needs it
    )
    played_at = forms.DateTimeField(
        label=gettext_lazy("Date played"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )


def _initial() -> dict[str, Any]:
    at = timezone.localtime(wallclock.now()).replace(second=0, microsecond=0)
    return {"length": DEFAULT_LENGTH, "played_at": at}


def _preview(found: club_results.ClubPreview) -> dict[str, Any]:
    """Each player's side for the template: rating at the date, gain if they win, loss
    if they lose, and the ratings those would leave."""
    outcomes = found.outcomes
    return {
        "rated": found.rated,
        "players": [
            {
                "role": WINNER_CHOICES[0][1],
                "name": found.player1.name,
                "rating": found.rating1,
                "experience": found.experience1,
                "gain": outcomes.player1_gain,
                "loss": outcomes.player1_loss,
                "after_win": outcomes.if_player1_wins.player1.rating_after,
                "after_loss": outcomes.if_player2_wins.player1.rating_after,
            },
            {
                "role": WINNER_CHOICES[1][1],
                "name": found.player2.name,
                "rating": found.rating2,
                "experience": found.experience2,
                "gain": outcomes.player2_gain,
                "loss": outcomes.player2_loss,
                "after_win": outcomes.if_player2_wins.player2.rating_after,
                "after_loss": outcomes.if_player1_wins.player2.rating_after,
            },
        ],
    }


def _row(row: RatedResult, audit: ClubResult | None) -> dict[str, Any]:
    return {
        "result": row,
        "winner": row.player1 if row.winner_id == row.player1_id else row.player2,
        "entered_by": audit.entered_by if audit else None,
        "entered_at": audit.entered_at if audit else None,
        "corrected_by": audit.corrected_by if audit else None,
        "corrected_at": audit.corrected_at if audit else None,
    }


@director_required
def club_results_page(request: HttpRequest) -> HttpResponse:
    """The club results that stand (newest played first) and the form: Preview shows
    what each player stands to gain or lose, Save records the result."""
    form = ClubResultForm(request.POST or None, initial=_initial())
    preview = None
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            values = form.cleaned_data
            pair = (values["player1"], values["player2"])
            try:
                if request.POST.get("action") == "save":
                    if values["winner"] not in ("1", "2"):
                        form.add_error("winner", _("Choose who won the match."))
                    else:
                        club_results.club_result_record(
                            by=request.user,
                            player1=pair[0],
                            player2=pair[1],
                            length=values["length"],
                            winner=pair[int(values["winner"]) - 1],
                            played_at=values["played_at"],
                        )
                        messages.success(
                            request,
                            _("The result of %(player1)s against %(player2)s was saved.")
                            % {"player1": pair[0].name, "player2": pair[1].name},
                        )
                        return redirect("club-results:list")
                else:
                    preview = _preview(
                        club_results.club_result_preview(
                            player1=pair[0],
                            player2=pair[1],
                            length=values["length"],
                            played_at=values["played_at"],
                        )
                    )
                    status = 200
            except ApplicationError as exc:
                form.add_error(None, str(exc.detail))
    page = Paginator(club_results.club_result_list(), PAGE_SIZE).get_page(request.GET.get("page"))
    results = list(page)
    audits = club_results.club_result_audits(results)
    rows = [_row(row, audits.get(row.source_key)) for row in results]
    context = {"form": form, "preview": preview, "page": page, "rows": rows}
    return render(request, TEMPLATE, context, status=status)


@director_required
@require_POST
def club_result_void_page(request: HttpRequest, result_id: int) -> HttpResponse:
    """Void a result: the first POST shows what would be voided and asks again; the
    second (``confirm=yes``) voids it."""
    if request.POST.get("confirm") != "yes":
        try:
            row = club_results.club_result_get(result_id=result_id)
        except ApplicationError as exc:
            show_refusal(request, exc)
            return redirect("club-results:list")
        audit = club_results.club_result_audits([row]).get(row.source_key)
        return render(request, TEMPLATE, {"confirm": _row(row, audit)})
    return act_and_redirect(
        request,
        lambda: club_results.club_result_void(by=request.user, result_id=result_id),
        to=reverse("club-results:list"),
        success=_("The result was voided and the ratings were recomputed without it."),
    )


# ====================================================================== the leaderboard
#: Players per page of the leaderboard.
LEADERBOARD_PER_PAGE = 100


@require_GET
def leaderboard_page(request: HttpRequest) -> HttpResponse:
    """Active players by rating; filter by club, by period (only those who played a rated
    match in it, with their matches and rating change in it), minimum experience and name
    (a name search lists newcomers too, unless a minimum is given, and shows each found
    player's place on the list without the name)."""
    form = LeaderboardFilter(request.GET or None)
    # An invalid filter is a 400 with the reasons above the unfiltered list.
    status = 400 if form.is_bound and not form.is_valid() else 200
    if not form.is_bound:
        form = LeaderboardFilter(
            initial={"period": "all", "min_experience": settings.RATING_LEADERBOARD_MIN_EXPERIENCE}
        )
    arguments = form.arguments()
    rows = ratings_selectors.leaderboard(**arguments)
    page = Paginator(rows, LEADERBOARD_PER_PAGE).get_page(request.GET.get("page"))
    return render(
        request,
        "games/leaderboard.html",
        {
            "form": form,
            "rows": page.object_list,
            "page": page,
            "clubs": ratings_selectors.leaderboard_clubs(),
            **_my_place(request, rows, page.number),
            **arguments,
        },
        status=status,
    )


def _my_place(request: HttpRequest, rows: list[Any], page_number: int) -> dict[str, Any]:
    """Where the logged-in player is on the list: ``my_row`` (their row, marked on the
    page), ``my_page`` (the page it is on, when that is not this one: the page links to
    it), or ``me_unlisted`` (they have a player but these filters leave them out). The
    rows carry ``user_id``, so finding them costs no query; only a player not listed
    costs one, to say so."""
    user = request.user
    if not user.is_authenticated:
        return {}
    for index, row in enumerate(rows):
        if row.player.user_id == user.pk:
            on_page = index // LEADERBOARD_PER_PAGE + 1
            return {"my_row": row, "my_page": None if on_page == page_number else on_page}
    me = Player.of_user(user)
    return {"me_unlisted": me} if me is not None else {}

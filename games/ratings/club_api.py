"""The club results API (issue 8): club matches played over the board outside a
tournament, typed in so they count for the rating -- list, type in, correct, void.

For the club's directors only (staff, or the permission ``games.add_ratedresult``):
anonymous requests get 401, other users 403 ``cannot_enter_club_results``. Every write
goes through :mod:`games.ratings.club_results`; errors leave as ``{"code", "detail"}``
(``config.api``) and change nothing. A result is named by its ledger row's id."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.common import PAGE_PARAMETERS, ErrorOutput, PlayerRef, error_responses
from games.api.pagination import Pagination
from games.models import ClubResult, Player, RatedResult
from games.ratings import club_results


# ====================================================================== shapes
class ClubResultOutput(serializers.Serializer):
    """A club result as the ledger has it, with its rating change and who typed it in."""

    id = serializers.IntegerField(help_text="the ledger row's id: use it to correct or void")
    source_key = serializers.CharField()
    player1 = PlayerRef()
    player2 = PlayerRef()
    length = serializers.IntegerField()
    winner = serializers.IntegerField(help_text="the winner's player id")
    played_at = serializers.DateTimeField()
    rated = serializers.BooleanField(help_text="club results are rated when the club says so")
    p_upset = serializers.FloatField(allow_null=True)
    change1 = serializers.DecimalField(max_digits=7, decimal_places=2, allow_null=True)
    change2 = serializers.DecimalField(max_digits=7, decimal_places=2, allow_null=True)
    rating1_before = serializers.DecimalField(max_digits=7, decimal_places=2, allow_null=True)
    rating1_after = serializers.DecimalField(max_digits=7, decimal_places=2, allow_null=True)
    rating2_before = serializers.DecimalField(max_digits=7, decimal_places=2, allow_null=True)
    rating2_after = serializers.DecimalField(max_digits=7, decimal_places=2, allow_null=True)
    entered_by = serializers.CharField(allow_null=True, help_text="username; null: not known")
    entered_at = serializers.DateTimeField(allow_null=True)
    corrected_by = serializers.CharField(allow_null=True)
    corrected_at = serializers.DateTimeField(allow_null=True)


class ClubResultPageOutput(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = ClubResultOutput(many=True)


class ClubResultCreateInput(serializers.Serializer):
    player1 = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())
    player2 = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())
    length = serializers.IntegerField(
        help_text=f"points, 1 to {club_results.MAX_LENGTH} (else 400 invalid_length)"
    )
    winner = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.all(), help_text="player1 or player2 (else 400 invalid_winner)"
    )
    played_at = serializers.DateTimeField(
        help_text="when the match was played (not in the future: 400 played_in_future)"
    )


class ClubResultCorrectInput(serializers.Serializer):
    """What is given replaces what was typed in; the winner is kept by who they are."""

    player1 = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all(), required=False)
    player2 = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all(), required=False)
    length = serializers.IntegerField(required=False)
    winner = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all(), required=False)
    played_at = serializers.DateTimeField(required=False)


def _user_name(user: Any) -> str | None:
    return None if user is None else user.get_username()


def _output(row: RatedResult, audit: ClubResult | None) -> dict[str, Any]:
    data = {
        "id": row.pk,
        "source_key": row.source_key,
        "player1": row.player1,
        "player2": row.player2,
        "length": row.length,
        "winner": row.winner_id,
        "played_at": row.at,
        "rated": row.rated,
        "p_upset": row.p_upset,
        **{
            name: getattr(row, name)
            for name in (
                "change1",
                "change2",
                "rating1_before",
                "rating1_after",
                "rating2_before",
                "rating2_after",
            )
        },
        "entered_by": _user_name(audit.entered_by) if audit else None,
        "entered_at": audit.entered_at if audit else None,
        "corrected_by": _user_name(audit.corrected_by) if audit else None,
        "corrected_at": audit.corrected_at if audit else None,
    }
    return ClubResultOutput(data).data


def _one(result_id: int) -> dict[str, Any]:
    row = club_results.club_result_get(result_id=result_id)
    return _output(row, club_results.club_result_audits([row]).get(row.source_key))


def _require(request: Request) -> None:
    club_results.club_result_authorize(user=request.user)


ERRORS = error_responses(
    {
        401: "Not logged in.",
        403: "`cannot_enter_club_results`: neither staff nor `games.add_ratedresult`.",
    }
)
RULES = (
    "`invalid`, `invalid_length`, `invalid_date`, `played_in_future`, `same_player`, "
    "`invalid_winner`, `inactive_player`; nothing is changed."
)
MISSING = {
    404: OpenApiResponse(ErrorOutput, description="`result_not_found`."),
    409: OpenApiResponse(
        ErrorOutput,
        description="`not_a_club_result`: a tournament or online result, owned by its app.",
    ),
}


class ClubResultPagination(Pagination):
    default_limit = 50
    max_limit = 200


# ====================================================================== views
class ClubResultListApi(APIView):
    """The club results that stand, newest played first (paginated), or type in one."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="v1_club_results_list",
        parameters=PAGE_PARAMETERS,
        responses={200: ClubResultPageOutput, **ERRORS},
    )
    def get(self, request: Request) -> Response:
        _require(request)
        paginator = ClubResultPagination()
        page = paginator.paginate_queryset(club_results.club_result_list(), request, self) or []
        audits = club_results.club_result_audits(page)
        return Response(
            {
                "count": paginator.count,
                "next": paginator.get_next_link(),
                "previous": paginator.get_previous_link(),
                "results": [_output(row, audits.get(row.source_key)) for row in page],
            }
        )

    @extend_schema(
        request=ClubResultCreateInput,
        responses={201: ClubResultOutput, 400: OpenApiResponse(ErrorOutput, RULES), **ERRORS},
    )
    def post(self, request: Request) -> Response:
        _require(request)
        data = ClubResultCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        values: dict[str, Any] = data.validated_data
        row = club_results.club_result_record(by=request.user, **values)
        return Response(_one(row.pk), status=status.HTTP_201_CREATED)


class ClubResultDetailApi(APIView):
    """One club result: read, correct (PATCH) or void (DELETE; the ratings are replayed
    without it)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: ClubResultOutput, **ERRORS, 404: MISSING[404]})
    def get(self, request: Request, result_id: int) -> Response:
        _require(request)
        return Response(_one(result_id))

    @extend_schema(
        request=ClubResultCorrectInput,
        responses={
            200: ClubResultOutput,
            400: OpenApiResponse(ErrorOutput, RULES),
            **ERRORS,
            **MISSING,
        },
    )
    def patch(self, request: Request, result_id: int) -> Response:
        _require(request)
        data = ClubResultCorrectInput(data=request.data)
        data.is_valid(raise_exception=True)
        row = club_results.club_result_correct(
            by=request.user, result_id=result_id, **data.validated_data
        )
        return Response(_one(row.pk))

    @extend_schema(
        request=None,
        responses={204: OpenApiResponse(description="Voided."), **ERRORS, **MISSING},
    )
    def delete(self, request: Request, result_id: int) -> Response:
        _require(request)
        club_results.club_result_void(by=request.user, result_id=result_id)
        return Response(status=status.HTTP_204_NO_CONTENT)

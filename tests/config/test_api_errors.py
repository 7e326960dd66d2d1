"""One exception handler turns every refusal into {"code", "detail"} with the right status."""

import pytest
from rest_framework import serializers
from rest_framework.decorators import api_view, permission_classes
from rest_framework.permissions import AllowAny
from rest_framework.test import APIRequestFactory

from games.errors import ApplicationError, Conflict, NotFound, PermissionDenied, ValidationFailed

factory = APIRequestFactory()


def _view_raising(exc):
    @api_view(["POST"])
    @permission_classes([AllowAny])
    def view(request):
        raise exc

    return view


@pytest.mark.parametrize(
    ("exc", "status"),
    [
        (ValidationFailed("bad_dice", "Dice run from 1 to 6."), 400),
        (PermissionDenied("not_director", "Only the director may do this."), 403),
        (NotFound("match_not_found", "No such match."), 404),
        (Conflict("stale_version", "Someone moved first."), 409),
        (ApplicationError("generic", "Refused."), 400),
    ],
)
def test_application_errors_map_to_code_detail_and_status(exc, status):
    response = _view_raising(exc)(factory.post("/x"))
    assert response.status_code == status
    assert response.data == {"code": exc.code, "detail": str(exc.detail)}


def test_extra_fields_travel_with_the_error():
    exc = Conflict("stale_version", "Someone moved first.", extra={"version": 7})
    response = _view_raising(exc)(factory.post("/x"))
    assert response.data == {
        "code": "stale_version",
        "detail": "Someone moved first.",
        "version": 7,
    }


def test_drf_validation_errors_use_the_same_shape():
    class Input(serializers.Serializer):
        dice = serializers.IntegerField(min_value=1, max_value=6)

    @api_view(["POST"])
    @permission_classes([AllowAny])
    def view(request):
        Input(data=request.data).is_valid(raise_exception=True)

    response = view(factory.post("/x", {"dice": 9}, format="json"))
    assert response.status_code == 400
    assert response.data["code"] == "invalid"
    assert "dice" in response.data["errors"]
    assert response.data["detail"]


@pytest.mark.django_db
def test_unknown_player_is_a_404_with_a_stable_code(client):
    response = client.get("/api/v1/players/999999/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 404
    assert response.json() == {
        "code": "player_not_found",
        "detail": "There is no player with this id.",
    }


@pytest.mark.django_db
def test_the_error_detail_is_translated(client):
    response = client.get("/api/v1/players/999999/", HTTP_ACCEPT_LANGUAGE="hu")
    assert response.json()["code"] == "player_not_found"
    assert response.json()["detail"] == "Nincs ilyen azonosítójú játékos."


@pytest.mark.django_db
def test_writes_without_login_are_refused_with_a_code(client):
    response = client.post("/api/v1/players/", {"name": "x"})
    assert response.status_code in (401, 403)
    assert response.json()["code"] == "not_authenticated"

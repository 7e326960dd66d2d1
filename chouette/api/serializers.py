"""Shapes of the chouette API: inputs checked for shape by DRF (the rules decide the
rest, in :mod:`chouette.services`), outputs read from the selectors. Player ids are
:class:`games.models.Player` primary keys everywhere."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from chouette import rules


# ====================================================================== inputs
class RollInput(serializers.Serializer):
    player = serializers.IntegerField()
    rolls = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=6),
        min_length=1,
        help_text="the roll-off die, then any re-rolls after ties",
    )


class SessionCreateInput(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    players = serializers.ListField(child=serializers.IntegerField(), min_length=1)
    stake_per_point = serializers.DecimalField(
        max_digits=10, decimal_places=2, min_value=0, required=False, allow_null=True
    )
    currency = serializers.CharField(max_length=3, required=False, allow_blank=True, default="")
    profile = serializers.DictField(
        required=False, default=dict, help_text="rule profile options (default: classic)"
    )
    rolls = RollInput(
        many=True,
        required=False,
        allow_null=True,
        default=None,
        help_text="the table's roll-off; omitted: the server rolls (and records the rolls)",
    )


class MemberInput(serializers.Serializer):
    player = serializers.IntegerField()
    cube = serializers.IntegerField(min_value=1, default=1)
    fate = serializers.ChoiceField(choices=rules.FATES, default="took")
    beavers = serializers.IntegerField(min_value=0, default=0)
    raccoons = serializers.IntegerField(min_value=0, default=0)


class EntryInput(serializers.Serializer):
    """One game as entered at the table (``chouette.rules.GameEntry``)."""

    box = serializers.IntegerField()
    captain = serializers.IntegerField(help_text="the original captain")
    partner = serializers.IntegerField(required=False, allow_null=True, default=None)
    members = MemberInput(many=True, help_text="every team member's cube, captain included")
    winner = serializers.ChoiceField(
        choices=rules.WINNERS, required=False, allow_null=True, default=None
    )
    kind = serializers.ChoiceField(
        choices=rules.RESULT_KINDS, required=False, allow_null=True, default=None
    )
    initial_cube = serializers.IntegerField(min_value=1, default=1)
    acting_captain = serializers.IntegerField(required=False, allow_null=True, default=None)
    initial_double_groups = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()), required=False, default=list
    )


# Named for the schema: tournaments have a GameInput and a VersionInput too.
@extend_schema_serializer(component_name="ChouetteGameInput")
class GameInput(serializers.Serializer):
    entry = EntryInput()
    expected_version = serializers.IntegerField(required=False, allow_null=True)


class SeatInput(serializers.Serializer):
    player = serializers.IntegerField()
    expected_version = serializers.IntegerField(required=False, allow_null=True)


class GuestInput(serializers.Serializer):
    name = serializers.CharField(
        max_length=200,
        allow_blank=True,
        help_text="the newcomer's name: a guest player without a login is made",
    )
    namesake_ok = serializers.BooleanField(
        default=False,
        help_text="the name is another player's with other accents, and the newcomer is "
        "someone else (otherwise 409 namesake_exists)",
    )
    expected_version = serializers.IntegerField(required=False, allow_null=True)


@extend_schema_serializer(component_name="ChouetteVersionInput")
class VersionInput(serializers.Serializer):
    expected_version = serializers.IntegerField(required=False, allow_null=True)


# ====================================================================== outputs
class SessionOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.CharField()
    started_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True)
    reopened_at = serializers.DateTimeField(
        allow_null=True, help_text="the last time the session was reopened after an end"
    )
    stake_per_point = serializers.DecimalField(max_digits=10, decimal_places=2, allow_null=True)
    currency = serializers.CharField()
    profile = serializers.DictField()
    created_by = serializers.IntegerField(source="created_by_id", allow_null=True)
    version = serializers.IntegerField()


class SeatingOutput(serializers.Serializer):
    box = serializers.IntegerField()
    captain = serializers.IntegerField()
    partner = serializers.IntegerField(allow_null=True)
    team = serializers.ListField(child=serializers.IntegerField())
    line = serializers.ListField(child=serializers.IntegerField(), help_text="captain first")
    out = serializers.ListField(child=serializers.IntegerField())


class SeatOutput(serializers.Serializer):
    player = serializers.IntegerField()
    name = serializers.CharField()
    role = serializers.ChoiceField(choices=["box", "partner", "captain", "team", "out"])
    position = serializers.IntegerField()
    total = serializers.IntegerField()
    last_cube = serializers.IntegerField(allow_null=True, help_text="in the last game")
    last_fate = serializers.CharField(allow_null=True, help_text="in the last game")


class PointsOutput(serializers.Serializer):
    player = serializers.IntegerField()
    points = serializers.IntegerField()


class GameOutput(serializers.Serializer):
    number = serializers.IntegerField(help_text="game number in the session (1-based)")
    event = serializers.IntegerField()
    seq = serializers.IntegerField()
    entry = serializers.DictField()
    points = PointsOutput(many=True)
    created_at = serializers.DateTimeField()


class RollOutput(serializers.Serializer):
    player = serializers.IntegerField()
    rolls = serializers.ListField(child=serializers.IntegerField())


class SessionDetailOutput(SessionOutput):
    # The detail is shaped from a dict (``chouette.api.views.detail_data``) whose key is
    # ``created_by``, not the model's ``created_by_id``.
    created_by = serializers.IntegerField(allow_null=True)
    rolls = RollOutput(many=True)
    rolled_by_server = serializers.BooleanField()
    start_seating = serializers.DictField()
    seating = SeatingOutput()
    players = SeatOutput(many=True)
    games = GameOutput(many=True, help_text="newest first")
    game_count = serializers.IntegerField()


class PreviewOutput(serializers.Serializer):
    points = PointsOutput(many=True, help_text="each player's points for the game")
    totals_after = PointsOutput(many=True)
    seating_after = SeatingOutput()


class RecordedGameOutput(GameOutput):
    version = serializers.IntegerField(help_text="the session's version after the write")
    undone = serializers.BooleanField()


class SummaryLineOutput(serializers.Serializer):
    player = serializers.IntegerField()
    name = serializers.CharField()
    points = serializers.IntegerField()
    money = serializers.DecimalField(max_digits=14, decimal_places=2, allow_null=True)


class TransferOutput(serializers.Serializer):
    payer = serializers.IntegerField()
    payer_name = serializers.CharField()
    payee = serializers.IntegerField()
    payee_name = serializers.CharField()
    points = serializers.IntegerField()
    money = serializers.DecimalField(max_digits=14, decimal_places=2, allow_null=True)


class SummaryOutput(serializers.Serializer):
    session = serializers.IntegerField()
    status = serializers.CharField()
    stake_per_point = serializers.DecimalField(max_digits=10, decimal_places=2, allow_null=True)
    currency = serializers.CharField()
    players = SummaryLineOutput(many=True)
    transfers = TransferOutput(many=True, help_text="the fewest transfers that settle")

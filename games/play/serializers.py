"""API shapes. Serializers check shape only; the engine decides every rule."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.api.common import PlayerRef
from games.engine.actions import ACTION_KINDS
from games.models import (
    BOT_LEVELS,
    BoardOrientation,
    Game,
    GameAction,
    Match,
    MatchInvitation,
    Player,
)
from games.play.services import MAX_MATCH_LENGTH


class GameSummary(serializers.ModelSerializer):
    winner = serializers.IntegerField(source="winner_index", allow_null=True)

    class Meta:
        model = Game
        fields = [
            "id",
            "number",
            "version",
            "is_over",
            "winner",
            "points",
            "result_kind",
            "crawford",
        ]
        read_only_fields = fields


class MatchOutput(serializers.ModelSerializer):
    player1 = PlayerRef()
    player2 = PlayerRef()
    winner = PlayerRef(allow_null=True)
    score = serializers.SerializerMethodField()
    # Empty for a match between people: a read-only model field's choices would leave
    # the blank out of the schema's enum.
    bot_level = serializers.ChoiceField(
        choices=[("", ""), *BOT_LEVELS],
        read_only=True,
        help_text="The practice opponent's level (`beginner`, `intermediate`, `expert`, "
        "`world_class`); empty: not a practice match.",
    )

    class Meta:
        model = Match
        fields = [
            "id",
            "player1",
            "player2",
            "length",
            "rules",
            "clock",
            "timeout_claim",
            "status",
            "score",
            "winner",
            "created_at",
            "started_at",
            "finished_at",
            "imported_at",
            "bot_level",
        ]
        read_only_fields = fields

    def get_score(self, match: Match) -> list[int]:
        return [match.score1, match.score2]


class InvitationSummary(serializers.ModelSerializer):
    """A match's invitation as the match shows it (issue 18)."""

    inviter = PlayerRef()
    invitee = PlayerRef()

    class Meta:
        model = MatchInvitation
        fields = ["id", "status", "inviter", "invitee", "created_at", "answered_at"]
        read_only_fields = fields


class MatchDetailOutput(MatchOutput):
    games = GameSummary(many=True, read_only=True)
    current_game = serializers.SerializerMethodField()
    invitation = serializers.SerializerMethodField()

    class Meta(MatchOutput.Meta):
        fields = [*MatchOutput.Meta.fields, "games", "current_game", "invitation"]
        read_only_fields = fields

    def get_current_game(self, match: Match) -> int | None:
        games = list(match.games.all())
        return games[-1].pk if games else None

    @extend_schema_field(InvitationSummary(allow_null=True))
    def get_invitation(self, match: Match) -> dict[str, Any] | None:
        """The invitation the match waits for (or that started or called it off);
        ``null`` for a match nobody was invited to (a tournament's)."""
        try:
            invitation = match.invitation
        except MatchInvitation.DoesNotExist:
            return None
        return dict(InvitationSummary(invitation).data)


class InvitationOutput(InvitationSummary):
    """An invitation with its match: what accepting started (``current_game``)."""

    match = serializers.IntegerField(source="match_id")
    length = serializers.IntegerField(source="match.length")
    #: Read with the invitation (games.play.selectors._invitations).
    current_game = serializers.IntegerField(source="current_game_id", allow_null=True)

    class Meta(InvitationSummary.Meta):
        fields = [*InvitationSummary.Meta.fields, "match", "length", "current_game"]
        read_only_fields = fields


class MatchCreateInput(serializers.Serializer):
    player1 = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())
    player2 = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())
    length = serializers.IntegerField(min_value=0, max_value=MAX_MATCH_LENGTH)
    rules = serializers.DictField(required=False, default=dict)
    clock = serializers.JSONField(
        required=False,
        allow_null=True,
        default=None,
        help_text="R12: a preset name (seed002, usbgf, galaxy-casual, wbgf-speed), custom "
        "clock settings (delay_ms, reserve_ms, reserve_per_point_ms, ...), or null.",
    )
    timeout_claim = serializers.BooleanField(required=False, default=True)
    bot_level = serializers.ChoiceField(
        choices=[key for key, _label in BOT_LEVELS],
        required=False,
        default="",
        allow_blank=True,
        help_text="Against the computer opponent (`GET /api/v1/practice/`) only, and then "
        "required: its strength. It accepts at once and the match starts; it is not rated.",
    )
    start = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Only for a match staff arrange between two other players: start it at "
        "once. A match you play in is an invitation to your opponent and starts when they "
        "accept it (`POST /api/v1/invitations/{invitation_id}/accept/`); `start: true` "
        "there is refused (`invitation_required`).",
    )


class ActionInput(serializers.Serializer):
    action = serializers.ChoiceField(
        # The server makes the opening roll and records timeouts itself.
        choices=[k for k in ACTION_KINDS if k not in ("opening_roll", "timeout")]
    )
    version = serializers.IntegerField(min_value=0)
    play = serializers.CharField(required=False, allow_blank=True, max_length=80)
    position_id = serializers.CharField(required=False, max_length=14)
    kind = serializers.ChoiceField(
        choices=["single", "gammon", "backgammon"], required=False, allow_null=True
    )
    value = serializers.IntegerField(required=False, min_value=1, max_value=6)


class CubeOutput(serializers.Serializer):
    value = serializers.IntegerField()
    owner = serializers.IntegerField(allow_null=True)


class LegalActionOutput(serializers.Serializer):
    action = serializers.CharField()
    plays = serializers.ListField(child=serializers.DictField(), required=False)
    kinds = serializers.ListField(child=serializers.CharField(), required=False)
    values = serializers.ListField(child=serializers.IntegerField(), required=False)


class ClockOutput(serializers.Serializer):
    """The clock as the server sees it now (R12): every client shows the same times."""

    server_time = serializers.DateTimeField()
    running = serializers.IntegerField(allow_null=True, help_text="whose clock runs")
    delay_ms = serializers.IntegerField(help_text="the delay of every turn")
    delay_left_ms = serializers.IntegerField(allow_null=True)
    reserves_ms = serializers.ListField(child=serializers.IntegerField())
    deadline = serializers.DateTimeField(allow_null=True)
    flagged = serializers.IntegerField(allow_null=True, help_text="who ran out of time")


class GameStateOutput(serializers.Serializer):
    """The documented shape of :func:`games.play.selectors.game_view` (players are 0 and 1:
    the match's player 1 and player 2)."""

    game = serializers.IntegerField()
    match = serializers.IntegerField()
    number = serializers.IntegerField()
    version = serializers.IntegerField()
    position_id = serializers.CharField()
    match_id = serializers.CharField()
    phase = serializers.CharField()
    turn = serializers.IntegerField()
    player_to_act = serializers.IntegerField(allow_null=True)
    dice = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    cube = CubeOutput()
    resignation = serializers.DictField(allow_null=True)
    pips = serializers.ListField(child=serializers.IntegerField())
    borne_off = serializers.ListField(child=serializers.IntegerField())
    board = serializers.ListField(child=serializers.ListField(child=serializers.IntegerField()))
    score = serializers.ListField(child=serializers.IntegerField())
    match_length = serializers.IntegerField()
    crawford = serializers.BooleanField()
    winning_chances = serializers.ListField(child=serializers.FloatField(), allow_null=True)
    result = serializers.DictField(allow_null=True)
    you = serializers.IntegerField(allow_null=True)
    flagged = serializers.IntegerField(
        allow_null=True, help_text="R12: the player who ran out of time (the opponent claims)"
    )
    clock = ClockOutput(allow_null=True)
    legal_actions = LegalActionOutput(many=True)
    next_game = serializers.IntegerField(required=False, allow_null=True)
    home = serializers.ChoiceField(
        choices=BoardOrientation.choices,
        help_text="where the requester's home board is drawn (their setting, GET/PATCH "
        "/api/v1/me/settings/; right for visitors): `board` is in player 0's numbering, "
        "/games/<id>/board.svg draws it this way",
    )


class GameActionOutput(serializers.ModelSerializer):
    player = serializers.IntegerField(source="player_index", allow_null=True)

    class Meta:
        model = GameAction
        fields = ["seq", "kind", "player", "data", "created_at"]
        read_only_fields = fields


class ReplayCubeOutput(serializers.Serializer):
    value = serializers.IntegerField(
        help_text="the cube's value; a double waiting: the value offered"
    )
    owner = serializers.IntegerField(allow_null=True, help_text="0 or 1; null: in the middle")
    offered = serializers.BooleanField(help_text="a double waits for its answer")


class ReplayResultOutput(serializers.Serializer):
    winner = serializers.IntegerField()
    kind = serializers.CharField()
    points = serializers.IntegerField()
    reason = serializers.CharField()


class ReplayStepOutput(serializers.Serializer):
    """One step of a game's replay (:mod:`games.play.replay`): what it did and the state
    after it, rebuilt from the action log by the engine."""

    index = serializers.IntegerField(help_text="0: the starting position")
    seq = serializers.IntegerField(help_text="the log row (`seq`) the step ends with; 0: start")
    action = serializers.CharField(
        help_text="`start`, `play` (a roll and its play), `roll` (a roll alone: it could not "
        "be played, or something else followed), or the log's kind: `double`, `take`, "
        "`drop`, `beaver`, `resign`, `accept_resignation`, `decline_resignation`, "
        "`choose_double`, `timeout`, `claim_timeout`"
    )
    player = serializers.IntegerField(allow_null=True, help_text="who acted (0 or 1)")
    dice = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    play = serializers.CharField(help_text="the play in notation; empty for other steps")
    cube = ReplayCubeOutput()
    position_id = serializers.CharField(help_text="GNU Backgammon Position ID after the step")
    match_id = serializers.CharField(help_text="GNU Backgammon Match ID after the step")
    turn = serializers.IntegerField()
    pips = serializers.ListField(child=serializers.IntegerField())
    result = ReplayResultOutput(allow_null=True)


class GameReplayOutput(serializers.Serializer):
    game = serializers.IntegerField()
    match = serializers.IntegerField()
    number = serializers.IntegerField()
    players = serializers.ListField(child=serializers.CharField(), help_text="player 0, player 1")
    score = serializers.ListField(
        child=serializers.IntegerField(), help_text="the match score before this game"
    )
    match_length = serializers.IntegerField(help_text="0: a money session")
    crawford = serializers.BooleanField()
    steps = ReplayStepOutput(many=True)

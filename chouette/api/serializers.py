"""Shapes of the chouette API: inputs checked for shape by DRF (the rules decide the
rest, in :mod:`chouette.services`), outputs read from the selectors. Player ids are
:class:`games.models.Player` primary keys everywhere."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from chouette import rules

#: What a member's ``cube`` means (easy to get wrong silently: a drop is not the cube).
CUBE_HELP = (
    "The value of this member's cube. took: the cube the game ended at (the stake, times "
    "1, 2 or the backgammon value). dropped (the member dropped the box's double): the "
    "value the box OFFERED, of which the member pays half - a drop of a double to 4 costs "
    "the member 2 points. box_dropped (the box dropped the member's double): the value "
    "the member offered, of which the box pays the member half."
)
FATE_HELP = (
    "took: played on to the end; dropped: the member dropped the box's double (and left "
    "the game); box_dropped: the box dropped the member's double; settled: the member "
    "accepted the box's offer of a settlement mid-game and left the game with it (the "
    "points are in settled; cube is the member's cube when they settled)"
)
SETTLED_HELP = (
    "Only with the fate settled (otherwise null or omitted): the whole points the member "
    "accepted from the box mid-game, + the box pays the member, - the member pays the box; "
    "at most cube times the backgammon value either way (400 settlement_out_of_bounds)."
)
EXTRA_HELP = (
    "Extras: side bets of two players of the game on the board's result (the club's "
    "'extra cube', e.g. a member who dropped the box's double gives one to a member who "
    "took). The giver pays the taker the price up front; then the taker wins the stake "
    "times 1, 2 or the backgammon value if the team wins a single, gammon or backgammon on "
    "the board, and pays as much to the giver if the box wins (Jacoby never applies). The "
    "taker is a team member, the giver any other player of the game. Settled inside the "
    "game's points (the game still sums to zero); a box's extra is not shared with its "
    "partner; extras count neither for rotation nor for the box's net profit. With no "
    "board result (nobody took to the end) an extra rides on a single won by the side the "
    "other gave the board up to: every member dropped the box's doubles (the box), the box "
    "dropped the team's double in classic or every member's in individual (the team); "
    "otherwise 400 extra_without_result."
)


#: The profile's keys and choices (chouette.rules.Profile; docs/rules.md R13).
PROFILE_HELP = (
    "rule profile options (default: classic, every option off). kind: classic (one team "
    "cube) or individual (own cubes). rotation, who has the box next: "
    "standard (the box stays if it beat the captain; the default), box_needs_net_profit "
    "(it must also win more than it lost in the game), net_profit_decides (it stays if "
    "it won more than it lost, whatever happened against the captain), double_stand_up "
    "(it stays if it beat the captain and did not lose overall; if it beat the captain "
    "but lost overall, captain and box both go to the end of the line and the next "
    "player takes the box). jacoby, beavers, raccoons, box_must_take_half, box_partner "
    "(bools; beavers, raccoons, box_must_take_half and box_partner with individual "
    "only), automatic_doubles (0 = off), box_partner_min_players (default 6), "
    "backgammon_value (3, 2 or 1), max_cube (default 64), split_min_players (seated "
    "players from which the chouette may split in two: default 8, at least 6)."
)
assert all(v in PROFILE_HELP for v in rules.ROTATION_VARIANTS)


# ====================================================================== inputs
#: Where a player sits between games (the scoreboard's seat roles).
SEAT_ROLES = ("box", "partner", "captain", "team", "out")


class RollInput(serializers.Serializer):
    player = serializers.IntegerField()
    rolls = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=6),
        min_length=1,
        help_text="the roll-off die, then any re-rolls after ties",
    )


class SessionCreateInput(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    players = serializers.ListField(
        child=serializers.IntegerField(),
        min_length=1,
        required=False,
        help_text="the players' ids (required unless seating is given)",
    )
    stake_per_point = serializers.DecimalField(
        max_digits=10, decimal_places=2, min_value=0, required=False, allow_null=True
    )
    currency = serializers.CharField(max_length=3, required=False, allow_blank=True, default="")
    profile = serializers.DictField(required=False, default=dict, help_text=PROFILE_HELP)
    rolls = RollInput(
        many=True,
        required=False,
        allow_null=True,
        default=None,
        help_text="the table's roll-off; omitted (and no seating): the server rolls (and "
        "records the rolls)",
    )
    seating = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        allow_null=True,
        default=None,
        min_length=1,
        help_text="the seating already known, instead of a roll-off: the player ids in "
        "order, the box first, then the captain and the rest of the line. players may then "
        "be omitted (if given, the same players: 400 seating_does_not_match_players); with "
        "rolls as well, 400 seating_and_rolls",
    )


class MemberInput(serializers.Serializer):
    player = serializers.IntegerField()
    cube = serializers.IntegerField(min_value=1, default=1, help_text=CUBE_HELP)
    fate = serializers.ChoiceField(choices=rules.FATES, default="took", help_text=FATE_HELP)
    beavers = serializers.IntegerField(min_value=0, default=0)
    raccoons = serializers.IntegerField(min_value=0, default=0)
    settled = serializers.IntegerField(
        required=False, allow_null=True, default=None, help_text=SETTLED_HELP
    )


class ExtraInput(serializers.Serializer):
    taker = serializers.IntegerField(help_text="backs the team's result: a team member")
    giver = serializers.IntegerField(
        help_text="backs the box's result: any other player of the game"
    )
    stake = serializers.IntegerField(
        min_value=1, help_text="points per single game: the extra's final value"
    )
    price = serializers.IntegerField(
        min_value=0,
        default=0,
        help_text="points the giver paid the taker up front (by custom 1 for an extra at 2); "
        "below the stake",
    )


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
    extras = serializers.ListField(
        child=ExtraInput(),
        required=False,
        default=list,
        max_length=rules.MAX_EXTRAS,
        help_text=EXTRA_HELP,
    )


# Named for the schema: tournaments have a GameInput and a VersionInput too.
@extend_schema_serializer(component_name="ChouetteGameInput")
class GameInput(serializers.Serializer):
    entry = EntryInput()
    expected_version = serializers.IntegerField(required=False, allow_null=True)


class SeatInput(serializers.Serializer):
    player = serializers.IntegerField()
    expected_version = serializers.IntegerField(required=False, allow_null=True)


class SeatingInput(serializers.Serializer):
    box = serializers.IntegerField(help_text="the player who takes the box")
    line = serializers.ListField(
        child=serializers.IntegerField(),
        max_length=64,
        help_text="the team in order, the captain first (a box partner last)",
    )
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


class ProxyInput(serializers.Serializer):
    player = serializers.IntegerField(help_text="the member away from the table")
    proxy = serializers.IntegerField(
        allow_null=True,
        help_text="another player of the session who takes their cube decisions; null: "
        "nobody (the member is back). Not the player, not someone away themselves, not "
        "for a player who answers for someone (409 proxy_chained)",
    )
    expected_version = serializers.IntegerField(required=False, allow_null=True)


class SplitInput(serializers.Serializer):
    name = serializers.CharField(max_length=200, help_text="the new session's name")
    players = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        allow_null=True,
        default=None,
        help_text="the seated players who move to the new session, in any order (they "
        "are seated there in the order they sat here); omitted or null: every second "
        "player of the line from the captain. Each half keeps three players or more "
        "(400 split_side_too_small); the session needs the profile's split_min_players "
        "seated (409 split_too_few_players)",
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
    split_from = serializers.IntegerField(
        source="split_from_id",
        allow_null=True,
        help_text="the session this one was split off, if any",
    )


class SeatingSeatOutput(serializers.Serializer):
    player = serializers.IntegerField()
    name = serializers.CharField()
    role = serializers.ChoiceField(choices=list(SEAT_ROLES))
    position = serializers.IntegerField(help_text="0 the box, 1 the captain, ...")


class SeatingOutput(serializers.Serializer):
    box = serializers.IntegerField()
    box_name = serializers.CharField()
    captain = serializers.IntegerField()
    captain_name = serializers.CharField()
    partner = serializers.IntegerField(allow_null=True)
    partner_name = serializers.CharField(allow_null=True)
    team = serializers.ListField(child=serializers.IntegerField())
    line = serializers.ListField(child=serializers.IntegerField(), help_text="captain first")
    out = serializers.ListField(child=serializers.IntegerField())
    seats = SeatingSeatOutput(
        many=True, help_text="every player with a name: the box, the line, then those out"
    )


class SeatOutput(serializers.Serializer):
    player = serializers.IntegerField()
    name = serializers.CharField()
    role = serializers.ChoiceField(choices=list(SEAT_ROLES))
    position = serializers.IntegerField()
    total = serializers.IntegerField()
    last_cube = serializers.IntegerField(allow_null=True, help_text="in the last game")
    last_fate = serializers.CharField(allow_null=True, help_text="in the last game")
    proxy = serializers.IntegerField(
        allow_null=True, help_text="who takes this player's cube decisions while away"
    )
    proxy_name = serializers.CharField(allow_null=True)


class PointsOutput(serializers.Serializer):
    player = serializers.IntegerField()
    name = serializers.CharField()
    points = serializers.IntegerField()


class MemberOutput(serializers.Serializer):
    player = serializers.IntegerField()
    name = serializers.CharField()
    cube = serializers.IntegerField(help_text=CUBE_HELP)
    fate = serializers.ChoiceField(choices=rules.FATES, help_text=FATE_HELP)
    beavers = serializers.IntegerField()
    raccoons = serializers.IntegerField()
    settled = serializers.IntegerField(allow_null=True, help_text=SETTLED_HELP)
    points = serializers.IntegerField(
        help_text="what the member won (+) or lost (-) in the game: their cube against the "
        "box, and their extras"
    )


class ExtraOutput(serializers.Serializer):
    taker = serializers.IntegerField(help_text="backed the team's result")
    taker_name = serializers.CharField()
    giver = serializers.IntegerField(help_text="backed the box's result")
    giver_name = serializers.CharField()
    stake = serializers.IntegerField()
    price = serializers.IntegerField()
    points = serializers.IntegerField(
        help_text="what the taker won (+) from the giver or lost (-) to them, price included"
    )


class GameOutput(serializers.Serializer):
    number = serializers.IntegerField(help_text="game number in the session (1-based)")
    event = serializers.IntegerField()
    seq = serializers.IntegerField()
    entry = serializers.DictField(help_text="the game as entered (ids only; see members)")
    box = serializers.IntegerField()
    box_name = serializers.CharField()
    captain = serializers.IntegerField(help_text="the original captain")
    captain_name = serializers.CharField()
    partner = serializers.IntegerField(allow_null=True)
    partner_name = serializers.CharField(allow_null=True)
    winner = serializers.ChoiceField(choices=rules.WINNERS, allow_null=True)
    kind = serializers.ChoiceField(choices=rules.RESULT_KINDS, allow_null=True)
    members = MemberOutput(many=True, help_text="every team member's cube, captain first")
    extras = ExtraOutput(many=True, help_text=EXTRA_HELP)
    points = PointsOutput(many=True, help_text="every player's points, the box's included")
    created_at = serializers.DateTimeField()


class RollOutput(serializers.Serializer):
    player = serializers.IntegerField()
    rolls = serializers.ListField(child=serializers.IntegerField())


class SessionDetailOutput(SessionOutput):
    # The detail is shaped from a dict (``chouette.api.views.detail_data``) whose key is
    # ``created_by``, not the model's ``created_by_id``.
    created_by = serializers.IntegerField(allow_null=True)
    split_from = serializers.IntegerField(allow_null=True)
    rolls = RollOutput(many=True)
    rolled_by_server = serializers.BooleanField()
    start_seating = serializers.DictField()
    seating = SeatingOutput()
    players = SeatOutput(many=True)
    games = GameOutput(
        many=True,
        help_text="the newest games (at most games_limit, 10 by default), newest first; "
        "every game: GET .../games/ (paged)",
    )
    game_count = serializers.IntegerField(help_text="games that count (not undone)")


class PreviewOutput(serializers.Serializer):
    points = PointsOutput(many=True, help_text="each player's points for the game")
    totals_after = PointsOutput(many=True)
    seating_after = SeatingOutput()


class RecordedGameOutput(GameOutput):
    version = serializers.IntegerField(help_text="the session's version after the write")
    undone = serializers.BooleanField()
    totals = PointsOutput(
        many=True, help_text="every player's running total after the write, in joined order"
    )
    seating = SeatingOutput(help_text="the seating after the write (for the next game)")
    game_count = serializers.IntegerField(help_text="games that count after the write")


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

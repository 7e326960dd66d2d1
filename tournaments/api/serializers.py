"""Shapes of the tournaments API: inputs validated by DRF, outputs read from the models
and selectors. Every write goes through :mod:`tournaments.services`."""

from __future__ import annotations

from typing import Any

from django.utils.text import format_lazy
from rest_framework import serializers

from games.engine.clock import PRESETS
from games.play.presets import PRESETS_HELP
from tournaments.models import ClockPolicy, Entry, Event, Flight, Format, TournamentMatch


# ====================================================================== outputs
class EventOutput(serializers.ModelSerializer):
    directors = serializers.SerializerMethodField()

    class Meta:
        model = Event
        fields = ["id", "name", "slug", "starts_on", "location", "status", "rated", "directors"]

    def get_directors(self, event: Event) -> list[int]:
        return [user.pk for user in event.directors.all()]


class FlightSummaryOutput(serializers.ModelSerializer):
    class Meta:
        model = Flight
        fields = [
            "id",
            "name",
            "format",
            "status",
            "seeding",
            "seed",
            "match_length",
            "clock_preset",
            "clock_policy",
            "lateness",
            "lateness_grace",
            "lateness_per_point",
            "self_registration",
            "capacity",
            "play_ahead",
            "version",
        ]


class EventDetailOutput(EventOutput):
    flights = FlightSummaryOutput(many=True, read_only=True)

    class Meta(EventOutput.Meta):
        fields = [*EventOutput.Meta.fields, "flights"]


class EntryOutput(serializers.ModelSerializer):
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.name")

    class Meta:
        model = Entry
        fields = [
            "id",
            "player",
            "name",
            "seed",
            "rating",
            "status",
            "late",
            "place",
            "place_label",
            "side_part",
            "side_place_label",
            "manual_seed",
        ]
        extra_kwargs = {
            "manual_seed": {"help_text": "the director's seed by hand before the draw, or null"},
            "place": {"help_text": "the final place in the main ranking (3 for 3-4), or null"},
            "place_label": {"help_text": 'e.g. "1", "3-4"; empty while playing'},
            "side_part": {"help_text": "consolation or last_chance, when placed there"},
            "side_place_label": {"help_text": "the place in side_part"},
        }


class EntryRegisterOutput(EntryOutput):
    """An entry just made, with the warnings about it (issue 29)."""

    warnings = serializers.ListField(
        child=serializers.CharField(),
        read_only=True,
        help_text="warnings, not refusals: e.g. the player also plays in another flight of "
        "the event at the same time (tournaments.overlaps)",
    )

    class Meta(EntryOutput.Meta):
        fields = [*EntryOutput.Meta.fields, "warnings"]


#: The ``ranking`` of a round or a match: the former name of its ``part``.
RANKING_DEPRECATED = "deprecated: the same as part (its former name); goes in the next release"


class TournamentMatchOutput(serializers.ModelSerializer):
    ranking = serializers.CharField(source="part", read_only=True, help_text=RANKING_DEPRECATED)
    entry_a = serializers.IntegerField(source="entry_a_id", allow_null=True)
    entry_b = serializers.IntegerField(source="entry_b_id", allow_null=True)
    online_match = serializers.IntegerField(source="online_match_id", allow_null=True)
    mat_match = serializers.IntegerField(
        source="mat_match_id",
        allow_null=True,
        help_text="the match recorded from its uploaded .mat file (played at the board)",
    )
    has_result = serializers.BooleanField()
    late_side = serializers.CharField(
        read_only=True, help_text="the side that was late, a or b; '' for nobody (R15)"
    )
    start_score_a = serializers.SerializerMethodField(
        help_text="side a's starting score (a lateness penalty of side b, R15)"
    )
    start_score_b = serializers.SerializerMethodField(
        help_text="side b's starting score (a lateness penalty of side a, R15)"
    )

    class Meta:
        model = TournamentMatch
        fields = [
            "id",
            "slot_key",
            "part",
            "ranking",
            "round",
            "index",
            "entry_a",
            "entry_b",
            "match_length",
            "table",
            "status",
            "winner",
            "score_a",
            "score_b",
            "games",
            "online_match",
            "mat_match",
            "report_a",
            "report_b",
            "has_result",
            "decided_at",
            "late_side",
            "late_minutes",
            "late_points",
            "late_forfeit",
            "start_score_a",
            "start_score_b",
            "version",
        ]
        extra_kwargs = {
            "late_points": {"help_text": "the penalty points: the opponent's starting score"},
            "late_forfeit": {"help_text": "the late player forfeited (a walkover)"},
        }

    def get_start_score_a(self, row: TournamentMatch) -> int:
        return row.start_score[0]

    def get_start_score_b(self, row: TournamentMatch) -> int:
        return row.start_score[1]


class FlightRoundOutput(serializers.Serializer):
    part = serializers.CharField(help_text="the bracket part; '' for Swiss")
    ranking = serializers.CharField(source="part", read_only=True, help_text=RANKING_DEPRECATED)
    number = serializers.IntegerField()
    match_length = serializers.IntegerField()
    clock_preset = serializers.CharField()
    clock_policy = serializers.CharField()
    starts_at = serializers.DateTimeField(allow_null=True)
    published_at = serializers.DateTimeField(allow_null=True)


class BracketOutput(serializers.DictField):
    """The stored draw (``tournaments.pairing.Bracket.to_dict``). Each slot names its part
    ``part``, and also ``flight``, its former name: deprecated, it goes in the next
    release."""

    def to_representation(self, value: Any) -> dict[str, Any]:
        data = super().to_representation(value)
        slots = data.get("slots")
        if isinstance(slots, list):
            data["slots"] = [{**slot, "flight": slot.get("part")} for slot in slots]
        return data


class FlightDetailOutput(FlightSummaryOutput):
    event = serializers.IntegerField(source="event_id")
    options = serializers.DictField()
    bracket = BracketOutput(
        allow_null=True,
        help_text="the draw (brackets only); each slot's part is `part` (`flight`: the same, "
        "deprecated, goes in the next release)",
    )
    entries = serializers.SerializerMethodField()
    rounds = serializers.SerializerMethodField()
    matches = serializers.SerializerMethodField()

    class Meta(FlightSummaryOutput.Meta):
        fields = [
            *FlightSummaryOutput.Meta.fields,
            "event",
            "options",
            "bracket",
            "entries",
            "rounds",
            "matches",
        ]

    def get_entries(self, flight: Flight) -> list[dict[str, Any]]:
        return EntryOutput(self.context["page"].entries, many=True).data  # type: ignore[return-value]

    def get_rounds(self, flight: Flight) -> list[dict[str, Any]]:
        rounds = sorted(self.context["page"].rounds.values(), key=lambda r: (r.part, r.number))
        return FlightRoundOutput(rounds, many=True).data  # type: ignore[return-value]

    def get_matches(self, flight: Flight) -> list[dict[str, Any]]:
        return TournamentMatchOutput(self.context["page"].matches, many=True).data  # type: ignore[return-value]


class StandingOutput(serializers.Serializer):
    rank = serializers.IntegerField()
    entry = serializers.IntegerField()
    name = serializers.CharField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    byes = serializers.IntegerField()
    buchholz = serializers.IntegerField()
    point_difference = serializers.IntegerField()


class PlaceOutput(serializers.Serializer):
    ranking = serializers.CharField(help_text="main, consolation, last_chance; '' for Swiss")
    place = serializers.CharField(help_text='e.g. "1", "3-4"')
    rank = serializers.IntegerField()
    entries = serializers.ListField(child=serializers.IntegerField())
    names = serializers.ListField(child=serializers.CharField())
    final = serializers.BooleanField(help_text="false for players still in the running")


# ====================================================================== inputs
class EventCreateInput(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    starts_on = serializers.DateField()
    location = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    slug = serializers.SlugField(max_length=120, required=False, allow_blank=True, default="")
    rated = serializers.BooleanField(
        default=True, help_text="the results count for the players' ratings"
    )


class EventUpdateInput(serializers.Serializer):
    """Only the fields given change (the web address does not)."""

    name = serializers.CharField(max_length=120, required=False)
    starts_on = serializers.DateField(required=False)
    location = serializers.CharField(max_length=200, required=False, allow_blank=True)
    rated = serializers.BooleanField(
        required=False,
        help_text="changes only while no result of the event is rated (else 409 event_has_results)",
    )


class DirectorAddInput(serializers.Serializer):
    user = serializers.IntegerField(help_text="the user id of the new director")


CLOCK_PRESET_HELP = format_lazy(
    "Clock preset: which clock the matches use ({presets}); '' for none.", presets=PRESETS_HELP
)
CLOCK_USE_HELP = (
    "Clock use: 'off' (no clock), 'allowed' (the players may start one) or 'required' "
    "(matches are played with it)."
)


class FlightCreateInput(serializers.Serializer):
    name = serializers.CharField(max_length=80)
    format = serializers.ChoiceField(choices=Format.choices)
    options = serializers.DictField(
        required=False,
        default=dict,
        help_text=(
            "the format's options: entry_rounds (consolation, last chance, "
            "consolation_last_chance: 1 or 2), last_chance_rounds (consolation_last_chance: "
            "how many consolation rounds' losers play the last chance, 1 or 2), "
            "last_entry_round (progressive consolation), bracket_reset (double), rounds "
            "(Swiss), tiebreaks (Swiss, round robin: an order of wins, buchholz, "
            "point_difference, head_to_head; default Swiss: all four in that order, round "
            "robin: wins, head_to_head, point_difference), season_points"
        ),
    )
    seeding = serializers.ChoiceField(
        choices=Flight.SeedingMethod.choices, default=Flight.SeedingMethod.RATING
    )
    match_length = serializers.IntegerField(min_value=1, max_value=25, default=5)
    clock_preset = serializers.ChoiceField(
        choices=[("", "none"), *((name, name) for name in PRESETS)],
        default="",
        help_text=CLOCK_PRESET_HELP,
    )
    clock_policy = serializers.ChoiceField(
        choices=ClockPolicy.choices, default=ClockPolicy.OFF, help_text=CLOCK_USE_HELP
    )
    lateness = serializers.BooleanField(default=False, help_text="lateness penalties (R15)")
    lateness_grace = serializers.IntegerField(min_value=0, max_value=60, default=5)
    lateness_per_point = serializers.IntegerField(min_value=1, max_value=60, default=5)
    play_ahead = serializers.BooleanField(
        default=True,
        help_text="knockouts: a next-round match is published and takes results as soon as "
        "both its players are known (off: once the round before is complete); "
        "not used by Swiss and round robin",
    )


# The part of an input: ``part`` (default ``""``), or ``ranking``, its former name,
# accepted for one release (both given: they must agree). A comment, not a docstring: the
# schema would show it as the description of every input built on it.
class _PartInput(serializers.Serializer):
    part = serializers.CharField(
        max_length=20,
        allow_blank=True,
        required=False,
        help_text="the bracket part; '' (the default) for Swiss",
    )
    ranking = serializers.CharField(
        max_length=20, allow_blank=True, required=False, help_text=RANKING_DEPRECATED
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        attrs = dict(attrs)
        ranking = attrs.pop("ranking", None)
        if ranking is not None and attrs.setdefault("part", ranking) != ranking:
            raise serializers.ValidationError("part and ranking (its former name) differ.")
        attrs.setdefault("part", "")
        return attrs


class FlightRoundInput(_PartInput):
    number = serializers.IntegerField(min_value=1, max_value=64)
    match_length = serializers.IntegerField(min_value=1, max_value=25, required=False)
    clock_preset = serializers.ChoiceField(
        choices=[("", "none"), *((name, name) for name in PRESETS)],
        required=False,
        help_text=CLOCK_PRESET_HELP,
    )
    clock_policy = serializers.ChoiceField(
        choices=ClockPolicy.choices, required=False, help_text=CLOCK_USE_HELP
    )
    starts_at = serializers.DateTimeField(required=False, allow_null=True)


class EntryRegisterInput(serializers.Serializer):
    player = serializers.IntegerField(required=False, help_text="an existing player's id")
    name = serializers.CharField(
        max_length=80, required=False, allow_blank=True, default="", help_text="a walk-in"
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("player" in attrs) == bool(attrs.get("name")):
            raise serializers.ValidationError("Give either player (an id) or name (a walk-in).")
        return attrs


class DrawInput(serializers.Serializer):
    seed = serializers.IntegerField(
        required=False, min_value=0, help_text="random seeding: the seed to use (recorded)"
    )
    publish = serializers.ChoiceField(
        choices=["none", "first", "all"],
        default="first",
        help_text="the rounds published with the draw: none, round 1 (the later rounds follow "
        "when the round before is complete) or every round; an unpublished round is hidden "
        "from the public and takes no result",
    )


class PublishInput(_PartInput):
    number = serializers.IntegerField(min_value=1, required=False)


class GameInput(serializers.Serializer):
    winner = serializers.ChoiceField(choices=[1, 2], help_text="1: side a, 2: side b")
    points = serializers.IntegerField(min_value=1)
    cube = serializers.IntegerField(min_value=1)


class ResultInput(serializers.Serializer):
    """The final score, or the games one by one (checked against R9-R11), or a walkover."""

    score_a = serializers.IntegerField(min_value=0, required=False, allow_null=True)
    score_b = serializers.IntegerField(min_value=0, required=False, allow_null=True)
    games = GameInput(many=True, required=False)
    expected_version = serializers.IntegerField(required=False, allow_null=True)


class DirectorResultInput(ResultInput):
    walkover_winner = serializers.ChoiceField(
        choices=[("", ""), ("a", "a"), ("b", "b")], default="", required=False
    )


class CorrectionInput(DirectorResultInput):
    reason = serializers.CharField(max_length=500)
    reset_later = serializers.BooleanField(
        default=False,
        help_text="reset the later results that depended on this one (else 409 "
        "later_results_depend)",
    )


class VersionInput(serializers.Serializer):
    expected_version = serializers.IntegerField(required=False, allow_null=True)


class TableInput(serializers.Serializer):
    table = serializers.IntegerField(min_value=1, max_value=999, allow_null=True)


class StartOnlineInput(serializers.Serializer):
    clock = serializers.BooleanField(
        required=False, allow_null=True, default=None, help_text="null: the round's policy"
    )


class OnlineMatchOutput(serializers.Serializer):
    match = serializers.IntegerField()
    url = serializers.CharField()

"""Issue 17: an unpublished round is now hidden from the public and takes no result.
Before, a knockout's rounds were public from the draw whether published or not: every
round of a flight drawn before this migration is marked published (as the public saw
it), so nothing that was shown disappears and no match in play is stopped."""

from django.db import migrations
from django.utils import timezone


def publish_drawn_rounds(apps, schema_editor):
    Flight = apps.get_model("tournaments", "Flight")
    FlightRound = apps.get_model("tournaments", "FlightRound")
    TournamentMatch = apps.get_model("tournaments", "TournamentMatch")
    now = timezone.now()
    for flight in Flight.objects.exclude(status="registration").iterator():
        keys = set(
            TournamentMatch.objects.filter(flight=flight).values_list("part", "round").distinct()
        )
        rows = {(r.part, r.number): r for r in FlightRound.objects.filter(flight=flight)}
        for part, number in sorted(keys):
            row = rows.get((part, number))
            if row is None:
                FlightRound.objects.create(
                    flight=flight,
                    part=part,
                    number=number,
                    match_length=flight.match_length,
                    clock_preset=flight.clock_preset,
                    clock_policy=flight.clock_policy,
                    published_at=now,
                )
            elif row.published_at is None:
                row.published_at = now
                row.save(update_fields=["published_at"])


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0009_lateness")]

    operations = [migrations.RunPython(publish_drawn_rounds, migrations.RunPython.noop)]

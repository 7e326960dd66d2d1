"""The stored brackets name each slot's part ``part`` (it was ``flight``, a word that
also names the event's divisions, :class:`tournaments.models.Flight`).

``tournaments.pairing.Slot.from_dict`` still reads the old key, for the migration before
this one (0003 reads the stored brackets with the live pairing code).
"""

from django.db import migrations


def _rename_key(apps, old, new):
    Flight = apps.get_model("tournaments", "Flight")
    for flight in Flight.objects.filter(bracket__isnull=False).only("pk", "bracket").iterator():
        slots = flight.bracket.get("slots") if isinstance(flight.bracket, dict) else None
        if not slots or not any(old in slot for slot in slots):
            continue
        flight.bracket["slots"] = [
            {(new if key == old else key): value for key, value in slot.items()} for slot in slots
        ]
        flight.save(update_fields=["bracket"])


def flight_to_part(apps, schema_editor):
    _rename_key(apps, "flight", "part")


def part_to_flight(apps, schema_editor):
    _rename_key(apps, "part", "flight")


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0003_entry_place"),
    ]

    operations = [
        migrations.RunPython(flight_to_part, part_to_flight, elidable=True),
    ]

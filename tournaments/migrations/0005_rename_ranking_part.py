"""The part of a flight a round or a match belongs to is its ``part`` (it was called
``ranking``, the word that names a group of parts with one finishing order).

A rename of the column; the data stay as they are. The unique constraint
``flight_round_unique`` (flight, part, number) and the rounds' ordering name the field
too: PostgreSQL (and SQLite) carry a renamed column into the constraint by themselves,
so the constraint changes in Django's state only, not in the database (dropping and
building the index again would be work for nothing).
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0004_bracket_slot_part"),
    ]

    operations = [
        migrations.RenameField(model_name="flightround", old_name="ranking", new_name="part"),
        migrations.RenameField(model_name="tournamentmatch", old_name="ranking", new_name="part"),
        migrations.AlterModelOptions(
            name="flightround",
            options={
                "ordering": ["flight", "part", "number"],
                "verbose_name": "round",
                "verbose_name_plural": "rounds",
            },
        ),
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveConstraint(model_name="flightround", name="flight_round_unique"),
                migrations.AddConstraint(
                    model_name="flightround",
                    constraint=models.UniqueConstraint(
                        fields=("flight", "part", "number"), name="flight_round_unique"
                    ),
                ),
            ],
        ),
    ]

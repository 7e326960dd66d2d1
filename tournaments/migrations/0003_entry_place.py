"""Entries keep their final place (issue 8: the player page lists a player's
tournaments with their places without computing brackets).

The services write the places from now on (``tournaments.services.advancing._store_places``);
this migration fills them in for the flights drawn before, from the same pure
functions (:mod:`tournaments.pairing`, no framework code) and the historical models.
"""

from django.db import migrations, models

#: Flight format -> the pairing package's bracket format (``models.BRACKET_FORMATS``
#: as it is now: a migration keeps its own copy).
BRACKET_FORMATS = {
    "single_elimination": "single",
    "consolation": "consolation",
    "progressive_consolation": "progressive",
    "last_chance": "last_chance",
    "double_elimination": "double",
}


def store_places(apps, schema_editor):
    # Only the pure pairing package is imported. The rows-to-pairing adapter below (seeds,
    # withdrawals, results; the Swiss results) is a frozen copy of the one in
    # ``tournaments.bridge``, on purpose: that module imports the live models, and a
    # migration must run on the historical ones (``apps.get_model``), whatever later
    # migrations change (0005 renames the ``ranking`` column, for one).
    from tournaments import pairing

    Flight = apps.get_model("tournaments", "Flight")
    Entry = apps.get_model("tournaments", "Entry")
    TournamentMatch = apps.get_model("tournaments", "TournamentMatch")
    for flight in Flight.objects.exclude(status="registration").order_by("pk").iterator():
        entries = list(Entry.objects.filter(flight_id=flight.pk))
        rows = list(TournamentMatch.objects.filter(flight_id=flight.pk).order_by("pk"))
        decided = [m for m in rows if m.decided_at is not None and m.winner]
        if flight.format in BRACKET_FORMATS:
            if not flight.bracket:
                continue
            bracket = pairing.Bracket.from_dict(flight.bracket)
            seeds = [e.pk for e in sorted(entries, key=lambda e: e.seed or 0) if e.seed]
            withdrawn = {e.pk for e in entries if e.status == "withdrawn"}
            results = {
                m.slot_key: pairing.Result(m.winner, walkover=m.status == "walkover")
                for m in decided
            }
            resolved = pairing.resolve(bracket, seeds, results, withdrawn)
            orders = pairing.finishing_order(bracket, resolved)
            places = pairing.entrant_places(orders, main=next(iter(bracket.rankings())))
        elif flight.status == "finished":
            seeded = sorted((e for e in entries if e.seed), key=lambda e: e.seed)
            results = []  # as tournaments.bridge.match_results
            for m in rows:
                if m.status == "bye" and m.entry_a_id is not None:
                    results.append(pairing.MatchResult(m.entry_a_id, None, m.entry_a_id))
                elif m.decided_at is not None and m.entry_a_id and m.entry_b_id and m.winner:
                    winner = m.entry_a_id if m.winner == "a" else m.entry_b_id
                    results.append(
                        pairing.MatchResult(
                            m.entry_a_id, m.entry_b_id, winner, m.score_a or 0, m.score_b or 0
                        )
                    )
            table = pairing.standings(
                [e.pk for e in seeded],
                results,
                order=flight.options.get("tiebreaks", pairing.DEFAULT_ORDER),
            )
            orders = {"": pairing.standings_places(table, final=True)}
            places = pairing.entrant_places(orders, main="")
        else:
            continue
        changed = []
        for entry in entries:
            p = places.get(entry.pk)
            if p is not None:
                entry.place, entry.place_label = p.place, p.label
                entry.side_part, entry.side_place_label = p.side_part, p.side_label
                changed.append(entry)
        Entry.objects.bulk_update(
            changed, ["place", "place_label", "side_part", "side_place_label"]
        )


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0002_event_rated"),
    ]

    operations = [
        migrations.AddField(
            model_name="entry",
            name="place",
            field=models.PositiveSmallIntegerField(blank=True, null=True, verbose_name="place"),
        ),
        migrations.AddField(
            model_name="entry",
            name="place_label",
            field=models.CharField(blank=True, max_length=10, verbose_name="place (as shown)"),
        ),
        migrations.AddField(
            model_name="entry",
            name="side_part",
            field=models.CharField(blank=True, max_length=20, verbose_name="other part"),
        ),
        migrations.AddField(
            model_name="entry",
            name="side_place_label",
            field=models.CharField(
                blank=True, max_length=10, verbose_name="place in the other part"
            ),
        ),
        migrations.RunPython(store_places, migrations.RunPython.noop, elidable=True),
    ]

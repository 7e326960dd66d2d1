"""The test database's flush (tests/postgresql/base.py): DELETE with the triggers off for
that transaction only; every table empty after it, the guards back on."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.core.management import call_command
from django.db import IntegrityError, connection, transaction

from games.models import GameAction
from games.play import services
from games.play.dice import ScriptedDice
from tests.factories import PlayerFactory


@pytest.mark.django_db(transaction=True)
def test_the_flush_empties_every_table_and_leaves_the_guards_on():
    assert connection.ops.sql_flush(None, ["games_game"])[0].startswith("SET LOCAL")
    players = (PlayerFactory(), PlayerFactory())
    match = services.match_create(player1=players[0], player2=players[1], length=3)
    services.match_start(match_id=match.pk, dice=ScriptedDice([3, 1]))
    assert GameAction.objects.exists()  # rows the append-only trigger guards

    call_command("flush", "--noinput", verbosity=0, inhibit_post_migrate=True)

    left = {m._meta.db_table: m.objects.count() for m in apps.get_models() if m._meta.managed}
    assert not {table: n for table, n in left.items() if n}, left
    # SET LOCAL ended with the flush's transaction: the action log is append-only again.
    players = (PlayerFactory(), PlayerFactory())
    services.match_start(
        match_id=services.match_create(player1=players[0], player2=players[1], length=1).pk,
        dice=ScriptedDice([3, 1]),
    )
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        GameAction.objects.all().delete()

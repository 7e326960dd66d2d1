"""The database's own zero-sum guard (R13): on PostgreSQL a deferred constraint trigger
refuses, at commit, a game whose ledger lines do not sum to zero, however they were
written (behind the service's back: ORM ``bulk_create``, an ``update``, raw SQL). A
balanced game written the same way is accepted: the check is the sum, not the route."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction

from chouette.models import ChouetteEvent, ChouetteLine
from chouette.services.games import game_record
from tests.chouette.factories import players, session_with, simple_entry

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="the trigger is PostgreSQL's"),
]


@pytest.fixture
def game():
    cast = players(with_login=False)
    session = session_with(cast)
    event = game_record(session_id=session.pk, by=session.created_by, entry=simple_entry(session))
    return session, event, cast


def _event(session, seq=99) -> ChouetteEvent:
    return ChouetteEvent.objects.create(
        session=session, seq=seq, kind="game", data={"written": "behind the service"}
    )


def _unbalanced_bulk_create(session, cast, seen: list[int]) -> None:
    with transaction.atomic():
        event = _event(session)
        ChouetteLine.objects.bulk_create(
            [
                ChouetteLine(session=session, event=event, player=cast["Bob"], points=4),
                ChouetteLine(session=session, event=event, player=cast["Ann"], points=-3),
            ]
        )
        # Deferred: inside the transaction the rows are there...
        seen.append(ChouetteLine.objects.filter(event=event).count())
    # ...the commit is refused (below) and rolls everything back.


def test_unbalanced_bulk_create_is_refused_at_commit(game) -> None:
    session, _, cast = game
    count = ChouetteLine.objects.count()
    seen: list[int] = []
    with pytest.raises(IntegrityError, match="does not sum to zero"):
        _unbalanced_bulk_create(session, cast, seen)
    assert seen == [2]
    assert ChouetteLine.objects.count() == count
    assert not ChouetteEvent.objects.filter(seq=99).exists()


def _raw_insert(session, cast) -> None:
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO chouette_chouetteline (session_id, event_id, player_id, points) "
            "VALUES (%s, %s, %s, 1)",
            [session.pk, _event(session).pk, cast["Bob"].pk],
        )


def test_raw_sql_insert_and_update_are_refused(game) -> None:
    session, event, cast = game
    with pytest.raises(IntegrityError, match="does not sum to zero"):
        _raw_insert(session, cast)
    # Changing one line of a recorded game unbalances it.
    line = event.lines.first()
    with pytest.raises(IntegrityError), transaction.atomic():
        ChouetteLine.objects.filter(pk=line.pk).update(points=line.points + 1)
    # Deleting one line of a game too.
    with pytest.raises(IntegrityError), transaction.atomic():
        ChouetteLine.objects.filter(pk=line.pk).delete()
    assert sum(event.lines.values_list("points", flat=True)) == 0
    assert event.lines.count() == 5


def _immediate_update(event, cast, reached: list[str]) -> None:
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS chouette_line_zero_sum IMMEDIATE")
        ChouetteLine.objects.filter(event=event, player=cast["Bob"]).update(points=100)
        reached.append("after the update")  # never: the statement itself fails


def test_balanced_rows_pass_and_the_check_can_be_made_immediate(game) -> None:
    session, event, cast = game
    with transaction.atomic():
        other = _event(session)
        ChouetteLine.objects.bulk_create(
            [
                ChouetteLine(session=session, event=other, player=cast["Bob"], points=2),
                ChouetteLine(session=session, event=other, player=cast["Ann"], points=-2),
            ]
        )
    assert other.lines.count() == 2
    # SET CONSTRAINTS ... IMMEDIATE makes the trigger fire at once, inside the block.
    reached: list[str] = []
    with pytest.raises(IntegrityError, match="does not sum to zero"):
        _immediate_update(event, cast, reached)
    assert reached == []
    # Deleting the whole session (every line of every game) is fine.
    session.delete()
    assert ChouetteLine.objects.count() == 0

"""Signals of the shared core, for the apps built on it (``games`` imports none of them).

``match_finished``: sent with ``match`` (a :class:`~games.models.Match`, already saved as
finished, winner and scores set) inside the transaction of the game action that ended
the match. Receivers run in that transaction: one that must not undo the move on its own
failure guards itself (a savepoint, its errors logged).

``match_recorded``: sent with ``match`` when a match played elsewhere was recorded from a
``.mat`` file (games.play.interchange), inside the import's transaction, finished or not.
"""

from django.dispatch import Signal

match_finished = Signal()
match_recorded = Signal()

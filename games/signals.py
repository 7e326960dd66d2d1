"""Signals of the shared core, for the apps built on it (``games`` imports none of them).

``match_finished``: sent with ``match`` (a :class:`~games.models.Match`, already saved as
finished, winner and scores set) inside the transaction of the game action that ended
the match. Receivers run in that transaction: one that must not undo the move on its own
failure guards itself (a savepoint, its errors logged).

``match_recorded``: sent with ``match`` when a match played elsewhere was recorded from a
``.mat`` file (games.play.interchange), inside the import's transaction, finished or not.

``bot_invited``: sent with ``invitee`` (a computer player, ``Player.bot`` set) and
``level`` by :func:`games.play.invitations.invitation_send` before it invites a computer
player. The app that plays it (games.practice) refuses by raising an
:class:`~games.errors.ApplicationError` (e.g. its engine is not available here): the
invitation is then not made.

``bot_game_changed``: sent with ``game_id``, ``version`` and ``match_id`` inside the
transaction that stored an action of a game of a match against a computer player
(``Match.bot_level`` set), or began such a game. The app that plays it schedules its
turn after commit (games.practice); play itself never imports that app.

``bot_status``: sent (``send``, whose answers are read) by the pages and the API that
offer the computer opponent. The app that plays it answers ``(player, reason)``: the
computer player's account (made when first needed) and, when it cannot play here, why
(for people), else ``None``. No receiver: no computer opponent is offered.
"""

from django.dispatch import Signal

match_finished = Signal()
match_recorded = Signal()
bot_invited = Signal()
bot_game_changed = Signal()
bot_status = Signal()

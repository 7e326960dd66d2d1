"""Writes of chouette: sessions, seat changes, games, undo, the end; and the summary.

One module per part of the job; a caller imports the one it uses (this package
re-exports nothing, like :mod:`tournaments.services`):

* :mod:`~chouette.services.sessions` - start a session (the roll-off, or a seating
  already known), split it in two, end and reopen it;
* :mod:`~chouette.services.seating` - seat changes between games: a newcomer joins (a
  member, or a guest made on the spot), sitting out and coming back, the seating set by
  hand;
* :mod:`~chouette.services.joining` - joining from a phone with the join code, a fresh
  code;
* :mod:`~chouette.services.proxies` - a player's proxy named or cleared;
* :mod:`~chouette.services.games` - a game previewed, recorded (typed in, or played
  online), undone, corrected in its place;
* :mod:`~chouette.services.summary` - the totals and the summary (who pays whom);
* :mod:`~chouette.services.common` - what they share: who may write, the lock and the
  version, the ledger replayed, a new log row, the rules' refusals as application errors.

The submodules import each other without cycles (an import-linter contract checks it):
``common`` <- every other; ``seating`` <- ``joining`` <- ``sessions``.

House rules (docs/architecture.md), as they apply here:

* Every write is one transaction, takes keyword-only arguments, checks who may do it,
  validates everything first and raises an :class:`~games.errors.ApplicationError`
  (which rolls the transaction back, so a refused write changes nothing).
* **One lock per session**: every write locks the :class:`ChouetteSession` row
  (``select_for_update``), checks an optional ``expected_version`` (409
  ``stale_version``) and bumps ``version``. Two games entered at once from two phones
  are recorded one after the other, and the second, stale one is refused. Once the
  write commits, the scoreboards that follow the session redraw (``chouette:<id>``,
  :mod:`chouette.live`).
* **Gather, compute purely, persist**: the ledger is replayed from the stored events
  (:meth:`chouette.rules.Ledger.replay`), the pure rules validate and settle the new
  event, and these modules store what they return: the event, its ledger lines, the new
  seating.

Who may start a session and write to it (issue 16: a stranger could start a session of
other members and record stakes in their names): **a member of the session** (the user's
player is among its players, seated or sitting out), **the club's scorekeeper** (the
``chouette.keep_score`` permission, granted to a user or a group in the admin) and
**staff**. Anyone else gets 403 ``not_in_session`` and nothing is written. Having
started a session is not enough by itself: the writer must still be one of these. An
ended session refuses every write (409 ``session_ended``) until it is reopened
(:func:`~chouette.services.sessions.session_reopen`: the same people, a player only on
the evening of the end).
One write needs none of them: joining from a phone with the session's join code
(:func:`~chouette.services.joining.session_join_by_code`; the code is the capability,
see the comment at the top of :mod:`~chouette.services.joining`).

The zero-sum rule (R13) is checked here before any line is written (400 ``unbalanced``)
and again by PostgreSQL at commit (migration ``0002_zero_sum_trigger``).
"""

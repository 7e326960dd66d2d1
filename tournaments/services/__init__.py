"""Writes of tournaments: events, flights, entries, the draw, rounds and results.

One module per part of the job; a caller imports the one it uses (this package
re-exports nothing, so that each import says what it depends on):

* :mod:`~tournaments.services.events` - create an event, change it, add a director;
* :mod:`~tournaments.services.flights` - create a flight, set a round's length, clock and
  start time;
* :mod:`~tournaments.services.entries` - register (late entries too), withdraw and
  reinstate (issue 29);
* :mod:`~tournaments.services.undraw` - undo a draw until the first result (issue 29);
* :mod:`~tournaments.services.seeding` - the seeds by hand before the draw (issue 29);
* :mod:`~tournaments.services.draw` - the draw, Swiss pairings, publishing rounds;
* :mod:`~tournaments.services.advancing` - after every change: the bracket's rows in step
  with the pairing package, tables, notices, places, the flight's and event's status;
* :mod:`~tournaments.services.results` - enter, report, confirm and correct results,
  tables, the rating ledger;
* :mod:`~tournaments.services.disputes` - a disputed match (two reports that differ)
  decided by a director, audited (issue 29);
* :mod:`~tournaments.services.online` - a tournament match played online, and its result;
* :mod:`~tournaments.services.lateness` - a flight's lateness rule, a late player's
  penalty (the opponent's starting score) or forfeit (docs/rules.md R15);
* :mod:`~tournaments.services.desk` - check-in, the entry fee paid, the draw of the
  checked-in players only;
* :mod:`~tournaments.services.registration` - players' own registration, the director's
  confirmation, the capacity and the waitlist;
* :mod:`~tournaments.services.money` - a flight's money settings (fee, house cut, split,
  the event's currency) and its side pools (issue 17);
* :mod:`~tournaments.services.roundgrid` - every round's settings of a flight in one
  all-or-none save (issue 29);
* :mod:`~tournaments.services.bulkentries` - many players entered at once, each through
  ``entries.entry_register`` (issue 29);
* :mod:`~tournaments.services.common` - what they share: locks, version checks, who may
  do what, the pairing package's errors as application errors.

The submodules import each other without cycles (an import-linter contract checks it):
``common`` <- ``advancing`` <- ``entries``, ``draw``, ``results`` <- ``online``,
``lateness``, ``disputes``; ``events``, ``flights``, ``money`` and ``registration`` need
``common`` only (``entries`` uses ``registration``); ``desk`` uses ``draw``; ``roundgrid``
uses ``flights``, ``bulkentries`` uses ``entries``.

House rules (docs/architecture.md), as they apply here:

* Every service is one transaction, takes keyword-only arguments, checks who may do it,
  validates everything first, and raises an :class:`~games.errors.ApplicationError`
  (which rolls the transaction back, so a refused write changes nothing).
* **One lock per flight**: every write that touches a flight's entries, matches or
  results first locks the :class:`~tournaments.models.Flight` row (``select_for_update``)
  and bumps its ``version``. A result moves other matches of the same bracket, so the
  flight is the aggregate; two results of one flight are recorded one after the other.
  Match writes also take an optional ``expected_version`` of the match row (409
  ``stale_version`` when it moved).
* **Gather, compute purely, persist**: the draw, the bracket's sides and states, Swiss
  pairings, result checks and standings come from :mod:`tournaments.pairing` (through
  :mod:`tournaments.bridge`); these modules store what it returns.

Who may do what: only the event's directors (or superusers) change an event; creating an
event needs the ``tournaments.add_event`` permission, and the creator becomes its first
director. A player may report, and confirm the opponent's report of, their own matches,
and start them online.

Results: a result **stands** (``decided_at`` set) when a director enters or confirms it,
when both players' reports agree, when the opponent confirms a report, or when the online
match finishes (``games.signals.match_finished``). Then the flight **advances** at once:
the bracket is resolved again (:func:`tournaments.pairing.resolve`), rows whose sides
became known turn ``ready`` (byes and walkovers after withdrawals resolve themselves), get
the lowest free table of the event, and both players get a ``match_ready`` notification.

Corrections (:func:`~tournaments.services.results.result_correct`) are audited
(:class:`~tournaments.models.ResultCorrection`) and re-advance the bracket; one that would
change the players of a later match that already has a result, a report or an online
match is refused (409 ``later_results_depend``): correct those first, latest first.

Ratings: a result that stands goes into the rating ledger (:mod:`games.ratings.services`, key
``"tmatch:<id>"``), rated when ``Event.rated`` (and the ``tournament`` source's setting)
says so, counting from when it first stood (an online match: from when it finished). A
walkover or bye is not rated. A correction changes the ledger's result in its place and
so replays the ratings from there; a reset takes the result out. The online match of a
tournament match is ``played_for`` it, so it is not rated a second time as a casual match.
Whether an event is rated can be changed (:func:`~tournaments.services.events.event_update`)
only while none of its results is in the ledger (409 ``event_has_results`` after).

Places (issue 8): every change to a flight
(:func:`~tournaments.services.advancing.advance`: results, corrections and their resets,
withdrawals, late entries, the draw) stores each entry's final place (``Entry.place``,
``place_label``, ``side_part``, ``side_place_label``) from the same resolution of the
bracket (or, for a finished Swiss / round robin, its standings), and
clears the place of an entrant back in the running. Only the entries whose place changed
are written (usually one ``UPDATE``, none when nothing did). So the player page reads
places; it does not compute brackets.
"""

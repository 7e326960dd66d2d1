"""Chouette pages: the session list and a new session; the live scoreboard (phone, and
``?wall=1`` for a big screen); the game entry from a phone with **Preview** before
**Save**; seat changes, undo and the end; the summary with the fewest transfers; a
player's totals per session.

Plain Django function views, like :mod:`tournaments.pages`. Every page works without
JavaScript: each action is a form post to the same services the API uses
(:mod:`chouette.services`), answered by a redirect (POST-redirect-GET) and, when a
service refuses, the error's human message through :mod:`django.contrib.messages`
(:func:`games.web.act_and_redirect`; the new session's form and the game entry are
rendered again with status 400 instead, keeping what was typed). The game entry's
**Preview** is the one post answered with a page: it saves nothing and shows the same
form again with every player's points (and **Add an extra**, which also saves nothing,
shows it again with one more extra row: no script needed). The scoreboard and its
wall follow the session live (``chouette:<id>``, :mod:`chouette.live`): a game saved
from one phone appears on every other screen without a reload.

Who sees what: anyone reads the list, a scoreboard, a summary and a player's totals.
The session's players with a login, the club's scorekeeper (``chouette.keep_score``)
and staff (:func:`chouette.services.common.may_write`) get the forms; anonymous users
are sent to log in, anyone else gets 403 and a page that says who may (the services
check again). A new session is started by one of its players, the scorekeeper or staff:
anyone else sees the refusal in the page, with the form as they filled it (403).

Join from a phone (issue 19): the scoreboard and the wall show the session's join code
and its QR code to the session's writers (those at the table; anyone may open a
scoreboard from anywhere); ``/chouette/join/`` takes the code from anyone (the code is
the capability: :mod:`chouette.services.joining`), throttled, and ``/chouette/<id>/me/`` shows the
player's own running total live (a guest's phone is remembered by a signed cookie).

One module per page group, like :mod:`tournaments.pages`; this package re-exports
nothing (:mod:`chouette.urls` names each view by its module):

* :mod:`~chouette.pages.sessions` - the list, a new session, the summary;
* :mod:`~chouette.pages.scoreboard` - the scoreboard and its wall;
* :mod:`~chouette.pages.actions` - the posts of the scoreboard's forms;
* :mod:`~chouette.pages.entry` - the game entry, and a typed game corrected;
* :mod:`~chouette.pages.joining` - join with the code, and a player's own total;
* :mod:`~chouette.pages.common` - what they share: labels, the writers' guard, the
  posted version, a game's notes in words, the summary's context.
"""

"""Tournament pages: the public event, bracket, pairings, standings and finishing order;
the director's pages that run the day; a player's own result report.

Plain Django function views, like :mod:`games.play.pages`. Every page works without
JavaScript: each action is a form post to the same services the API uses
(:mod:`tournaments.services`), answered by a redirect (POST-redirect-GET) and, when a
service refuses, the error's human message through :mod:`django.contrib.messages`: one
shape for every post, :func:`games.web.act_and_redirect` (through
:func:`tournaments.pages.common.act`, with the tournaments' wording of a refusal). A form
that must keep what was typed (a new event) is rendered again instead, with status 400.

One module per audience, like the URLs (:mod:`tournaments.urls`), after Tabbycat's
``urls_public.py``; this package re-exports nothing:

* :mod:`~tournaments.pages.public` - what anyone reads, and the player page's section;
* :mod:`~tournaments.pages.player` - a player's posts on their own matches;
* :mod:`~tournaments.pages.director` - the director's pages and posts;
* :mod:`~tournaments.pages.desk` - the check-in desk, a player's check-in with the
  event's code, self-registration;
* :mod:`~tournaments.pages.wall` - what the wall display adds, and the QR code to a
  flight's page;
* :mod:`~tournaments.pages.paper` - the printed sheets as PDF (WeasyPrint);
* :mod:`~tournaments.pages.forms` - the forms of the director's pages;
* :mod:`~tournaments.pages.common` - what they share: part names, the result typed
  into a form, how a refusal is shown.

Who sees what:

* anyone: the event list, an event, a flight (bracket as SVG, ``?wall=1`` for a wall
  display, pairings and results per round as tables, standings, finishing order and its
  CSV; the draw sheet, round sheets and standings as PDF);
* the event's directors (or superusers): the event's admin page, a flight's admin page
  and a match's admin page, and every director post. Anonymous users are sent to log
  in, anyone else gets 403 (the services check again);
* a player (``request.user.player``): on the flight page, a report form and a confirm
  button for their own open matches only.

The flight page reads everything in the four queries of
:func:`tournaments.selectors.flight_bracket` (plus the session's), whatever the field
size: the bracket is resolved, laid out and drawn in Python
(:mod:`tournaments.bracketview`).
"""

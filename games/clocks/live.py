"""Table clocks, live: the ``clocks:all`` and ``tableclock:<id>`` topics (games.live).

``clocks:all`` is the director's list of live clocks (``/clocks/``): touched by every
write of a table clock (created, started, tapped, paused, resumed, finished, flagged) and,
since the list shows the running clocks of online games too, by every action of a clocked
online game (:func:`games.play.live.publish_actions`, which also covers a flag recorded
by the alarms). ``tableclock:<id>`` is one clock's tablet page: a second device showing
the same clock follows the taps (``static/games/tableclock.js`` reads the clock again).

Who may follow them: anyone, as anyone may read those pages; a clock that does not exist
is refused, and ``clocks`` has the one key ``all``.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.clocks import selectors
from games.errors import NotFound
from games.live import publish
from games.live.topics import int_key, register_topic
from games.play.live import CLOCK_LIST_TOPIC


def table_clock_topic(clock_id: int) -> str:
    return f"tableclock:{clock_id}"


def table_clock_changed(clock_id: int) -> None:
    """A table clock changed (after commit): its tablet pages and the list."""
    publish.touch(table_clock_topic(clock_id), CLOCK_LIST_TOPIC)


def clock_list_changed() -> None:
    publish.touch(CLOCK_LIST_TOPIC)


def clocks_authorize(user: Any, key: str) -> None:
    if key != "all":
        raise NotFound("unknown_topic", _("There is nothing to follow by this name."))


def table_clock_authorize(user: Any, key: str) -> None:
    selectors.table_clock_get(clock_id=int_key(key))  # NotFound when there is none


def register() -> None:
    register_topic("clocks", authorize=clocks_authorize)
    register_topic("tableclock", authorize=table_clock_authorize)

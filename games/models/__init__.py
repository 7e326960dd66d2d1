"""The shared core's data, one module per topic, every model importable from here
(``from games.models import Player``, as Django's own pattern and every caller has it):

- ``players.py``: :class:`Player` and the board's orientation;
- ``matches.py``: :class:`Match`, :class:`MatchInvitation`, :class:`Game` and its action
  log :class:`GameAction`, the practice opponent's levels;
- ``notifications.py``: :class:`Notification`, :class:`Webhook`,
  :class:`NotificationDelivery`;
- ``clocks.py``: :class:`TableClock`;
- ``ratings.py``: the rating ledger :class:`RatedResult` and :class:`ClubResult`;
- ``analysis.py``: GNU Backgammon's analysis of a match (issue 28);
- ``signup.py``: the club's settings and people who sign themselves up (issue 30).

One app label (``games``) for all: the modules refer to each other's models by
``"games.<Model>"``, so none imports another, and no migration depends on where a model
is written.
"""

from __future__ import annotations

from games.models import analysis as _analysis
from games.models import clocks as _clocks
from games.models import matches as _matches
from games.models import notifications as _notifications
from games.models import players as _players
from games.models import ratings as _ratings
from games.models import signup as _signup

BoardOrientation = _players.BoardOrientation
Player = _players.Player

BOT_LEVELS = _matches.BOT_LEVELS
Match = _matches.Match
MatchInvitation = _matches.MatchInvitation
Game = _matches.Game
GameAction = _matches.GameAction

NotificationChannel = _notifications.NotificationChannel
Notification = _notifications.Notification
Webhook = _notifications.Webhook
NotificationDelivery = _notifications.NotificationDelivery

TableClock = _clocks.TableClock

RatedResult = _ratings.RatedResult
ClubResult = _ratings.ClubResult

DecisionAnalysis = _analysis.DecisionAnalysis
MatchAnalysis = _analysis.MatchAnalysis
PlayerAnalysis = _analysis.PlayerAnalysis

ClubSettings = _signup.ClubSettings
SignUp = _signup.SignUp
SignupMode = _signup.SignupMode

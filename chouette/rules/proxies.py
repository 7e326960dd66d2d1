"""Proxies: an absent member's cube decisions taken by another player (issue 19).

A club rule where R13 is silent (the Cambridge club's chouette rules: "if a team member
has cause to leave the table, they may nominate a proxy to make cube decisions on their
behalf"). A member stepping away keeps their seat and their cube; the **proxy** they name
takes their cube decisions (doubles, takes, drops, beavers) until the proxy is cleared.

Terms and decisions:

* ``proxies`` maps a player to their proxy (both participants of the session).
* A proxy is **another participant** of the session (``proxy_self``,
  ``proxy_not_in_session``); sitting out does not matter (the proxy may be at the table
  while sitting out, and a member sitting out has no cube to answer for).
* **No chains** (``proxy_chained``): the proxy must not be away themselves (have a proxy),
  and a player who answers for someone is at the table, so cannot name a proxy.
* A proxy who sits on the **box's side** of a game (the box, or the box's partner) does
  not answer for the member in that game: nobody answers for their opponent's cube
  (:func:`game_proxies`). The member's cube is then played as the captain's
  (the Cambridge rule when no proxy is named) - which is the software's part to apply
  where it plays cube decisions online, not here.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from chouette.rules.common import ChouetteError, PlayerId, check_player
from chouette.rules.profile import Profile
from chouette.rules.seating import Seating


def check_proxies(proxies: Mapping[PlayerId, PlayerId]) -> None:
    """Refuse a mapping with a self-proxy (``proxy_self``) or a chain (``proxy_chained``)."""
    for player, proxy in proxies.items():
        check_player(player)
        check_player(proxy, "proxy")
        if player == proxy:
            raise ChouetteError("proxy_self", f"{player!r} cannot be their own proxy")
        if proxy in proxies:
            raise ChouetteError(
                "proxy_chained", f"{proxy!r} answers for {player!r} but is away themselves"
            )


def set_proxy(
    proxies: Mapping[PlayerId, PlayerId],
    participants: Collection[PlayerId],
    player: PlayerId,
    proxy: PlayerId | None,
) -> dict[PlayerId, PlayerId]:
    """The proxies after ``player`` names ``proxy`` (``None``: clears theirs)."""
    check_player(player)
    if player not in participants:
        raise ChouetteError("not_a_participant", f"{player!r} is not in the session")
    out = {p: q for p, q in proxies.items() if p != player}
    if proxy is None:
        return out
    check_player(proxy, "proxy")
    if proxy == player:
        raise ChouetteError("proxy_self", f"{player!r} cannot be their own proxy")
    if proxy not in participants:
        raise ChouetteError("proxy_not_in_session", f"{proxy!r} is not in the session")
    if proxy in out:
        raise ChouetteError(
            "proxy_chained", f"{proxy!r} is away themselves (their proxy is {out[proxy]!r})"
        )
    answered = sorted(str(p) for p, q in out.items() if q == player)
    if answered:
        raise ChouetteError(
            "proxy_chained", f"{player!r} answers for {answered}: they are at the table"
        )
    out[player] = proxy
    check_proxies(out)
    return out


def game_proxies(
    proxies: Mapping[PlayerId, PlayerId], seating: Seating, profile: Profile
) -> dict[PlayerId, PlayerId]:
    """The proxies that answer in the next game from ``seating``: for members of the team
    (with a cube), by a proxy who is not on the box's side (the box, the partner)."""
    team = set(seating.team(profile))
    box_side = {seating.box, seating.partner(profile)}
    return {p: q for p, q in proxies.items() if p in team and q not in box_side}

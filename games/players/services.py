"""Writes of a player's own settings: where their home board is drawn, and whether it
switches sides after each match (seed 000, issue 18).

Every write of these takes the player's row lock and bumps ``Player.settings_version``:
the player's form and the API may send the version they read, and a write made against
an older one is refused (409 ``stale_settings``), so a form opened before a match ended
cannot quietly undo the switch that match made.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.db.models import Case, F, Value, When
from django.utils.translation import gettext as _

from games.errors import Conflict, NotFound, ValidationFailed
from games.models import BoardOrientation, Player


def player_settings_update(
    *,
    player_id: int,
    board_orientation: str | None = None,
    switch_sides_after_match: bool | None = None,
    auto_roll: bool | None = None,
    auto_confirm_forced: bool | None = None,
    turn_sound: bool | None = None,
    expected_version: int | None = None,
) -> Player:
    """Change the given settings of a player (``None``: left as it is) and return the
    player as stored. Refused, with nothing changed: an unknown orientation (400
    ``invalid_board_orientation``), a version that is not the stored one (409
    ``stale_settings``, with the current ``version`` and ``board_orientation``)."""
    if board_orientation is not None and board_orientation not in BoardOrientation.values:
        raise ValidationFailed(
            "invalid_board_orientation",
            _("The home board is either bottom right or bottom left."),
            extra={"field": "board_orientation", "choices": list(BoardOrientation.values)},
        )
    with transaction.atomic():
        player = Player.objects.select_for_update().filter(pk=player_id).first()
        if player is None:
            raise NotFound("player_not_found", _("There is no player with this id."))
        if expected_version is not None and expected_version != player.settings_version:
            raise Conflict(
                "stale_settings",
                _(
                    "Your settings changed since you opened them (a match may have "
                    "switched your board's sides): look at them again and save."
                ),
                extra={
                    "version": player.settings_version,
                    "board_orientation": player.board_orientation,
                },
            )
        given: dict[str, Any] = {
            "board_orientation": board_orientation,
            "switch_sides_after_match": switch_sides_after_match,
            "auto_roll": auto_roll,
            "auto_confirm_forced": auto_confirm_forced,
            "turn_sound": turn_sound,
        }
        changes = {name: value for name, value in given.items() if value is not None}
        if changes:
            for name, value in changes.items():
                setattr(player, name, value)
            player.settings_version += 1
            player.save(update_fields=[*changes, "settings_version"])
    return player


def players_switch_sides(*, player_ids: Iterable[int]) -> list[int]:
    """Flip the home board of those of ``player_ids`` who asked for it
    (``switch_sides_after_match``); returns their ids. Called by the service that
    finishes a match, inside its transaction: the match and the switch commit together.
    The rows are locked in id order, so two matches ending at once with a player in
    common queue instead of deadlocking."""
    ids = list(
        Player.objects.select_for_update()
        .filter(pk__in=set(player_ids), switch_sides_after_match=True)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    if ids:
        Player.objects.filter(pk__in=ids).update(
            board_orientation=Case(
                When(board_orientation=BoardOrientation.LEFT, then=Value(BoardOrientation.RIGHT)),
                default=Value(BoardOrientation.LEFT),
            ),
            settings_version=F("settings_version") + 1,
        )
    return ids

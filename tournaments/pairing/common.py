"""Shared vocabulary of the pairing package: entrant ids, the bye, and the error type.

* An **entrant id** is whatever the caller uses to name a player or a team in an event
  (the Django side passes primary keys, tests pass small ints or strings). The package
  never looks inside an id; it only compares and hashes it.
* The **bye** is the empty side of a match: a player paired with it advances without
  playing, and a match lost "to" it has no loser. It is the singleton :data:`BYE`, never
  an entrant id, so no id can be mistaken for it.
* Every refusal is a :class:`PairingError` with a stable ``code`` (the application maps it
  to a translated message and an HTTP status at its edge, as for ``EngineError``).
"""

from __future__ import annotations

from typing import Final, Literal, TypeAlias

EntrantId: TypeAlias = int | str
"""The caller's name for an entrant (a primary key, a name)."""

SideName: TypeAlias = Literal["a", "b"]
"""The two sides of a match slot."""


class Bye:
    """The type of :data:`BYE`; one instance exists."""

    _instance: Bye | None = None

    def __new__(cls) -> Bye:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "BYE"

    def __reduce__(self) -> str:  # pickling keeps the singleton
        return "BYE"


BYE: Final = Bye()
"""The empty side of a match (see the module docstring)."""

Side: TypeAlias = EntrantId | Bye | None
"""Who is on one side of a slot: an entrant, :data:`BYE`, or ``None`` = not known yet."""


class PairingError(Exception):
    """An input the pairing code refuses, with a stable machine-readable ``code``.

    ``message`` is an English explanation for logs and developers, never shown to users
    untranslated; ``slot`` names the bracket slot concerned, when there is one.
    """

    def __init__(self, code: str, message: str, *, slot: str = "") -> None:
        super().__init__(f"{code}: {message}" + (f" (slot {slot})" if slot else ""))
        self.code = code
        self.message = message
        self.slot = slot


def is_entrant(side: Side) -> bool:
    """Whether ``side`` is a real entrant (not a bye, not unknown)."""
    return side is not None and not isinstance(side, Bye)

"""The injected wall clock for tests of clocks: ``games.wallclock.now`` is the one place the
app reads the time (docs/architecture.md "Time and randomness"); the ``wall`` fixture
(tests/conftest.py) replaces it with a clock the test moves by hand."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from games import wallclock

#: Where every test's wall clock starts.
T0 = datetime(2026, 11, 29, 19, 0, 0, tzinfo=UTC)


class Wall:
    """The injected wall clock: tests move it by hand."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.at = T0
        monkeypatch.setattr(wallclock, "now", lambda: self.at)

    def advance(self, **delta: float) -> datetime:
        self.at += timedelta(**delta)
        return self.at

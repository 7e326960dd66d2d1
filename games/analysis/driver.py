"""The driver of GNU Backgammon's analysis: one match's ``.mat`` text in, gnubg's figures out.

gnubg runs as a child process (``GNUBG_PROGRAM -t -q -r -p gnubg_job.py``, its embedded
Python; docs/architecture.md "Analysis" says why this way), niced, with an address-space
limit (``ANALYSIS_MEMORY_LIMIT_MB``) and a wall-clock limit (``analysis_time_limit``);
what it prints is kept up to a bound. Nothing here touches the database.

The per-player figures are gnubg's ``show statistics match`` as printed (its own
definitions: games.models.analysis), read back at more precision from gnubg's match
dictionary wherever the two agree to the printed digits. The dictionary's cube
``error-skill`` is not the printed cube error total (gnubg 1.07 sums something else),
so the cube error is the sum of its six ``err-*-skill`` parts, which is.
"""

from __future__ import annotations

import ctypes
import json
import logging
import os
import queue
import re
import resource
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from django.conf import settings

log = logging.getLogger(__name__)

JOB_SCRIPT = Path(__file__).with_name("gnubg_job.py")
#: What is kept of gnubg's stdout and stderr (the rest is read and dropped).
OUTPUT_BOUND = 64 * 1024
PROGRESS = re.compile(rb"^@progress (\d+) (\d+)$")
#: What gnubg (or its loader) prints when ``RLIMIT_AS`` stops it.
OUT_OF_MEMORY = (b"memoryerror", b"out of memory", b"cannot allocate", b"failed to map")


class GnubgFailure(Exception):
    """gnubg did not analyse the match. ``retry``: the run was cut short (killed, timed
    out) and may succeed again; otherwise gnubg refused the match (``code``)."""

    def __init__(self, code: str, detail: str, *, retry: bool = False) -> None:
        super().__init__(f"{code}: {detail}")
        self.code, self.detail, self.retry = code, detail, retry


@dataclass
class PlayerFigures:
    """One player's line of ``show statistics match``."""

    name: str
    unforced_moves: int
    total_moves: int
    close_cube_decisions: int
    chequer_error_emg: float
    cube_error_emg: float
    error_total_emg: float
    error_rate_memg: float
    snowie_error_rate: float
    luck_total_emg: float
    luck_rate_memg: float
    #: As gnubg prints it: in a match, the match winning chances the player's result
    #: was worth less the luck, in % (-9.10 is -9.10 %); in money, points per game.
    luck_adjusted_result: float | None
    rating_words: str
    luck_words: str

    @property
    def pr(self) -> float:
        return self.error_rate_memg / 2


@dataclass
class GnubgAnalysis:
    """gnubg's analysis of one match: per player (engine index 0, 1) and per decision
    (per game, in order; dicts as :mod:`games.analysis.gnubg_job` writes them)."""

    version: str
    players: list[PlayerFigures]
    games: list[list[dict[str, Any]]] = field(default_factory=list)


_version_cache: dict[str, str] = {}


def gnubg_version(program: str | None = None) -> str:
    """``GNU Backgammon 1.07.001``: the first line of ``gnubg --version`` (cached)."""
    program = program or settings.GNUBG_PROGRAM
    if program not in _version_cache:
        try:
            out = subprocess.run(  # noqa: S603 - our own setting, no shell
                [program, "--version"], capture_output=True, timeout=20, check=False
            ).stdout.decode("utf-8", "replace")
            first = out.strip().splitlines()[0] if out.strip() else ""
            _version_cache[program] = " ".join(first.split()[:4])[:60]
        except (OSError, subprocess.SubprocessError):
            return ""
    return _version_cache[program]


def analysis_time_limit(*, moves: int) -> float:
    """The wall-clock limit of one run: a base plus a share per checker play (a 2-ply
    decision costs about 60-90 ms of CPU; a whole core is not promised), at most
    ``ANALYSIS_TIME_LIMIT`` seconds."""
    per_move = float(settings.ANALYSIS_TIME_PER_MOVE)
    base = float(settings.ANALYSIS_TIME_BASE)
    return min(float(settings.ANALYSIS_TIME_LIMIT), base + per_move * moves)


def _command(program: str) -> list[str]:
    """gnubg running the job: Debian's program with its embedded Python, or (a
    ``GNUBG_PROGRAM`` named ``python...``) a Python with PyPI's ``gnubg`` module, which
    runs the same job script (docs/architecture.md "Analysis" compares the two)."""
    if Path(program).name.startswith("python"):
        return [program, str(JOB_SCRIPT)]
    return [program, "-t", "-q", "-r", "-p", str(JOB_SCRIPT)]


def _limits() -> None:  # pragma: no cover - runs in the child between fork and exec
    os.nice(10)
    # gnubg dies with the worker that started it (a killed worker leaves no orphan
    # analysing on): Linux's PR_SET_PDEATHSIG (1) with SIGKILL.
    ctypes.CDLL(None).prctl(1, signal.SIGKILL)
    cap = int(settings.ANALYSIS_MEMORY_LIMIT_MB) * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))


def _drain(stream: IO[bytes], keep: bytearray, on_line: Callable[[bytes], None] | None) -> None:
    for line in iter(stream.readline, b""):
        if on_line is not None:
            on_line(line.rstrip(b"\n"))
        if len(keep) < OUTPUT_BOUND:
            keep.extend(line[: OUTPUT_BOUND - len(keep)])
    stream.close()


def gnubg_analyse(
    *,
    mat_text: str,
    plies: int,
    timeout: float,
    on_progress: Callable[[int, int], None] | None = None,
    program: str | None = None,
) -> GnubgAnalysis:
    """Analyse one match with gnubg at ``plies``; raise :class:`GnubgFailure`."""
    program = program or settings.GNUBG_PROGRAM
    with tempfile.TemporaryDirectory(prefix="analysis-") as work:
        mat, out, stats = (Path(work) / n for n in ("match.mat", "out.json", "stats.txt"))
        mat.write_text(mat_text, encoding="utf-8")
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": work,  # gnubg writes its settings directory here, not in ours
            "LANG": "C",
            "LC_ALL": "C",  # gnubg's words in English, its numbers with a dot
            "ANALYSIS_MAT": str(mat),
            "ANALYSIS_OUT": str(out),
            "ANALYSIS_STATS": str(stats),
            "ANALYSIS_PLIES": str(plies),
        }
        stdout, stderr = bytearray(), bytearray()

        # The reader thread only notes progress; the caller's callback (which writes to
        # the database) runs here, in the caller's thread and connection.
        reported: queue.SimpleQueue[tuple[int, int]] = queue.SimpleQueue()

        def progress_line(line: bytes) -> None:
            found = PROGRESS.match(line)
            if found:
                reported.put((int(found.group(1)), int(found.group(2))))

        def report() -> None:
            while not reported.empty():
                done, total = reported.get()
                if on_progress is not None:
                    try:
                        on_progress(done, total)
                    except Exception:  # progress is a courtesy: never kills the run
                        log.exception("analysis progress callback failed")

        try:
            child = subprocess.Popen(  # noqa: S603 - our own setting, no shell
                _command(program),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=env,
                cwd=work,
                preexec_fn=_limits,
            )
        except OSError as exc:
            raise GnubgFailure("gnubg_missing", f"{program}: {exc}") from None
        assert child.stdout is not None and child.stderr is not None
        readers = [
            threading.Thread(target=_drain, args=(child.stdout, stdout, None), daemon=True),
            threading.Thread(
                target=_drain, args=(child.stderr, stderr, progress_line), daemon=True
            ),
        ]
        for reader in readers:
            reader.start()
        started = time.monotonic()
        deadline = started + timeout
        try:
            while True:
                try:
                    code = child.wait(timeout=max(0.0, min(0.5, deadline - time.monotonic())))
                    break
                except subprocess.TimeoutExpired:
                    report()
                    if time.monotonic() >= deadline:
                        raise
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
            raise GnubgFailure(
                "timeout", f"gnubg ran longer than {timeout:.0f} s", retry=True
            ) from None
        except BaseException:
            # Celery's soft time limit (or anything else) interrupting the wait: gnubg
            # must not go on analysing for nobody.
            child.kill()
            child.wait()
            raise
        finally:
            for reader in readers:
                reader.join(timeout=5)
        report()
        log.info("gnubg analysed a match at %d-ply in %.1f s", plies, time.monotonic() - started)
        if code < 0:
            raise GnubgFailure("killed", f"gnubg was killed by signal {-code}", retry=True)
        if not out.exists():
            tail = bytes(stderr[-2000:] or stdout[-2000:]).decode("utf-8", "replace")
            said = bytes(stderr).lower()
            if any(sign in said for sign in OUT_OF_MEMORY):
                # The same match needs the same memory: no second run.
                raise GnubgFailure("out_of_memory", tail)
            raise GnubgFailure("gnubg_error", f"gnubg exited with {code}: {tail}")
        result = json.loads(out.read_text(encoding="utf-8"))
        if "error" in result:
            raise GnubgFailure(result["error"], result.get("detail", ""))
        printed = stats.read_bytes()
    players = statistics_parse(printed, result.get("stats") or [None, None])
    return GnubgAnalysis(version=gnubg_version(program), players=players, games=result["games"])


# ------------------------------------------------------------------------ the statistics
_NUMBER = r"([-+]?\d+(?:\.\d+)?)"


def _rows(text: bytes) -> dict[str, list[str]]:
    """``show statistics match`` as {"section|label": [column 1, column 2]}: gnubg
    prints the label, then the two players' values, from byte 41 and byte 65 (padded in
    bytes: a name with accented letters is shorter in characters)."""
    rows: dict[str, list[str]] = {}
    section = ""
    for line in text.splitlines():
        if not line.strip():
            continue
        if line.rstrip().endswith(b"statistics") and len(line.rstrip()) < 40:
            section = line.strip().decode("ascii", "replace")
            continue
        label, first, second = (
            part.decode("utf-8", "replace").strip() for part in (line[:41], line[41:65], line[65:])
        )
        rows[f"{section}|{label}"] = [first, second]
    return rows


def _first_number(value: str) -> float:
    """The first number of a printed value; 0 for gnubg's "n/a" (no decision to rate)."""
    found = re.search(_NUMBER, value)
    if not found:
        if value.strip().lower().startswith("n/a"):
            return 0.0
        raise GnubgFailure("statistics_unreadable", f"no number in {value!r}")
    return float(found.group(1))


def _precise(printed: float, exact: float | None, digits: int) -> float:
    """``exact`` (from gnubg's dictionary) when it rounds to what gnubg printed."""
    if exact is not None and abs(round(exact, digits) - printed) <= 1.5 * 10**-digits:
        return exact
    return printed


def statistics_parse(text: bytes, stats: list[dict[str, Any] | None]) -> list[PlayerFigures]:
    """The two players' figures from ``show statistics match`` (and gnubg's dictionary
    ``stats`` for the digits it does not print)."""
    rows = _rows(text)
    names = rows.get("|Player")
    if not names:
        raise GnubgFailure("statistics_unreadable", "gnubg printed no statistics")

    def get(section: str, label: str, column: int) -> str:
        # By the label's start: a money session prints "EMG (Points)" where a match
        # prints "EMG (MWC)".
        for key, values in rows.items():
            if key.startswith(f"{section}|{label}"):
                return values[column]
        raise GnubgFailure("statistics_unreadable", f"no {section} {label}")

    figures = []
    for column in (0, 1):
        extra = stats[column] if column < len(stats) else None
        moves = (extra or {}).get("moves", {})
        cube = (extra or {}).get("cube", {})
        dice = (extra or {}).get("dice", {})
        cube_parts = [v for k, v in cube.items() if k.startswith("err-") and k.endswith("-skill")]
        chequer = _precise(
            -_first_number(get("Chequerplay statistics", "Error total EMG", column)),
            moves.get("error-skill"),
            3,
        )
        cube_error = _precise(
            -_first_number(get("Cube statistics", "Error total EMG", column)),
            sum(cube_parts) if cube_parts else None,
            3,
        )
        unforced = int(_first_number(get("Chequerplay statistics", "Unforced moves", column)))
        close = int(_first_number(get("Cube statistics", "Close or actual cube decisions", column)))
        total_moves = int(_first_number(get("Chequerplay statistics", "Total moves", column)))
        other_moves = int(_first_number(get("Chequerplay statistics", "Total moves", 1 - column)))
        total = _precise(
            -_first_number(get("Overall statistics", "Error total EMG", column)),
            chequer + cube_error,
            3,
        )
        decisions = unforced + close
        rate = _precise(
            -_first_number(get("Overall statistics", "Error rate mEMG", column)),
            total / decisions * 1000 if decisions else 0.0,
            1,
        )
        moves_both = total_moves + other_moves
        snowie = _precise(
            -_first_number(get("Overall statistics", "Snowie error rate", column)),
            total / moves_both * 1000 if moves_both else 0.0,
            1,
        )
        luck = _precise(
            _first_number(get("Luck statistics", "Luck total EMG", column)),
            dice.get("luck"),
            3,
        )
        luck_rate = _precise(
            _first_number(get("Luck statistics", "Luck rate mEMG", column)),
            luck / total_moves * 1000 if total_moves else 0.0,
            1,
        )
        try:
            adjusted_text = get("Overall statistics", "Luck adjusted result", column)
        except GnubgFailure:
            # Printed only for a match played to its end (not one lost on time, R12).
            adjusted: float | None = None
        else:
            adjusted = _first_number(adjusted_text)
            exact_adjusted = dice.get("luck-adjusted-result")
            if exact_adjusted is not None and "%" in adjusted_text:
                exact_adjusted *= 100
            adjusted = _precise(adjusted, exact_adjusted, 2)
        figures.append(
            PlayerFigures(
                name=names[column],
                unforced_moves=unforced,
                total_moves=total_moves,
                close_cube_decisions=close,
                chequer_error_emg=chequer,
                cube_error_emg=cube_error,
                error_total_emg=total,
                error_rate_memg=rate,
                snowie_error_rate=snowie,
                luck_total_emg=luck,
                luck_rate_memg=luck_rate,
                luck_adjusted_result=adjusted,
                rating_words=get("Overall statistics", "Overall rating", column)[:40],
                luck_words=get("Luck statistics", "Luck rating", column)[:40],
            )
        )
    return figures

"""The production recipe's files (deploy/): systemd's own check passes on every unit,
each unit is hardened and reads the one environment file, the four Celery queues and
beat have their units, and the environment file template names every setting the
production settings read from the environment."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SYSTEMD = ROOT / "deploy" / "systemd"
ENV_FILE = "/etc/backgammon-club/backgammon-club.env"
HARDENING = (
    "User=backgammon",
    "NoNewPrivileges=yes",
    "PrivateTmp=yes",
    "ProtectSystem=strict",
    "ProtectHome=yes",
    "Restart=on-failure",
    f"EnvironmentFile={ENV_FILE}",
)


def _units() -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(SYSTEMD.glob("*.service"))}


def test_systemd_finds_nothing_wrong_in_the_units(tmp_path: Path) -> None:
    """``systemd-analyze verify`` on the units, the installation's venv replaced by this
    checkout's (it checks that each command exists); any complaint fails."""
    venv_bin = str(Path(sys.executable).parent) + "/"
    for unit in SYSTEMD.iterdir():
        text = unit.read_text(encoding="utf-8").replace("/srv/backgammon-club/.venv/bin/", venv_bin)
        (tmp_path / unit.name).write_text(text)
    done = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", *sorted(p.name for p in tmp_path.iterdir())],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0 and done.stdout + done.stderr == "", done.stdout + done.stderr


def test_every_service_is_hardened_and_reads_the_environment_file() -> None:
    units = _units()
    assert len(units) == 7
    for name, text in units.items():
        lines = set(text.splitlines())
        missing = [line for line in HARDENING if line not in lines]
        assert missing == [], f"{name} lacks {missing}"
        assert "WantedBy=backgammon-club.target" in lines, name
    target = (SYSTEMD / "backgammon-club.target").read_text(encoding="utf-8")
    wanted = {
        w for line in target.splitlines() if line.startswith("Wants=") for w in line[6:].split()
    }
    assert wanted == {n.replace("@.", "@8001.") for n in units}


def test_a_worker_for_each_queue_and_one_beat() -> None:
    units = _units()
    queues = {
        re.search(r" -Q (\w+)", text).group(1): name  # type: ignore[union-attr]
        for name, text in units.items()
        if " worker " in text
    }
    assert set(queues) == {"celery", "notifications", "analysis", "bot"}
    # Mail never takes the clocks' CPU; gnubg's analysis runs below everything else.
    assert "CPUWeight=20" in units[queues["notifications"]].splitlines()
    assert "Nice=10" in units[queues["analysis"]].splitlines()
    beat = units["backgammon-club-beat.service"]
    assert " beat " in beat and "--schedule /var/lib/backgammon-club/" in beat
    assert "StateDirectory=backgammon-club" in beat.splitlines()


def test_the_environment_file_names_every_setting_production_reads() -> None:
    settings = ROOT / "config" / "settings"
    read = set()
    for module in ("base.py", "production.py"):
        text = (settings / module).read_text(encoding="utf-8")
        read |= set(re.findall(r"\benv(?:\.\w+)?\(\s*\"([A-Z][A-Z0-9_]*)\"", text))
    assert {"SECRET_KEY", "DATABASE_URL", "REDIS_URL", "STATIC_ROOT"} <= read
    template = (ROOT / "deploy" / "backgammon-club.env.example").read_text(encoding="utf-8")
    named = set(re.findall(r"^#?([A-Z][A-Z0-9_]*)=", template, flags=re.MULTILINE))
    assert read - named == set(), "not in deploy/backgammon-club.env.example"

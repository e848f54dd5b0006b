"""The deployment files say what docs/deployment.md says: compose waits for the database and
migrates first, the systemd unit is valid, and every setting is in `.env.example` and the docs.
(The Dockerfile's steps are run by .ci/dockerfile_smoke.py; it is linted by hadolint in CI.)"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from bot.settings import Settings

ROOT = Path(__file__).resolve().parents[1]


def test_compose_runs_the_bot_after_a_healthy_database_and_the_migrations() -> None:
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    services = compose["services"]
    assert set(services) == {"db", "migrate", "bot"}
    assert services["db"]["healthcheck"]["test"][-1].startswith("pg_isready")
    assert services["migrate"]["command"] == ["python", "-m", "storage", "migrate"]
    assert services["migrate"]["depends_on"] == {"db": {"condition": "service_healthy"}}
    assert services["bot"]["depends_on"] == {"db": {"condition": "service_healthy"},
                                             "migrate": {"condition": "service_completed_successfully"}}
    assert services["bot"]["environment"]["AUTO_MIGRATE"] == "false"
    assert services["bot"]["environment"]["DATABASE_URL"] == services["migrate"]["environment"]["DATABASE_URL"]
    for name, service in services.items():
        for volume in service.get("volumes", []):
            assert volume.split(":")[0] in compose["volumes"], f"{name}: {volume} is not a named volume"


def test_the_systemd_unit_is_valid(tmp_path: Path) -> None:
    """`systemd-analyze verify` on the unit, /opt/ttr moved to a folder that has a python."""
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed")
    unit = (ROOT / "deploy" / "ttr-bot.service").read_text()
    assert "ExecStart=/opt/ttr/.venv/bin/python -m bot\n" in unit
    assert "ExecStartPre=/opt/ttr/.venv/bin/python -m storage migrate\n" in unit
    (tmp_path / ".venv" / "bin").mkdir(parents=True)
    (tmp_path / "data").mkdir()
    (tmp_path / ".venv" / "bin" / "python").symlink_to(sys.executable)
    (tmp_path / "ttr-bot.service").write_text(unit.replace("/opt/ttr", str(tmp_path)))
    verify = subprocess.run(["systemd-analyze", "verify", str(tmp_path / "ttr-bot.service")],
                            capture_output=True, text=True, timeout=60)
    assert verify.returncode == 0 and "ttr-bot.service" not in verify.stdout + verify.stderr, verify


def test_every_setting_is_in_env_example_and_documented() -> None:
    example = (ROOT / ".env.example").read_text()
    docs = (ROOT / "docs" / "bot.md").read_text() + (ROOT / "docs" / "deployment.md").read_text()
    for name in Settings.model_fields:
        assert f"{name.upper()}=" in example, f"{name.upper()} is missing from .env.example"
        assert re.search(rf"`{name.upper()}[`=]", docs), f"{name.upper()} is not documented"


def test_the_image_copies_every_package_the_project_installs() -> None:
    """A package left out of the Dockerfile's COPY lines installs nothing and fails at start-up."""
    import tomllib

    packages = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]["include"]
    copied = set(re.findall(r"^COPY (\w+) \./\1$", (ROOT / "Dockerfile").read_text(), re.M))
    assert {p.rstrip("*") for p in packages} <= copied

"""`python -m bot` without a token explains what to do instead of crashing."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_missing_token_says_what_to_do(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["PYTHONPATH"] = str(ROOT)
    result = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 2
    assert "DISCORD_TOKEN is not set" in result.stderr
    assert ".env.example" in result.stderr


def test_a_mistyped_setting_is_named_without_a_traceback(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": "x", "FORCE_LANGUAGE": "klingon"}
    result = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 2
    assert "FORCE_LANGUAGE" in result.stderr and "'ru'" in result.stderr
    assert "Traceback" not in result.stderr

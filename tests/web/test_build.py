"""The page's script shipped in the package (bot/web/static/app.js) is the build of its TypeScript
source, and the source type-checks. Needs Node and `npm ci` in bot/web/frontend (CI does both)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

FRONTEND = Path(__file__).resolve().parents[2] / "bot" / "web" / "frontend"
SHIPPED = FRONTEND.parent / "static" / "app.js"

pytestmark = [
    pytest.mark.skipif(shutil.which("npm") is None, reason="no Node.js/npm: the committed build is not checked"),
    pytest.mark.skipif(
        not (FRONTEND / "node_modules" / ".bin" / "esbuild").exists(),
        reason="no esbuild: run `npm ci` in bot/web/frontend to check the committed build",
    ),
]


def npm(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["npm", "run", "--silent", *args], cwd=FRONTEND, capture_output=True, text=True, timeout=120)


def test_the_shipped_script_is_the_build_of_its_source(tmp_path) -> None:
    built = tmp_path / "app.js"
    run = npm("build", "--", f"--outfile={built}")
    assert run.returncode == 0, run.stderr
    assert built.read_bytes() == SHIPPED.read_bytes(), (
        "bot/web/static/app.js differs from its source's build: run `npm run build` in bot/web/frontend and commit it"
    )


def test_the_source_type_checks() -> None:
    run = npm("check")
    assert run.returncode == 0, run.stdout + run.stderr

"""The pages' scripts shipped in the package (bot/web/static/app.js, replay.js) are the build of
their TypeScript source, and the source type-checks. Needs Node and `npm ci` in bot/web/frontend (CI does both)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

FRONTEND = Path(__file__).resolve().parents[2] / "bot" / "web" / "frontend"
STATIC = FRONTEND.parent / "static"
#: Each entry point's bundle (package.json's build): the live table's and the replay's.
SCRIPTS = ("app.js", "replay.js")

pytestmark = [
    pytest.mark.skipif(shutil.which("npm") is None, reason="no Node.js/npm: the committed build is not checked"),
    pytest.mark.skipif(
        not (FRONTEND / "node_modules" / ".bin" / "esbuild").exists(),
        reason="no esbuild: run `npm ci` in bot/web/frontend to check the committed build",
    ),
]


def npm(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["npm", "run", "--silent", *args], cwd=FRONTEND, capture_output=True, text=True, timeout=120)


def test_the_shipped_scripts_are_the_build_of_their_source(tmp_path) -> None:
    run = npm("build", "--", f"--outdir={tmp_path}")
    assert run.returncode == 0, run.stderr
    for name in SCRIPTS:
        assert (tmp_path / name).read_bytes() == (STATIC / name).read_bytes(), (
            f"bot/web/static/{name} differs from its source's build: run `npm run build` in bot/web/frontend and commit it"
        )


def test_the_source_type_checks() -> None:
    run = npm("check")
    assert run.returncode == 0, run.stdout + run.stderr

"""The pages' scripts shipped in the package (bot/web/static/app.js and replay.js, and
activity.js: the Activity's, with Discord's Embedded App SDK) are the builds of their TypeScript
source, and the source type-checks. Needs Node and `npm ci` in bot/web/frontend (CI does both)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

FRONTEND = Path(__file__).resolve().parents[2] / "bot" / "web" / "frontend"
STATIC = FRONTEND.parent / "static"

pytestmark = [
    pytest.mark.skipif(shutil.which("npm") is None, reason="no Node.js/npm: the committed build is not checked"),
    pytest.mark.skipif(
        not (FRONTEND / "node_modules" / ".bin" / "esbuild").exists(),
        reason="no esbuild: run `npm ci` in bot/web/frontend to check the committed build",
    ),
]


def npm(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["npm", "run", "--silent", *args], cwd=FRONTEND, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(
    ("script", "where", "shipped"),
    [
        ("build:pages", "--outdir={}", ("app.js", "replay.js")),
        ("build:activity", "--outfile={}/activity.js", ("activity.js",)),
    ],
)
def test_the_shipped_scripts_are_the_build_of_their_source(tmp_path, script, where, shipped) -> None:
    run = npm(script, "--", where.format(tmp_path))
    assert run.returncode == 0, run.stderr
    for name in shipped:
        assert (tmp_path / name).read_bytes() == (STATIC / name).read_bytes(), (
            f"bot/web/static/{name} differs from its source's build: run `npm run build` in bot/web/frontend and commit it"
        )


def test_the_source_type_checks() -> None:
    run = npm("check")
    assert run.returncode == 0, run.stdout + run.stderr

"""The layers import only downward (the import-linter contracts in pyproject.toml): the engine
imports nothing of the others and no Discord, SQL or Pillow; storage, rendering, words and AIs
import no Discord; inside bot/, the controllers (cogs) do not import each other and nothing below
them imports them (the bot loads them by name); no package's modules import each other in a cycle."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_import_contracts_are_kept():
    # In its own process: import-linter configures logging, which would silence other tests' loggers.
    run = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from importlinter.cli import lint_imports_command; "
            "sys.argv = ['lint-imports', '--no-cache']; lint_imports_command()",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert "0 broken" in run.stdout

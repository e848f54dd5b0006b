"""The layers import only downward (the import-linter contracts in pyproject.toml): the engine
imports nothing of the others and no Discord, SQL or Pillow; storage, rendering, words and AIs
import no Discord; inside bot/, the controllers (cogs) do not import each other and nothing below
them imports them (the bot loads them by name); bot/ has no import cycle."""

from __future__ import annotations

from pathlib import Path

from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parent.parent


def test_import_contracts_are_kept(monkeypatch):
    monkeypatch.chdir(ROOT)
    assert lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True, no_logo=True) == 0


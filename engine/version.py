"""The rules version: one constant with no imports, so every engine module can read it."""

#: Bumped whenever a rules fix can change the outcome of a logged game (docs/engine.md).
RULES_VERSION = 2

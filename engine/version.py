"""The rules version: one constant with no imports, so every engine module can read it."""

#: Bumped when a rules fix changes how every logged game replays (docs/engine.md). A fix that only
#: refuses moves it used to allow (Nordic tunnels paid with mixed cards) keeps the version: stored
#: games are verified by replay at start-up, and only a game that made such a move is kept read-only.
RULES_VERSION = 1

"""Games and players in SQL: the only package that knows SQL (SQLModel, SQLite or PostgreSQL).

See docs/storage.md. The bot uses `storage.games` (create, append with optimistic concurrency,
load by replay), `storage.migrate` (apply migrations on start) and `storage.database` (engine and
sessions from `DATABASE_URL`).
"""

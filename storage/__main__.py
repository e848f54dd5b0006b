"""`python -m storage COMMAND`: database chores from any folder (reads DATABASE_URL or `.env`).

python -m storage migrate            apply pending migrations (run once before several processes start)
python -m storage current            the applied revision(s) and the newest one
python -m storage verify             replay every active game from its seed (recovery, without starting the bot)
python -m storage export GAME_ID     a finished game as JSON (seed, options, log) on stdout
python -m storage backup FILE        an online copy of an SQLite database (safe while the bot runs)
python -m storage restore FILE       put such a copy back (stop the bot first)
python -m storage revision -m MSG    a new empty migration after the current head (developers)
python -m storage merge              join two heads (two features' migrations) into one
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys

from storage.errors import StorageError
from storage.settings import database_url


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m storage", description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", help="database URL (default: DATABASE_URL, else sqlite data/ttr.sqlite3)")
    sub = parser.add_subparsers(dest="command", required=True)
    m = sub.add_parser("migrate", help="apply pending migrations")
    m.add_argument("--revision", default="heads")
    sub.add_parser("current", help="show the applied and the newest revisions")
    sub.add_parser("verify", help="replay every active game and report the ones that do not replay")
    e = sub.add_parser("export", help="print a finished game as JSON")
    e.add_argument("game_id", type=int)
    b = sub.add_parser("backup", help="copy an SQLite database while it is in use (folders are created)")
    b.add_argument("file")
    rs = sub.add_parser("restore", help="replace the SQLite database with a backup (stop the bot first)")
    rs.add_argument("file")
    r = sub.add_parser("revision", help="create a new migration file")
    r.add_argument("-m", "--message", required=True)
    r.add_argument("--rev-id", help="the revision id (default: the next number, e.g. 0003)")
    r.add_argument(
        "--autogenerate", action="store_true", help="fill it in from the models against the database (migrated to head)"
    )
    sub.add_parser("merge", help="join several heads (two features' migrations) into one")
    return parser


async def _check(url: str, *, needs_tables: bool) -> None:
    """The bot's start-up checks (reachable, not locked or damaged) before a command touches the
    database; a command that reads games needs a migrated one (not a new file in the wrong folder)."""
    from storage.database import DatabaseUnusableError, check_database, make_engine
    from storage.migrate import current_revision

    engine = make_engine(url)
    try:
        await check_database(engine)
        if needs_tables and not await current_revision(engine=engine):
            where = engine.url.render_as_string(hide_password=True)
            raise DatabaseUnusableError(
                f"the database {where} has no tables: is DATABASE_URL (or the folder you "
                "run in) the bot's? A new database needs `python -m storage migrate`"
            )
    finally:
        await engine.dispose()


async def _run(args: argparse.Namespace) -> int:
    url = database_url(args.url)
    if args.command in ("migrate", "current", "verify", "export"):
        await _check(url, needs_tables=args.command in ("verify", "export"))
    if args.command == "migrate":
        from storage.migrate import migrate

        print("database at revision", ", ".join(await migrate(url, revision=args.revision)) or "base")
    elif args.command == "current":
        from storage.migrate import current_revision, head_revisions

        print("applied:", ", ".join(await current_revision(url)) or "none (empty database)")
        print("newest: ", ", ".join(head_revisions()))
    elif args.command == "verify":
        from storage.recovery import verify_database

        report = await verify_database(url, mark=False)
        print(report.summary())
        return 0 if not report.problems else 1
    elif args.command == "export":
        from storage.export import export_game_from

        print(json.dumps(await export_game_from(url, args.game_id), indent=1))
    elif args.command == "backup":
        from storage.backup import backup_sqlite

        size = await asyncio.to_thread(backup_sqlite, url, args.file)
        print(f"copied {size} bytes to {args.file}")
    elif args.command == "restore":
        from storage.backup import restore_sqlite

        size = await asyncio.to_thread(restore_sqlite, url, args.file)
        print(
            f"restored {size} bytes from {args.file}: run `python -m storage migrate` if the copy is older "
            "than this release, then start the bot"
        )
    elif args.command == "revision":
        from storage.migrate import new_revision, revisions

        rev_id = args.rev_id or f"{max(int(r) for r in revisions() if r.isdigit()) + 1:04d}"
        await new_revision(args.message, rev_id, autogenerate=args.autogenerate, url=url)
    elif args.command == "merge":
        from alembic import command

        from storage.migrate import alembic_config, head_revisions, revisions

        if len(head_revisions()) < 2:
            print("one head: nothing to merge")
            return 0
        rev_id = f"{max(int(r) for r in revisions() if r.isdigit()) + 1:04d}"
        command.merge(alembic_config(), "heads", message="merge heads", rev_id=rev_id)
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run a command; a refusal (no such game, a file in the way, an unusable database) is one
    line on stderr and exit status 1, not a traceback."""
    try:
        return asyncio.run(_run(_parser().parse_args(argv)))
    except (StorageError, ValueError, OSError) as exc:
        print(f"python -m storage: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())

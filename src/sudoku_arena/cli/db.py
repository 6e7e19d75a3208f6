"""``db backup FILE`` and ``db restore FILE``: a copy of the games database, and back.

SQLite: SQLite's online backup (``sqlite3.Connection.backup``), a consistent copy
taken page by page while servers keep writing. PostgreSQL: its own tools do it better
than this command could (``pg_dump`` while it runs, ``pg_restore`` into a fresh
database); the command says which to run (docs/deploy.md gives them too).
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path
from typing import Annotated

import typer
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

from sudoku_arena.cli.app import app, console, fail

db_app = typer.Typer(
    name="db",
    help="Back up and restore the games database.",
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)
app.add_typer(db_app)

DatabaseUrl = Annotated[
    str,
    typer.Option(help="SQLAlchemy URL: sqlite:///FILE (default) or postgresql://user@host/db"),
]
DEFAULT_URL = "sqlite:///sudoku-arena.sqlite3"


def _parse(database_url: str) -> URL:
    try:
        return make_url(database_url)
    except ArgumentError:
        fail(
            f"--database-url {database_url}: not a database URL; allowed: "
            "sqlite:///FILE or postgresql://user@host/db"
        )


def libpq_url(url: URL) -> str:
    """The URL as PostgreSQL's own tools read it (no SQLAlchemy driver name)."""
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


def _sqlite_file(url: URL, database_url: str) -> Path:
    if url.database in (None, "", ":memory:"):
        fail(f"--database-url {database_url}: give the database's file (sqlite:///FILE)")
    return Path(str(url.database))


def _postgres_only(url: URL, database_url: str, what: str, commands: str) -> None:
    if url.get_backend_name() == "sqlite":
        return
    if url.get_backend_name() != "postgresql":
        fail(f"--database-url {database_url}: allowed: sqlite:///FILE or postgresql://...")
    fail(
        f"{what} of a PostgreSQL database: use PostgreSQL's own tools, which read a "
        f"running database consistently:\n{commands}\n(docs/deploy.md explains them)"
    )


def _is_games_database(path: Path) -> str | None:
    """Why ``path`` is not a Sudoku Arena SQLite database (``None``: it is one)."""
    try:
        with contextlib.closing(sqlite3.connect(path)) as conn:
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
            ok = conn.execute("PRAGMA quick_check").fetchone()
    except sqlite3.DatabaseError as exc:
        return f"not a SQLite database ({exc})"
    if "arena_games" not in tables:
        return "a SQLite database without Sudoku Arena's games (no arena_games table)"
    if not ok or ok[0] != "ok":
        return f"damaged: {ok[0] if ok else 'no answer to the check'}"
    return None


def copy_sqlite(source: Path, target: Path) -> None:
    """Copy the SQLite database ``source`` to ``target`` (a new file) with the online
    backup: consistent even while servers write to ``source``."""
    src = sqlite3.connect(source)  # read only by the backup; WAL needs write access
    try:
        dst = sqlite3.connect(target)
        try:
            src.backup(dst)
        finally:
            dst.close()
    finally:
        src.close()


@db_app.command()
def backup(
    file: Annotated[Path, typer.Argument(help="the backup to write (a new file)")],
    database_url: DatabaseUrl = DEFAULT_URL,
) -> None:
    """Copy the games database to FILE while the servers run (SQLite's online backup)."""
    url = _parse(database_url)
    _postgres_only(
        url,
        database_url,
        "A backup",
        f"  pg_dump --format=custom --no-owner --file {file} '{libpq_url(url)}'",
    )
    source = _sqlite_file(url, database_url)
    if not source.is_file():
        fail(f"--database-url {database_url}: there is no database file {source}")
    if file.exists():
        fail(f"{file}: already exists; give a new file name (a backup never overwrites)")
    if not file.parent.is_dir():
        fail(f"{file}: the folder {file.parent} does not exist")
    problem = _is_games_database(source)
    if problem:
        fail(f"--database-url {database_url}: {problem}")
    partial = file.with_name(file.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
        copy_sqlite(source, partial)
        partial.replace(file)  # whole or not at all
    except (OSError, sqlite3.Error) as exc:
        partial.unlink(missing_ok=True)
        fail(f"{file}: the backup failed: {exc}")
    console.print(f"backed up {source} to {file} ({file.stat().st_size} bytes)")


@db_app.command()
def restore(
    file: Annotated[Path, typer.Argument(help="a backup made by 'db backup'")],
    database_url: DatabaseUrl = DEFAULT_URL,
    replace: Annotated[
        bool, typer.Option(help="replace a database file that exists (stop its servers first)")
    ] = False,
) -> None:
    """Make the games database a copy of the backup FILE (servers stopped).

    Servers started on it go on with every game as it was when the backup was taken,
    running games included."""
    url = _parse(database_url)
    _postgres_only(
        url,
        database_url,
        "A restore",
        f"  createdb ...   (a new, empty database; then:)\n"
        f"  pg_restore --no-owner --exit-on-error --dbname '{libpq_url(url)}' {file}",
    )
    target = _sqlite_file(url, database_url)
    if not file.is_file():
        fail(f"{file}: there is no such backup file")
    problem = _is_games_database(file)
    if problem:
        fail(f"{file}: {problem}")
    if target.exists() and not replace:
        fail(
            f"--database-url {database_url}: {target} exists; stop its servers and add "
            "--replace to overwrite it"
        )
    if not target.parent.is_dir():
        fail(f"--database-url {database_url}: the folder {target.parent} does not exist")
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
        copy_sqlite(file, partial)
        for extra in ("-wal", "-shm"):  # the old database's journal must not be replayed
            target.with_name(target.name + extra).unlink(missing_ok=True)
        partial.replace(target)
    except (OSError, sqlite3.Error) as exc:
        partial.unlink(missing_ok=True)
        fail(f"{target}: the restore failed: {exc}")
    console.print(f"restored {file} to {target}; 'serve' upgrades it if it is older")

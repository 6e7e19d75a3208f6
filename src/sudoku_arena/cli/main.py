"""Entry point of the ``sudoku-arena`` command; each module adds its commands."""

from __future__ import annotations

import sys

import typer
from rich.text import Text

# Each module registers its commands on import.
import sudoku_arena.cli.analyze
import sudoku_arena.cli.basic
import sudoku_arena.cli.bots
import sudoku_arena.cli.db
import sudoku_arena.cli.play
import sudoku_arena.cli.printing
import sudoku_arena.cli.records
import sudoku_arena.cli.serve
import sudoku_arena.cli.tournament
import sudoku_arena.cli.train  # noqa: F401
from sudoku_arena.cli.app import app, console, err_console, version_line


def main() -> None:
    """Run the command line.

    A command line that does not parse (an unknown option, a value of the wrong kind)
    is one line on stderr, like every other refusal, instead of a framed usage box.
    ``--version`` works after any command too (``sudoku-arena play --version``), and the
    bare command shows the help.
    """
    args = sys.argv[1:]
    if "--version" in args[: args.index("--") if "--" in args else len(args)]:
        console.print(version_line())
        sys.exit(0)
    try:
        code = app(standalone_mode=False)
    except typer.TyperException as exc:  # a usage error from the command-line parser
        # The bare command (or group): its help is already shown, nothing is wrong. By
        # name: the parser's class lives in a module private to Typer.
        if type(exc).__name__ == "NoArgsIsHelpError":
            sys.exit(0)
        ctx = getattr(exc, "ctx", None)
        hint = f" (see '{ctx.command_path} -h')" if ctx is not None else ""
        err_console.print(
            Text.assemble(("error: ", "bold red"), exc.format_message() + hint), soft_wrap=True
        )
        sys.exit(exc.exit_code)
    except typer.Abort:
        err_console.print(Text("aborted"))
        sys.exit(130)
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()

"""Build hook: compile the hot modules with mypyc where a C compiler works.

The package is pure Python and runs as it is; compiling the modules listed in
``HOT_MODULES`` (engines, grids, search) with mypyc makes them several times faster
without a second source. Compilation is skipped, and the pure modules are installed
as they are, when:

* ``SUDOKU_ARENA_PURE=1`` is set at install time,
* mypyc cannot be imported (it ships with mypy, a build requirement), or
* no working C compiler is found (``CC=false`` simulates that).

Every compiled module is ``optional``: a compiler that breaks half-way leaves a pure
install, never a failed one. At run time ``sudoku_arena._build`` checks that the
compiled modules match their sources and falls back to pure Python if they do not.

``SUDOKU_ARENA_COMPILE_ONLY=games/tic_tac_sudoku,core`` compiles only the modules whose
path contains one of the given parts (faster rebuilds while working on one engine).
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
SRC = ROOT / "src"

#: The modules worth compiling: everything a playout or a search runs through.
HOT_MODULES = [
    "sudoku_arena/core/types.py",
    "sudoku_arena/core/base.py",
    "sudoku_arena/core/errors.py",
    "sudoku_arena/core/draws.py",
    "sudoku_arena/core/chance.py",
    "sudoku_arena/grids/sudoku.py",
    "sudoku_arena/grids/hex.py",
    "sudoku_arena/games/tic_tac_sudoku/rules.py",
    "sudoku_arena/games/tic_tac_sudoku/game.py",
    "sudoku_arena/games/tic_tac_sudoku/search.py",
    "sudoku_arena/games/sudoku_warriors/rules.py",
    "sudoku_arena/games/sudoku_warriors/game.py",
    "sudoku_arena/games/sudoku_warriors/strength.py",
    "sudoku_arena/games/sudoku_warriors/search.py",
    "sudoku_arena/games/sudoku_warriors/agents.py",
    "sudoku_arena/games/cat_sudoku/rules.py",
    "sudoku_arena/games/cat_sudoku/sheet.py",
    "sudoku_arena/games/cat_sudoku/game.py",
    "sudoku_arena/games/cat_sudoku/agents.py",
    "sudoku_arena/games/cat_sudoku/search.py",
    "sudoku_arena/games/sudokuhex/game.py",
    "sudoku_arena/games/sudokuhex/search.py",
    "sudoku_arena/games/citadel/rules.py",
    "sudoku_arena/games/citadel/diagram.py",
    "sudoku_arena/games/citadel/game.py",
    "sudoku_arena/games/citadel/search.py",
    "sudoku_arena/games/citadel/agents.py",
    "sudoku_arena/ai/mcts/tree.py",
    "sudoku_arena/ai/mcts/keys.py",
    "sudoku_arena/ai/mcts/selection.py",
    "sudoku_arena/ai/mcts/playout.py",
    "sudoku_arena/ai/mcts/evaluate.py",
    "sudoku_arena/ai/mcts/root.py",
    "sudoku_arena/ai/mcts/search.py",
]

#: Written next to the package: which modules were compiled, from which sources.
MANIFEST = SRC / "sudoku_arena" / "_compiled.json"


def _say(message: str) -> None:
    print(f"sudoku-arena build: {message}", file=sys.stderr)


def _compiler_works() -> bool:
    """Whether the C compiler Python would use can build a trivial shared object."""
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp, "probe.c")
        source.write_text("int probe(void) { return 0; }\n")
        cmd = [*cc.split(), "-shared", "-fPIC", str(source), "-o", str(Path(tmp, "probe.so"))]
        try:
            return subprocess.run(cmd, capture_output=True, timeout=60).returncode == 0
        except (OSError, subprocess.SubprocessError):
            return False


def _selected() -> list[str]:
    only = [p for p in os.environ.get("SUDOKU_ARENA_COMPILE_ONLY", "").split(",") if p]
    if not only:
        return HOT_MODULES
    return [m for m in HOT_MODULES if any(part in m for part in only)]


def _source_hash(module: str) -> str:
    return hashlib.sha256((SRC / module).read_bytes()).hexdigest()


#: setup.py runs several times per install; only these commands build extensions.
BUILD_COMMANDS = {"build", "build_ext", "bdist_wheel", "editable_wheel", "develop", "install"}


def _clean() -> None:
    """Remove the compiled files of an earlier build: they may not match the sources."""
    MANIFEST.unlink(missing_ok=True)
    for old in [*SRC.glob("*__mypyc*"), *(SRC / "sudoku_arena").rglob("*.so")]:
        old.unlink()


def _extensions() -> list[object]:
    if not BUILD_COMMANDS.intersection(sys.argv[1:]):
        return []
    _clean()
    if os.environ.get("SUDOKU_ARENA_PURE") == "1":
        _say("SUDOKU_ARENA_PURE=1: installing pure Python")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        _say("mypyc is not available: installing pure Python")
        return []
    if not _compiler_works():
        _say("no working C compiler: installing pure Python")
        return []
    modules = _selected()
    _say(f"compiling {len(modules)} modules with mypyc (SUDOKU_ARENA_PURE=1 skips this)")
    cwd = os.getcwd()
    os.chdir(SRC)  # mypyc names modules after their paths relative to the cwd
    try:
        extensions = mypycify(
            modules,
            opt_level="3",
            debug_level="0",
            multi_file=True,  # several C files, compiled in parallel
            target_dir=str(ROOT / "build" / "mypyc"),
        )
    except (Exception, SystemExit) as exc:  # mypyc refused a module: its errors are above
        _say(f"mypyc could not compile ({exc}): installing pure Python")
        return []
    finally:
        os.chdir(cwd)
    for ext in extensions:
        ext.optional = True  # a failed compile leaves the pure module, not a failed install
    MANIFEST.write_text(json.dumps({m: _source_hash(m) for m in modules}, indent=1) + "\n")
    return extensions


class BuildExt(build_ext):
    """Build in parallel on every core (mypyc's C files are large)."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1


setup(ext_modules=_extensions(), cmdclass={"build_ext": BuildExt})

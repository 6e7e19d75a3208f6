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

Two things keep installs short:

* The C files are compiled in parallel, one ``cc`` per core, also within the one large
  extension that mypyc's multi-file mode makes (setuptools alone builds one extension
  at a time per worker and each extension's files one after another).
* A build cache keyed on the sources: the compiled files of every finished build are
  kept under ``$SUDOKU_ARENA_BUILD_CACHE`` (default ``~/.cache/sudoku-arena/build``),
  named by a hash of every source file of the package, this file, the Python ABI and
  mypy's version. Installing again from the same sources (an extra added afterwards,
  ``pip install -e '.[print]'``) copies them instead of compiling: no mypyc, no C
  compiler. ``SUDOKU_ARENA_BUILD_CACHE=off`` turns the cache off.

Progress goes to standard error a line per step (``pip install -v`` shows it).
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from setuptools import Extension, setup
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


#: Kept builds beyond this many (the oldest first) are removed from the cache.
CACHE_KEEP = 4
#: Names of the compiled extensions and their files, inside a cache entry.
CACHE_INDEX = "extensions.json"
_START = time.monotonic()


def _say(message: str) -> None:
    print(f"sudoku-arena build [{time.monotonic() - _START:5.1f} s]: {message}", file=sys.stderr)
    sys.stderr.flush()


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


def _cache_root() -> Path | None:
    setting = os.environ.get("SUDOKU_ARENA_BUILD_CACHE", "")
    if setting == "off":
        return None
    if setting:
        return Path(setting)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "sudoku-arena" / "build"


def _cache_key(modules: list[str]) -> str:
    """A hash of everything a compiled build depends on.

    Every source of the package counts, not only the compiled ones: mypyc bakes in the
    types of the modules they import."""
    h = hashlib.sha256()
    try:
        mypy_version = importlib.metadata.version("mypy")
    except importlib.metadata.PackageNotFoundError:
        mypy_version = "none"
    for part in (sys.version, sysconfig.get_config_var("EXT_SUFFIX"), mypy_version, *modules):
        h.update(f"{part}\0".encode())
    for path in sorted((SRC / "sudoku_arena").rglob("*.py")):
        h.update(f"{path.relative_to(SRC)}\0".encode())
        h.update(path.read_bytes())
    h.update(Path(__file__).read_bytes())
    return h.hexdigest()[:32]


def _cached(entry: Path) -> list[Extension] | None:
    """The extensions of a cached build, each to be copied instead of compiled."""
    try:
        index: dict[str, str] = json.loads((entry / CACHE_INDEX).read_text())
    except (OSError, ValueError):
        return None
    if not index or not all((entry / f).is_file() for f in index.values()):
        return None
    return [Extension(name, sources=[]) for name in sorted(index)]


def _extensions() -> list[object]:
    if not BUILD_COMMANDS.intersection(sys.argv[1:]):
        return []
    _clean()
    if os.environ.get("SUDOKU_ARENA_PURE") == "1":
        _say("SUDOKU_ARENA_PURE=1: installing pure Python")
        return []
    modules = _selected()
    root = _cache_root()
    if root is not None:
        entry = root / _cache_key(modules)
        hit = _cached(entry)
        if hit is not None:
            _say(f"the same sources were compiled before: reusing {entry} (no compiler needed)")
            BuildExt.cache_entry = entry
            BuildExt.from_cache = True
            MANIFEST.write_text(json.dumps({m: _source_hash(m) for m in modules}, indent=1) + "\n")
            os.utime(entry)  # most recently used: kept longest
            return hit
        BuildExt.cache_entry = entry
    try:
        from mypyc.build import mypycify
    except ImportError:
        _say("mypyc is not available: installing pure Python")
        return []
    if not _compiler_works():
        _say("no working C compiler: installing pure Python")
        return []
    _say(f"translating {len(modules)} modules to C with mypyc (SUDOKU_ARENA_PURE=1 skips this)")
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
        # GCC's backward jump threading takes 60 of the 75 s that the largest file
        # (Sudoku Warriors' rules, 1.5 MB of C) needs at -O2 and -O3; without it that
        # file takes 16 s and the engines run as fast (docs/benchmarks.md).
        ext.extra_compile_args.append("-fno-thread-jumps")
    MANIFEST.write_text(json.dumps({m: _source_hash(m) for m in modules}, indent=1) + "\n")
    return extensions


class BuildExt(build_ext):
    """Build on every core, file by file; fill the build cache, or copy from it."""

    #: The cache entry of this build's sources (``None`` when the cache is off).
    cache_entry: Path | None = None
    #: Whether the extensions are copied from ``cache_entry`` instead of compiled.
    from_cache = False

    def finalize_options(self) -> None:
        super().finalize_options()
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1

    def build_extensions(self) -> None:
        self._built: dict[str, str] = {}
        if not self.from_cache:
            self._compile_in_parallel()
        super().build_extensions()
        if not self.from_cache:
            self._store()

    def build_extension(self, ext: Extension) -> None:
        target = Path(self.get_ext_fullpath(ext.name))
        if self.from_cache and self.cache_entry is not None:
            index = json.loads((self.cache_entry / CACHE_INDEX).read_text())
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(self.cache_entry / index[ext.name], target)
            return
        super().build_extension(ext)
        if target.is_file():
            self._built[ext.name] = str(target)

    def _compile_in_parallel(self) -> None:
        """Compile each C file on its own, at most one per core at a time, saying how
        far it got (mypyc's large extension would otherwise use one core)."""
        compile_files = self.compiler.compile
        total = sum(len(e.sources) for e in self.extensions)
        done = [0]
        lock = threading.Lock()
        cores = threading.BoundedSemaphore(os.cpu_count() or 1)

        def one(source: str, *args: object, **kwargs: object) -> list[str]:
            with cores:
                objects: list[str] = compile_files([source], *args, **kwargs)
            with lock:
                done[0] += 1
                _say(f"compiled {done[0]}/{total} C files ({Path(source).name})")
            return objects

        def compile_all(sources: list[str], *args: object, **kwargs: object) -> list[str]:
            # The largest files first, so that no long one starts last on an idle core.
            order = sorted(sources, key=lambda s: -Path(s).stat().st_size)
            with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
                futures = {s: pool.submit(one, s, *args, **kwargs) for s in order}
                return [o for s in sources for o in futures[s].result()]

        self.compiler.compile = compile_all  # type: ignore[method-assign]
        _say(f"compiling {total} C files on {os.cpu_count() or 1} cores")

    def _store(self) -> None:
        """Keep this build in the cache (whole, or not at all), and prune old builds."""
        entry = self.cache_entry
        if entry is None or len(self._built) != len(self.extensions):
            return
        try:
            staging = Path(tempfile.mkdtemp(prefix=".partial-", dir=_mkdirs(entry.parent)))
            index: dict[str, str] = {}
            for name, path in self._built.items():
                index[name] = name + "".join(Path(path).suffixes)  # flat: dotted name
                shutil.copyfile(path, staging / index[name])
            (staging / CACHE_INDEX).write_text(json.dumps(index, indent=1) + "\n")
            shutil.rmtree(entry, ignore_errors=True)
            staging.rename(entry)  # atomic: a reader sees a whole entry or none
            _say(f"kept in the build cache: {entry}")
            builds = sorted(
                (p for p in entry.parent.iterdir() if p.is_dir() and not p.name.startswith(".")),
                key=lambda p: p.stat().st_mtime,
            )
            for old in builds[:-CACHE_KEEP]:
                shutil.rmtree(old, ignore_errors=True)
        except OSError as exc:  # a cache that cannot be written costs speed, not the build
            _say(f"the build cache could not be written ({exc}); the install goes on")


def _mkdirs(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    return path


setup(ext_modules=_extensions(), cmdclass={"build_ext": BuildExt})

"""Which build is running: the mypyc-compiled hot modules, or pure Python.

``setup.py`` compiles the hot modules with mypyc when it can and lists them, with a
hash of each source, in ``_compiled.json``. This module runs first on import of the
package and decides, once per process:

* compiled, when every listed module's compiled file is present and its source is
  unchanged since the build;
* pure Python otherwise: ``SUDOKU_ARENA_PURE=1`` is set, nothing was compiled, or a
  source was edited after the build (a stale compiled module would run old rules, so
  then none of them is used, and a warning says how to rebuild).

In pure mode a finder placed first on ``sys.meta_path`` loads this package's modules
from their ``.py`` sources, so compiled files lying beside them are ignored.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import json
import os
import sys
import warnings
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

PACKAGE = Path(__file__).resolve().parent
MANIFEST = PACKAGE / "_compiled.json"
REBUILD = "pip install -e . (or SUDOKU_ARENA_PURE=1 to run pure Python quietly)"


class SourceOnlyFinder(importlib.abc.MetaPathFinder):
    """Finds ``sudoku_arena`` submodules among ``.py`` sources only."""

    def __init__(self) -> None:
        self._finders: dict[str, importlib.machinery.FileFinder] = {}

    def find_spec(
        self, fullname: str, path: object = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if not fullname.startswith("sudoku_arena.") or not isinstance(path, list):
            return None
        for entry in path:
            finder = self._finders.get(entry)
            if finder is None:
                loader = (importlib.machinery.SourceFileLoader, importlib.machinery.SOURCE_SUFFIXES)
                finder = self._finders[entry] = importlib.machinery.FileFinder(entry, loader)
            spec = finder.find_spec(fullname)
            if spec is not None:
                return spec
        return None


def _compiled_file(module: str) -> Path | None:
    stem = PACKAGE.parent / module.removesuffix(".py")
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        candidate = stem.with_name(stem.name + suffix)
        if candidate.exists():
            return candidate
    return None


def _decide() -> tuple[bool, str]:
    """(compiled?, a phrase saying which build runs and why)."""
    if os.environ.get("SUDOKU_ARENA_PURE") == "1":
        return False, "pure Python (SUDOKU_ARENA_PURE=1)"
    try:
        listed: dict[str, str] = json.loads(MANIFEST.read_text())
    except (OSError, ValueError):
        return False, "pure Python (not compiled)"
    if not listed:
        return False, "pure Python (not compiled)"
    for module, digest in listed.items():
        source = PACKAGE.parent / module
        if _compiled_file(module) is None:
            return False, f"pure Python ({module} has no compiled file; rebuild: {REBUILD})"
        try:
            changed = hashlib.sha256(source.read_bytes()).hexdigest() != digest
        except OSError:
            changed = True
        if changed:
            warnings.warn(
                f"sudoku_arena: {module} changed since it was compiled; running pure "
                f"Python. Rebuild: {REBUILD}",
                stacklevel=3,
            )
            return False, f"pure Python ({module} changed since it was compiled)"
    return True, f"compiled with mypyc ({len(listed)} modules)"


COMPILED, DESCRIPTION = _decide()
if not COMPILED and not any(isinstance(f, SourceOnlyFinder) for f in sys.meta_path):
    sys.meta_path.insert(0, SourceOnlyFinder())


def build_description() -> str:
    """Which build runs, e.g. ``compiled with mypyc (28 modules)``."""
    return DESCRIPTION

"""The source text of the package's modules and the modules they import.

What a stored result depends on is named by the sources of the modules that made it
(the strength table's rows, a training run's data): :func:`modules_reached` follows the
imports from a few modules, :func:`source_of` reads each one's ``.py`` text. Both work
the same when the compiled build runs (then ``inspect`` finds no source), so the
compiled and the pure build share one fingerprint.
"""

from __future__ import annotations

import ast
import importlib.util
from collections.abc import Iterable
from pathlib import Path


def source_of(module: str) -> str | None:
    """The text of ``module``'s ``.py`` file (``__init__.py`` for a package), or ``None``
    when ``module`` is not a module with a source (a class named like one, say)."""
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None
    if spec is None or spec.origin is None:
        return None
    origin = Path(spec.origin)
    path = origin.with_name(origin.name.split(".", 1)[0] + ".py")
    return path.read_text(encoding="utf-8") if path.is_file() else None


def imports_of(module: str) -> list[str]:
    """The names ``module``'s source imports: ``import a.b`` gives ``a.b``, ``from a
    import b`` gives ``a`` and ``a.b`` (a module or not: :func:`modules_reached` keeps
    the modules)."""
    tree = ast.parse(source_of(module) or "")
    out: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.append(node.module)
            out += [f"{node.module}.{a.name}" for a in node.names]
    return out


def modules_reached(roots: Iterable[str], inside: tuple[str, ...]) -> list[str]:
    """The modules ``roots`` reach import by import, sorted, keeping only names that
    start with one of ``inside`` and have a source."""
    found: set[str] = set()
    todo = list(roots)
    while todo:
        name = todo.pop()
        if name in found or not name.startswith(inside) or source_of(name) is None:
            continue
        found.add(name)
        todo += imports_of(name)
    return sorted(found)

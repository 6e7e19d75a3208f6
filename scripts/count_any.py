"""Count the uses of ``typing.Any`` in the package, and fail when there are too many.

``Any`` switches type checking off wherever it flows, so the package keeps it to true
boundaries (JSON values, the opaque state and action types of a game chosen at run
time), each with a reason in a comment or docstring beside it. CI runs this script; it
prints the count per file and exits non-zero when the total passes ``LIMIT``. Import
lines are not counted, uses in annotations and expressions are (``AnyGame`` is a name of
its own and counts once, where it is defined).
"""

from __future__ import annotations

import ast
import sys
from collections import Counter
from pathlib import Path

#: The most uses of ``Any`` the package may hold (issue: at most 40).
LIMIT = 40
PACKAGE = Path(__file__).resolve().parent.parent / "src" / "sudoku_arena"


def uses_of_any(source: str) -> int:
    """How many times ``Any`` (or ``typing.Any``) is used outside import statements."""
    count = 0
    for node in ast.walk(ast.parse(source)):
        named = isinstance(node, ast.Name) and node.id == "Any"
        if named or (isinstance(node, ast.Attribute) and node.attr == "Any"):
            count += 1
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            # String annotations ("dict[str, Any]") are parsed like the others.
            try:
                inner = ast.parse(node.value, mode="eval")
            except SyntaxError:
                continue
            count += sum(isinstance(n, ast.Name) and n.id == "Any" for n in ast.walk(inner))
    return count


def main() -> int:
    per_file: Counter[str] = Counter()
    for path in sorted(PACKAGE.rglob("*.py")):
        n = uses_of_any(path.read_text(encoding="utf-8"))
        if n:
            per_file[str(path.relative_to(PACKAGE.parent))] = n
    total = sum(per_file.values())
    for name, n in per_file.most_common():
        print(f"{n:4d}  {name}")
    print(f"{total:4d}  uses of Any in total (limit {LIMIT})")
    if total > LIMIT:
        print(f"too many uses of Any: {total} > {LIMIT}; type the new code", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

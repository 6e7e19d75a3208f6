"""The ``Any`` budget: the script counts uses of ``Any`` (not imports, string annotations
included) and the package stays within its limit."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "count_any.py"


def _module() -> object:
    spec = importlib.util.spec_from_file_location("count_any", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_uses_are_counted_and_imports_are_not() -> None:
    count = _module().uses_of_any  # type: ignore[attr-defined]
    source = (
        "from typing import Any\n"
        "import typing\n"
        "x: Any = 1\n"
        "def f(a: dict[str, Any]) -> typing.Any: ...\n"
        "y: 'list[Any]' = []\n"
    )
    assert count(source) == 4
    assert count("from typing import Any\n") == 0


def test_the_package_is_within_its_any_budget() -> None:
    result = subprocess.run(
        [sys.executable, str(SCRIPT)], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "uses of Any in total (limit 40)" in result.stdout

"""The paper tests' helpers (paper_helpers.py, the live server of the server tests) on
the import path."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent.parent / "server"))  # arena_helpers

"""Shared by the adapter tests: the game configurations (see ``interop_cases``)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

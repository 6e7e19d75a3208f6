"""Write what the package ships from the strength table (docs/strength.json). Run it
after the table changes:

    python scripts/fit_bot_ratings.py

It writes the bots' fitted ratings the server shows (src/sudoku_arena/server/
bot_ratings.json) and the lab's default level per game for balance figures
(src/sudoku_arena/lab/balance_agents.json). tests/server/test_ratings.py and
tests/lab/test_robust.py fail while a shipped file and the table disagree.
"""

from __future__ import annotations

import json

from sudoku_arena.lab.robust import BALANCE_AGENTS_JSON, write_balance_agents
from sudoku_arena.server.ratings import (
    BOT_RATINGS_JSON,
    STRENGTH_JSON,
    display,
    write_bot_ratings,
)


def main() -> None:
    fitted = write_bot_ratings()
    for game, levels in fitted.items():
        shown = ", ".join(f"{lv} {display(*r)}" for lv, r in sorted(levels.items()))
        print(f"{game}: {shown}")
    print(f"wrote {BOT_RATINGS_JSON}")
    choices = write_balance_agents(json.loads(STRENGTH_JSON.read_text(encoding="utf-8")))
    for game, c in choices.items():
        verdict = "passes the exploit panel" if c.passed else f"best worst line-up, {c.strategy}"
        print(f"{game}: balance figures with {c.level} ({verdict})")
    print(f"wrote {BALANCE_AGENTS_JSON}")


if __name__ == "__main__":
    main()

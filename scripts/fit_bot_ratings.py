"""Write the bots' fitted ratings the server ships (src/sudoku_arena/server/bot_ratings.json)
from the strength table (docs/strength.json). Run it after the table changes:

    python scripts/fit_bot_ratings.py

tests/server/test_ratings.py fails while the shipped file and the table disagree.
"""

from __future__ import annotations

from sudoku_arena.server.ratings import BOT_RATINGS_JSON, display, write_bot_ratings


def main() -> None:
    fitted = write_bot_ratings()
    for game, levels in fitted.items():
        shown = ", ".join(f"{lv} {display(*r)}" for lv, r in sorted(levels.items()))
        print(f"{game}: {shown}")
    print(f"wrote {BOT_RATINGS_JSON}")


if __name__ == "__main__":
    main()

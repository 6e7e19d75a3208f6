"""Calibrate the difficulty of the Cat Sudoku sheets by simulation (CS-1).

Plays every shipped sheet solo with one agent (``greedy`` by default; any agent name
that ``sudoku_arena.ai.make_agent`` knows, such as a search agent, via ``--agent``),
``--games`` games each with seeds ``seed .. seed + games - 1``, and writes a table of
the final scores (mean, standard deviation, extremes) into the Cat Sudoku README
between the calibration markers. Spring must come out easiest (highest mean score) and
Winter hardest; the script exits with status 1 when the order does not hold.

    python scripts/calibrate_cat_sudoku.py                   # 200 games per sheet
    python scripts/calibrate_cat_sudoku.py --games 50 --no-write
    python scripts/calibrate_cat_sudoku.py --agent mcts:200
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from sudoku_arena.ai import make_agent
from sudoku_arena.core.match import Match
from sudoku_arena.core.registry import load
from sudoku_arena.games.cat_sudoku.sheet import SHEET_NAMES

README = (
    Path(__file__).resolve().parent.parent
    / "src"
    / "sudoku_arena"
    / "games"
    / "cat_sudoku"
    / "README.md"
)
START, END = "<!-- calibration:start -->", "<!-- calibration:end -->"


def play_sheet(sheet: str, agent: str, games: int, seed: int) -> list[float]:
    """Final solo scores of ``games`` games on ``sheet``."""
    game = load("cat-sudoku", sheet=sheet, players=1)
    scores = []
    for k in range(seed, seed + games):
        match = Match(game, seed=k, players=[agent])
        out = match.run([make_agent(agent, game, k)])
        scores.append(out.scores[0])
    return scores


def table(results: dict[str, list[float]], agent: str, seed: int) -> str:
    games = {len(v) for v in results.values()}
    lines = [
        f"Solo games with the `{agent}` agent, seeds {seed} onwards "
        f"({'/'.join(str(g) for g in sorted(games))} games per sheet), made by "
        "`scripts/calibrate_cat_sudoku.py`:",
        "",
        "| sheet | games | mean | sd | min | max |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, scores in results.items():
        lines.append(
            f"| {name} | {len(scores)} | {statistics.mean(scores):.2f} | "
            f"{statistics.pstdev(scores):.2f} | {min(scores):.0f} | {max(scores):.0f} |"
        )
    return "\n".join(lines)


def order_holds(results: dict[str, list[float]]) -> bool:
    """Spring has the highest mean score and Winter the lowest."""
    means = {k: statistics.mean(v) for k, v in results.items()}
    middle = [means[k] for k in means if k not in ("spring", "winter")]
    return means["spring"] > max(middle) and min(middle) > means["winter"]


def write_readme(text: str, path: Path = README) -> None:
    doc = path.read_text(encoding="utf-8")
    if START not in doc or END not in doc:
        raise SystemExit(f"{path} lacks the markers {START} and {END}")
    head, rest = doc.split(START, 1)
    _, tail = rest.split(END, 1)
    path.write_text(f"{head}{START}\n{text}\n{END}{tail}", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="games per sheet (default 200)")
    ap.add_argument("--agent", default="greedy", help="agent name (default greedy)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the first game")
    ap.add_argument("--no-write", action="store_true", help="print the table only")
    args = ap.parse_args(argv)
    results: dict[str, list[float]] = {}
    for name in SHEET_NAMES:
        t0 = time.perf_counter()
        results[name] = play_sheet(name, args.agent, args.games, args.seed)
        s = results[name]
        print(
            f"{name:7} mean {statistics.mean(s):6.2f} sd {statistics.pstdev(s):5.2f} "
            f"({time.perf_counter() - t0:.1f} s)",
            file=sys.stderr,
        )
    text = table(results, args.agent, args.seed)
    print(text)
    ok = order_holds(results)
    if not ok:
        print("difficulty order does NOT hold (spring easiest, winter hardest)", file=sys.stderr)
    if not args.no_write:
        write_readme(text)
        print(f"written to {README}", file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

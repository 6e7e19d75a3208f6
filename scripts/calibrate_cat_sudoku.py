"""Calibrate the difficulty of the Cat Sudoku sheets by simulation (CS-1).

A thin wrapper around the balance lab's ``cat-sheets`` preset (``sudoku-arena analyze
--preset cat-sheets``): plays every shipped sheet solo with one agent (``greedy`` by
default; any agent name that ``sudoku_arena.ai.make_agent`` knows, such as a search
agent, via ``--agent``), ``--games`` games each with seeds ``seed .. seed + games - 1``
(kept in ``--out``, resumable, with the lab's report), and writes a table of the final
scores (mean, standard deviation, extremes) into the Cat Sudoku README between the
calibration markers. Spring must come out easiest (highest mean score) and Winter
hardest; the script exits with status 1 when the order does not hold.

    python scripts/calibrate_cat_sudoku.py                   # 200 games per sheet
    python scripts/calibrate_cat_sudoku.py --games 50 --no-write
    python scripts/calibrate_cat_sudoku.py --agent mcts:200
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import tempfile
from pathlib import Path

from sudoku_arena.lab.presets import preset_plan
from sudoku_arena.lab.report import write_report
from sudoku_arena.lab.runner import run

README = (
    Path(__file__).resolve().parent.parent
    / "src"
    / "sudoku_arena"
    / "games"
    / "cat_sudoku"
    / "README.md"
)
START, END = "<!-- calibration:start -->", "<!-- calibration:end -->"


def play_sheets(agent: str, games: int, seed: int, out: Path) -> dict[str, list[float]]:
    """Final solo scores of ``games`` games on every sheet, played by the lab into ``out``."""
    plan = dataclasses.replace(preset_plan("cat-sheets", games, seed), players=(agent,))
    run(out, plan)
    summary = write_report(out)
    return {name: m["scores_all"][0] for name, m in summary["variants"].items()}


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
    ap.add_argument("--out", type=Path, help="lab folder to keep the games and report in")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        out = args.out if args.out is not None else Path(tmp) / "cat-sheets"
        results = play_sheets(args.agent, args.games, args.seed, out)
    results = {("spring" if k == "base" else k): v for k, v in results.items()}
    for name, s in results.items():
        print(
            f"{name:7} mean {statistics.mean(s):6.2f} sd {statistics.pstdev(s):5.2f}",
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

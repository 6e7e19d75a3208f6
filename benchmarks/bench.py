"""Engine benchmarks: random-playout speed per game, pure Python and compiled, against baselines.

For every registered game (at its smallest and largest player counts) prints random-playout
moves per second through the generic API (chance outcomes included, the way the match
resolves them), measured twice: in a subprocess running pure Python
(``SUDOKU_ARENA_PURE=1``) and in one running the compiled build, each saying which build
actually ran (``sudoku_arena._build.build_description()``). When OpenSpiel is installed
(``pip install -e '.[openspiel]'``), each subprocess also measures, with the same loop and
alternating 0.1 s slices with every game so that all see the same machine load:

* OpenSpiel's Python ``tic_tac_toe`` (``python_tic_tac_toe``), and
* OpenSpiel's C++ ``ultimate_tic_tac_toe``,

and prints each game's ratio to both, next to the targets below. Then Sudoku grids
generated per second and a check of the generated grids (all valid, share distinct).

Targets (ratios, compiled build): Tic-Tac-Sudoku >= 0.48x C++ UTTT; Sudoku Warriors,
SuDokuHex and Cat Sudoku >= 0.24x C++ UTTT; Citadel 19x19 >= 1.0x Python tic_tac_toe.

    python benchmarks/bench.py [--seconds 2] [--grids 10000] [--only GAME] [--build both]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from dataclasses import dataclass
from typing import Any

#: Baselines: (key, OpenSpiel game name, label).
BASELINES = (
    ("py_ttt", "python_tic_tac_toe", "Python tic_tac_toe"),
    ("cpp_uttt", "ultimate_tic_tac_toe", "C++ UTTT"),
)

#: The issue's targets: game id -> (baseline key, least ratio).
TARGETS: dict[str, tuple[str, float]] = {
    "tic-tac-sudoku": ("cpp_uttt", 0.48),
    "sudoku-warriors": ("cpp_uttt", 0.24),
    "sudokuhex": ("cpp_uttt", 0.24),
    "cat-sudoku": ("cpp_uttt", 0.24),
    "citadel": ("py_ttt", 1.0),
}

BUILDS = {"pure": {"SUDOKU_ARENA_PURE": "1"}, "compiled": {}}


class GamePlayouts:
    """Random playouts of one game, run in slices so that workloads can alternate."""

    def __init__(self, game: Any, seed: int = 0) -> None:
        self.game = game
        self.rng = random.Random(seed)
        self.moves = self.games = 0
        self.elapsed = 0.0

    def run(self, seconds: float) -> None:
        from sudoku_arena.core.match import sample_chance

        game, rng = self.game, self.rng
        start = time.perf_counter()
        deadline = start + seconds
        while time.perf_counter() < deadline:
            s = game.initial_state()
            while True:
                tm = game.to_move(s)
                if tm.is_terminal:
                    break
                if tm.is_chance:
                    s = game.apply(s, sample_chance(game, s, rng), None)
                else:
                    p = tm.players[0]
                    s = game.apply(s, rng.choice(game.legal_actions(s, p)), p)
                self.moves += 1
            self.games += 1
        self.elapsed += time.perf_counter() - start

    @property
    def rate(self) -> float:
        return self.moves / self.elapsed if self.elapsed else 0.0


class OpenSpielPlayouts:
    """Random playouts of one OpenSpiel game with the same loop."""

    def __init__(self, name: str, seed: int = 0) -> None:
        import open_spiel.python.games  # noqa: F401  (registers the Python games)
        import pyspiel

        self.game = pyspiel.load_game(name)
        self.rng = random.Random(seed)
        self.moves = self.games = 0
        self.elapsed = 0.0

    def run(self, seconds: float) -> None:
        rng = self.rng
        start = time.perf_counter()
        deadline = start + seconds
        while time.perf_counter() < deadline:
            state = self.game.new_initial_state()
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
                self.moves += 1
            self.games += 1
        self.elapsed += time.perf_counter() - start


def measure(game: Any, baselines: dict[str, OpenSpielPlayouts], seconds: float) -> dict[str, Any]:
    """Measure ``game`` for ``seconds``, alternating 0.1 s slices with every baseline so
    that all see the same machine load; return its rate and each baseline's over the
    same slices."""
    g = GamePlayouts(game)
    before = {k: (b.moves, b.elapsed) for k, b in baselines.items()}
    for _ in range(max(1, int(seconds / 0.1))):
        g.run(0.1)
        for b in baselines.values():
            b.run(0.1)
    rates = {k: (b.moves - before[k][0]) / (b.elapsed - before[k][1]) for k, b in baselines.items()}
    return {"rate": g.rate, "games": g.games, "baselines": rates}


def grid_figures(count: int) -> tuple[float, float]:
    """(grids per second, share of distinct grids) over ``count`` seeded grids."""
    from sudoku_arena.grids.sudoku import generate_grid, validate_grid

    start = time.perf_counter()
    grids = [generate_grid(random.Random(i)) for i in range(count)]
    rate = count / (time.perf_counter() - start)
    for g in grids:
        validate_grid(g)
    return rate, len(set(grids)) / count


def worker(args: argparse.Namespace) -> None:
    """Measure in this process (one build) and print the figures as one JSON document."""
    from sudoku_arena._build import build_description
    from sudoku_arena.core.registry import build, registered_games

    baselines: dict[str, OpenSpielPlayouts] = {}
    try:
        for key, name, _ in BASELINES:
            baselines[key] = OpenSpielPlayouts(name)
    except ImportError:
        baselines = {}
    rows = []
    for spec in registered_games():
        if args.only and spec.id != args.only:
            continue
        for n in sorted({spec.min_players, spec.max_players}):
            game = build(spec.id, {"players": n}, seed=1)
            label = f"{spec.id} ({n}p)"
            if "size" in game.params:
                label = f"{spec.id} ({n}p, size {game.params['size']})"
            rows.append({"game": spec.id, "label": label, **measure(game, baselines, args.seconds)})
    out: dict[str, Any] = {"build": build_description(), "rows": rows}
    if not args.only and args.grids:
        rate, distinct = grid_figures(args.grids)
        out["grids"] = {"rate": rate, "count": args.grids, "distinct": distinct}
    print(json.dumps(out))


def run_build(build_name: str, args: argparse.Namespace) -> dict[str, Any]:
    """Run the measurement in a subprocess with ``build_name``'s environment."""
    env = {k: v for k, v in os.environ.items() if k != "SUDOKU_ARENA_PURE"}
    env.update(BUILDS[build_name])
    cmd = [sys.executable, __file__, "--worker", "--seconds", str(args.seconds)]
    cmd += ["--grids", str(args.grids)] + (["--only", args.only] if args.only else [])
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"the {build_name} measurement failed:\n{done.stderr}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


@dataclass
class Column:
    """One build's figures for one workload."""

    rate: float
    ratios: dict[str, float]


def _columns(result: dict[str, Any]) -> dict[str, Column]:
    cols = {}
    for row in result["rows"]:
        ratios = {k: row["rate"] / r for k, r in row["baselines"].items() if r}
        cols[row["label"]] = Column(row["rate"], ratios)
    return cols


def _target(game_id: str, col: Column | None) -> str:
    if game_id not in TARGETS:
        return ""
    key, least = TARGETS[game_id]
    name = dict((k, label) for k, _, label in BASELINES)[key]
    if col is None or key not in col.ratios:
        return f">= {least:.2f}x {name}"
    verdict = "met" if col.ratios[key] >= least else "NOT met"
    return f">= {least:.2f}x {name}: {verdict}"


def report(results: dict[str, dict[str, Any]]) -> None:
    """Print the builds' figures side by side, with the ratios and the targets."""
    for name, result in results.items():
        print(f"{name}: {result['build']}")
    if len(results) > 1:
        print("(each build runs on its own, at its own machine load: compare them by ratios)")
    builds = list(results)
    cols = {b: _columns(results[b]) for b in builds}
    games = {row["label"]: row["game"] for r in results.values() for row in r["rows"]}
    head = f"{'workload':30s}"
    for b in builds:
        head += f" {b + ' moves/s':>18s} {'xPy-TTT':>8s} {'xC++UTTT':>9s}"
    print(head + "  target (compiled)" if "compiled" in builds else head + "  target")
    for label, gid in games.items():
        line = f"{label:30s}"
        for b in builds:
            c = cols[b].get(label)
            if c is None:
                line += f" {'-':>18s} {'':>8s} {'':>9s}"
                continue
            py = c.ratios.get("py_ttt")
            cpp = c.ratios.get("cpp_uttt")
            line += f" {c.rate:18,.0f} {'' if py is None else f'{py:7.2f}x':>8s}"
            line += f" {'' if cpp is None else f'{cpp:8.3f}x':>9s}"
        judged = cols["compiled"].get(label) if "compiled" in cols else cols[builds[-1]].get(label)
        print(f"{line}  {_target(gid, judged)}")
    for b in builds:
        rows = results[b]["rows"]
        for key, _, label in BASELINES:
            rates = [row["baselines"][key] for row in rows if key in row["baselines"]]
            if rates:
                mean = sum(rates) / len(rates)
                print(f"{b}: OpenSpiel {label} baseline {mean:,.0f} moves/s (mean over the run)")
        if "grids" in results[b]:
            g = results[b]["grids"]
            print(
                f"{b}: sudoku grids {g['rate']:,.0f} grids/s; {g['count']} generated, all valid, "
                f"{100 * g['distinct']:.2f}% distinct"
            )
    if not any(row["baselines"] for r in results.values() for row in r["rows"]):
        print("OpenSpiel not installed: no baselines (pip install -e '.[openspiel]')")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    ap.add_argument("--grids", type=int, default=10_000, help="grids to generate and check")
    ap.add_argument("--only", help="measure one game only")
    ap.add_argument(
        "--build", choices=["both", "pure", "compiled"], default="both", help="which builds"
    )
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args)
        return
    names = ["pure", "compiled"] if args.build == "both" else [args.build]
    report({name: run_build(name, args) for name in names})


if __name__ == "__main__":
    main()

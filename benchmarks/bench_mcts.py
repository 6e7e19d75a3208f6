"""MCTS simulations per second for every registered game, compiled and pure, on one core.

Each game is searched from a few positions taken from a random game (at the start, in
the middle and near the end, where the seat to move has a choice), with the game's own
search hints. Two worker processes run the searches, one on the compiled build and one
with ``SUDOKU_ARENA_PURE=1``, taking turns game by game, so that both see the same
machine load. Both run exactly the same searches (a fixed number of simulations per
position, chosen so the compiled search takes about ``--seconds`` per game, and a fixed
seed), so they must choose the same actions, which is checked; the ratio of their
rates is the compiled build's speed-up on the same work.

Rates are simulations per second of the worker's CPU time, which a busy machine
disturbs less than wall time (on an idle machine the two are equal). When OpenSpiel is
installed, random play-outs of its C++ ``ultimate_tic_tac_toe`` through the Python API
are measured between the searches as a reference of the machine's speed at the time;
the ``per 1k ref`` columns are simulations per 1,000 reference moves (the reference
runs about 1,000,000 moves/s on the project's machine when idle, so 30 there means
about 30,000 simulations per second on an idle machine).

``--profile`` adds a per-simulation breakdown of each build's time under cProfile:
compiled code, which the profiler sees as one block, and the Python code that still
runs interpreted (grouped by where it lives).

    python benchmarks/bench_mcts.py [--seconds 2 | --sims N] [--rounds 2] [--only GAME]
                                    [--players N] [--build both|compiled|pure] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import random
import subprocess
import sys
import time
from collections import defaultdict
from typing import Any

#: Positions searched per game.
POSITIONS = 5


# --- the worker: searches in one build --------------------------------------------------


def positions(game: Any, seed: int, count: int) -> list[tuple[Any, int]]:
    """Decision states with a choice, spread over a random game (determinised)."""
    from sudoku_arena.core.match import Match

    rng = random.Random(seed)
    m = Match(game, seed=seed)
    seen: list[tuple[Any, int]] = []
    while not m.is_over:
        p = m.to_move().players[0]
        legal = m.game.legal_actions(m.state, p)
        if len(legal) > 1:
            seen.append((m.agent_state(p), p))
        m.play(rng.choice(list(legal)), p)
    if not seen:
        return []
    step = max(1, len(seen) // count)
    return seen[::step][:count]


class Worker:
    """Runs searches on request (one JSON object per line in, one per line out)."""

    def __init__(self) -> None:
        self.cases: dict[tuple[str, int], tuple[Any, list[tuple[Any, int]]]] = {}

    def case(self, game_id: str, players: int) -> tuple[Any, list[tuple[Any, int]]]:
        from sudoku_arena.core.registry import load

        key = (game_id, players)
        if key not in self.cases:
            game = load(game_id, seed=1, players=players)
            self.cases[key] = (game, positions(game, seed=1, count=POSITIONS))
        return self.cases[key]

    def calibrate(self, game_id: str, players: int, seconds: float) -> dict[str, Any]:
        """Simulations per position for about ``seconds`` of search over all positions."""
        from sudoku_arena.ai.hints import Budget
        from sudoku_arena.ai.mcts import MCTS

        game, todo = self.case(game_id, players)
        state, p = todo[len(todo) // 2]
        probe = min(0.3, seconds / 4)
        result = MCTS(game, rng=random.Random(0)).search(state, p, Budget(10**12, probe))
        rate = result.simulations / max(result.seconds, 1e-9)
        return {"sims": max(20, int(rate * seconds / max(1, len(todo))))}

    def measure(self, game_id: str, players: int, sims: int, profile: bool) -> dict[str, Any]:
        """Search every position with ``sims`` simulations; rate and choices."""
        from sudoku_arena._build import build_description
        from sudoku_arena.ai.hints import Budget
        from sudoku_arena.ai.mcts import MCTS

        game, todo = self.case(game_id, players)
        search = MCTS(game, rng=random.Random(0))
        done = 0
        cpu = wall = 0.0
        choices = []
        prof = cProfile.Profile() if profile else None
        for state, p in todo:
            c0, w0 = time.process_time(), time.perf_counter()
            if prof is not None:
                prof.enable()
            result = search.search(state, p, Budget(sims))
            if prof is not None:
                prof.disable()
            cpu += time.process_time() - c0
            wall += time.perf_counter() - w0
            done += result.simulations
            choices.append(game.format_action(result.action))
        out: dict[str, Any] = {
            "build": build_description(),
            "sims": done,
            "cpu": cpu,
            "wall": wall,
            "choices": choices,
        }
        if prof is not None:
            out["profile"] = breakdown(prof, done)
        return out

    def serve(self) -> None:
        for line in sys.stdin:
            req = json.loads(line)
            if req["op"] == "calibrate":
                reply = self.calibrate(req["game"], req["players"], req["seconds"])
            else:
                reply = self.measure(req["game"], req["players"], req["sims"], req["profile"])
            print(json.dumps(reply), flush=True)


def _group(filename: str, name: str) -> str:
    """Where a profiled function lives, for the breakdown."""
    path = filename.replace(os.sep, "/")
    if filename == "~":
        # C functions: compiled modules show as methods of their classes.
        return "compiled code" if "of 'MCTS' objects" in name else "C built-ins"
    for part, label in (
        ("sudoku_arena/ai/", "search (ai)"),
        ("sudoku_arena/games/", "games"),
        ("sudoku_arena/grids/", "grids"),
        ("sudoku_arena/core/", "core"),
    ):
        if part in path:
            return label
    return "stdlib " + path.rsplit("/", 1)[-1].removesuffix(".py")


def breakdown(prof: cProfile.Profile, sims: int) -> dict[str, float]:
    """Microseconds per simulation spent in each group's own code (cProfile's tottime)."""
    stats = pstats.Stats(prof)
    groups: dict[str, float] = defaultdict(float)
    for (filename, _line, name), row in stats.stats.items():  # type: ignore[attr-defined]
        groups[_group(filename, name)] += row[2]
    return {k: v * 1e6 / max(1, sims) for k, v in groups.items()}


# --- the parent: alternates the builds and the reference ------------------------------


class Reference:
    """Random play-outs of OpenSpiel's C++ ultimate_tic_tac_toe through its Python API."""

    def __init__(self) -> None:
        import pyspiel

        self.game = pyspiel.load_game("ultimate_tic_tac_toe")
        self.rng = random.Random(0)
        self.moves = 0
        self.cpu = 0.0

    def run(self, seconds: float) -> None:
        rng = self.rng
        start = time.process_time()
        while time.process_time() - start < seconds:
            state = self.game.new_initial_state()
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
                self.moves += 1
        self.cpu += time.process_time() - start

    @property
    def rate(self) -> float:
        return self.moves / self.cpu if self.cpu else 0.0


class Build:
    """A worker process on one build, and what it measured."""

    def __init__(self, name: str, pure: bool) -> None:
        env = dict(os.environ)
        env.pop("SUDOKU_ARENA_PURE", None)
        if pure:
            env["SUDOKU_ARENA_PURE"] = "1"
        self.name = name
        self.proc = subprocess.Popen(
            [sys.executable, __file__, "--worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
            text=True,
        )
        self.totals: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
        self.choices: dict[str, list[str]] = {}
        self.description = ""
        self.profiles: dict[str, dict[str, float]] = {}

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"the {self.name} worker stopped")
        reply: dict[str, Any] = json.loads(line)
        return reply

    def measure(self, game: str, players: int, sims: int) -> None:
        r = self.ask(
            {"op": "measure", "game": game, "players": players, "sims": sims, "profile": False}
        )
        self.description = r["build"]
        self.totals[game][0] += r["sims"]
        self.totals[game][1] += r["cpu"]
        self.choices[game] = r["choices"]

    def profile(self, game: str, players: int, sims: int) -> None:
        """The same searches under cProfile (not counted in the rates)."""
        r = self.ask(
            {"op": "measure", "game": game, "players": players, "sims": sims, "profile": True}
        )
        self.profiles[game] = r["profile"]

    def rate(self, game: str) -> float:
        sims, cpu = self.totals[game]
        return sims / cpu if cpu else 0.0

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


def _players(game_id: str, players: int | None) -> int:
    from sudoku_arena.core.registry import registered_games

    spec = next(s for s in registered_games() if s.id == game_id)
    return players if players is not None else min(max(2, spec.min_players), spec.max_players)


def _print_profiles(builds: list[Build], games: list[str]) -> None:
    for gid in games:
        for b in builds:
            prof = b.profiles.get(gid)
            if not prof:
                continue
            total = sum(prof.values())
            print(f"\n{gid}, {b.name}: {total:.1f} us per simulation under cProfile")
            for label, us in sorted(prof.items(), key=lambda kv: -kv[1]):
                if us >= 0.005 * total:
                    print(f"  {label:<24}{us:>9.1f} us {100 * us / total:>6.1f} %")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="compiled search time per game")
    ap.add_argument("--sims", type=int, help="simulations per position (default: calibrated)")
    ap.add_argument("--rounds", type=int, default=2, help="alternations of the builds")
    ap.add_argument("--only", help="one game id")
    ap.add_argument("--players", type=int, help="player count (default: 2, or the minimum)")
    ap.add_argument("--build", choices=("both", "compiled", "pure"), default="both")
    ap.add_argument("--profile", action="store_true", help="per-simulation breakdown")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        Worker().serve()
        return

    from sudoku_arena.core.registry import registered_games

    ids = [s.id for s in registered_games()] if args.only is None else [args.only]
    builds = [Build(name, name == "pure") for name in ("compiled", "pure")]
    builds = [b for b in builds if args.build in ("both", b.name)]
    try:
        ref: Reference | None = Reference()
    except ImportError:
        ref = None
        print("OpenSpiel not installed: no reference (pip install -e '.[openspiel]')")
    sims: dict[str, int] = {}
    players = {gid: _players(gid, args.players) for gid in ids}
    for gid in ids:
        sims[gid] = (
            args.sims
            or builds[0].ask(
                {"op": "calibrate", "game": gid, "players": players[gid], "seconds": args.seconds}
            )["sims"]
        )
    for r in range(max(1, args.rounds)):
        for gid in ids:
            for b in builds if r % 2 == 0 else builds[::-1]:
                b.measure(gid, players[gid], sims[gid])
                if ref is not None:
                    ref.run(0.2)
    if args.profile:
        for gid in ids:
            for b in builds:
                b.profile(gid, players[gid], sims[gid])
    for b in builds:
        b.close()
        print(f"{b.name}: {b.description}")
    if ref is not None:
        print(f"reference: {ref.rate:,.0f} ultimate_tic_tac_toe moves/s (OpenSpiel C++)")
    head = f"{'game':<18}{'players':>8}{'sims/pos':>9}"
    for b in builds:
        head += f"{b.name + ' sims/s':>17}" + (f"{'per 1k ref':>11}" if ref else "")
    if len(builds) == 2:
        head += f"{'speed-up':>10}"
    print(head)
    for gid in ids:
        line = f"{gid:<18}{players[gid]:>8}{sims[gid]:>9}"
        for b in builds:
            line += f"{b.rate(gid):>17,.0f}"
            if ref is not None:
                line += f"{1000 * b.rate(gid) / ref.rate:>11.1f}"
        if len(builds) == 2:
            pure = builds[1].rate(gid)
            line += f"{builds[0].rate(gid) / pure:>9.2f}x" if pure else f"{'':>10}"
            if builds[0].choices[gid] != builds[1].choices[gid]:
                line += "  CHOICES DIFFER between the builds"
        print(line)
    if args.profile:
        _print_profiles(builds, ids)


if __name__ == "__main__":
    main()

"""Search rate of the present code against an earlier commit's, on the same positions.

A rate measured on another day is not comparable: this shared machine's speed moves by
20% or more between days, and a benchmark script's positions change with the code that
picks them. This script takes positions once, with the present code, into a JSON file of
dumped states; then it searches them in whichever ``sudoku_arena`` is first on the path,
for the same time per position, and prints simulations per second. Run the earlier code
from a worktree of its commit (pure Python: compiled builds came later)::

    python benchmarks/bench_search_then.py take --game cat-sudoku --out /tmp/positions.json
    git worktree add --detach /tmp/then 7b5f5ba
    for i in 1 2 3; do
      python benchmarks/bench_search_then.py run /tmp/positions.json
      SUDOKU_ARENA_PURE=1 PYTHONPATH=/tmp/then/src \\
        python benchmarks/bench_search_then.py run /tmp/positions.json
    done

Alternate the two so both see the same load, and compare the pairs' ratios. Only the
APIs both versions share are used (``load``, ``dump_state``, ``load_state``, ``MCTS``).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

from sudoku_arena.ai.hints import Budget
from sudoku_arena.ai.mcts import MCTS
from sudoku_arena.core.registry import load


def take(game_id: str, players: int, out: Path, games: int, per_game: int) -> None:
    """Dump ``per_game`` decision states from each of ``games`` random games."""
    from sudoku_arena.core.match import Match

    game = load(game_id, seed=1, players=players)
    found = []
    for seed in range(1, games + 1):
        rng = random.Random(seed)
        m = Match(game, seed=seed)
        seen = []
        while not m.is_over:
            p = m.to_move().players[0]
            legal = list(m.game.legal_actions(m.state, p))
            if len(legal) > 1:
                seen.append((game.dump_state(m.agent_state(p)), p))
            m.play(rng.choice(legal), p)
        step = max(1, len(seen) // per_game)
        found += seen[::step][:per_game]
    data = {
        "game": game_id,
        "players": players,
        "start": game.dump_state(game.initial_state()),
        "positions": found,
    }
    out.write_text(json.dumps(data), encoding="utf-8")
    print(f"{len(found)} positions of {game_id} ({players} players) in {out}")


def run(path: Path, seconds: float) -> None:
    """Search every position for ``seconds / len(positions)`` and print the rate."""
    import sudoku_arena

    data = json.loads(path.read_text(encoding="utf-8"))
    game = load(data["game"], seed=1, players=data["players"])
    if game.dump_state(game.initial_state()) != data["start"]:
        raise SystemExit("this code builds another starting position: not the same game")
    search = MCTS(game, rng=random.Random(0))
    share = seconds / len(data["positions"])
    sims = 0
    spent = 0.0
    for state, p in data["positions"]:
        s = game.load_state(state)
        t = time.perf_counter()
        sims += search.search(s, p, Budget(10**12, share)).simulations
        spent += time.perf_counter() - t
    where = Path(sudoku_arena.__file__).parent.parent
    print(f"{sims / spent:>8.0f} simulations/s ({sims} in {spent:.2f} s) with {where}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("take", help="dump positions with the present code")
    t.add_argument("--game", default="cat-sudoku")
    t.add_argument("--players", type=int, default=2)
    t.add_argument("--games", type=int, default=3, help="random games to take them from")
    t.add_argument("--per-game", type=int, default=5)
    t.add_argument("--out", type=Path, required=True)
    r = sub.add_parser("run", help="search the positions with the code on the path")
    r.add_argument("positions", type=Path)
    r.add_argument("--seconds", type=float, default=8.0, help="search time in all")
    args = ap.parse_args()
    if args.cmd == "take":
        take(args.game, args.players, args.out, args.games, args.per_game)
    else:
        run(args.positions, args.seconds)


if __name__ == "__main__":
    main()

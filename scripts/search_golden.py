"""Record what the search chooses in fixed positions of every game (the search golden).

Each case plays a seeded game with random bots to a given depth, then runs the MCTS
with a fixed seed and a budget in simulations only (no clock), and stores the chosen
action with the root statistics. ``tests/ai/test_search_golden.py`` checks that the
search still makes exactly these choices: a refactoring of the search must not change
what it plays. Rewrite the file (``python scripts/search_golden.py``) only for a change
meant to alter the search, and say so in the commit.
"""

from __future__ import annotations

import dataclasses
import json
import random
import sys
from pathlib import Path
from typing import Any

from sudoku_arena.ai.agents import make_agent
from sudoku_arena.ai.hints import DEFAULT_HINTS, SearchHints, hints_for
from sudoku_arena.ai.mcts import MCTS, Budget, position_keys
from sudoku_arena.core.registry import load

OUT = Path(__file__).resolve().parent.parent / "tests" / "ai" / "data" / "search_golden.json"

#: How the game's own hints are changed for a case, to reach every path of the search:
#: ``plain`` the defaults (random play-outs to the end, checked apply); ``tree`` Cat
#: Sudoku's tree search instead of root rollouts (decoupled UCT in the simultaneous
#: writing phase); ``regret`` the same with regret matching.
VARIANTS: dict[str, dict[str, Any]] = {
    "own": {},
    "plain": {"_plain": True},
    "tree": {"root_candidates": None},
    "regret": {"root_candidates": None, "simultaneous_ucb": False},
}

#: (game, params, seed, plies before the search, simulations, hints variant)
CASES: list[tuple[str, dict[str, Any], int, int, int, str]] = [
    ("tic-tac-sudoku", {}, 1, 6, 300, "own"),
    ("tic-tac-sudoku", {}, 2, 20, 1000, "own"),
    ("tic-tac-sudoku", {}, 11, 10, 300, "plain"),
    ("sudoku-warriors", {"players": 2}, 3, 10, 300, "own"),
    ("sudoku-warriors", {"players": 3}, 4, 30, 300, "own"),
    ("cat-sudoku", {"players": 1}, 5, 12, 200, "own"),
    ("cat-sudoku", {"players": 3}, 6, 25, 200, "own"),
    ("cat-sudoku", {"players": 1}, 12, 12, 200, "tree"),
    ("cat-sudoku", {"players": 3}, 13, 25, 200, "tree"),
    ("cat-sudoku", {"players": 3}, 14, 25, 200, "regret"),
    ("sudokuhex", {"players": 1}, 15, 8, 200, "own"),
    ("sudokuhex", {"players": 2}, 7, 8, 300, "own"),
    ("sudokuhex", {"players": 3}, 8, 20, 300, "own"),
    ("citadel", {"size": 9}, 9, 40, 300, "own"),
    ("citadel", {"size": 9}, 10, 55, 300, "own"),
]


def position(game: Any, seed: int, plies: int) -> tuple[Any, list[Any]]:
    """The state after ``plies`` seeded random actions, and the states on the way."""
    rng = random.Random(seed)
    bots = [make_agent("random", game, seed=seed * 10 + i) for i in range(game.num_players)]
    s = game.initial_state()
    states = [s]
    for _ in range(plies):
        tm = game.to_move(s)
        if tm.is_terminal:
            break
        if tm.is_chance:
            outcomes = list(game.chance_outcomes(s))
            a = rng.choices([o for o, _ in outcomes], [float(p) for _, p in outcomes])[0]
            s = game.apply(s, a, None)
        else:
            p = tm.players[0]
            s = game.apply(s, bots[p].act(game, s, p), p)
        states.append(s)
    # Stop at a decision: chance is resolved so that the searching seat has a choice.
    while game.to_move(s).is_chance:
        s = game.apply(s, game.chance_outcomes(s)[0][0], None)
        states.append(s)
    return s, states


def hints(game: Any, variant: str) -> SearchHints:
    change = dict(VARIANTS[variant])
    if change.pop("_plain", False):
        return DEFAULT_HINTS
    return dataclasses.replace(hints_for(game), **change)


def run_case(
    game_id: str, params: dict[str, Any], seed: int, plies: int, sims: int, variant: str
) -> Any:
    game = load(game_id, seed=seed, **params)
    s, states = position(game, seed, plies)
    tm = game.to_move(s)
    assert tm.is_decision, "a golden case must end at a decision"
    p = tm.players[0]
    search = MCTS(game, hints=hints(game, variant), rng=random.Random(seed))
    r = search.search(s, p, Budget(sims), set(position_keys(game, states)))
    return {
        "seat": p,
        "action": game.format_action(r.action),
        "simulations": r.simulations,
        "stats": [[game.format_action(a), n, round(v, 9)] for a, n, v in r.stats[:5]],
    }


def case_name(case: tuple[str, dict[str, Any], int, int, int, str]) -> str:
    g, pr, sd, pl, sm, v = case
    return f"{g} {json.dumps(pr, sort_keys=True)} seed={sd} plies={pl} sims={sm} hints={v}"


def main() -> int:
    data = {case_name(c): run_case(*c) for c in CASES}
    OUT.write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {OUT} ({len(data)} cases)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Our search bot against OpenSpiel's MCTS, at the same wall-clock time per move.

Two-player games (every game at 2 players), played through the OpenSpiel adapter
(``sudoku_arena.interop.openspiel``), seats alternating so that each bot sits in each
seat equally often. Our side is the project's search with all of the game's knowledge,
the search ``hard`` plays, given ``--seconds`` per move instead of the level's
simulation count (``mcts:Ts``; the levels differ only in budget). The other side is
OpenSpiel's ``MCTSBot`` with random rollouts (UCT constant 2, one rollout per leaf,
MCTS-Solver on), or its information-set variant ``ISMCTSBot`` in games with secrets
(SuDokuHex), which re-deals hidden tiles through the adapter's
``resample_from_infostate``. OpenSpiel's bots count simulations, not seconds, so before
each move their simulation count is set from the rate they reached on their previous
moves (the first move probes with 32): both sides' measured seconds per move are in the
table. Hidden information reaches our bot as the match runner hands it: the state
determinised for its seat.

Usage::

    python benchmarks/vs_openspiel.py [--games 200] [--seconds 1] [--only ID,...]
        [--param citadel.size=9] [--out results.jsonl] [--minutes M]

Prints one line per game played and a Markdown table: our wins, draws (shared wins
count as draws), losses, the win rate with its 95% Wilson interval, and seconds per
move of each side.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sudoku_arena.ai.mcts import MCTSAgent
from sudoku_arena.ai.tournament import wilson
from sudoku_arena.core.search import Budget

GAMES = ("tic-tac-sudoku", "sudoku-warriors", "cat-sudoku", "sudokuhex", "citadel")
FIRST_SIMULATIONS = 32


def need_openspiel() -> tuple[Any, Any, Any, Any]:
    try:
        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import ismcts, mcts
    except ImportError:
        sys.exit("OpenSpiel is not installed: pip install -e '.[openspiel]'")
    return np, pyspiel, mcts, ismcts


class TimedBot:
    """An OpenSpiel bot whose simulation count follows its measured rate, so that it
    thinks about ``seconds`` per move."""

    def __init__(self, bot: Any, seconds: float, set_simulations: Callable[[int], None]):
        self.bot, self.seconds, self.set = bot, seconds, set_simulations
        self.simulations = FIRST_SIMULATIONS
        self.rate: float | None = None

    def step(self, state: Any) -> int:
        self.set(self.simulations)
        forced = len(state.legal_actions()) == 1  # answered at once, without a search
        t = time.perf_counter()
        action = int(self.bot.step(state))
        spent = max(time.perf_counter() - t, 1e-6)
        if not forced:
            rate = self.simulations / spent
            self.rate = rate if self.rate is None else 0.5 * self.rate + 0.5 * rate
            self.simulations = max(2, int(self.rate * self.seconds))  # 1 never expands the root
        return action


@dataclass
class Result:
    game: str
    index: int
    ours: int  # our seat
    returns: list[float]
    plies: int
    our_seconds: list[float] = field(default_factory=list)
    their_seconds: list[float] = field(default_factory=list)

    @property
    def verdict(self) -> str:
        mine, theirs = self.returns[self.ours], self.returns[1 - self.ours]
        if mine > theirs:
            return "win"
        return "loss" if mine < theirs else "draw"


def play(game_id: str, index: int, seconds: float, params: dict[str, object]) -> Result:
    np, pyspiel, mcts, ismcts = need_openspiel()
    from sudoku_arena.interop import openspiel as adapter

    seed = 1000 + index // 2  # a pair of games shares the set-up, seats swapped
    game = pyspiel.load_game(adapter.short_name(game_id), {"players": 2, "seed": seed, **params})
    rules = game.rules
    ours = index % 2
    rng = np.random.RandomState(seed * 7 + ours)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    if rules.spec.hidden_information:
        raw = ismcts.ISMCTSBot(game, evaluator, 2.0, FIRST_SIMULATIONS, random_state=rng)

        def set_is(n: int) -> None:
            raw._max_simulations = n

        theirs = TimedBot(raw, seconds, set_is)
    else:
        raw = mcts.MCTSBot(game, 2.0, FIRST_SIMULATIONS, evaluator, random_state=rng, solve=True)

        def set_plain(n: int) -> None:
            raw.max_simulations = n

        theirs = TimedBot(raw, seconds, set_plain)
    agent = MCTSAgent(rules, seed, budget=Budget(10**9, seconds))
    chance = random.Random(seed * 13 + ours)
    deal = random.Random(seed * 17 + ours)
    state = game.new_initial_state()
    result = Result(game_id, index, ours, [], 0)
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(chance.choices(actions, probs)[0])
            continue
        p = state.current_player()
        t = time.perf_counter()
        if p == ours:
            seen = state.engine_state
            if rules.spec.hidden_information:
                seen = rules.determinize(seen, p, deal)
            action = rules.encode_action(agent.act(rules, seen, p))
            result.our_seconds.append(time.perf_counter() - t)
        else:
            action = theirs.step(state)
            result.their_seconds.append(time.perf_counter() - t)
        state.apply_action(action)
    result.returns = list(state.returns())
    result.plies = len(state.history())
    return result


def table(results: list[Result], seconds: float) -> str:
    lines = [
        "| game | games | won | drawn | lost | win rate (95% Wilson) | s/move ours | "
        "s/move OpenSpiel |",
        "|---|---:|---:|---:|---:|---|---:|---:|",
    ]
    for g in GAMES:
        rs = [r for r in results if r.game == g]
        if not rs:
            continue
        w = sum(r.verdict == "win" for r in rs)
        d = sum(r.verdict == "draw" for r in rs)
        n = len(rs)
        lo, hi = wilson(w / n, n)
        ours = statistics.fmean(x for r in rs for x in r.our_seconds)
        theirs = statistics.fmean(x for r in rs for x in r.their_seconds)
        lines.append(
            f"| {g} | {n} | {w} | {d} | {n - w - d} | {100 * w / n:.0f}% "
            f"[{100 * lo:.0f}%, {100 * hi:.0f}%] | {ours:.2f} | {theirs:.2f} |"
        )
    return "\n".join(lines)


def parse_params(items: list[str]) -> dict[str, dict[str, object]]:
    out: dict[str, dict[str, object]] = {}
    for item in items:
        key, eq, value = item.partition("=")
        game, dot, name = key.partition(".")
        if not eq or not dot or game not in GAMES:
            sys.exit(f"--param {item!r}: write GAME.NAME=VALUE with GAME one of {', '.join(GAMES)}")
        out.setdefault(game, {})[name] = int(value) if value.isdigit() else value
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="games per game (even: seats swap)")
    ap.add_argument("--seconds", type=float, default=1.0, help="thinking time per move")
    ap.add_argument("--only", default=",".join(GAMES), help="comma-separated game ids")
    ap.add_argument("--param", action="append", default=[], help="GAME.NAME=VALUE")
    ap.add_argument("--out", help="write one JSON line per game played")
    ap.add_argument(
        "--minutes", type=float, help="start no new round of games after this many minutes"
    )
    args = ap.parse_args()
    chosen = [g.strip() for g in args.only.split(",") if g.strip()]
    unknown = [g for g in chosen if g not in GAMES]
    if unknown or args.games < 1 or args.seconds <= 0:
        sys.exit(f"games from {', '.join(GAMES)}, --games >= 1 and --seconds > 0")
    need_openspiel()
    params = parse_params(args.param)
    results: list[Result] = []
    out = open(args.out, "a") if args.out else None  # noqa: SIM115  (lines as they come)
    started = time.perf_counter()
    # Rounds over the games, so that a run cut short by --minutes is balanced.
    for k in range(args.games):
        late = args.minutes is not None and time.perf_counter() - started > 60 * args.minutes
        if late and k % 2 == 0:  # whole pairs only: each bot in each seat equally often
            print(f"stopped after {k} games per game (--minutes {args.minutes:g})")
            break
        for g in chosen:
            r = play(g, k, args.seconds, params.get(g, {}))
            results.append(r)
            line = {
                "game": g,
                "index": k,
                "ours": r.ours,
                "returns": r.returns,
                "verdict": r.verdict,
                "plies": r.plies,
                "our_seconds": round(statistics.fmean(r.our_seconds), 3),
                "their_seconds": round(statistics.fmean(r.their_seconds), 3),
                "elapsed": round(time.perf_counter() - started),
            }
            print(json.dumps(line), flush=True)
            if out is not None:
                out.write(json.dumps(line) + "\n")
                out.flush()
    print()
    print(f"{args.seconds:g} s per move")
    print(table(results, args.seconds))


if __name__ == "__main__":
    main()

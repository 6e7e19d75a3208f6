"""Luck versus skill: the skill ladder and the luck index.

The *ladder* is a round robin between bots of rising strength (random, greedy, easy,
normal, hard), two seats, seats rotated. Each bot's Bradley-Terry rating (Elo scale,
mean 0) comes with a 95% interval from resampling the games of every pair; the
ladder's *spread* is the standard deviation of the ratings.

The *luck index* (after Duersch, Lambrecht and Oechssler, "Measuring skill and chance
in games", 2020) places a game on a scale from a deterministic reference game to a
coin flip: it is the probability ``p`` at which the reference game, with each result
replaced by a fair coin flip with probability ``p``, gives the same ladder the same
spread. The reference is Tic-Tac-Sudoku (no chance at all) played by the same bots
(``reference.json`` beside this module, or any run folder given as reference). Its
mixed results are computed, not played: a pair whose first bot scores ``r`` scores
``(1 - p) r + p / 2`` under the coin, fitted with the game's own numbers of games so
that the prior weighs the same on both sides. 0 means as much skill as
Tic-Tac-Sudoku, 1 means a coin flip; a game with more skill than the reference is 0.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from sudoku_arena.core.types import JsonDict
from sudoku_arena.lab.metrics import duplicate, seed_for
from sudoku_arena.lab.plan import Plan
from sudoku_arena.lab.stats import Estimate, FloatArray, bradley_terry, spread

#: Resamples of the ladder's games for the rating intervals (each one a fit).
LADDER_RESAMPLES = 200
#: The coin probabilities at which the reference spread is computed (then interpolated).
GRID = np.linspace(0.0, 1.0, 101)
REFERENCE = Path(__file__).with_name("reference.json")


def pair_results(
    names: Sequence[str], lines: Sequence[JsonDict]
) -> dict[tuple[int, int], list[float]]:
    """Per pair ``(i, j)`` with ``i < j``: bot ``i``'s score in each game (1, 1/2, 0)."""
    index = {n: i for i, n in enumerate(names)}
    out: dict[tuple[int, int], list[float]] = {}
    for line in lines:
        lab = line["lab"]
        by_agent = [0.0, 0.0]
        for seat, agent in enumerate(lab["seats"]):
            by_agent[agent] = float(lab["returns"][seat])
        if not any(by_agent):  # won by nobody: half a point each
            by_agent = [0.5, 0.5]
        a, b = (index[x] for x in lab["agents"])
        key, score = ((a, b), by_agent[0]) if a < b else ((b, a), by_agent[1])
        out.setdefault(key, []).append(score)
    return out


def wins_matrix(k: int, pairs: dict[tuple[int, int], list[float]]) -> FloatArray:
    w = np.zeros((k, k))
    for (i, j), scores in pairs.items():
        w[i, j] = sum(scores)
        w[j, i] = len(scores) - w[i, j]
    return w


def ladder_summary(plan: Plan, lines: Sequence[JsonDict], reference: JsonDict | None) -> JsonDict:
    """Ratings with intervals, pair results, spread and luck index of the ladder games."""
    names = list(plan.ladder)
    k = len(names)
    pairs = pair_results(names, lines)
    if not pairs:
        return {"names": names, "games": 0}
    ratings = bradley_terry(wins_matrix(k, pairs))
    rng = np.random.default_rng(seed_for(plan.seed, "ladder"))
    boot = []
    for _ in range(LADDER_RESAMPLES):
        resampled = {
            key: list(np.asarray(s)[rng.integers(0, len(s), size=len(s))])
            for key, s in pairs.items()
        }
        boot.append(bradley_terry(wins_matrix(k, resampled)))
    samples = np.array(boot)
    spreads = np.array([spread(r) for r in samples])
    out: JsonDict = {
        "names": names,
        "games": sum(len(s) for s in pairs.values()),
        "ratings": {
            n: _estimate(float(ratings[i]), samples[:, i], len(lines)) for i, n in enumerate(names)
        },
        "pairs": [
            {"a": names[i], "b": names[j], "games": len(s), "a_score": round(float(np.mean(s)), 6)}
            for (i, j), s in sorted(pairs.items())
        ],
        "spread": _estimate(spread(ratings), spreads, len(lines)),
        "duplicate": _duplicates(plan, lines),
    }
    ref = reference if reference is not None else load_reference()
    luck = luck_index(names, pairs, spread(ratings), spreads, ref)
    if luck is not None and ref is not None:
        out["luck_index"] = luck
        out["luck_by_pair"] = luck_by_pair(names, pairs, ref, plan.seed)
    return out


def _duplicates(plan: Plan, lines: Sequence[JsonDict]) -> list[JsonDict]:
    """Duplicate play per pair: how much of the first seat's result the deal decides
    and how much the two bots do (see :func:`sudoku_arena.lab.metrics.duplicate`)."""
    by_pair: dict[tuple[str, ...], list[JsonDict]] = {}
    for line in lines:
        by_pair.setdefault(tuple(line["lab"]["agents"]), []).append(line)
    out = []
    for pair, games in by_pair.items():
        dup = duplicate(games, plan.seed)
        if dup is not None:
            out.append({"a": pair[0], "b": pair[1], **dup})
    return out


def pair_luck(game_score: float, ref_score: float) -> float:
    """The coin probability that brings the reference pair's score to the game's
    distance from an even match: ``1 - |game - 1/2| / |ref - 1/2|``, within [0, 1]."""
    if ref_score == 0.5:
        return 1.0
    return min(1.0, max(0.0, 1 - abs(game_score - 0.5) / abs(ref_score - 0.5)))


def luck_by_pair(
    names: Sequence[str], pairs: dict[tuple[int, int], list[float]], ref: JsonDict, seed: int
) -> list[JsonDict]:
    """The luck index of each pair alone (two bots: the spread is their rating gap, so
    the index has this closed form); pairs the reference lacks are left out. A ladder's
    index is dominated by its widest gaps (random loses nearly every game of every game
    here), so the pairs of close bots say more about the luck in a game."""
    rates = {(p["a"], p["b"]): float(p["a_score"]) for p in ref["pairs"]}
    rates.update({(b, a): 1 - r for (a, b), r in list(rates.items())})
    out = []
    for (i, j), scores in sorted(pairs.items()):
        a, b = names[i], names[j]
        if (a, b) not in rates:
            continue
        r = rates[(a, b)]
        x = np.asarray(scores)
        rng = np.random.default_rng(seed_for(seed, f"luck/{a}/{b}"))
        boot = [pair_luck(float(x[rng.integers(0, len(x), len(x))].mean()), r) for _ in range(1000)]
        p = pair_luck(float(x.mean()), r)
        lo, hi = np.percentile(boot, [2.5, 97.5])
        est = Estimate(p, min(float(lo), p), max(float(hi), p), len(x))
        out.append(
            {
                "a": a,
                "b": b,
                "game_score": round(float(x.mean()), 6),
                "reference_score": r,
                **est.to_json(),
            }
        )
    return out


def _estimate(value: float, samples: FloatArray, n: int) -> JsonDict:
    lo, hi = np.percentile(samples, [2.5, 97.5])
    return Estimate(value, float(lo), float(hi), n).to_json()


def load_reference(path: Path = REFERENCE) -> JsonDict | None:
    """The reference ladder: a run's ``summary.json`` (its ``ladder``) or its folder."""
    if path.is_dir():
        path = path / "summary.json"
    if not path.exists():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    ladder = data.get("ladder", data) if isinstance(data, dict) else None
    return ladder if isinstance(ladder, dict) and "pairs" in ladder else None


def reference_curve(
    names: Sequence[str], counts: dict[tuple[int, int], int], ref: JsonDict
) -> FloatArray | None:
    """The reference ladder's spread at each coin probability of :data:`GRID`, or
    ``None`` when the reference lacks one of the pairs."""
    rates: dict[tuple[int, int], float] = {}
    index = {n: i for i, n in enumerate(names)}
    for pair in ref["pairs"]:
        a, b = pair["a"], pair["b"]
        if a in index and b in index:
            i, j = index[a], index[b]
            r = float(pair["a_score"])
            rates[(i, j) if i < j else (j, i)] = r if i < j else 1 - r
    if set(counts) - set(rates):
        return None
    k = len(names)
    curve = []
    for p in GRID:
        w = np.zeros((k, k))
        for (i, j), n in counts.items():
            mixed = (1 - p) * rates[(i, j)] + p / 2
            w[i, j], w[j, i] = n * mixed, n * (1 - mixed)
        curve.append(spread(bradley_terry(w)))
    return np.array(curve)


def coin_probability(curve: FloatArray, s: float) -> float:
    """The coin probability at which the (decreasing) reference ``curve`` equals ``s``."""
    if s >= curve[0]:
        return 0.0
    if s <= curve[-1]:
        return 1.0
    # np.interp needs increasing x: read the curve backwards.
    return float(np.interp(s, curve[::-1], GRID[::-1]))


def luck_index(
    names: Sequence[str],
    pairs: dict[tuple[int, int], list[float]],
    value: float,
    spreads: FloatArray,
    ref: JsonDict | None,
) -> JsonDict | None:
    """The luck index of the ladder (see the module doc), with its interval."""
    if ref is None:
        return None
    counts = {key: len(s) for key, s in pairs.items()}
    curve = reference_curve(names, counts, ref)
    if curve is None:
        return None
    ps = np.array([coin_probability(curve, float(s)) for s in spreads])
    p = coin_probability(curve, value)
    lo, hi = np.percentile(ps, [2.5, 97.5])
    # At the ends of the scale (a spread of exactly 0 gives 1) resampling can only move
    # away from the estimate; the interval still holds it.
    est = Estimate(p, min(float(lo), p), max(float(hi), p), sum(counts.values()))
    return {**est.to_json(), "reference": ref.get("game", "tic-tac-sudoku")}

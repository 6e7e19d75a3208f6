"""Balance metrics of one set of games (one variant), each with a 95% interval.

Input: the stored lines of the games (records with their ``lab`` key). Definitions:

* ``seat_win``: each seat's share of the games (a shared win counts ``1/k``), Wilson.
* ``seat_advantage``: among games somebody won, the first seat's share minus the fair
  ``1/k`` (points of probability; positive favours the first seat), Wilson.
* ``agent_win``: each bot's share when the bots differ (seats rotate), Wilson.
* ``draw``: games won by nobody (a turn-limit draw), Wilson.
* ``plies`` (every action, chance included) and ``turns`` (see
  :mod:`~sudoku_arena.lab.trace`): means, bootstrap; ``branching``: the mean number of
  legal actions per decision of a game, averaged over games, bootstrap, and the mean at
  each tenth of the game (``branching_curve``).
* ``decisiveness``: the share of a game's turns played before the eventual sole
  winner went ahead for good by the game's evaluation (by the score where the game
  has no evaluation): 0 when he led from the first decision on, near 1 when the game
  was decided at the end; bootstrap over games with a sole winner.
* ``lead_changes``: how often the leader (by the same measure) changed hands, ties
  skipped, bootstrap.
* ``scores``: each seat's mean final score, bootstrap (and the raw scores, for the
  histograms).
* ``duplicate``: duplicate play. The games of a block share the board and the chance
  seed and rotate the seats; the first seat's result per block and seating splits
  (:func:`~sudoku_arena.lab.stats.two_way_shares`) into the deal, the players and the
  rest, with intervals from resampling blocks (only when the bots differ: the same
  bots in rotated seats play the same game again).
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence

import numpy as np

from sudoku_arena.core.types import JsonDict
from sudoku_arena.lab.stats import RESAMPLES, Estimate, bootstrap, rate, two_way_shares


def seed_for(seed: int, name: str) -> int:
    """A bootstrap seed per figure, fixed by the run's seed and the figure's name."""
    return (seed * 1_000_003 + zlib.crc32(name.encode())) % 2**32


def first_lead_for_good(leads: Sequence[int], winner: int) -> int:
    """The index from which ``leads`` is ``winner`` to the end (``len`` if never)."""
    k = len(leads)
    while k > 0 and leads[k - 1] == winner:
        k -= 1
    return k


def lead_changes(leads: Sequence[int]) -> int:
    """How often the leader changed, ties (``-1``) skipped."""
    changes, last = 0, -1
    for seat in leads:
        if seat < 0:
            continue
        if last >= 0 and seat != last:
            changes += 1
        last = seat
    return changes


def _leads(line: JsonDict) -> list[int] | None:
    trace = line["lab"]["trace"]
    leads = trace.get("eval_lead", trace.get("score_lead"))
    return None if leads is None else [int(x) for x in leads]


def balance(lines: Sequence[JsonDict], seed: int) -> JsonDict:
    """Every metric of the module doc over ``lines`` (games of one variant)."""
    if not lines:
        return {"games": 0}
    k = len(lines[0]["players"])
    n = len(lines)
    out: JsonDict = {"games": n, "seats": k}
    winners = [line["outcome"]["winners"] for line in lines]
    returns = np.array([line["lab"]["returns"] for line in lines], dtype=np.float64)
    if k > 1:
        out["seat_win"] = [rate(float(returns[:, s].sum()), n).to_json() for s in range(k)]
        won = [w for w in winners if w]
        first = sum(1 / len(w) for w in won if 0 in w)
        adv = rate(first, len(won))
        fair = 1 / k
        out["seat_advantage"] = Estimate(
            adv.value - fair, adv.low - fair, adv.high - fair, adv.n
        ).to_json()
        out["draw"] = rate(sum(1 for w in winners if not w), n).to_json()
        out["agent_win"] = _agent_win(lines)
    plies = [len(line["actions"]) for line in lines]
    turns = [line["lab"]["trace"]["turns"] for line in lines]
    out["plies"] = bootstrap(plies, seed_for(seed, "plies")).to_json()
    out["turns"] = bootstrap(turns, seed_for(seed, "turns")).to_json()
    out["plies_all"] = plies
    branching = [line["lab"]["trace"]["branching"] for line in lines]
    per_game = [float(np.mean(b)) for b in branching if b]
    out["branching"] = bootstrap(per_game, seed_for(seed, "branching")).to_json()
    out["branching_curve"] = _curve(branching)
    out["scores"] = [
        bootstrap(
            [line["outcome"]["scores"][s] for line in lines], seed_for(seed, f"score{s}")
        ).to_json()
        for s in range(k)
    ]
    out["scores_all"] = [[line["outcome"]["scores"][s] for line in lines] for s in range(k)]
    if k > 1:
        out.update(_leads_metrics(lines, seed))
        agents = lines[0]["lab"]["agents"]
        # The same bot in every seat: a rotated game is the same game, nothing to split.
        dup = duplicate(lines, seed) if len(set(agents)) > 1 else None
        if dup is not None:
            out["duplicate"] = dup
    return out


def _agent_win(lines: Sequence[JsonDict]) -> dict[str, JsonDict]:
    agents = lines[0]["lab"]["agents"]
    if len(set(agents)) < len(agents):
        return {}
    wins = [0.0] * len(agents)
    for line in lines:
        for seat, agent in enumerate(line["lab"]["seats"]):
            wins[agent] += line["lab"]["returns"][seat]
    return {name: rate(wins[j], len(lines)).to_json() for j, name in enumerate(agents)}


def _curve(branching: Sequence[Sequence[int]], bins: int = 10) -> list[float | None]:
    """The mean branching factor at the middle of each tenth of the game: every game
    gives its decision nearest to that point (``None`` when there is no game)."""
    games = [b for b in branching if b]
    if not games:
        return [None] * bins
    return [
        round(
            float(np.mean([b[min(len(b) - 1, int((j + 0.5) * len(b) / bins))] for b in games])), 3
        )
        for j in range(bins)
    ]


def _leads_metrics(lines: Sequence[JsonDict], seed: int) -> JsonDict:
    decisive: list[float] = []
    changes: list[float] = []
    measure = ""
    for line in lines:
        leads = _leads(line)
        if leads is None:
            continue
        trace = line["lab"]["trace"]
        measure = "evaluation" if "eval_lead" in trace else "score"
        changes.append(lead_changes(leads))
        w = line["outcome"]["winners"]
        if len(w) == 1 and leads:
            decisive.append(first_lead_for_good(leads, w[0]) / len(leads))
    if not changes:
        return {}
    return {
        "lead_measure": measure,
        "decisiveness": bootstrap(decisive, seed_for(seed, "decisive")).to_json(),
        "lead_changes": bootstrap(changes, seed_for(seed, "changes")).to_json(),
    }


def duplicate(lines: Sequence[JsonDict], seed: int) -> JsonDict | None:
    """Deal / players / rest shares of the first seat's result (see the module doc)."""
    k = len(lines[0]["players"])
    blocks: dict[int, dict[int, float]] = {}
    for line in lines:
        b, r = divmod(int(line["lab"]["index"]), k)
        blocks.setdefault(b, {})[r] = float(line["lab"]["returns"][0])
    rows = [[cells[r] for r in range(k)] for _, cells in sorted(blocks.items()) if len(cells) == k]
    if len(rows) < 2:
        return None
    table = np.array(rows, dtype=np.float64)
    point = two_way_shares(table)
    rng = np.random.default_rng(seed_for(seed, "duplicate"))
    boot: dict[str, list[float]] = {name: [] for name in point}
    for _ in range(RESAMPLES // 4):  # each resample is a full analysis of variance
        sample = table[rng.integers(0, len(rows), size=len(rows))]
        for name, share in two_way_shares(sample).items():
            boot[name].append(share)
    out: JsonDict = {"blocks": len(rows)}
    for name, value in point.items():
        lo, hi = np.percentile(boot[name], [2.5, 97.5])
        out[name] = Estimate(value, float(lo), float(hi), len(rows)).to_json()
    return out

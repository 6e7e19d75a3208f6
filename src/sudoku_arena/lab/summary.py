"""A run's summary (``summary.json``): every figure, recomputed from the stored games.

The summary is a pure function of the plan and the lines (sorted by their place in
the plan, bootstrap generators seeded from the run's seed), so a resumed run, a run on
Ray and an uninterrupted local run of the same games give the same summary. Timing
(games per second) is kept apart, under ``throughput``, since it is the one thing that
depends on the machine.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from sudoku_arena.core.types import JsonDict
from sudoku_arena.lab.exploit import exploit_summary
from sudoku_arena.lab.ladder import ladder_summary
from sudoku_arena.lab.metrics import balance
from sudoku_arena.lab.plan import BALANCE, BASE, LADDER, Plan
from sudoku_arena.lab.store import read_lines, read_plan
from sudoku_arena.lab.variants import compare
from sudoku_arena.lab.verdicts import base_verdicts


def ordered(plan: Plan, lines: Sequence[JsonDict]) -> list[JsonDict]:
    """The lines of ``plan``'s games in the plan's order (others left out)."""
    order = {job.key: i for i, job in enumerate(plan.jobs())}
    known = [line for line in lines if line["lab"]["key"] in order]
    unique = {line["lab"]["key"]: line for line in known}
    return sorted(unique.values(), key=lambda line: order[line["lab"]["key"]])


def summarise(plan: Plan, lines: Sequence[JsonDict], reference: JsonDict | None = None) -> JsonDict:
    """Every figure of the run (see :mod:`~sudoku_arena.lab.metrics`,
    :mod:`~sudoku_arena.lab.ladder`, :mod:`~sudoku_arena.lab.variants`,
    :mod:`~sudoku_arena.lab.exploit`), and under
    ``base_verdicts`` the base rules' balance in words (see
    :func:`~sudoku_arena.lab.verdicts.base_verdicts`)."""
    lines = ordered(plan, lines)
    by_variant: dict[str, list[JsonDict]] = {v.name: [] for v in plan.all_variants()}
    ladder: list[JsonDict] = []
    for line in lines:
        lab = line["lab"]
        if lab["section"] == BALANCE:
            by_variant[lab["variant"]].append(line)
        elif lab["section"] == LADDER:
            ladder.append(line)
    variants = {name: balance(ls, plan.seed) for name, ls in by_variant.items()}
    out: JsonDict = {
        "plan": plan.to_json(),
        "games": len(lines),
        "expected_games": len(plan.jobs()),
        "variants": variants,
    }
    if len(by_variant) > 1:
        out["comparisons"] = compare(plan, by_variant)
    if plan.ladder:
        out["ladder"] = ladder_summary(plan, ladder, reference)
    if plan.exploit:
        out["exploit"] = exploit_summary(plan, lines)
    out["base_verdicts"] = base_verdicts(variants[BASE], out.get("ladder"))
    seconds = sum(float(line["lab"]["seconds"]) for line in lines)
    out["throughput"] = {
        "games": len(lines),
        "game_seconds": round(seconds, 3),
        "games_per_cpu_second": round(len(lines) / seconds, 3) if seconds else None,
    }
    return out


def summarise_folder(folder: Path, reference: JsonDict | None = None) -> JsonDict:
    """The summary of the run stored in ``folder``."""
    plan = read_plan(folder)
    if plan is None:
        from sudoku_arena.lab.store import LabError

        raise LabError(f"{folder} holds no lab run (no run.json); give a folder from --out")
    return summarise(plan, list(read_lines(folder)), reference)


def comparable(summary: JsonDict) -> JsonDict:
    """The summary without what depends on the machine (for comparing two runs)."""
    return {k: v for k, v in summary.items() if k != "throughput"}

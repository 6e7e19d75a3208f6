"""Comparing rule variants with common random numbers.

Variant ``B``'s game ``i`` is played from the same seed as the base's game ``i`` (same
board, same chance secret, same bot seeds), so the difference of the two games is the
rules' doing plus the noise that the changed rules let in. Each figure is compared as
the mean of the paired differences over the games both have, with a bootstrap
interval, and said in plain words.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from sudoku_arena.core.types import JsonDict
from sudoku_arena.lab.metrics import seed_for
from sudoku_arena.lab.plan import BASE, Plan
from sudoku_arena.lab.stats import Estimate, bootstrap
from sudoku_arena.lab.verdicts import difference

#: Per game figures compared: (name, words, unit, value of a line or None to skip it).
Figure = tuple[str, str, str, Callable[[JsonDict], float | None]]


def _first_wins(line: JsonDict) -> float | None:
    return float(line["lab"]["returns"][0]) if len(line["players"]) > 1 else None


def _draw(line: JsonDict) -> float | None:
    return float(not line["outcome"]["winners"]) if len(line["players"]) > 1 else None


def _plies(line: JsonDict) -> float | None:
    return float(len(line["actions"]))


def _first_score(line: JsonDict) -> float | None:
    return float(line["outcome"]["scores"][0])


FIGURES: tuple[Figure, ...] = (
    ("first_seat_wins", "seat 1 wins", "points", _first_wins),
    ("draw", "games are won by nobody", "points", _draw),
    ("plies", "games last", "plies", _plies),
    ("first_score", "seat 1 scores", "", _first_score),
)


def compare(plan: Plan, by_variant: dict[str, list[JsonDict]]) -> list[JsonDict]:
    """Every variant against the base rules: paired differences and a verdict each."""
    base = {line["lab"]["index"]: line for line in by_variant[BASE]}
    out = []
    for v in plan.variants:
        other = {line["lab"]["index"]: line for line in by_variant.get(v.name, [])}
        common = sorted(set(base) & set(other))
        figures: JsonDict = {}
        for name, words, unit, fn in FIGURES:
            pairs = [(base[i], other[i]) for i in common]
            diffs = _diffs([a for a, _ in pairs], [b for _, b in pairs], fn)
            if not diffs or (name == "draw" and not any(fn(x) for p in pairs for x in p)):
                continue  # nothing to compare (no draws under either rules)
            scale = 100.0 if unit == "points" else 1.0
            est = bootstrap([d * scale for d in diffs], seed_for(plan.seed, f"{v.name}/{name}"))
            figures[name] = {**est.to_json(), "verdict": verdict(words, unit, v.name, est)}
        out.append(
            {"variant": v.name, "params": dict(v.params), "pairs": len(common), "figures": figures}
        )
    return out


def _diffs(
    a: Sequence[JsonDict], b: Sequence[JsonDict], fn: Callable[[JsonDict], float | None]
) -> list[float]:
    out = []
    for x, y in zip(a, b, strict=True):
        fx, fy = fn(x), fn(y)
        if fx is not None and fy is not None:
            out.append(fy - fx)
    return out


def verdict(words: str, unit: str, name: str, est: Estimate) -> str:
    """A plain-words verdict, e.g. ``seat 1 wins 8.1 points less often under short
    (95% interval 5.2 to 11.0 less)``; no direction is claimed when the interval
    holds 0 (see :func:`~sudoku_arena.lab.verdicts.difference`)."""
    return difference(words, unit, est, f"under {name}")

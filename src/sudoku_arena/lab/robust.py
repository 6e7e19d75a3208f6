"""The lab's default players for balance figures: each game's robust bot level.

Balance is a property of a game *and* its players, so the lab's default players are
the strongest ones that a simple strategy cannot beat. A level **passes** a game's
exploit panel (:mod:`sudoku_arena.lab.exploit`, the groups stored in
``docs/strength.json``) when it holds at every player count measured:

* games won or lost (measure ``win``): at least :data:`WIN_BAR` of at least
  :data:`MIN_GAMES` games won against every strategy;
* scored games (measure ``margin``): its score minus the strategy's, with the 95%
  interval's low end above zero, against every strategy.

:func:`choose` takes the strongest level that passes. Where none does, it takes the
level whose worst line-up is best (the worst win share, or the worst interval's low
end), the stronger one on a tie, and says that the choice did not pass. The strength
table lives in ``docs/``, outside the package, so the choices ship beside this module
(:data:`BALANCE_AGENTS_JSON`, written by ``scripts/fit_bot_ratings.py`` whenever the
table changes; a test checks that it equals :func:`choose_all` of today's table), and
:func:`balance_level` reads them, falling back to ``greedy`` for a game with no entry.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path

from sudoku_arena.core.types import JsonDict
from sudoku_arena.lab.exploit import MARGIN
from sudoku_arena.lab.strength_exploit import KEY, ORDER

#: The share of games a level must win against every panel strategy (games won or lost).
WIN_BAR = 0.95
#: The fewest games of a line-up that can show :data:`WIN_BAR` (below it, no pass).
MIN_GAMES = 100
#: The default where a game has no measured level (the one-move heuristic, cheap).
FALLBACK = "greedy"
#: The shipped choices: game id -> :class:`Choice` as a dict.
BALANCE_AGENTS_JSON = Path(__file__).with_name("balance_agents.json")


@dataclass(frozen=True, slots=True)
class Choice:
    """A game's default level for balance figures, and why.

    ``passed``: it holds against the whole panel; otherwise it is the level with the
    best worst line-up. Its worst line-up: ``strategy``, ``players`` and ``figure``
    (``measure`` ``win``: the share won; ``margin``: the low end of the score
    difference's interval), ``games`` its size."""

    level: str
    passed: bool
    measure: str
    figure: float
    strategy: str
    players: int
    games: int


def _worst(groups: list[JsonDict]) -> tuple[bool, str, float, str, int, int]:
    """(passes, measure, worst figure, its strategy, players, games) over one level's
    groups."""
    passes = True
    worst: tuple[float, str, int, int] | None = None
    for group in groups:
        by_score = group["measure"] == MARGIN
        for row in group["rows"]:
            games = int(row["games"])
            figure = float(row["margin"]["low"] if by_score else row["win"]["value"])
            if by_score:
                passes = passes and figure > 0
            else:
                passes = passes and figure >= WIN_BAR and games >= MIN_GAMES
            if worst is None or figure < worst[0]:
                worst = (figure, str(row["strategy"]), int(group["players"]), games)
    assert worst is not None, "an exploit group has rows"
    return (passes, str(groups[0]["measure"]), *worst)


def _strength(level: str) -> int:
    return ORDER.index(level) if level in ORDER else -1


def choose(groups: Mapping[str, JsonDict]) -> Choice | None:
    """The default level from one game's exploit groups (``LEVEL/Np`` -> group, as in
    the strength store); ``None`` when there are none."""
    by_level: dict[str, list[JsonDict]] = {}
    for group in groups.values():
        by_level.setdefault(str(group["level"]), []).append(group)
    choices = []
    for level, mine in by_level.items():
        choices.append(Choice(level, *_worst(mine)))
    if not choices:
        return None
    # Passing first, then (among those that pass) the strongest; among those that do
    # not, the best worst line-up, then the strongest.
    return max(
        choices,
        key=lambda c: (c.passed, _strength(c.level) if c.passed else c.figure, _strength(c.level)),
    )


def choose_all(store: JsonDict) -> dict[str, Choice]:
    """:func:`choose` for every game of a strength store (``docs/strength.json``)."""
    out = {}
    for game_id, groups in sorted(store.get(KEY, {}).items()):
        choice = choose(groups)
        if choice is not None:
            out[game_id] = choice
    return out


def write_balance_agents(store: JsonDict, path: Path = BALANCE_AGENTS_JSON) -> dict[str, Choice]:
    """Write :func:`choose_all` of ``store`` to ``path`` (sorted, stable); return it."""
    choices = choose_all(store)
    text = json.dumps({g: asdict(c) for g, c in choices.items()}, indent=1, sort_keys=True)
    path.write_text(text + "\n", encoding="utf-8")
    return choices


@cache
def shipped_choices() -> dict[str, Choice]:
    """The choices shipped with the package (empty if the file is missing)."""
    try:
        data = json.loads(BALANCE_AGENTS_JSON.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    return {g: Choice(**c) for g, c in data.items()}


def balance_level(game_id: str) -> str:
    """The level the lab seats by default in ``game_id`` (:data:`FALLBACK` if unknown)."""
    choice = shipped_choices().get(game_id)
    return choice.level if choice is not None else FALLBACK


def describe(game_id: str) -> str:
    """One line on the default players of ``game_id`` and why, for ``analyze``."""
    choice = shipped_choices().get(game_id)
    if choice is None:
        return f"{FALLBACK} in every seat (no exploit panel measured for {game_id})"
    if choice.passed:
        why = "the strongest level that holds against the whole exploit panel"
    else:
        if choice.measure == "win":
            shown = f"{choice.figure:.0%} of {choice.games} games won"
        else:
            shown = f"score difference {choice.figure:+.1f} at the interval's low end"
        why = (
            "no level holds against the whole exploit panel yet; this one's worst line-up "
            f"is the best ({choice.strategy} with {choice.players} players: {shown})"
        )
    return f"{choice.level} in every seat: {why}"

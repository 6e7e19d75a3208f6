"""Ready-made studies (``sudoku-arena analyze --preset NAME``).

* ``cat-sheets``: Cat Sudoku solo with the greedy bot on every shipped sheet, the
  sheets as variants of Spring (the calibration of the sheets' difficulty, CS-1;
  ``scripts/calibrate_cat_sudoku.py`` prints its table from this).
* ``sudokuhex-duplicate``: two-player SuDokuHex, ``easy`` against ``greedy``, every
  deal played twice with the seats swapped (how much of the result the tiles decide;
  the question ``scripts/sudokuhex_study.py`` asks of hand-written policies).
* ``ladder``: the skill ladder of a game (give its id): random, greedy, easy, normal
  and hard in a round robin, with the luck index.
* ``exploit``: each bot level against every strategy of a game's exploit panel (give
  its id; ``--players`` picks the levels, default easy, normal and hard;
  :mod:`sudoku_arena.lab.exploit`).
* ``strength``: the bots' strength table (:mod:`sudoku_arena.lab.strength`; ``--out
  docs`` rewrites docs/strength.md, ``scripts/strength_table.py`` is its wrapper).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sudoku_arena.core.errors import InvalidParameterError
from sudoku_arena.core.params import ParamValue
from sudoku_arena.games.cat_sudoku.sheet import SHEET_NAMES
from sudoku_arena.lab.exploit import LEVELS, exploit_plan
from sudoku_arena.lab.plan import Plan, Variant

PRESETS = ("cat-sheets", "sudokuhex-duplicate", "ladder", "exploit")
#: The bots' strength table (:mod:`sudoku_arena.lab.strength`): not a run plan of its own.
STRENGTH = "strength"
LADDER = ("random", "greedy", "easy", "normal", "hard")


def preset_plan(
    name: str,
    games: int,
    seed: int,
    game: str | None = None,
    *,
    bots: Sequence[str] | None = None,
    params: Mapping[str, ParamValue] | None = None,
) -> Plan:
    """The plan of preset ``name`` with ``games`` games per variant (or ladder pair, or
    exploit line-up). ``bots`` and ``params`` are the exploit preset's levels and
    rules (the others have their own)."""
    if name == "cat-sheets":
        first, *rest = SHEET_NAMES
        return Plan(
            game="cat-sudoku",
            params={"sheet": first, "players": 1},
            players=("greedy",),
            games=games,
            seed=seed,
            variants=tuple(Variant(s, {"sheet": s}) for s in rest),
        )
    if name == "sudokuhex-duplicate":
        return Plan(
            game="sudokuhex",
            params={"players": 2},
            players=("easy", "greedy"),
            games=games,
            seed=seed,
        )
    if name == "ladder":
        if game is None:
            raise InvalidParameterError("--preset ladder: give the game id too")
        return Plan(
            game=game,
            params={"players": 2},
            players=("greedy", "greedy"),
            games=games,
            seed=seed,
            ladder=LADDER,
            ladder_games=games,
        )
    if name == "exploit":
        if game is None:
            raise InvalidParameterError("--preset exploit: give the game id too")
        return exploit_plan(game, tuple(bots or LEVELS), games, seed, params)
    raise InvalidParameterError(f"--preset {name!r}: allowed: {', '.join(PRESETS)}")

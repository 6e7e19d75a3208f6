"""How the lab's figures are written: one text per figure, for the terminal and the page.

``analyze`` prints a run's figures with Rich and writes them into ``report.html``; both
take every figure's text from here (value, unit, rounding, interval), so the two cannot
say the same figure differently. A figure is written as ``VALUE[UNIT] (LOW to HIGH)``:
the unit follows the value only, the bracket is the 95% interval in the same unit.

Units follow what the figure is: a rate is a percentage (``52.0%``); a difference of two
rates, such as the seat advantage, is in percentage points (``2.0 pts``), not a
percentage; shares on 0..1 and the luck index keep two decimals, so that a small value
that is not 0 (a luck index of 0.04) does not read as 0.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sudoku_arena.core.types import JsonDict
from sudoku_arena.lab.best_response import EXPLOITER
from sudoku_arena.lab.best_response import label as strategy_label


@dataclass(frozen=True, slots=True)
class Unit:
    """How a figure's numbers are written: times ``scale``, with ``digits`` decimals,
    ``suffix`` after the value (the interval's bounds go bare)."""

    scale: float = 1.0
    suffix: str = ""
    digits: int = 1


#: Rates: wins, draws, variance shares.
PERCENT = Unit(100.0, "%")
#: Differences of rates (the seat advantage): percentage points.
POINTS = Unit(100.0, " pts")
#: Counts and means: plies, turns, branching, lead changes, scores.
PLAIN = Unit()
#: Shares of a game on 0..1 (decisiveness) and the luck index.
FRACTION = Unit(digits=2)
#: Ratings and their spread, on the Elo scale.
ELO = Unit(suffix=" Elo")

#: The text of a figure that has no value (no games, no sole winner ...).
MISSING = "–"


def number(x: float, unit: Unit = PLAIN, signed: bool = False) -> str:
    """``x`` in ``unit``, without the suffix; ``signed`` writes ``+`` before a positive."""
    text = f"{unit.scale * x:{'+' if signed else ''}.{unit.digits}f}"
    # A value that rounds to zero has no sign worth reading ("-0.0", "+0.0").
    return text.lstrip("+-") if float(text) == 0 else text


@dataclass(frozen=True, slots=True)
class Shown:
    """A figure's display text: the value with its unit, and the interval's bounds
    (``""`` when the figure has none)."""

    value: str
    interval: str = ""

    def text(self) -> str:
        """The plain text, as the terminal prints it: ``4.0 pts (-2.9 to 6.9)``."""
        return f"{self.value} ({self.interval})" if self.interval else self.value


def shown(e: JsonDict | None, unit: Unit = PLAIN) -> Shown:
    """The display text of an estimate (``value``, ``low``, ``high``) in ``unit``."""
    if not e or e.get("value") is None:
        return Shown(MISSING)
    value = number(e["value"], unit) + unit.suffix
    if e.get("low") is None or e.get("high") is None:
        return Shown(value)
    return Shown(value, f"{number(e['low'], unit)} to {number(e['high'], unit)}")


@dataclass(frozen=True, slots=True)
class Row:
    """One row of the figures table: a label and one cell per variant."""

    label: str
    cells: tuple[Shown, ...]


#: The main figures of a variant: (key in the metrics, label, unit).
FIGURES: tuple[tuple[str, str, Unit], ...] = (
    ("seat_advantage", "seat 1 advantage", POINTS),
    ("draw", "won by nobody", PERCENT),
    ("plies", "length (plies)", PLAIN),
    ("turns", "length (turns)", PLAIN),
    ("branching", "branching factor", PLAIN),
    ("decisiveness", "decisiveness", FRACTION),
    ("lead_changes", "lead changes", PLAIN),
)

#: What a label means, for the report (the terminal leaves it to docs/balance.md).
NOTES: Mapping[str, str] = {
    "seat 1 advantage": "among the games somebody won, seat 1's share minus an even "
    "share (1/k), in percentage points; positive favours seat 1",
    "won by nobody": "share of the games that nobody won",
    "length (plies)": "every action, chance included",
    "length (turns)": "runs of decisions by one seat",
    "branching factor": "legal actions per decision, mean per game",
    "decisiveness": "share of the game played before the eventual sole winner leads "
    "for good (0: led from the start; near 1: decided at the end)",
    "lead changes": "how often the leader changed hands",
}


def _at(items: Sequence[JsonDict] | None, i: int) -> JsonDict | None:
    return items[i] if items and i < len(items) else None


def variant_rows(variants: Mapping[str, JsonDict]) -> list[Row]:
    """The figures table: one row per figure that some variant has, one cell per
    variant (in ``variants``' order); a bot's wins fill only its variant's cell."""
    names = list(variants)
    ms = [variants[n] for n in names]
    rows = [Row("games", tuple(Shown(str(m.get("games", 0))) for m in ms))]
    for key, label, unit in FIGURES:
        if any(key in m for m in ms):
            rows.append(Row(label, tuple(shown(m.get(key), unit) for m in ms)))
    seats = max((int(m.get("seats", 0)) for m in ms), default=0)
    for s in range(seats):
        if any(m.get("seat_win") for m in ms):
            wins = tuple(shown(_at(m.get("seat_win"), s), PERCENT) for m in ms)
            rows.append(Row(f"seat {s + 1} wins", wins))
        scores = tuple(shown(_at(m.get("scores"), s)) for m in ms)
        rows.append(Row(f"seat {s + 1} mean score", scores))
    if any("duplicate" in m for m in ms):
        for part in ("deal", "players", "rest"):
            cells = tuple(shown(m.get("duplicate", {}).get(part), PERCENT) for m in ms)
            rows.append(Row(f"duplicate play: variance share of the {part}", cells))
    for n, m in zip(names, ms, strict=True):
        for agent, e in m.get("agent_win", {}).items():
            cells = tuple(shown(e, PERCENT) if o == n else Shown("") for o in names)
            rows.append(Row(f"{n}: {agent} wins", cells))
    return rows


def ladder_rows(ladder: JsonDict | None) -> list[tuple[str, Shown]]:
    """The skill ladder's figures: each bot's rating, then the spread and the luck
    index (when the run has them); empty without ladder games."""
    if not ladder or not ladder.get("ratings"):
        return []
    rows = [(name, shown(e, ELO)) for name, e in ladder["ratings"].items()]
    rows.append(("spread", shown(ladder.get("spread"), ELO)))
    if ladder.get("luck_index"):
        rows.append(("luck index", shown(ladder["luck_index"], FRACTION)))
    return rows


#: The exploit panel's score difference: the bot's score minus the others' mean.
MARGIN = Unit()


@dataclass(frozen=True, slots=True)
class ExploitRow:
    """One panel strategy against one bot: games, the bot's wins, its opponents' wins
    and its score difference, each with its interval. ``strategy`` is the name a
    report shows (the approximate best response by its description)."""

    strategy: str
    games: int
    win: Shown
    margin: Shown
    opponent: Shown = Shown(MISSING)


@dataclass(frozen=True, slots=True)
class ExploitGroup:
    """One bot at one player count against the whole panel, rows worst first."""

    level: str
    players: int
    #: ``win`` or ``margin``: the figure the rows are ranked by (:mod:`~sudoku_arena.lab.exploit`).
    measure: str
    rows: tuple[ExploitRow, ...]

    def title(self) -> str:
        """``normal, 2 players``."""
        return f"{self.level}, {self.players} players"

    def worst(self) -> str:
        """The group's worst result in words (the terminal and the page print this)."""
        played = [r for r in self.rows if r.games]
        if not played:
            return f"{self.title()}: no games yet"
        r = played[0]
        if self.measure == "margin":
            figure = f"the bot's score difference is {r.margin.text()}"
        else:
            figure = f"the bot wins {r.win.text()}"
        return f"{self.title()}: worst against {r.strategy}: {figure} in {r.games} games"

    def best_response(self) -> str | None:
        """How the approximate best response did against the bot, in words (``None``
        when the run did not play it)."""
        for r in self.rows:
            if r.strategy == strategy_label(EXPLOITER):
                if not r.games:
                    return f"{self.title()}: the {r.strategy}: no games yet"
                return (
                    f"{self.title()}: the {r.strategy} wins {r.opponent.text()} in {r.games} games"
                )
        return None


#: The exploit table's columns after the strategy's name.
EXPLOIT_COLUMNS = ("games", "bot wins", "score difference")
#: The column a run with the approximate best response adds: the bot's opponents' wins
#: (on the exploiter's row, the exploiter's win rate).
OPPONENT_COLUMN = "opponent wins"


def exploit_columns(groups: Sequence[ExploitGroup]) -> tuple[str, ...]:
    """The exploit tables' columns after the strategy's name: :data:`EXPLOIT_COLUMNS`,
    with :data:`OPPONENT_COLUMN` after the bot's wins when a group has the approximate
    best response."""
    if any(g.best_response() is not None for g in groups):
        games, win, margin = EXPLOIT_COLUMNS
        return (games, win, OPPONENT_COLUMN, margin)
    return EXPLOIT_COLUMNS


def exploit_cells(row: ExploitRow, columns: Sequence[str]) -> tuple[Shown, ...]:
    """``row``'s figures in the order of ``columns`` (see :func:`exploit_columns`)."""
    games, win, margin = EXPLOIT_COLUMNS
    by_column = {
        games: Shown(str(row.games)),
        win: row.win,
        OPPONENT_COLUMN: row.opponent,
        margin: row.margin,
    }
    return tuple(by_column[c] for c in columns)


def exploit_groups(exploit: JsonDict | None) -> list[ExploitGroup]:
    """The exploit panel's tables (empty without an exploit section), one per bot and
    player count, rows in the summary's order (worst first)."""
    if not exploit:
        return []
    out = []
    for g in exploit["groups"]:
        rows = tuple(
            ExploitRow(
                strategy_label(r["strategy"]),
                int(r["games"]),
                shown(r["win"], PERCENT),
                shown(r["margin"], MARGIN),
                shown(r.get("opponent_win"), PERCENT),  # not in runs summarised before it was
            )
            for r in g["rows"]
        )
        out.append(ExploitGroup(g["level"], int(g["players"]), exploit["measure"], rows))
    return out

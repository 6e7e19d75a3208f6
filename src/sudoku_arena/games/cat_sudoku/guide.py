"""Cat Sudoku at the table: what the player to move is to do (write the dice, choose
the wild number), and the notation in words (see ``GameEntry.guide`` and
``GameEntry.explain``)."""

from __future__ import annotations

from sudoku_arena.core.errors import NotationError
from sudoku_arena.core.types import JsonDict

# The engine's own readings of its notation (one place for it), used on text it wrote.
from sudoku_arena.games.cat_sudoku.game import _NOWILD_RE, _ROLL_RE, _WILD_RE, _WRITE_RE
from sudoku_arena.games.cat_sudoku.sheet import parse_cell
from sudoku_arena.games.words import cell_words, counted, either, every

_NUMBERS = ("no", "one", "two", "three", "four")


def guide(view: JsonDict) -> str:
    """The set-up writes (CS-3), a turn's writes (CS-5, CS-6) or the wild choice (CS-4)
    of the seat the view is for, with its dice."""
    legal: list[str] = view["legal"]
    me = view["legal_for"]
    if not legal or me is None:
        return ""
    if view["phase"] == "wild":
        return _wild_guide(view, legal)
    if view["phase"] == "write":
        return _write_guide(view, int(me))
    return ""


def _write_guide(view: JsonDict, me: int) -> str:
    left: JsonDict = view["left"][me]
    plain: list[int] = left["plain"]
    wild = int(left["wild"])
    count = len(plain) + wild
    values = [str(v) for v in plain]
    how = "click a die, then a lit square"
    if wild:
        # Wild dice show the wild number; each may be written as any value (CS-5).
        w = view["wild"]
        values.append(
            f"the wild {w} (as any value)"
            if wild == 1
            else f"the {_NUMBERS[wild]} wild {w}s (as any values)"
        )
        how = "click a die (or a value, for a wild one), then a lit square"
    what = every(values)
    if count == 4 and not wild:
        what = f"the four values {', '.join(values)}"
    if view["turn"] == 0:
        where = "into your empty dashed starting squares"
    elif view["options"]["adjacent"]:
        where = "into your sheet, each next to a filled square"
    else:
        where = "into your sheet"
    text = f"Write {what} {where}: {how}"
    empty = int(view["empty"][me])
    if empty < count:
        text += f"; only {counted(empty, 'square')} left, so choose which dice to use"
    elif view["wild"] and not wild:
        text += f" (the wild is {view['wild']})"
    return text


def _wild_guide(view: JsonDict, legal: list[str]) -> str:
    dice = ", ".join(str(d) for d in view["dice"])
    options: list[str] = []
    for label in ("1+", "2+"):
        found = (_WILD_RE.match(a) for a in legal)
        boxes = [m.group(3) for m in found if m and f"{m.group(1)}+" == label and not m.group(2)]
        if boxes:
            options.append(f"{label} box {either(boxes)}")
    if any(_WILD_RE.match(a) and "blank" in a for a in legal):
        options.append("a blank box: click it, then the value")
    text = f"Dice {dice}: pick the wild number on the Wild Counter ({'; '.join(options)})"
    if "nowild" in legal:
        text += ", or No wild"
    return text


def explain(action: str) -> str:
    """``5 r3c4`` -> ``write 5 in row 3, column 4``; wild choices, ``nowild`` and the
    rolls likewise."""
    text = " ".join(action.strip().lower().split())
    try:
        if m := _WRITE_RE.match(text):
            r, c = parse_cell(m.group(2))
            return f"write {m.group(1)} in {cell_words(r + 1, c + 1)}"
    except NotationError:
        return ""
    if m := _WILD_RE.match(text):
        row, v = f"{m.group(1)}+", m.group(3)
        if m.group(2):
            return f"make {v} wild: write {v} into a blank box of the {row} row"
        return f"make {v} wild: cross off the {v} box of the {row} row"
    if _NOWILD_RE.match(text):
        return "no wild number this turn"
    if m := _ROLL_RE.match(text):
        return f"a die shows {m.group(1)}"
    return ""

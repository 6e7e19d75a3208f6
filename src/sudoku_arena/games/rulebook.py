"""A game's rules as players read them, for every place that shows them: the web's
rules pages and the printed sheets.

The text is the game package's RULES.md (its README.md is the reference: the rules as
implemented with every ruling), read by :mod:`sudoku_arena.core.markdown`. Its diagrams
are the positions the game's entry names (``figures``), drawn by the game's own
renderers and made inert: a diagram shows a position, nothing on it acts on a click.
"""

from __future__ import annotations

import importlib.resources
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from functools import lru_cache

from sudoku_arena.core.registry import entry

SVG_NS = "http://www.w3.org/2000/svg"


def _package_text(game_id: str, name: str) -> str | None:
    """The file ``name`` beside the game's rules class, or ``None`` if it has none."""
    package = str(getattr(entry(game_id).rules, "__module__", "")).rpartition(".")[0]
    try:
        return importlib.resources.files(package).joinpath(name).read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError, OSError):
        return None


def rules_markdown(game_id: str) -> str | None:
    """The game's README.md (its rules as implemented), or ``None`` if it has none."""
    return _package_text(game_id, "README.md")


def player_rules_markdown(game_id: str) -> str | None:
    """The game's RULES.md (its rules for players), or ``None`` if it has none."""
    return _package_text(game_id, "RULES.md")


#: Attributes that make a board element act on a click (see arena.js).
_CLICK_ATTRIBUTES = ("data-action", "data-select", "tabindex")
_CLICK_TEXT = re.compile(r'\s(?:data-action|data-select|data-from|tabindex)="[^"]*"')


def inert_svg(svg: str, kind: str = "rules-board", *, natural: bool = False) -> str:
    """The SVG ``svg`` with nothing to click: elements that appear only on a selection
    (``data-from``) are dropped, click attributes and pointer cursors removed, and the
    drawing scales to the width of its box (class ``kind`` for the style sheet), or,
    when ``natural``, is as wide as its view box says (a panel's text at its own size;
    the style sheet still shrinks it to a narrow screen)."""
    ET.register_namespace("", SVG_NS)
    try:
        root = ET.fromstring(svg)
    except ET.ParseError:  # not XML after all: still take the click attributes away
        return _CLICK_TEXT.sub("", svg)
    for parent in list(root.iter()):
        for child in list(parent):
            if "data-from" in child.attrib:
                parent.remove(child)
    for node in root.iter():
        for name in _CLICK_ATTRIBUTES:
            node.attrib.pop(name, None)
        style = node.attrib.get("style")
        if style is not None:
            kept = ";".join(p for p in style.split(";") if p.strip() and "cursor" not in p)
            if kept:
                node.set("style", kept)
            else:
                del node.attrib["style"]
        if node.attrib.get("role") == "button":  # a keyboard target on the live board
            del node.attrib["role"]
        classes = node.attrib.get("class", "").split()
        if "target" in classes:
            node.set("class", " ".join(c for c in classes if c != "target"))
    for name in ("width", "height"):
        root.attrib.pop(name, None)
    box = root.get("viewBox", "").split()
    if natural and len(box) == 4:
        root.set("width", box[2])
    root.set("class", f"{kind} " + root.get("class", ""))
    return ET.tostring(root, encoding="unicode")


@dataclass(frozen=True, slots=True)
class Diagram:
    """One named position drawn inert: the board, and what the game's panel shows
    beside it (scores, the Map, dice, a hand), ``None`` for a game without a panel."""

    board: str
    panel: str | None


@lru_cache(maxsize=16)
def diagrams(game_id: str) -> dict[str, Diagram]:
    """The game's named positions (``{{diagram: NAME}}`` in its RULES.md), drawn by its
    own renderers with nothing to click."""
    game_entry = entry(game_id)
    if game_entry.figures is None:
        return {}
    out: dict[str, Diagram] = {}
    for name, view in game_entry.figures().items():
        board = inert_svg(game_entry.render_svg(view))
        panel = None
        if game_entry.render_panel is not None:
            panel = inert_svg(game_entry.render_panel(view), "rules-panel", natural=True)
        out[name] = Diagram(board, panel)
    return out

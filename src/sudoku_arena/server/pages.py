"""Static pages, each game's rules pages, and game facts for the home page and form.

A game's rules page is its package's RULES.md, written for players, with the positions
its entry names (``figures``) drawn inline by the game's own renderer; the reference
page is its README.md, the rules as implemented with every ruling, for engineers.
"""

from __future__ import annotations

import html
import importlib.resources
import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from functools import lru_cache

from sudoku_arena.core.params import ParamSpec
from sudoku_arena.core.registry import entry, load, registered_games, spec_of
from sudoku_arena.core.types import GameSpec, JsonDict

WEB_PACKAGE = "sudoku_arena.web"
SVG_NS = "http://www.w3.org/2000/svg"

#: A ruling's ID as the READMEs write them: ``TTS-3``, ``SW-12``, ``CI-8``...
RULING_ID = re.compile(r"\b[A-Z]{2,4}-\d{1,2}\b")
#: A parenthesis holding only ruling IDs: ``(CI-6)``, ``(SW-3, SW-13)``.
_RULING_PAREN = re.compile(r"\s*\((?:[A-Z]{2,4}-\d{1,2}(?:,\s*)?)+\)")


@lru_cache(maxsize=16)
def web_file(name: str) -> str:
    """A file shipped in ``sudoku_arena/web`` (pages, script, style)."""
    return importlib.resources.files(WEB_PACKAGE).joinpath(name).read_text(encoding="utf-8")


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


def player_help(p: ParamSpec, specs: tuple[ParamSpec, ...] = ()) -> tuple[str, str]:
    """An option's help for players, and its details line.

    The help loses its ruling IDs (they go to the details line, shown as a tooltip) and
    names the other options of ``specs`` written as identifiers by their labels
    (``warrior_cap`` -> "warrior limit"); the details line also gives the name one types
    on the command line.
    """
    rulings = RULING_ID.findall(p.help)
    text = _RULING_PAREN.sub("", p.help)
    for other in (o for o in specs if "_" in o.name):  # plain words stay as they are
        text = re.sub(rf"\b{re.escape(other.name)}\b", other.label.lower(), text)
    details = f"option {p.name}"
    if rulings:
        details += "; " + ("ruling " if len(rulings) == 1 else "rulings ") + ", ".join(rulings)
    return text, details


def param_json(p: ParamSpec, specs: tuple[ParamSpec, ...] = ()) -> JsonDict:
    """One option for the new-game form: ``label`` and ``help`` in words for players,
    ``details`` (option name and rulings) for a tooltip, ``name`` for the request."""
    kind = "bool" if p.kind is bool else "int" if p.kind is int else "str"
    help_text, details = player_help(p, specs)
    return {
        "name": p.name,
        "label": p.label,
        "kind": kind,
        "default": p.default,
        "help": help_text,
        "details": details,
        "choices": None if p.choices is None else list(p.choices),
        "minimum": p.minimum,
        "maximum": p.maximum,
        "generated": p.generate is not None,
    }


def game_json(spec: GameSpec) -> JsonDict:
    """What the home page and the new-game form need to know about a game."""
    from sudoku_arena.ai import agent_names

    try:
        agents = agent_names(load(spec.id))
    except Exception:  # a game whose defaults cannot load still lists its random bot
        agents = ["random"]
    return {
        "id": spec.id,
        "name": spec.name,
        "version": spec.version,
        "summary": spec.summary,
        "min_players": spec.min_players,
        "max_players": spec.max_players,
        "chance": spec.chance,
        "hidden_information": spec.hidden_information,
        "simultaneous": spec.simultaneous,
        "draws": spec.draws,
        "params": [param_json(p, spec.params) for p in spec.params if p.name != "players"],
        "agents": agents,
        "has_rules": rules_markdown(spec.id) is not None,
    }


def games_json() -> list[JsonDict]:
    out = []
    for spec in registered_games():
        out.append(game_json(spec))
    return out


# -- a small Markdown reader for the rules pages (headings, lists, tables, code) -------------

_INLINE_CODE = re.compile(r"`([^`]+)`")
_BOLD = re.compile(r"\*\*([^*]+)\*\*")
_ITALIC = re.compile(r"(?<![*\w])\*([^*]+)\*(?!\*)")
_LINK = re.compile(r"\[([^\]]+)\]\((https?://[^)\s]+)\)")


def _inline(text: str) -> str:
    out = html.escape(text, quote=False)
    out = _INLINE_CODE.sub(lambda m: f"<code>{m.group(1)}</code>", out)
    out = _BOLD.sub(r"<strong>\1</strong>", out)
    out = _ITALIC.sub(r"<em>\1</em>", out)
    out = _LINK.sub(lambda m: f'<a href="{html.escape(m.group(2))}">{m.group(1)}</a>', out)
    return out


_FIGURE = re.compile(r"^\{\{diagram:\s*([\w-]+)\s*(?:\|\s*(.*?))?\s*\}\}$")
_SUMMARY = re.compile(r"^<summary>(.*)</summary>$")


def markdown_to_html(text: str, figures: Mapping[str, str] | None = None, *, shift: int = 1) -> str:
    """Markdown as HTML for the rules pages; everything is escaped first.

    Beyond plain Markdown: a line ``{{diagram: NAME | caption}}`` places the SVG
    ``figures[NAME]`` (already inert, see :func:`inert_svg`) with its caption, and the
    lines ``<details>``, ``<summary>text</summary>`` and ``</details>`` fold a part away
    (the only HTML let through). Headings move ``shift`` levels down (``#`` is ``<h2>``
    by default, for a page that has its own ``<h1>``).
    """
    lines = text.splitlines()
    out: list[str] = []
    para: list[str] = []
    lists: list[str] = []
    i = 0

    def flush_para() -> None:
        if para:
            out.append("<p>" + _inline(" ".join(para)) + "</p>")
            para.clear()

    def pop_list() -> None:
        kind = lists.pop()
        out.append(f"</{kind}></li>" if lists else f"</{kind}>")  # a nested list ends its item

    def close_lists() -> None:
        while lists:
            pop_list()

    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if stripped.startswith("```"):
            flush_para()
            close_lists()
            block: list[str] = []
            i += 1
            while i < len(lines) and not lines[i].strip().startswith("```"):
                block.append(lines[i])
                i += 1
            # Focusable, so a keyboard can scroll a wide block (narrow screens).
            code = html.escape("\n".join(block))
            out.append(f'<pre tabindex="0"><code>{code}</code></pre>')
            i += 1
            continue
        if not stripped:
            flush_para()
            close_lists()
            i += 1
            continue
        figure = _FIGURE.match(stripped)
        summary = _SUMMARY.match(stripped)
        if figure or summary or stripped in ("<details>", "</details>"):
            flush_para()
            close_lists()
            if figure:
                out.append(_figure_html(figure.group(1), figure.group(2) or "", figures or {}))
            elif summary:
                out.append(f"<summary>{_inline(summary.group(1))}</summary>")
            else:
                out.append('<details class="rules-details">' if stripped[1] == "d" else stripped)
            i += 1
            continue
        heading = re.match(r"^(#{1,6})\s+(.*)$", stripped)
        if heading:
            flush_para()
            close_lists()
            level = min(len(heading.group(1)) + shift, 6)
            out.append(f"<h{level}>{_inline(heading.group(2))}</h{level}>")
            i += 1
            continue
        if stripped.startswith("|"):
            flush_para()
            close_lists()
            rows: list[list[str]] = []
            while i < len(lines) and lines[i].strip().startswith("|"):
                cells = [c.strip() for c in lines[i].strip().strip("|").split("|")]
                if not all(re.fullmatch(r":?-{2,}:?", c) for c in cells):
                    rows.append(cells)
                i += 1
            out.append('<table class="rules-table" tabindex="0">')
            for r, cells in enumerate(rows):
                tag = "th" if r == 0 else "td"
                out.append(
                    "<tr>" + "".join(f"<{tag}>{_inline(c)}</{tag}>" for c in cells) + "</tr>"
                )
            out.append("</table>")
            continue
        item = re.match(r"^(\s*)([-*+]|\d+[.)])\s+(.*)$", line)
        if item:
            flush_para()
            kind = "ol" if item.group(2)[0].isdigit() else "ul"
            depth = len(item.group(1).expandtabs(4)) // 2
            while len(lists) > depth + 1:
                pop_list()
            if len(lists) < depth + 1:
                if lists and out[-1].endswith("</li>"):
                    out[-1] = out[-1][: -len("</li>")]  # the nested list goes inside the item
                lists.append(kind)
                out.append(f"<{kind}>")
            out.append("<li>" + _inline(item.group(3)))
            i += 1
            while (
                i < len(lines)
                and lines[i].strip()
                and lines[i].startswith("  ")
                and not re.match(r"^\s*([-*+]|\d+[.)])\s+", lines[i])
            ):
                out[-1] += " " + _inline(lines[i].strip())
                i += 1
            out[-1] += "</li>"
            continue
        if lists and line.startswith(" "):
            out[-1] = out[-1][: -len("</li>")] + " " + _inline(stripped) + "</li>"
            i += 1
            continue
        close_lists()
        para.append(stripped)
        i += 1
    flush_para()
    close_lists()
    return "\n".join(out)


def _figure_html(name: str, caption: str, figures: Mapping[str, str]) -> str:
    svg = figures.get(name)
    if svg is None:  # a test reads every rules page and refuses this
        return f'<p class="rules-missing">(diagram {html.escape(name)} is missing)</p>'
    cap = f"<figcaption>{_inline(caption)}</figcaption>" if caption else ""
    return f'<figure class="rules-figure" data-figure="{html.escape(name)}">{svg}{cap}</figure>'


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


@lru_cache(maxsize=16)
def figure_svgs(game_id: str) -> dict[str, str]:
    """The game's named positions drawn by its own renderer, inert (no click targets):
    the board, and what its panel shows beside it (scores, the Map, dice, a hand)."""
    game_entry = entry(game_id)
    if game_entry.figures is None:
        return {}
    out: dict[str, str] = {}
    for name, view in game_entry.figures().items():
        drawing = inert_svg(game_entry.render_svg(view))
        if game_entry.render_panel is not None:
            panel = inert_svg(game_entry.render_panel(view), "rules-panel", natural=True)
            drawing = f'<div class="rules-drawing">{drawing}{panel}</div>'
        out[name] = drawing
    return out


def _page(title: str, game_id: str, body: str) -> str:
    return (
        web_file("rules.html")
        .replace("{{title}}", html.escape(title))
        .replace("{{game_id}}", html.escape(game_id))
        .replace("{{body}}", body)
    )


def rules_page(game_id: str) -> str:
    """The rules page for players: RULES.md with its diagrams and a link to the full
    reference (the README alone for a game without RULES.md)."""
    spec = spec_of(game_id)
    text = player_rules_markdown(game_id)
    reference = rules_markdown(game_id)
    if text is not None:
        body = markdown_to_html(text, figure_svgs(game_id), shift=0)
        if reference is not None:
            body += (
                '\n<p class="rules-reference"><a href="/rules/'
                f'{html.escape(spec.id)}/reference">The full reference</a>: the rules as '
                "implemented, every ruling with its number, the notation and the options.</p>"
            )
    elif reference is not None:
        body = markdown_to_html(reference, shift=0)
    else:
        body = (
            f"<p>{html.escape(spec.summary)}</p><p>The full rules page of this game is "
            "not written yet.</p>"
        )
    return _page(f"{spec.name}: rules", spec.id, body)


def reference_page(game_id: str) -> str | None:
    """The game's README.md as a page (the rules as implemented), or ``None``."""
    spec = spec_of(game_id)
    text = rules_markdown(game_id)
    if text is None:
        return None
    back = (
        f'<p class="rules-reference"><a href="/rules/{html.escape(spec.id)}">Back to the '
        "rules for players</a></p>\n"
    )
    return _page(f"{spec.name}: full reference", spec.id, back + markdown_to_html(text, shift=0))

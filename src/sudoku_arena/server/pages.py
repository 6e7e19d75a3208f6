"""Static pages, each game's rules pages, and game facts for the home page and form.

A game's rules page is its package's RULES.md, written for players, with the positions
its entry names (``figures``) drawn inline by the game's own renderer; the reference
page is its README.md, the rules as implemented with every ruling, for engineers.
"""

from __future__ import annotations

import html
import importlib.resources
import re
from collections.abc import Mapping, Sequence
from functools import lru_cache

from sudoku_arena.core import markdown as md
from sudoku_arena.core.params import ParamSpec
from sudoku_arena.core.registry import load, registered_games, spec_of
from sudoku_arena.core.types import GameSpec, JsonDict
from sudoku_arena.games.rulebook import diagrams, player_rules_markdown, rules_markdown
from sudoku_arena.games.rulebook import inert_svg as inert_svg  # the rules tests use it here

WEB_PACKAGE = "sudoku_arena.web"

#: A ruling's ID as the READMEs write them: ``TTS-3``, ``SW-12``, ``CI-8``...
RULING_ID = re.compile(r"\b[A-Z]{2,4}-\d{1,2}\b")
#: A parenthesis holding only ruling IDs: ``(CI-6)``, ``(SW-3, SW-13)``.
_RULING_PAREN = re.compile(r"\s*\((?:[A-Z]{2,4}-\d{1,2}(?:,\s*)?)+\)")


@lru_cache(maxsize=16)
def web_file(name: str) -> str:
    """A file shipped in ``sudoku_arena/web`` (pages, script, style)."""
    return importlib.resources.files(WEB_PACKAGE).joinpath(name).read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def web_scripts() -> frozenset[str]:
    """The browser scripts shipped in ``sudoku_arena/web``, by file name: the ES modules
    that ``arena.js`` imports (``./board.js``...) and ``analysis.js``. Only these are
    served under ``/static/`` (the service worker, ``sw.js``, is served at ``/sw.js``
    so that its scope is the whole site)."""
    folder = importlib.resources.files(WEB_PACKAGE)
    return frozenset(
        f.name
        for f in folder.iterdir()
        if f.name.endswith(".js") and f.name != "sw.js" and f.is_file()
    )


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


# -- the rules as HTML (read by core.markdown, the same blocks paper prints) ------------------


def inline_html(pieces: Sequence[md.Inline]) -> str:
    """Pieces of a line as HTML, every text escaped."""
    out = []
    for p in pieces:
        if isinstance(p, md.Text):
            out.append(html.escape(p.text, quote=False))
        elif isinstance(p, md.Code):
            out.append(f"<code>{html.escape(p.text, quote=False)}</code>")
        elif isinstance(p, md.Emphasis):
            tag = "strong" if p.strong else "em"
            out.append(f"<{tag}>{inline_html(p.children)}</{tag}>")
        else:
            out.append(f'<a href="{html.escape(p.href)}">{inline_html(p.children)}</a>')
    return "".join(out)


def markdown_to_html(text: str, figures: Mapping[str, str] | None = None, *, shift: int = 1) -> str:
    """Markdown (see :mod:`sudoku_arena.core.markdown`) as HTML for the rules pages;
    everything is escaped.

    A diagram line places the SVG ``figures[NAME]`` (already inert, see
    :func:`~sudoku_arena.games.rulebook.inert_svg`) with its caption; a ``<details>``
    part folds away. Headings move ``shift`` levels down (``#`` is ``<h2>`` by default,
    for a page that has its own ``<h1>``).
    """
    return "\n".join(_blocks_html(md.parse(text), figures or {}, shift))


def _blocks_html(blocks: Sequence[md.Block], figures: Mapping[str, str], shift: int) -> list[str]:
    out: list[str] = []
    for b in blocks:
        if isinstance(b, md.Heading):
            level = min(b.level + shift, 6)
            out.append(f"<h{level}>{inline_html(b.text)}</h{level}>")
        elif isinstance(b, md.Paragraph):
            out.append(f"<p>{inline_html(b.text)}</p>")
        elif isinstance(b, md.ListBlock):
            out += _list_html(b)
        elif isinstance(b, md.Table):
            out.append('<table class="rules-table" tabindex="0">')
            for r, cells in enumerate(b.rows):
                tag = "th" if r == 0 else "td"
                out.append(
                    "<tr>" + "".join(f"<{tag}>{inline_html(c)}</{tag}>" for c in cells) + "</tr>"
                )
            out.append("</table>")
        elif isinstance(b, md.CodeBlock):
            # Focusable, so a keyboard can scroll a wide block (narrow screens).
            out.append(f'<pre tabindex="0"><code>{html.escape(b.text)}</code></pre>')
        elif isinstance(b, md.Figure):
            out.append(_figure_html(b.name, b.caption, figures))
        elif isinstance(b, md.Summary):
            out.append(f"<summary>{inline_html(b.text)}</summary>")
        else:
            out.append('<details class="rules-details">')
            out += _blocks_html(b.blocks, figures, shift)
            out.append("</details>")
    return out


def _list_html(block: md.ListBlock) -> list[str]:
    kind = "ol" if block.ordered else "ul"
    out = [f"<{kind}>"]
    for item in block.items:
        out.append("<li>" + inline_html(item.text))
        for nested in item.lists:  # inside the item, which closes after them
            out += _list_html(nested)
        out[-1] += "</li>"
    out.append(f"</{kind}>")
    return out


def _figure_html(name: str, caption: Sequence[md.Inline], figures: Mapping[str, str]) -> str:
    svg = figures.get(name)
    if svg is None:  # a test reads every rules page and refuses this
        return f'<p class="rules-missing">(diagram {html.escape(name)} is missing)</p>'
    cap = f"<figcaption>{inline_html(caption)}</figcaption>" if caption else ""
    return f'<figure class="rules-figure" data-figure="{html.escape(name)}">{svg}{cap}</figure>'


@lru_cache(maxsize=16)
def figure_svgs(game_id: str) -> dict[str, str]:
    """The game's named positions drawn by its own renderer, inert (no click targets):
    the board, and what its panel shows beside it (scores, the Map, dice, a hand)."""
    out: dict[str, str] = {}
    for name, d in diagrams(game_id).items():
        out[name] = (
            d.board if d.panel is None else f'<div class="rules-drawing">{d.board}{d.panel}</div>'
        )
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

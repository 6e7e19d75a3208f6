"""Static pages, each game's rules page, and game facts for the home page and form."""

from __future__ import annotations

import html
import importlib.resources
import re
from functools import lru_cache

from sudoku_arena.core.params import ParamSpec
from sudoku_arena.core.registry import entry, load, registered_games, spec_of
from sudoku_arena.core.types import GameSpec, JsonDict

WEB_PACKAGE = "sudoku_arena.web"


@lru_cache(maxsize=16)
def web_file(name: str) -> str:
    """A file shipped in ``sudoku_arena/web`` (pages, script, style)."""
    return importlib.resources.files(WEB_PACKAGE).joinpath(name).read_text(encoding="utf-8")


def rules_markdown(game_id: str) -> str | None:
    """The game's README.md (its rules as implemented), or ``None`` if it has none."""
    package = str(getattr(entry(game_id).rules, "__module__", "")).rpartition(".")[0]
    try:
        return importlib.resources.files(package).joinpath("README.md").read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError, OSError):
        return None


def param_json(p: ParamSpec) -> JsonDict:
    kind = "bool" if p.kind is bool else "int" if p.kind is int else "str"
    return {
        "name": p.name,
        "kind": kind,
        "default": p.default,
        "help": p.help,
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
        "params": [param_json(p) for p in spec.params if p.name != "players"],
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


def markdown_to_html(text: str) -> str:
    """Markdown as HTML for the rules pages; everything is escaped first."""
    lines = text.splitlines()
    out: list[str] = []
    para: list[str] = []
    lists: list[str] = []
    i = 0

    def flush_para() -> None:
        if para:
            out.append("<p>" + _inline(" ".join(para)) + "</p>")
            para.clear()

    def close_lists() -> None:
        while lists:
            out.append(f"</{lists.pop()}>")

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
            out.append("<pre><code>" + html.escape("\n".join(block)) + "</code></pre>")
            i += 1
            continue
        if not stripped:
            flush_para()
            close_lists()
            i += 1
            continue
        heading = re.match(r"^(#{1,6})\s+(.*)$", stripped)
        if heading:
            flush_para()
            close_lists()
            level = min(len(heading.group(1)) + 1, 6)
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
            out.append('<table class="rules-table">')
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
                out.append(f"</{lists.pop()}>")
            if len(lists) < depth + 1:
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


def rules_page(game_id: str) -> str | None:
    spec = spec_of(game_id)
    text = rules_markdown(game_id)
    if text is None:
        body = (
            f"<p>{html.escape(spec.summary)}</p><p>The full rules page of this game is "
            "not written yet.</p>"
        )
    else:
        body = markdown_to_html(text)
    return (
        web_file("rules.html")
        .replace("{{title}}", html.escape(f"{spec.name}: rules"))
        .replace("{{game_id}}", html.escape(spec.id))
        .replace("{{body}}", body)
    )

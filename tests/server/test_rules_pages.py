"""The rules pages for players and the words on the new-game form.

Every game's /rules page is its RULES.md: the goal, a turn and the end, with diagrams
drawn by the game's own renderer from positions played through its engine, nothing on
them to click, and ruling IDs only in the folded details part. The README stays at
/rules/GAME/reference. The game facts name options in words, with the ruling IDs moved
out of the help text into a details line.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from arena_helpers import LiveServer

from services import chromium
from sudoku_arena.core.params import ParamSpec
from sudoku_arena.core.registry import entry, registered_games
from sudoku_arena.server import ServerConfig
from sudoku_arena.server.pages import inert_svg, player_rules_markdown, rules_markdown

GAMES = [spec.id for spec in registered_games()]
RULING = re.compile(r"\b(?:TTS|SW|CS|SH|CI)-\d+\b")
DETAILS = re.compile(r"<details\b.*?</details>", re.S)
MARKER = re.compile(r"\{\{diagram:\s*([\w-]+)")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("rules") / "arena.sqlite3"
    config = ServerConfig(database_url=f"sqlite:///{db}", bot_workers=0, bot_delay=0.0)
    with LiveServer(config) as s:
        yield s


def outside_details(page: str) -> str:
    return DETAILS.sub("", page)


@pytest.mark.parametrize("game", GAMES)
def test_rules_page_explains_goal_turn_and_end_with_inert_diagrams(
    site: LiveServer, game: str
) -> None:
    r = httpx.get(f"{site.url}/rules/{game}")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    page = r.text
    headings = [h.lower() for h in re.findall(r"<h2>(.*?)</h2>", page)]
    assert "the goal" in headings and "how it ends" in headings, headings
    assert any("turn" in h for h in headings), headings
    figures = re.findall(r'<figure class="rules-figure".*?</figure>', page, re.S)
    assert figures and all("<svg" in f and "<figcaption>" in f for f in figures)
    if entry(game).render_panel is not None:  # what the panel beside the board shows
        assert all('class="rules-panel' in f for f in figures)
    for attribute in ("data-action", "data-select", "data-from", "cursor:pointer"):
        assert attribute not in page, attribute
    assert "{{" not in page and "rules-missing" not in page
    assert f'href="/rules/{game}/reference"' in page


@pytest.mark.parametrize("game", GAMES)
def test_ruling_ids_appear_only_in_the_details_part(site: LiveServer, game: str) -> None:
    page = httpx.get(f"{site.url}/rules/{game}").text
    folded = DETAILS.findall(page)
    assert len(folded) == 1 and "<summary>" in folded[0]
    assert RULING.findall(folded[0]), "the details name the rulings behind the page"
    assert RULING.findall(outside_details(page)) == []


@pytest.mark.parametrize("game", GAMES)
def test_every_figure_is_drawn_where_rules_md_asks_for_it(game: str) -> None:
    text = player_rules_markdown(game)
    assert text is not None
    figures = entry(game).figures
    assert figures is not None
    views = figures()
    assert sorted(MARKER.findall(text)) == sorted(views)
    for name, view in views.items():
        assert view["game"] == game, name


def _words(page: str) -> str:
    """A page's text as a reader sees it: no drawings, no code, no tags."""
    for block in (r"<svg\b.*?</svg>", r"<pre\b.*?</pre>", r"<code>.*?</code>", r"<[^>]+>"):
        page = re.sub(block, " ", page, flags=re.S)
    return html.unescape(page)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("path", ["", "/reference"])
def test_no_rules_page_shows_markdown_asterisks(site: LiveServer, game: str, path: str) -> None:
    """Every **strong** part is read as strong, wherever it is written: over a line break,
    in a list item or its indented lines, inside the details part (Sudoku Warriors'
    bidding rule showed its asterisks)."""
    words = _words(httpx.get(f"{site.url}/rules/{game}{path}").text)
    assert "**" not in words, words[max(0, words.find("**") - 80) : words.find("**") + 80]


@pytest.mark.parametrize("game", GAMES)
def test_the_reference_page_still_shows_the_readme(site: LiveServer, game: str) -> None:
    readme = rules_markdown(game)
    assert readme is not None
    r = httpx.get(f"{site.url}/rules/{game}/reference")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    first_ruling = RULING.search(readme)
    assert first_ruling is not None and first_ruling.group(0) in r.text
    assert f'href="/rules/{game}"' in r.text


def test_an_unknown_game_has_no_reference_page(site: LiveServer) -> None:
    r = httpx.get(f"{site.url}/rules/no-such-game/reference")
    assert r.status_code == 404 and r.headers["content-type"].startswith("text/html")


def test_inert_svg_keeps_the_drawing_and_drops_what_clicks() -> None:
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" width="10" class="board x">'
        '<rect class="target" data-action="r1c1" style="cursor:pointer" x="0" y="0"/>'
        '<g data-select="b13"><circle r="1"/></g>'
        '<g class="target" data-from="b13"><rect data-action="b13-c13"/></g>'
        "</svg>"
    )
    out = inert_svg(svg)
    for gone in ("data-action", "data-select", "data-from", "cursor", 'class="target"', "width"):
        assert gone not in out, gone
    assert out.count("<rect") == 1 and "<circle" in out and 'viewBox="0 0 10 10"' in out
    assert "rules-board" in out
    keyboard = '<svg xmlns="http://www.w3.org/2000/svg"><rect role="button" tabindex="0"/></svg>'
    assert "role" not in inert_svg(keyboard) and "tabindex" not in inert_svg(keyboard)
    not_xml = '<svg><rect data-action="r1c1" data-select="x" x="1">&nbsp;</rect></svg>'
    assert inert_svg(not_xml) == '<svg><rect x="1">&nbsp;</rect></svg>'


def test_a_label_defaults_from_the_name_and_games_give_their_own() -> None:
    assert ParamSpec("warrior_cap", int, 1, "help").label == "Warrior cap"
    assert ParamSpec("max_turns", int, 1, "help", label="Turn limit").label == "Turn limit"
    citadel = {p.name: p.label for p in entry("citadel").spec.params}
    assert citadel["max_turns"] == "Turn limit" and citadel["size"] == "Board size"


def test_game_facts_name_options_in_words_and_keep_rulings_in_details(site: LiveServer) -> None:
    games = httpx.get(f"{site.url}/api/games").json()
    by_id = {g["id"]: g for g in games}
    for spec in registered_games():
        declared = {p.name: p for p in spec.params}
        for p in by_id[spec.id]["params"]:
            assert p["label"] and "_" not in p["label"], p
            assert RULING.findall(p["help"]) == [], p
            # Option names stay out of the words too ("warrior_cap" -> "warrior limit").
            assert not re.search(r"\b\w+_\w+\b", p["help"]), p
            assert sorted(RULING.findall(p["details"])) == sorted(
                RULING.findall(declared[p["name"]].help)
            )
            assert p["name"] in p["details"]
    labels = {p["name"]: p["label"] for p in by_id["citadel"]["params"]}
    assert labels["max_turns"] == "Turn limit"


def test_the_form_and_the_rules_pages_in_chromium(site: LiveServer, tmp_path: Path) -> None:
    with chromium() as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(f"{site.url}/?game=citadel#new-game")
        page.wait_for_selector("#f-params label")
        labels = page.locator("#f-params label > span:first-child").all_inner_texts()
        assert "Turn limit" in labels and "max_turns" not in labels
        helps = page.locator("#f-params .help")
        assert all(not RULING.search(t) for t in helps.all_inner_texts())
        titles = [helps.nth(i).get_attribute("title") or "" for i in range(helps.count())]
        assert any("CI-9" in t for t in titles)
        page.close()
        for width, height in ((1280, 800), (390, 844)):
            page = browser.new_page(viewport={"width": width, "height": height})
            for game in GAMES:
                page.goto(f"{site.url}/rules/{game}")
                page.screenshot(path=str(tmp_path / f"rules-{game}-{width}.png"))
                m = page.evaluate(
                    """() => {
                      let small = 99;
                      for (const e of document.querySelectorAll('main *')) {
                        if (e.closest('svg')) continue;
                        const own = [...e.childNodes].some(
                          (n) => n.nodeType === 3 && n.textContent.trim());
                        if (own) small = Math.min(small, parseFloat(getComputedStyle(e).fontSize));
                      }
                      const doc = document.documentElement;
                      const figs = [...document.querySelectorAll('figure svg')].map(
                        (s) => s.getBoundingClientRect().right);
                      return {small, scroll: doc.scrollWidth - doc.clientWidth,
                              right: Math.max(...figs)};
                    }"""
                )
                assert m["small"] >= 12, (game, width, m)
                assert m["scroll"] <= 0, (game, width, m)
                assert m["right"] <= width, (game, width, m)
            page.close()


def test_the_api_still_serves_the_readme(site: LiveServer) -> None:
    body = httpx.get(f"{site.url}/api/games/citadel/rules").json()
    assert body["game"] == "citadel" and "CI-8" in body["markdown"]


def test_nested_lists_stay_inside_their_item_and_wide_blocks_take_the_keyboard() -> None:
    from sudoku_arena.server.pages import markdown_to_html

    out = markdown_to_html("1. Roll.\n   - a box\n   - a blank\n2. Write.\n\n```\nwide\n```\n")
    assert "<li>Roll.\n<ul>\n<li>a box</li>\n<li>a blank</li>\n</ul></li>" in out
    assert out.count("<ol>") == 1 and "<li>Write.</li>\n</ol>" in out
    assert '<pre tabindex="0">' in out

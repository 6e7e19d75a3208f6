"""The browser scripts as files: ES modules of at most 400 lines, loaded by the pages
from one entry module, every import served as JavaScript and shipped in the package.

The scripts' types are checked by tsc (web-check/, run by scripts/test.sh); what the
scripts do is the browser tests' (test_browser*.py).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from html.parser import HTMLParser
from importlib import resources
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from sudoku_arena.server import ServerConfig, create_app
from sudoku_arena.server.pages import web_scripts

ROOT = Path(__file__).resolve().parents[2]
WEB = resources.files("sudoku_arena.web")
MAX_LINES = 400
#: ``import ... from "./x.js"`` and JSDoc's ``import("./x.js").Type`` (types only).
_IMPORT = re.compile(r'^\s*(?:import|export)\b[^;]*?\bfrom\s+"\./([\w-]+\.js)"', re.M | re.S)
_TYPE_IMPORT = re.compile(r'import\("\./([\w-]+\.js)"\)')


def _text(name: str) -> str:
    return WEB.joinpath(name).read_text(encoding="utf-8")


def _scripts_of(page: str) -> list[dict[str, str | None]]:
    """The <script> tags of a page, as their attributes."""
    found: list[dict[str, str | None]] = []

    class Scripts(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            if tag == "script":
                found.append(dict(attrs))

    Scripts().feed(_text(page))
    return found


def _imports(name: str) -> set[str]:
    """The modules ``name`` imports, to run (first) and for its types (second)."""
    text = _text(name)
    return set(_IMPORT.findall(text)) | set(_TYPE_IMPORT.findall(text))


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("db") / "a.sqlite3"
    config = ServerConfig(database_url=f"sqlite:///{db}", bot_workers=0, bot_delay=0.0)
    with TestClient(create_app(config)) as c:
        yield c


def test_no_script_is_over_400_lines() -> None:
    names = sorted(web_scripts())
    assert "arena.js" in names and len(names) > 3
    long = {n: len(_text(n).splitlines()) for n in names}
    assert all(lines <= MAX_LINES for lines in long.values()), {
        n: lines for n, lines in long.items() if lines > MAX_LINES
    }


@pytest.mark.parametrize(
    "page", ["play.html", "index.html", "replay.html", "lessons.html", "tutorial.html"]
)
def test_the_pages_load_the_entry_module(page: str) -> None:
    scripts = _scripts_of(page)
    entry = [s for s in scripts if s.get("src") == "/static/arena.js"]
    assert entry == [{"type": "module", "src": "/static/arena.js"}], scripts
    # No page loads a module as a classic script (its import statements would not parse).
    for s in scripts:
        name = (s.get("src") or "").removeprefix("/static/")
        if re.search(r"^\s*import\b", _text(name), re.M):
            assert s.get("type") == "module", f"{page} loads {name} as a classic script"


def test_every_module_is_reached_from_a_page_and_every_import_exists() -> None:
    pages = ("play.html", "index.html", "replay.html", "lessons.html", "tutorial.html")
    todo = [(s.get("src") or "").removeprefix("/static/") for p in pages for s in _scripts_of(p)]
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        assert name in web_scripts(), f"{name} is loaded or imported but not shipped"
        seen.add(name)
        todo.extend(_imports(name))
    assert seen == web_scripts(), f"scripts no page reaches: {web_scripts() - seen}"


def test_every_module_is_served_as_javascript(client: TestClient) -> None:
    for name in sorted(web_scripts()):
        r = client.get(f"/static/{name}")
        assert r.status_code == 200, name
        assert r.headers["content-type"].startswith("text/javascript"), name
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.text == _text(name)
    # Only the package's own scripts: no other name, no other folder.
    assert client.get("/static/no-such-module.js").status_code == 404
    assert client.get("/static/..%2Fserver%2Fapp.js").status_code == 404


def test_each_module_says_what_it_is_for() -> None:
    for name in sorted(web_scripts()):
        first = _text(name).splitlines()[0]
        assert first.startswith("// Sudoku Arena"), f"{name} starts with {first!r}"


def test_the_package_data_ships_the_scripts() -> None:
    """An installed wheel (and pip install -e) carries every .js file of the web folder."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    data = config["tool"]["setuptools"]["package-data"]
    assert "*.js" in data.get("*", []) or "*.js" in data.get("sudoku_arena.web", [])

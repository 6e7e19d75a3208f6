"""The two builds: compiled where a C compiler works, pure Python elsewhere.

The first test installs the package, editable, into a fresh virtualenv with the C
compiler hidden (``CC=false``) and checks that the install works, that nothing was
compiled and that the games play. The others check how the package chooses between
compiled and pure modules at import time.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

PLAY = """
import random
from sudoku_arena import build_description, load
from sudoku_arena.core.registry import registered_games
print(build_description())
rng = random.Random(0)
for spec in registered_games():
    game = load(spec.id, seed=1)
    s = game.initial_state()
    for _ in range(30):
        tm = game.to_move(s)
        if tm.is_terminal:
            break
        if tm.is_chance:
            outcomes = game.chance_outcomes(s)
            s = game.apply(s, outcomes[rng.randrange(len(outcomes))][0], None)
        else:
            p = tm.players[0]
            s = game.apply(s, rng.choice(list(game.legal_actions(s, p))), p)
print("played", len(registered_games()))
"""


def _copy_sources(dest: Path) -> Path:
    """The files a build reads, copied without any compiled file of this checkout."""
    repo = dest / "repo"
    repo.mkdir()
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, repo / name)
    shutil.copytree(
        ROOT / "src",
        repo / "src",
        ignore=shutil.ignore_patterns("*.so", "_compiled.json", "__pycache__", "*.egg-info"),
    )
    return repo


@pytest.mark.slow
def test_editable_install_without_a_c_compiler_gives_pure_python(tmp_path: Path) -> None:
    repo = _copy_sources(tmp_path)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    py = venv / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if not k.startswith("SUDOKU_ARENA_")}
    # An empty build cache: with this checkout's build cached, the same sources would
    # install compiled without a compiler (scripts/smoke_readme.py checks that path).
    env.update(
        CC="false",
        PIP_DISABLE_PIP_VERSION_CHECK="1",
        SUDOKU_ARENA_BUILD_CACHE=str(tmp_path / "cache"),
    )
    # The package alone (its dependencies are not needed to load and play the engines).
    install = subprocess.run(
        [str(py), "-m", "pip", "install", "-q", "--no-deps", "-e", str(repo), "mypy-extensions"],
        env=env,
        capture_output=True,
        text=True,
    )
    assert install.returncode == 0, install.stderr
    assert not list((repo / "src").rglob("*.so")), "something was compiled without a compiler"
    assert not (repo / "src" / "sudoku_arena" / "_compiled.json").exists()
    run = subprocess.run(
        [str(py), "-c", PLAY], env=env, capture_output=True, text=True, cwd=tmp_path
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == ["pure Python (not compiled)", "played 5"]


MANIFEST = ROOT / "src" / "sudoku_arena" / "_compiled.json"
WHICH = (
    "import sudoku_arena, sudoku_arena.core.types as t;"
    "print(sudoku_arena.build_description()); print(t.__file__)"
)


def _which(env_extra: dict[str, str], src: Path = ROOT / "src") -> tuple[str, str]:
    """(build description, file core.types was loaded from) in a fresh interpreter."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SUDOKU_ARENA_")}
    env.update(env_extra, PYTHONPATH=str(src))
    out = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", WHICH],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    description, path = out.stdout.splitlines()
    return description, path


def test_sudoku_arena_pure_loads_every_module_from_its_source() -> None:
    description, path = _which({"SUDOKU_ARENA_PURE": "1"})
    assert description == "pure Python (SUDOKU_ARENA_PURE=1)"
    assert path.endswith("types.py")


def test_the_compiled_modules_run_when_they_match_their_sources() -> None:
    if os.environ.get("SUDOKU_ARENA_REQUIRE_SERVICES") == "1":
        assert MANIFEST.exists(), "CI has a C compiler: the install must have compiled"
    description, path = _which({})
    if MANIFEST.exists():
        assert description.startswith("compiled with mypyc")
        assert not path.endswith(".py")
    else:  # installed without compiling: it says so
        assert description == "pure Python (not compiled)"
        assert path.endswith("types.py")


def test_an_edited_source_turns_every_compiled_module_off(tmp_path: Path) -> None:
    if os.environ.get("SUDOKU_ARENA_REQUIRE_SERVICES") == "1":
        assert MANIFEST.exists(), "CI has a C compiler: the install must have compiled"
    src = tmp_path / "src"
    shutil.copytree(ROOT / "src", src, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    if not MANIFEST.exists():
        (src / "sudoku_arena" / "_compiled.json").write_text('{"sudoku_arena/core/types.py": ""}')
    edited = src / "sudoku_arena" / "grids" / "sudoku.py"
    edited.write_text(edited.read_text() + "\n# edited after the build\n")
    description, path = _which({}, src)
    if MANIFEST.exists():
        assert (
            description
            == "pure Python (sudoku_arena/grids/sudoku.py changed since it was compiled)"
        )
    else:
        assert description.startswith(
            "pure Python (sudoku_arena/core/types.py has no compiled file"
        )
    assert path == str(src / "sudoku_arena" / "core" / "types.py")

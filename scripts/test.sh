#!/usr/bin/env bash
# Set up a virtualenv with the package and its dev tools (the install compiles the hot
# modules with mypyc), then run the static checks, the whole test suite on the compiled
# build, and the engine-side tests again on pure Python (see the pure pass below). This
# is the README's test command and what CI runs.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
# pip's notes about this machine's optional local package folders are noise here.
quiet() { "$@" 2>&1 | { grep -v "^WARNING: Location" || true; }; return "${PIPESTATUS[0]}"; }
quiet .venv/bin/python -m pip install -q --upgrade pip
quiet .venv/bin/python -m pip install -q -e '.[dev,print,rl,openspiel,train]'
# axe-core for the accessibility audit (from npm; without npm that test skips, in CI fails)
# and TypeScript for the browser scripts' type check (web-check/; without npm it is skipped
# with a line saying so, in CI it fails).
if command -v npm >/dev/null 2>&1; then
  npm ci --prefix tests/axe --silent --no-audit --no-fund 2>&1 | { grep -v "Unknown user config" || true; }
  npm ci --prefix web-check --silent --no-audit --no-fund 2>&1 | { grep -v "Unknown user config" || true; }
fi
.venv/bin/ruff check src tests scripts benchmarks
.venv/bin/ruff format --check src tests scripts benchmarks
.venv/bin/mypy --strict src/sudoku_arena
# The browser scripts (src/sudoku_arena/web/*.js): their JSDoc types, strict (web-check/tsconfig.json).
if [ -x web-check/node_modules/.bin/tsc ]; then
  web-check/node_modules/.bin/tsc -p web-check
elif [ "${SUDOKU_ARENA_REQUIRE_SERVICES:-}" = "1" ]; then
  echo "tsc is missing (npm ci --prefix web-check): the browser scripts were not type-checked" >&2
  exit 1
else
  echo "Skipped: the browser scripts' type check (no npm for npm ci --prefix web-check)"
fi
.venv/bin/python scripts/count_any.py | tail -1
.venv/bin/lint-imports --no-cache
# Tests that need PostgreSQL, Redis or chromium skip with a one-line reason (-rs lists
# them) when these are missing; SUDOKU_ARENA_REQUIRE_SERVICES=1 (set by .ci/run) makes
# them fail instead. ARENA_TEST_PG and ARENA_TEST_REDIS point at other servers.
echo "Services: PostgreSQL ${ARENA_TEST_PG:-127.0.0.1:5432}, Redis ${ARENA_TEST_REDIS:-127.0.0.1:6379}," \
  "chromium ${SUDOKU_ARENA_CHROMIUM:-/usr/bin/chromium} (tests needing one skip when it is absent)"
echo "Compiled path: $(.venv/bin/sudoku-arena version)"
# Where a C compiler works the install must have compiled: a build that fell back to pure
# Python would run the "compiled" pass on pure code and hide it.
if [ "${SUDOKU_ARENA_PURE:-}" != "1" ] && command -v cc >/dev/null 2>&1 \
  && ! .venv/bin/sudoku-arena version | grep -q "compiled with mypyc"; then
  echo "the install did not compile although a C compiler is present; see pip install -v -e ." >&2
  exit 1
fi
# --max-worker-restart=0: a test worker that dies ends the run at once, naming the test it
# ran; with --dist loadgroup a replaced worker can leave the run waiting forever instead.
pytest=(.venv/bin/python -m pytest -n 2 --dist loadgroup --max-worker-restart=0 -rs --durations=10)
"${pytest[@]}" "$@"
# The pure pass runs the tests of the code that compiles (engines, grids, search) and of
# everything that drives it directly: bots, the lab, interop, print, the CLI, the build.
# The server, its pages and its fleets are pure Python in both builds and reach the
# engines only through the interfaces tested here; the compiled pass runs them, with two
# server files kept here as a check that the pure engines serve games end to end.
echo "Pure path: $(SUDOKU_ARENA_PURE=1 .venv/bin/sudoku-arena version)"
pure_paths=(tests/server/test_api.py tests/server/test_ws.py)
for path in tests/*/ tests/test_*.py; do
  [ "$path" = tests/server/ ] || pure_paths+=("$path")
done
# Arguments (a file, -k ...) choose the tests of both passes.
[ "$#" -eq 0 ] || pure_paths=("$@")
SUDOKU_ARENA_PURE=1 "${pytest[@]}" "${pure_paths[@]}"

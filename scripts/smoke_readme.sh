#!/usr/bin/env bash
# The README's first command, run as a newcomer would, in a fresh clone: it must show
# its progress (no silence over 30 s), serve the home page (HTTP 200 from /), and each
# extra installed afterwards must not compile again. See scripts/smoke_readme.py.
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 scripts/smoke_readme.py "$@"

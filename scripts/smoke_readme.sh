#!/usr/bin/env bash
# The README's first command, run as a newcomer would: in a fresh copy of the
# repository, it must set everything up and serve the home page (HTTP 200 from /).
# CI runs this after the tests (.ci/run); it stops the server itself.
set -euo pipefail
cd "$(dirname "$0")/.."
cmd=$(grep -m1 -E '^ +python3 -m venv \.venv && .*sudoku-arena serve' README.md | sed 's/^ *//')
if [ -z "$cmd" ]; then
  echo "smoke: README.md has no 'python3 -m venv .venv && ... sudoku-arena serve' command" >&2
  exit 1
fi
tmp=$(mktemp -d)
pid=""
cleanup() {
  if [ -n "$pid" ]; then kill -- "-$pid" 2>/dev/null || kill "$pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT
git clone -q . "$tmp/repo"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cd "$tmp/repo"
echo "smoke: $cmd --port $port"
set -m  # the server gets its own process group, so it stops with everything it started
bash -c "$cmd --port $port" > "$tmp/serve.log" 2>&1 &
pid=$!
set +m
for _ in $(seq 1 600); do
  code=$(python3 - "$port" <<'PY' 2>/dev/null || true
import sys, urllib.request
try:
    print(urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/", timeout=2).status)
except Exception:
    print(0)
PY
)
  if [ "$code" = "200" ]; then
    echo "smoke: the README's first command serves the home page (HTTP 200)"
    exit 0
  fi
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "smoke: the README's first command stopped:" >&2
    tail -20 "$tmp/serve.log" >&2
    exit 1
  fi
  sleep 0.5
done
echo "smoke: no HTTP 200 from / after 5 minutes" >&2
tail -20 "$tmp/serve.log" >&2
exit 1

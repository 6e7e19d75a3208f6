"""The web server under load beside a bare reference server, measured in the same run.

For 100 and 500 WebSocket clients playing Tic-Tac-Sudoku (every move committed to
SQLite, WAL with synchronous=FULL, before it is acknowledged), runs
``scripts/loadtest.py --serve`` against ``sudoku-arena serve`` and against the bare
reference server (``benchmarks/reference_server.py``: the same WebSocket endpoint and
group commit, no engine), and prints moves/s, p50/p90/p99 latency and the ratios.

    python benchmarks/server_load.py                 # about 3 minutes
    python benchmarks/server_load.py --duration 30 --clients 100,500,1000
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

LOADTEST = Path(__file__).resolve().parent.parent / "scripts" / "loadtest.py"


def measure(clients: int, duration: float, reference: bool, extra: list[str]) -> dict[str, Any]:
    cmd = [sys.executable, str(LOADTEST), "--serve", "--clients", str(clients)]
    cmd += ["--duration", str(duration), "--json", *extra]
    if reference:
        cmd.append("--reference")
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    figures: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return figures


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--clients", default="100,500", help="comma-separated client counts")
    ap.add_argument("--duration", type=float, default=20.0, help="seconds measured per run")
    ap.add_argument("--think", type=float, default=100.0, help="client think time, ms")
    ap.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="runs per server, alternating (the tail is noisy here: compare medians)",
    )
    args = ap.parse_args()
    extra = ["--think", str(args.think)]
    print(
        f"{'clients':>7} {'server':>9} {'moves/s':>9} {'p50 ms':>7} {'p90 ms':>7} "
        f"{'p99 ms':>7} {'errors':>6}"
    )
    for clients in (int(c) for c in args.clients.split(",")):
        ratios: list[tuple[float, float]] = []
        for _ in range(args.repeat):
            rows = {}
            for reference in (False, True):
                f = measure(clients, args.duration, reference, extra)
                rows[reference] = f
                name = "reference" if reference else "arena"
                print(
                    f"{clients:>7} {name:>9} {f['moves_per_s']:>9.1f} {f['p50_ms']:>7.1f} "
                    f"{f['p90_ms']:>7.1f} {f['p99_ms']:>7.1f} {f['errors']:>6}",
                    flush=True,
                )
            arena, ref = rows[False], rows[True]
            ratio = (arena["moves_per_s"] / ref["moves_per_s"], arena["p99_ms"] / ref["p99_ms"])
            ratios.append(ratio)
            print(f"{clients:>7} {'ratio':>9} {ratio[0]:>9.2f} {'':>7} {'':>7} {ratio[1]:>7.2f}")
        if args.repeat > 1:
            moves = statistics.median(r[0] for r in ratios)
            tail = statistics.median(r[1] for r in ratios)
            print(f"{clients:>7} {'median':>9} {moves:>9.2f} {'':>7} {'':>7} {tail:>7.2f}")


if __name__ == "__main__":
    main()

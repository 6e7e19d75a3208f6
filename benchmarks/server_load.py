"""The web server under load beside a bare reference server, measured in the same run.

For 100 and 500 WebSocket clients playing Tic-Tac-Sudoku (every move committed to
SQLite, WAL with synchronous=FULL, before it is acknowledged), runs
``scripts/loadtest.py --serve`` against ``sudoku-arena serve`` and against the bare
reference server (``benchmarks/reference_server.py``: the same WebSocket endpoint and
group commit, no engine), and prints moves/s, p50/p90/p99 latency and the ratios.
``--accounts`` adds a third server in each round: the real server with its rate limits
on, played by signed-in accounts (``loadtest.py --accounts``), with its own ratios.
``--before DIR`` adds the server of another checkout (``git worktree add DIR REV``; build
its compiled modules as this one's, ``python setup.py build_ext --inplace``), played by
guests: what a change did, measured in the same rounds as the rest. ``--claims``: on
every real server (not the reference, which has no seats to claim) both players of a
game claim their seat's link over HTTP before connecting, as the play page does: the
requests of a game between two browsers, guests or signed in.

    python benchmarks/server_load.py                 # about 3 minutes
    python benchmarks/server_load.py --accounts      # guests, accounts, reference
    python benchmarks/server_load.py --accounts --before /tmp/before --clients 500
    python benchmarks/server_load.py --accounts --claims --before /tmp/before --clients 500
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


#: The servers a round measures: name -> loadtest.py's options.
SERVERS = {"arena": [], "accounts": ["--accounts"], "reference": ["--reference"]}


def measure(clients: int, duration: float, server: str, extra: list[str]) -> dict[str, Any]:
    cmd = [sys.executable, str(LOADTEST), "--serve", "--clients", str(clients)]
    cmd += ["--duration", str(duration), "--json", *extra, *SERVERS[server]]
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
    ap.add_argument(
        "--accounts",
        action="store_true",
        help="also the server with rate limits on, played by signed-in accounts",
    )
    ap.add_argument(
        "--before",
        default=None,
        help="also the server of this checkout (an earlier commit's worktree), as guests",
    )
    ap.add_argument(
        "--claims",
        action="store_true",
        help="on the real servers both players claim their seats over HTTP, as browsers do",
    )
    ap.add_argument(
        "--limits",
        action="store_true",
        help="the guests' server (not the earlier checkout's) with its rate limits on too",
    )
    args = ap.parse_args()
    if args.limits:
        SERVERS["arena"] = [*SERVERS["arena"], "--limits"]
    if args.claims:
        for name in ("arena", "accounts"):
            SERVERS[name] = [*SERVERS[name], "--claims"]
    servers = ["arena", "accounts", "reference"] if args.accounts else ["arena", "reference"]
    if args.before:
        SERVERS["before"] = ["--source", args.before, *(["--claims"] if args.claims else [])]
        servers.insert(0, "before")
    compared = servers[:-1]
    extra = ["--think", str(args.think)]
    print(
        f"{'clients':>7} {'server':>9} {'moves/s':>9} {'p50 ms':>7} {'p90 ms':>7} "
        f"{'p99 ms':>7} {'errors':>6} {'cores':>6} {'CPU ms/move':>11}"
    )
    for clients in (int(c) for c in args.clients.split(",")):
        ratios: dict[str, list[tuple[float, float, float]]] = {name: [] for name in compared}
        for _ in range(args.repeat):
            rows = {}
            for name in servers:
                f = measure(clients, args.duration, name, extra)
                rows[name] = f
                print(
                    f"{clients:>7} {name:>9} {f['moves_per_s']:>9.1f} {f['p50_ms']:>7.1f} "
                    f"{f['p90_ms']:>7.1f} {f['p99_ms']:>7.1f} {f['errors']:>6} "
                    f"{f['server_cores']:>6.2f} {f['server_cpu_ms_per_move']:>11.3f}",
                    flush=True,
                )
            ref = rows["reference"]
            for name in compared:
                f = rows[name]
                cpu = f["server_cpu_ms_per_move"] / ref["server_cpu_ms_per_move"]
                ratio = (f["moves_per_s"] / ref["moves_per_s"], f["p99_ms"] / ref["p99_ms"], cpu)
                ratios[name].append(ratio)
                label = "ratio" if len(compared) == 1 else f"{name[:3]}/ref"
                print(
                    f"{clients:>7} {label:>9} {ratio[0]:>9.2f} {'':>7} {'':>7} {ratio[1]:>7.2f} "
                    f"{'':>6} {'':>6} {cpu:>11.2f}"
                )
        if args.repeat > 1:
            for name in compared:
                moves, tail, cpu = (statistics.median(r[i] for r in ratios[name]) for i in range(3))
                label = "median" if len(compared) == 1 else f"med {name[:3]}"
                print(
                    f"{clients:>7} {label:>9} {moves:>9.2f} {'':>7} {'':>7} {tail:>7.2f} "
                    f"{'':>6} {'':>6} {cpu:>11.2f}"
                )


if __name__ == "__main__":
    main()

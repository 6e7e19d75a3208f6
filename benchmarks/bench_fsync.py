"""How long this machine's disk takes to make a small write durable.

The server acknowledges a move only once it is committed, and a commit of SQLite's
write-ahead log is an append plus an ``fdatasync``. So no server can acknowledge faster
than the disk syncs: a stall of the disk holds up every move that waits for it. This
script appends blocks the size of a typical commit to a file and syncs after each one,
as the storage writer does, with no project code involved, and prints the latency
percentiles, the stalls over 20 ms and the share of the time spent in them.

    python benchmarks/bench_fsync.py [--seconds 20] [--dir DIR] [--block 16384]

If the stalls take more than 1 % of the time, the 99th percentile of any durable
acknowledgement on this disk is at least the typical stall, whatever the server does.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time


def probe(directory: str, seconds: float, block: int) -> list[tuple[float, float]]:
    """``(seconds since start, sync latency)`` for each append-and-sync."""
    fd, path = tempfile.mkstemp(prefix="fsync-probe-", dir=directory)
    data = b"\0" * block
    out: list[tuple[float, float]] = []
    try:
        start = time.perf_counter()
        while (now := time.perf_counter()) - start < seconds:
            os.write(fd, data)
            os.fdatasync(fd)
            out.append((now - start, time.perf_counter() - now))
    finally:
        os.close(fd)
        os.unlink(path)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--dir", default=tempfile.gettempdir(), help="where the file goes")
    ap.add_argument("--block", type=int, default=16384, help="bytes appended per sync")
    args = ap.parse_args()
    samples = probe(args.dir, args.seconds, args.block)
    lat = sorted(d for _, d in samples)
    n = len(lat)

    def pct(q: float) -> str:
        return f"{lat[min(n - 1, int(n * q))] * 1000:.2f} ms"

    stalls = [(t, d) for t, d in samples if d > 0.020]
    stalled = sum(d for _, d in stalls)
    print(f"{n} syncs of {args.block} bytes in {args.seconds:.0f} s under {args.dir}")
    print(
        f"p50 {pct(0.5)}, p90 {pct(0.9)}, p99 {pct(0.99)}, p99.9 {pct(0.999)}, "
        f"max {lat[-1] * 1000:.1f} ms"
    )
    print(
        f"stalls over 20 ms: {len(stalls)}, {stalled * 1000:.0f} ms in all, "
        f"{100 * stalled / args.seconds:.2f} % of the time"
    )
    for t, d in stalls[:20]:
        print(f"  at {t:6.2f} s: {d * 1000:.0f} ms")


if __name__ == "__main__":
    main()

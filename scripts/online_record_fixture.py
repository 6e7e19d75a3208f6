"""Play a SuDokuHex game on a real server and download its finished record.

The record is the fixture of ``tests/server/test_fairness.py``, which checks that
``sudoku-arena replay --verify`` accepts it offline with no server running::

    python scripts/online_record_fixture.py tests/server/data/online-sudokuhex.json
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

import httpx
import uvicorn

from sudoku_arena.server import ServerConfig, create_app


def main(out: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        config = ServerConfig(database_url=f"sqlite:///{tmp}/a.sqlite3", bot_workers=0)
        server = uvicorn.Server(uvicorn.Config(create_app(config), port=8765, log_level="warning"))
        import threading

        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.05)
        with httpx.Client(base_url="http://127.0.0.1:8765", timeout=30) as c:
            seats = [{"kind": "bot", "agent": "greedy"}, {"kind": "bot", "agent": "random"}]
            made = c.post("/api/matches", json={"game": "sudokuhex", "seats": seats}).json()
            gid = made["id"]
            while c.get(f"/api/matches/{gid}").json()["status"] != "finished":
                time.sleep(0.1)
            record = c.get(f"/api/matches/{gid}/record").json()
        server.should_exit = True
        thread.join()
    out.write_text(json.dumps(record) + "\n", encoding="utf-8")
    print(f"{out}: {len(record['actions'])} actions, outcome {record['outcome']['reason']}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))

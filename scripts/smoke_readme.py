"""The README's first command, run as a newcomer would, then each extra installed after it.

In a fresh clone of the repository (``git clone`` of HEAD into a temporary folder):

1. runs the README's first command (``python3 -m venv .venv && ... sudoku-arena serve``)
   with an empty build cache, as on a newcomer's machine, and waits for HTTP 200 from
   ``/``; fails if the command printed nothing for more than ``--silence`` seconds at a
   stretch before that (a newcomer must see it working), if no page came within
   ``--limit`` seconds, or if the install fell back to pure Python although a C compiler
   works. Says how long it took.
2. stops the server and installs each extra (``print``, ``rl``, ``openspiel``) as the
   README says, with the C compiler made unavailable (``CC=false`` and compilers on
   ``PATH`` that fail and leave a mark): the compiled engines must come from the build
   cache, never from a compiler, and ``sudoku-arena version`` must still say compiled.
   Says how long each took.

Run by ``scripts/smoke_readme.sh`` (CI). Exit status 0 when every step held.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXTRAS = ("print", "rl", "openspiel")
FIRST = re.compile(r"^ +(python3 -m venv \.venv && .*sudoku-arena serve)\s*$", re.M)


def say(message: str) -> None:
    print(f"smoke: {message}", flush=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serves(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as r:
            return bool(r.status == 200)
    except OSError:
        return False


class Watched:
    """A command whose output is kept, with the longest silence so far."""

    def __init__(self, command: str, cwd: Path, env: dict[str, str] | None = None) -> None:
        self.start = self.last = time.monotonic()
        self.longest = 0.0
        self.lines: list[str] = []
        self.proc = subprocess.Popen(
            ["bash", "-c", command],
            cwd=cwd,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,  # its own process group: stopped with all it started
        )
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            now = time.monotonic()
            self.longest = max(self.longest, now - self.last)
            self.last = now
            self.lines.append(line.rstrip())

    def silence(self) -> float:
        """The longest stretch without output, the present one included."""
        return max(self.longest, time.monotonic() - self.last)

    def elapsed(self) -> float:
        return time.monotonic() - self.start

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()

    def tail(self, n: int = 20) -> str:
        return "\n".join(self.lines[-n:])


def compiled(repo: Path, env: dict[str, str] | None = None) -> str:
    """What ``sudoku-arena version`` says of the build in ``repo``'s virtualenv."""
    return subprocess.run(
        [".venv/bin/sudoku-arena", "version"], cwd=repo, env=env, capture_output=True, text=True
    ).stdout.strip()


def compiler_works() -> bool:
    try:
        return subprocess.run(["cc", "--version"], capture_output=True).returncode == 0
    except OSError:
        return False


def first_command(repo: Path, silence: float, limit: float, env: dict[str, str]) -> bool:
    found = FIRST.search((repo / "README.md").read_text())
    if found is None:
        say("README.md has no 'python3 -m venv .venv && ... sudoku-arena serve' command")
        return False
    port = free_port()
    command = f"{found.group(1)} --port {port}"
    say(command)
    run = Watched(command, repo, env)
    try:
        while run.elapsed() < limit:
            if serves(port):
                say(
                    f"the README's first command serves the home page (HTTP 200) after "
                    f"{run.elapsed():.0f} s; longest silence {run.longest:.1f} s"
                )
                build = compiled(repo, env)
                if compiler_works() and "compiled with mypyc" not in build:
                    say(f"a C compiler works but the install did not compile: {build}")
                    say("(pip install -v -e . shows why)")
                    return False
                say(f"build: {build}")
                return True
            if run.silence() > silence:
                say(f"the first command printed nothing for over {silence:.0f} s:\n{run.tail()}")
                return False
            if run.proc.poll() is not None:
                say(f"the README's first command stopped:\n{run.tail()}")
                return False
            time.sleep(0.5)
        say(f"no HTTP 200 from / after {limit:.0f} s:\n{run.tail()}")
        return False
    finally:
        run.stop()


def no_compiler(folder: Path, env: dict[str, str]) -> dict[str, str]:
    """``env`` where every C compiler fails and writes to ``folder/called``."""
    bin_dir = folder / "bin"
    bin_dir.mkdir()
    for name in ("cc", "gcc", "c++", "g++", "x86_64-linux-gnu-gcc", "clang"):
        fake = bin_dir / name
        mark = shlex.quote(str(folder / "called"))
        fake.write_text(f'#!/bin/sh\necho "$0 $*" >> {mark}\nexit 1\n')
        fake.chmod(0o755)
    return {**env, "PATH": f"{bin_dir}:{env['PATH']}", "CC": "false"}


def extras(repo: Path, env: dict[str, str]) -> bool:
    with tempfile.TemporaryDirectory() as tmp:
        env = no_compiler(Path(tmp), env)
        for extra in EXTRAS:
            run = Watched(f".venv/bin/pip install -e '.[{extra}]'", repo, env)
            code = run.proc.wait()
            run.reader.join()
            if code != 0:
                say(f"installing the {extra} extra failed:\n{run.tail()}")
                return False
            build = compiled(repo, env)
            called = Path(tmp, "called")
            if called.exists():
                say(f"installing the {extra} extra called a compiler:\n{called.read_text()}")
                return False
            if "compiled with mypyc" not in build:
                say(f"after the {extra} extra the build is no longer compiled: {build}")
                return False
            say(
                f"the {extra} extra installed in {run.elapsed():.0f} s without a compiler "
                f"(longest silence {run.longest:.1f} s); still {build.split(', ', 1)[-1]}"
            )
    return True


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--silence", type=float, default=30.0, help="longest quiet stretch allowed")
    ap.add_argument("--limit", type=float, default=600.0, help="seconds to wait for the page")
    ap.add_argument("--no-extras", action="store_true", help="stop after the first command")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp, "repo")
        subprocess.run(["git", "clone", "-q", str(ROOT), str(repo)], check=True)
        # A build cache of its own, empty: the first command compiles as on a new machine
        # and the extras then find its build there.
        env = {**os.environ, "SUDOKU_ARENA_BUILD_CACHE": str(Path(tmp, "build-cache"))}
        if not first_command(repo, args.silence, args.limit, env):
            return 1
        if not args.no_extras and not extras(repo, env):
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

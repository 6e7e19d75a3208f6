"""Processes as Linux shows them in /proc: whose child each is, whether it still runs."""

from __future__ import annotations

from pathlib import Path

#: Whether this machine has /proc (the tests that read it skip elsewhere).
HAS_PROC = Path("/proc/self/stat").exists()


def _stat_fields(pid: int | str) -> list[str]:
    # The command name (field 2) may hold spaces and parentheses: split after its ")".
    return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()


def children(pid: int) -> set[int]:
    """The running processes whose parent is ``pid``."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = _stat_fields(entry.name)
        except OSError:  # it ended while we looked
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.add(int(entry.name))
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie has exited: only its exit status is left)."""
    try:
        return _stat_fields(pid)[0] != "Z"
    except OSError:
        return False

"""A guardian process that kills agent programs when the arena process that started them dies.

Agent programs run in their own sessions (so a game can kill a program and
everything it forked as one process group), which also means no signal sent
to arena reaches them. When arena ends normally, or by Ctrl-C, SIGTERM or
SIGHUP, the referee kills them itself; after SIGKILL it cannot. So the first
program an arena process starts also starts this guardian: a tiny process in
a session of its own, holding the read end of a pipe whose write end only
arena holds. Arena tells it each process group it starts (``+PGID``) and
ends (``-PGID``); when the pipe reaches end of file, arena is gone, however
it died, and the guardian kills every group still listed, then exits. A program's child
process announces its own group between fork and exec, so there is no moment in which
it runs unwatched.

Unlike ``prctl(PR_SET_PDEATHSIG)`` this covers the children a program forks
(they share its process group) and does not depend on which thread started
the program. The guardian runs as a script with ``python -I -S``: it imports
nothing of arena, so it starts in a few milliseconds.

Tests: ``tests/remote/test_signals.py``.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading

_lock = threading.Lock()
_guardian: tuple[int, subprocess.Popen[bytes]] | None = None
"""This process's guardian, with the pid of the process that started it (forks start their own)."""


def channel() -> int | None:
    """The guardian's pipe (started now if need be), for :func:`watch_from_child`."""
    proc = _pipe()
    return None if proc is None or proc.stdin is None else proc.stdin.fileno()


def watch_from_child(fd: int) -> None:
    """In a new program's child process, before exec: ask the guardian to watch this
    process group. One short ``write`` is atomic on a pipe and safe after ``fork``."""
    with contextlib.suppress(OSError):
        os.write(fd, b"+%d\n" % os.getpid())


def _pipe() -> subprocess.Popen[bytes] | None:
    global _guardian
    with _lock:
        if _guardian is not None and _guardian[0] == os.getpid() and _guardian[1].poll() is None:
            return _guardian[1]
        try:
            proc = subprocess.Popen(
                [sys.executable, "-I", "-S", os.path.abspath(__file__)],
                stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,  # a kill of arena's process group must not reach it
                close_fds=True,
            )
        except OSError:
            return None  # no guardian: the referee's own clean-up still runs
        _guardian = (os.getpid(), proc)
        return proc


def _tell(line: str) -> None:
    proc = _pipe()
    if proc is None or proc.stdin is None:
        return
    with contextlib.suppress(OSError, ValueError):
        proc.stdin.write(line.encode() + b"\n")
        proc.stdin.flush()


def release(pgid: int) -> None:
    """Process group ``pgid`` is gone (killed by the referee): stop watching it."""
    _tell(f"-{pgid}")


def _guard() -> None:
    # Signals meant for arena (Ctrl-C in the terminal, a service manager's SIGTERM) must
    # not end the guardian before arena has cleaned up: it leaves at end of file only.
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, signal.SIG_IGN)
    groups: set[int] = set()
    for raw in sys.stdin.buffer:
        line = raw.strip()
        with contextlib.suppress(ValueError):
            if line.startswith(b"+"):
                groups.add(int(line[1:]))
            elif line.startswith(b"-"):
                groups.discard(int(line[1:]))
    for pgid in groups:
        with contextlib.suppress(OSError):
            os.killpg(pgid, signal.SIGKILL)


if __name__ == "__main__":
    _guard()

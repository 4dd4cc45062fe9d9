"""numba's errors never swap ``sys.stdout``: a function compiled (or loaded) on a thread of
its own beside a thread that replaces the streams, as a test's capture does, leaves that
thread's stream in place. In CI, ``arena match --json`` printed its JSON to pytest's
global capture instead of the test's ``capsys``: numba's colourer, on a build thread, had
put back the stream it found there before the test started."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

from numba.core.errors import TypingError

import arena  # noqa: F401 - the package sets numba's switch as it is imported


def swapped_streams(tries: int) -> int:
    """How often ``sys.stdout``, replaced on this thread, was put back to another stream
    while another thread made numba errors (as numba's type inference does, thousands of
    times, while it compiles)."""
    done = threading.Event()

    def errors() -> None:
        while not done.is_set():
            TypingError("one of the errors numba makes and catches while it compiles")

    thread = threading.Thread(target=errors)
    saved = sys.stdout
    thread.start()
    changed = 0
    try:
        for _ in range(tries):
            mine = io.StringIO()
            sys.stdout = mine
            time.sleep(0.002)
            changed += sys.stdout is not mine
    finally:
        done.set()
        thread.join()
        sys.stdout = saved
    return changed


def test_numba_errors_made_on_another_thread_leave_sys_stdout_alone() -> None:
    # Before: 69 of 100 replacements were undone by the other thread (numba's colourer).
    assert swapped_streams(50) == 0


def test_likewise_when_numba_was_imported_before_arena() -> None:
    # numba first (its errors module reads the switch as it loads), then this module, which
    # imports arena.
    script = (
        "import sys\nimport numba.core.errors\n"
        f"sys.path.insert(0, {str(Path(__file__).parent)!r})\n"
        "from test_numba_errors import swapped_streams\nprint(swapped_streams(50))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_DISABLE_ERROR_MESSAGE_HIGHLIGHTING"}
    env["PYTHONPATH"] = os.pathsep.join(sys.path)
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, env=env
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["0"]


def test_the_programs_arena_starts_inherit_the_switch() -> None:
    assert os.environ.get("NUMBA_DISABLE_ERROR_MESSAGE_HIGHLIGHTING")

"""An agent's exception in one line, pointing at the user's own code.

When an agent raises, the person who wrote it needs the exception and the line
of *their* file that raised it, not arena's frames that called it. The frame
shown is the innermost one outside arena and outside the Python installation
(the standard library and installed packages); an exception raised by arena's
own code (a bug in a built-in agent) shows its innermost frame.

>>> def choose():
...     raise ValueError("oops")
>>> try:
...     choose()
... except ValueError as exc:
...     text = crash_text(exc)
>>> text.startswith("ValueError: oops at ") and text.endswith(" in choose")
True

Tests: tests/core/test_crash.py, tests/compete/test_match.py
"""

from __future__ import annotations

import os
import sysconfig
import traceback
from pathlib import Path

ARENA = Path(__file__).resolve().parents[1]
"""The arena package's directory: frames here are the caller, not the agent."""

_INSTALLED = tuple(
    Path(p).resolve()
    for p in {sysconfig.get_path(name) for name in ("stdlib", "platstdlib", "purelib", "platlib")}
    if p
)


def crash_text(exc: BaseException) -> str:
    """``ValueError: oops at mine.py:12 in choose``: the exception and where it was raised."""
    # The class's own name: a user's module is loaded under a generated name.
    message = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    what = f"{type(exc).__name__}: {message}" if message else type(exc).__name__
    frame = user_frame(exc)
    return what if frame is None else f"{what} at {frame}"


def user_frame(exc: BaseException) -> str | None:
    """``mine.py:12 in choose``: the innermost frame of the user's code (see the module)."""
    frames = traceback.extract_tb(exc.__traceback__)
    if not frames:
        return None
    own = [f for f in frames if _is_users(Path(f.filename))]
    frame = own[-1] if own else frames[-1]
    return f"{_shown(frame.filename)}:{frame.lineno} in {frame.name}"


def _is_users(path: Path) -> bool:
    try:
        path = path.resolve()
    except OSError:
        return False
    if not path.is_file():  # <stdin>, <doctest ...>, generated code
        return False
    return not any(path.is_relative_to(root) for root in (ARENA, *_INSTALLED))


def _shown(filename: str) -> str:
    """Relative to the working directory when the file is under it (as it was typed)."""
    try:
        return (
            os.path.relpath(filename)
            if Path(filename).resolve().is_relative_to(Path.cwd())
            else filename
        )
    except (OSError, ValueError):
        return filename

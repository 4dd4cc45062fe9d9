"""What the adapters for course frameworks share (``othello-ai:``, ``colosseum-agent:``):
the student's file named in the spec and the Python that runs it.

Tests: tests/remote/course/test_othello_ai.py, tests/remote/course/test_colosseum_agent.py,
tests/remote/course/test_cs410_agent.py

>>> short_path(Path("/home/me/project/agents/student_agent.py"))
'agents/student_agent.py'
>>> program_file("othello-ai", "no/such/agent.py", "agent.py")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
arena.core.errors.SpecError: othello-ai: no such file 'no/such/agent.py' (expected ...)
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from arena.core.errors import SpecError
from arena.core.spec import Param
from arena.remote.external import find_program


def path(raw: Any) -> str:
    """A path as written (paths are case-sensitive; ``str`` parameters are lowered)."""
    return str(raw).strip()


def name(raw: Any) -> str:
    """A name as written (class names are case-sensitive)."""
    return str(raw).strip()


PYTHON = Param(
    "python",
    path,
    None,
    "the interpreter to run the student's code (e.g. their virtualenv's python)",
    default_text="arena's python",
)


def interpreter(value: str | None) -> str:
    """The Python to run: the arena's own unless the spec names one (found on PATH)."""
    if value is None:
        return sys.executable
    return find_program([value])[0]


def program_file(prefix: str, body: str, example: str) -> Path:
    """The student's file a spec names, as an absolute path, or a SpecError."""
    text = body.strip()
    if not text:
        raise SpecError(f"{prefix}: no file given (expected {prefix}:PATH/{example})")
    file = Path(text).expanduser()
    if not file.is_file():
        raise SpecError(f"{prefix}: no such file {text!r} (expected {prefix}:PATH/{example})")
    if file.suffix != ".py":
        raise SpecError(f"{prefix}: {text!r} is not a Python file (expected PATH/{example})")
    return file.resolve()


def short_path(file: Path) -> str:
    """The file with its folder, as labels show it: ``agents/student_agent.py``."""
    return f"{file.parent.name}/{file.name}" if file.parent.name else file.name


MISSING = "(this Python lacks "
"""How a host's load error says a package is missing (``course_host.load_error``)."""


def missing_package(label: str, error: str, python: str) -> SpecError | None:
    """The one-line error that stops a match when the student's Python lacks a package:
    every game would fail the same way, so it is not a forfeit per game.

    >>> error = missing_package("cs410-agent:p/agents.py", "loading agents.py: "
    ...     "ModuleNotFoundError: No module named 'torch' (this Python lacks torch: "
    ...     "pip install torch, or pass python=...)", "/usr/bin/python3")
    >>> "(/usr/bin/python3 lacks torch: pip install torch" in str(error)
    True
    >>> missing_package("x", "loading agents.py: SyntaxError: ...", "python") is None
    True
    """
    if MISSING not in error:
        return None
    return SpecError(f"{label}: {error.replace(MISSING, f'({python} lacks ', 1)}")

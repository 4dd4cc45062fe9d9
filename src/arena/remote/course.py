"""What the adapters for course frameworks share (``othello-ai:``, ``colosseum-agent:``):
the student's file named in the spec and the Python that runs it.

Tests: tests/remote/course/test_othello_ai.py, tests/remote/course/test_colosseum_agent.py

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

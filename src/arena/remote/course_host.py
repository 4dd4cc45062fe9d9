"""What the host processes of course agents share (``colosseum_host.py``, ``cs410_host.py``,
``mcts_lab_host.py``):
the protocol's own copy of stdout, the student's folder on the import path, one-line errors
and the package a missing import asks for.

A host runs as a script under the student's Python, so this module imports nothing from
arena either (the hosts import it as the file beside them); arena imports it only for its
tests and doctests.

Tests: tests/remote/course/test_cs410_agent.py, tests/remote/course/test_mcts_lab.py,
tests/remote/course/test_colosseum_agent.py

>>> missing_package(ModuleNotFoundError("No module named 'pyspiel'", name="pyspiel"))
'open_spiel'
>>> missing_package(ModuleNotFoundError("No module named 'torch.nn'", name="torch.nn"))
'torch'
>>> missing_package(ImportError("Neither pyspiel nor PyGo is available"))
'open_spiel'
>>> missing_package(ValueError("x")) is None
True
>>> one_line(ValueError("a\\n  b"))
'ValueError: a b'
"""

from __future__ import annotations

import importlib
import os
import sys
import traceback
import types
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, Any

PACKAGES = {
    "pyspiel": "open_spiel",
    "open_spiel": "open_spiel",
    "torch": "torch",
    "numpy": "numpy",
    "pygame": "pygame",
    "tqdm": "tqdm",
    "sklearn": "scikit-learn",
    "matplotlib": "matplotlib",
}
"""Modules course code imports, and the package that installs each (``pip install NAME``)."""


def one_line(exc: BaseException) -> str:
    """An exception as one line: its type and message, at most 300 characters."""
    text = traceback.format_exception_only(type(exc), exc)[-1].strip()
    return " ".join(text.split())[:300]


def missing_package(exc: BaseException) -> str | None:
    """The package to install when ``exc`` is an import of a module that is not there (or
    a stencil's own ImportError that names one, such as the Go stencil's when neither
    pyspiel nor its fallback engine is there)."""
    if not isinstance(exc, ImportError):
        return None
    if isinstance(exc, ModuleNotFoundError) and exc.name:
        top = exc.name.split(".")[0]
        return PACKAGES.get(top, top)
    named = [module for module in PACKAGES if module in str(exc)]
    return PACKAGES[named[0]] if named else None


def load_error(file: Path, exc: BaseException) -> str:
    """The ``error`` line of a file that did not load, with what to install if that is why."""
    package = missing_package(exc)
    hint = (
        f" (this Python lacks {package}: pip install {package}, or pass python=INTERPRETER "
        "of the virtualenv that has it)"
        if package
        else ""
    )
    return f"error loading {file.name}: {one_line(exc)}{hint}"


def protocol_out() -> IO[str]:
    """Keep the process's stdout for the protocol and send everything printed to stderr
    (the agent's log); take the host's own folder off the import path, so a student's
    module with the name of a host file is found, not ours."""
    here = Path(__file__).resolve().parent
    sys.path[:] = [p for p in sys.path if p and Path(p).resolve() != here]
    sys.stdout.flush()
    out = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return out


def import_from_folder(file: Path) -> types.ModuleType:
    """Import the student's file by its own module name, its folder first on the import
    path (and the working directory): its stencil imports it back under that name, and a
    second copy by path would run its module code twice."""
    folder = str(file.parent)
    sys.path.insert(0, folder)
    os.chdir(folder)
    name = file.stem
    if not name.isidentifier():
        raise ImportError(f"{file.name}: a module name is letters, digits and '_'")
    return importlib.import_module(name)


def student_call(
    send: Callable[[str], None], fn: Callable[..., Any], *args: Any
) -> tuple[bool, Any]:
    """Call the student's ``fn``: ``(True, result)``, or ``(False, None)`` after its
    traceback went to the log and a ``raised`` line to the arena (a ``SystemExit`` in
    student code is a failure too; only Ctrl-C stops the host)."""
    try:
        return True, fn(*args)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:
        traceback.print_exc()
        send(f"raised {one_line(exc)}")
        return False, None


def commands(stream: Iterable[str] | None = None) -> Iterator[list[str]]:
    """The words of each line the arena sends, blank lines skipped, until ``quit`` (or the
    end of the input: the arena went away).

    >>> list(commands(["go 1\\n", "\\n", "play 2\\n", "quit\\n", "go 3\\n"]))
    [['go', '1'], ['play', '2']]
    """
    for line in sys.stdin if stream is None else stream:
        words = line.split()
        if not words:
            continue
        if words[0] == "quit":
            return
        yield words


def sender(out: IO[str]):  # type: ignore[no-untyped-def]
    """A function that writes one protocol line and flushes it."""

    def send(line: str) -> None:
        out.write(line + "\n")
        out.flush()

    return send

"""numba's error messages in plain text, so that compiling never swaps ``sys.stdout``.

numba colours the text of every error it makes (thousands while it types a function,
nearly all of them caught, and some as its modules are imported) through colorama, whose
``init()`` and ``deinit()`` replace ``sys.stdout`` and ``sys.stderr`` and then put back the
streams they found there: for the whole process, from whichever thread compiles. While
an engine is built on a thread of its own (:mod:`arena.search.clock.background`, the
exact solver's loader), another thread that replaced ``sys.stdout`` meanwhile (a test's
capture, ``contextlib.redirect_stdout``, a protocol server taking stdout) had the old
stream put back under it: what it printed next went there (``arena match --json`` lost
its JSON line to the wrong stream in CI). numba's own switch,
``NUMBA_DISABLE_ERROR_MESSAGE_HIGHLIGHTING``, turns the colours off; numba reads it as it
is imported, so the package sets it before any of its modules imports numba. When numba
was imported first, its colour shell is made one that leaves the streams alone.

>>> env = {}
>>> plain_error_messages(env)
>>> env
{'NUMBA_DISABLE_ERROR_MESSAGE_HIGHLIGHTING': '1'}

Tests: tests/core/test_numba_errors.py
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import MutableMapping

SWITCH = "NUMBA_DISABLE_ERROR_MESSAGE_HIGHLIGHTING"
"""numba's environment variable: error messages without colours (any value)."""


def plain_error_messages(env: MutableMapping[str, str] = os.environ) -> None:
    """Set numba's switch for plain error messages in ``env`` (a value the user gave stays:
    numba reads any as "on"); if numba's errors were loaded already, its colour shell no
    longer touches ``sys.stdout`` and ``sys.stderr``."""
    env.setdefault(SWITCH, "1")
    errors = sys.modules.get("numba.core.errors")
    if env is os.environ and errors is not None and hasattr(errors, "ColorShell"):
        # Too late for the switch: the messages keep their colours, the streams stay put.
        errors.ColorShell = contextlib.nullcontext

"""``py:path/to/file.py:ClassName``: a user's own agent class, loaded from a file.

The class needs a ``choose(state, limit)`` method; ``reset`` and ``observe``
are optional. If it subclasses :class:`arena.Agent`, parameters may follow
as usual (``py:my.py:Mine:depth=3``); a plain class is called without them.

Tests: tests/agents/test_agent_api.py
"""

from __future__ import annotations

import contextlib
import importlib.util
import inspect
from pathlib import Path
from typing import Any

from arena.core.agent import Agent
from arena.core.errors import SpecError
from arena.core.spec import split_spec


def load_py_agent(spec: str) -> Any:
    """Load ``py:FILE:CLASS[:key=value,...]``."""
    body = spec[len("py:") :]
    path_text, sep, rest = body.rpartition(".py:")
    if not sep:
        raise SpecError(f"{spec!r}: expected py:path/to/file.py:ClassName")
    path = Path(path_text + ".py")
    class_spec = rest
    if not path.is_file():
        raise SpecError(f"{spec!r}: no such file {path}")
    name, raw = split_spec(class_spec)
    module_name = f"arena_user_{abs(hash(str(path.resolve())))}"
    loader_spec = importlib.util.spec_from_file_location(module_name, path)
    if loader_spec is None or loader_spec.loader is None:
        raise SpecError(f"{spec!r}: cannot load {path}")
    module = importlib.util.module_from_spec(loader_spec)
    try:
        loader_spec.loader.exec_module(module)
    except Exception as exc:  # the user's file failed to import: say so in one line
        raise SpecError(f"{spec!r}: importing {path} failed: {type(exc).__name__}: {exc}") from None
    classes = {n: c for n, c in vars(module).items() if inspect.isclass(c)}
    match = next((c for n, c in classes.items() if n.lower() == name), None)
    if match is None:
        found = ", ".join(n for n, c in classes.items() if hasattr(c, "choose")) or "none"
        raise SpecError(f"{spec!r}: no class {name!r} in {path}; classes with choose(): {found}")
    if not callable(getattr(match, "choose", None)):
        raise SpecError(f"{spec!r}: class {match.__name__} has no choose(state, limit) method")
    if issubclass(match, Agent):
        agent = match(**raw)
    elif raw:
        raise SpecError(
            f"{spec!r}: {match.__name__} is not an arena.Agent, so it takes no parameters"
        )
    else:
        agent = match()
    if not hasattr(agent, "spec"):
        with contextlib.suppress(AttributeError):  # a class with __slots__ keeps its own name
            agent.spec = spec
    return agent

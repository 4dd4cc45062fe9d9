"""The process a ``colosseum-agent:`` runs in: loads a Colosseum Survival student agent
and answers the arena's questions with its ``step``.

Run as a file by the student's Python (``python colosseum_host.py FILE [CLASS]``),
so it imports nothing from arena -- only the standard library, :mod:`course_host`
beside it (what the hosts share), and numpy, which the simulator's agents use anyway.
Messages, one line each:

* host -> arena, once: ``ready NAME`` (the agent's ``name``) or ``error TEXT``;
* arena -> host: ``step M K AR AC BR BC WALLS``: board side M, ``max_step`` K,
  the mover's cell, the adversary's cell, and WALLS, M*M hex digits row by row,
  one per cell with bits 1 up, 2 right, 4 down, 8 left;
* host -> arena: ``move R C D``, the cell and side ``step`` returned;
  ``raised TEXT`` when ``step`` raised (the traceback goes to stderr, the
  agent's log); ``invalid TEXT`` when it returned something that is not
  ``((row, col), dir)``;
* arena -> host: ``quit``.

Loading follows the simulator's layout. When a folder above FILE holds
``store.py`` or ``agents/agent.py`` (the student's project), that folder goes on
the import path and FILE is imported by its dotted name (``agents.student_agent``),
the way the project's own ``agents/__init__.py`` imports it -- so the module is
imported once and ``@register_agent`` runs once. A lone file gets stand-ins for
``agents.agent.Agent`` and ``store.register_agent`` instead.

Tests: tests/remote/course/test_colosseum_agent.py

>>> board = walls_array(2, "9c36")
>>> board.shape, board[0, 0].tolist(), board[1, 1].tolist()
((2, 2, 4), [True, False, False, True], [False, True, True, False])
>>> unpack(((1, 2), 3)), unpack([[1, 2], 3])
((1, 2, 3), (1, 2, 3))
>>> unpack((1, 2, 3))
Traceback (most recent call last):
...
ValueError: step returned (1, 2, 3), not ((row, col), dir)
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import operator
import sys
import traceback
import types
from pathlib import Path
from typing import IO, Any

if __package__:  # imported by arena (its adapter, tests, doctests)
    from arena.remote import course_host
else:  # run as a script by the student's Python: the file beside this one
    import course_host

SIDE_BITS = (1, 2, 4, 8)
"""The hex digit bits of up, right, down and left (the simulator's order)."""


def walls_array(size: int, walls: str) -> Any:
    """The simulator's board: a numpy bool array (M, M, 4), sides up, right, down, left."""
    import numpy as np  # the students' agents need it; arena's colosseum_agent does not

    digits = np.array([int(ch, 16) for ch in walls], dtype=np.uint8).reshape(size, size)
    return np.stack([(digits & bit) != 0 for bit in SIDE_BITS], axis=-1)


def unpack(result: Any) -> tuple[int, int, int]:
    """``(row, col, dir)`` from what ``step`` returned, ``((row, col), dir)``."""
    try:
        pos, side = result
        row, col = pos
        return operator.index(row), operator.index(col), operator.index(side)
    except (TypeError, ValueError):
        raise ValueError(f"step returned {result!r:.80}, not ((row, col), dir)") from None


class _Agent:
    """Stands in for the simulator's ``agents.agent.Agent`` next to a lone file."""

    def __init__(self) -> None:
        self.name = "DummyAgent"
        self.autoplay = True

    def __str__(self) -> str:
        return self.name

    def step(self, chess_board: Any, my_pos: Any, adv_pos: Any, max_step: int) -> Any:
        raise NotImplementedError("the agent has no step method")


def _stand_in_store() -> types.ModuleType:
    store = types.ModuleType("store")
    store.AGENT_REGISTRY = {}  # type: ignore[attr-defined]

    def register_agent(agent_name: str = "") -> Any:
        def decorator(cls: Any) -> Any:
            if agent_name in store.AGENT_REGISTRY:  # type: ignore[attr-defined]
                raise AssertionError(f"Agent {agent_name!r} is already registered")
            store.AGENT_REGISTRY[agent_name] = cls  # type: ignore[attr-defined]
            return cls

        return decorator

    store.register_agent = register_agent  # type: ignore[attr-defined]
    return store


def _stand_in_agents(folder: Path | None) -> None:
    package = types.ModuleType("agents")
    package.__path__ = [str(folder)] if folder is not None else []
    module = types.ModuleType("agents.agent")
    module.Agent = type("Agent", (_Agent,), {"__module__": "agents.agent"})  # type: ignore[attr-defined]
    package.agent = module  # type: ignore[attr-defined]
    sys.modules["agents"], sys.modules["agents.agent"] = package, module


def project_root(file: Path) -> Path | None:
    """The student's project holding ``file``: the nearest folder with ``store.py`` or
    ``agents/agent.py`` from which ``file`` is importable by a dotted name (going up
    through packages only), or None for a lone file."""
    folder = file.parent
    while True:
        if (folder / "store.py").is_file() or (folder / "agents" / "agent.py").is_file():
            parts = file.relative_to(folder).with_suffix("").parts
            return folder if all(part.isidentifier() for part in parts) else None
        if not (folder / "__init__.py").is_file() or folder.parent == folder:
            return None
        folder = folder.parent


def load_module(file: Path) -> types.ModuleType:
    """Import the student's file once, as the simulator would (see the module doc)."""
    root = project_root(file)
    sys.path.insert(0, str(root if root is not None else file.parent))
    if root is None or not (root / "store.py").is_file():
        sys.modules["store"] = _stand_in_store()
    if root is None or not (root / "agents" / "agent.py").is_file():
        folder = root / "agents" if root is not None and (root / "agents").is_dir() else None
        _stand_in_agents(folder)
    if root is not None:
        return importlib.import_module(".".join(file.relative_to(root).with_suffix("").parts))
    name = file.stem if file.stem.isidentifier() else "student_agent"
    spec = importlib.util.spec_from_file_location(name, file)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def find_class(module: types.ModuleType, wanted: str) -> type:
    """The agent class of ``module``: the one with ``step`` defined there (or ``wanted``,
    a class name or the name it was registered under)."""
    base = getattr(sys.modules.get("agents.agent"), "Agent", None)
    found = {
        name: cls
        for name, cls in vars(module).items()
        if inspect.isclass(cls)
        and cls.__module__ == module.__name__
        and callable(getattr(cls, "step", None))
        and cls is not base
    }
    registry = getattr(sys.modules.get("store"), "AGENT_REGISTRY", {})
    if wanted:
        registered = registry.get(wanted)
        if registered in found.values():  # registered by this file, not another agent's
            return registered  # type: ignore[no-any-return]
        for name, cls in found.items():
            if name.lower() == wanted.lower():
                return cls
        listed = ", ".join(found) or "none"
        raise LookupError(f"no agent class {wanted!r} in {module.__name__}; found: {listed}")
    if len(found) != 1:
        what = f"{len(found)} classes with step ({', '.join(found)})" if found else "no class"
        raise LookupError(
            f"{module.__name__} has {what}: expected one class with step(chess_board, "
            "my_pos, adv_pos, max_step) (choose with class=NAME)"
        )
    return next(iter(found.values()))


def serve(file: Path, wanted: str, out: IO[str]) -> int:
    """Load the agent, say ``ready``, answer ``step`` lines until ``quit``."""

    send = course_host.sender(out)
    try:
        walls_array(1, "f")  # imports numpy now, before 'ready': off the clock
        module = load_module(file)
        agent = find_class(module, wanted)()
    except BaseException as exc:  # the student's import or constructor: report, then leave
        traceback.print_exc()
        send(f"error loading {file.name}: {course_host.one_line(exc)}")
        return 1
    send(f"ready {str(getattr(agent, 'name', '') or type(agent).__name__)[:80]}")
    for words in course_host.commands():
        size, steps, ar, ac, br, bc = map(int, words[1:7])
        board = walls_array(size, words[7])
        ok, result = course_host.student_call(send, agent.step, board, (ar, ac), (br, bc), steps)
        if not ok:
            continue
        try:
            row, col, side = unpack(result)
        except ValueError as exc:
            send(f"invalid {exc}")
            continue
        send(f"move {row} {col} {side}")
    return 0


def main(argv: list[str]) -> int:
    # The protocol keeps its own copy of stdout; prints of the agent go to stderr (its log).
    out = course_host.protocol_out()
    file = Path(argv[1]).resolve()
    return serve(file, argv[2] if len(argv) > 2 else "", out)


if __name__ == "__main__":
    sys.exit(main(sys.argv))

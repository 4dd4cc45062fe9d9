"""``py:path/to/file.py:ClassName[:key=value,...]``: a user's own agent class, from a file.

The class needs a ``choose(state, limit)`` method; ``reset`` and ``observe``
are optional. The file is loaded as when its author runs it: its folder comes
first on the import path (``from helpers import first`` finds the module beside
it), it is imported under its own module name (so a runner that imports it back
by that name gets the same module), and the working directory is its folder
while it is imported and its class built (``open("weights.txt")`` reads the file
beside it). Parameters go to ``__init__``, typed from its signature
(``def __init__(self, depth: int = 2)`` takes ``depth=3`` as the int 3); a
subclass of :class:`arena.Agent` that declares ``params`` is bound by them.

The referee runs a ``py:`` agent in a process of its own (:func:`own_process`),
where the working directory stays its folder for the whole game, so a
``choose`` that never returns loses on time instead of hanging the match;
``--in-process`` runs it here, each call in its folder (:class:`InFolder`).

>>> split_py_spec("py:my agent/mine.py:Mine:depth=3")
('my agent/mine.py', 'Mine', 'depth=3')
>>> split_py_spec("py:mine.py")
Traceback (most recent call last):
...
arena.core.errors.SpecError: 'py:mine.py': expected py:path/to/file.py:ClassName

Tests: tests/agents/test_pyclass.py, tests/agents/test_agent_api.py
"""

from __future__ import annotations

import contextlib
import difflib
import functools
import importlib.util
import inspect
import os
import shlex
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

from arena.core.agent import Agent, choose_problem
from arena.core.crash import crash_text
from arena.core.errors import AgentFailure, SpecError
from arena.core.game import Game
from arena.core.spec import Param, split_pairs, utf8_text
from arena.remote.command import SERVED_STARTUP, CommandAgent
from arena.remote.sandbox import Sandbox

PREFIX = "py:"

_lock = threading.Lock()
_folders: set[Path] = set()
"""Folders of the ``py:`` files loaded in this process (their modules are theirs)."""


def split_py_spec(spec: str) -> tuple[str, str, str]:
    """``py:FILE.py:CLASS[:PARAMS]`` as (file, class name as written, parameters text)."""
    body = spec.strip()[len(PREFIX) :]
    path_text, sep, rest = body.rpartition(".py:")
    name, _, params = rest.partition(":")
    if not sep or not name.strip():
        raise SpecError(f"{spec!r}: expected py:path/to/file.py:ClassName")
    return path_text + ".py", name.strip(), params.strip()


def py_file(spec: str) -> Path:
    """The file a ``py:`` spec names, made absolute (a SpecError when it is missing)."""
    path_text = split_py_spec(utf8_text(spec))[0]
    path = Path(path_text).expanduser()
    if not path.is_file():
        raise SpecError(f"{spec!r}: no such file {path_text}")
    return path.resolve()


def load_py_agent(spec: str, keep_path: bool = False) -> Any:
    """Load ``py:FILE:CLASS[:key=value,...]`` into this process. The file's folder is on
    the import path while it is imported and its class built; ``keep_path`` leaves it
    there (in the agent's own process, where nothing of arena's is imported later)."""
    spec = spec.strip()
    path = py_file(spec)
    path_text, name, params = split_py_spec(spec)
    base = f"{PREFIX}{path_text}:{name}"
    raw = split_pairs(params, base) if params else {}
    with _lock:
        _forget_others(path.parent)
        with in_folder(path.parent, keep_path):
            module = _import(spec, path)
            cls = _find_class(spec, module, name, path)
            agent = _build(spec, base, cls, raw)
    if not hasattr(agent, "spec"):
        with contextlib.suppress(AttributeError):  # a class with __slots__ keeps its own name
            agent.spec = spec
    return agent


def _forget_others(folder: Path) -> None:
    """Another file's folder may hold modules of the same names (two students' helpers.py):
    forget those, so this file imports its own. The agents loaded keep theirs."""
    for other in _folders - {folder}:
        for module_name, module in list(sys.modules.items()):
            where = _file_of(module)
            if where is not None and where.parent == other:
                del sys.modules[module_name]
    _folders.add(folder)


class InFolder:
    """A ``py:`` agent played in arena's process (``--in-process``): every call into it
    runs in its folder (the working directory, first on the import path), as it would in
    a process of its own."""

    def __init__(self, agent: Any, folder: Path) -> None:
        self.agent, self.folder = agent, folder
        self.spec = getattr(agent, "spec", None)

    def __getattr__(self, name: str) -> Any:
        value = getattr(self.agent, name)
        if not callable(value) or name.startswith("__"):
            return value

        @functools.wraps(value)
        def called(*args: Any, **kwargs: Any) -> Any:
            with in_folder(self.folder):
                return value(*args, **kwargs)

        return called


def in_process(spec: str) -> InFolder:
    """The ``py:`` agent ``spec`` loaded into this process, its calls run in its folder."""
    return InFolder(load_py_agent(spec), py_file(spec).parent)


def own_process(spec: str, limits: bool = False, sandbox: Sandbox | None = None) -> CommandAgent:
    """The ``py:`` agent ``spec`` played in a process of its own (``arena serve``), started
    for each game in the file's folder: killed past the clock plus the grace, a crash is
    its forfeit. ``limits``: the ``cmd:`` memory limit too (``--isolate``); else none.
    ``sandbox``: in that sandbox, its folder read-only, with the memory limit."""
    path = py_file(spec)
    _, name, params = split_py_spec(spec)
    served = f"{PREFIX}{path}:{name}" + (f":{params}" if params else "")
    options = f"startup={SERVED_STARTUP:g}" + ("" if limits or sandbox else ",memory=0")
    command = shlex.join([sys.executable, "-m", "arena.agents.served", served])
    agent = CommandAgent(f"cmd:{options}:{command}")
    agent.cwd = str(path.parent)
    agent.sandbox = sandbox
    agent.title = spec.strip()
    agent.spec = spec.strip()
    return agent


def check_loads(agent: CommandAgent, game: Game) -> None:
    """Start ``agent`` (an :func:`own_process` agent) once for ``game`` and end it: its file
    imported and its class built where it will play (its own process, the sandbox), never
    in arena's, so a bad file or parameter fails up front in one line, and the module code
    of a student's file (hostile, perhaps) never runs outside the sandbox."""
    try:
        agent.reset(game, 0)
    except AgentFailure as failure:
        told = agent.process.forfeit_told() if agent.process is not None else None
        served = agent.stderr_log(2048).strip().splitlines()[-1:]
        if told is None and served and served[0].startswith(SERVED_ERROR):
            raise SpecError(served[0][len(SERVED_ERROR) :]) from None
        raise SpecError(f"{agent.label}: {told[1] if told else failure.detail}") from None
    finally:
        agent.close()


SERVED_ERROR = "arena serve: error: "
"""How :mod:`arena.agents.served` reports a file or class it cannot load."""


@contextlib.contextmanager
def in_folder(folder: Path, keep_path: bool = False) -> Iterator[None]:
    """Run the user's code as when they run their file: ``folder`` is the working
    directory and first on the import path (left there with ``keep_path``)."""
    text = str(folder)
    before_path, before_cwd, modules = list(sys.path), os.getcwd(), len(sys.modules)
    sys.path.insert(0, text)
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(before_cwd)
        if not keep_path:
            sys.path[:] = before_path
        if not keep_path and len(sys.modules) != modules:
            # A file of the folder named as a standard module (statistics.py) must not
            # stand in for it when arena imports that module later.
            for module_name in sys.stdlib_module_names & sys.modules.keys():
                where = _file_of(sys.modules[module_name])
                if where is not None and where.parent == folder:
                    del sys.modules[module_name]


def _file_of(module: ModuleType) -> Path | None:
    where = getattr(module, "__file__", None)
    if not where:
        return None
    path = Path(where)
    return path.parent if path.name == "__init__.py" else path


def _import(spec: str, path: Path) -> ModuleType:
    """The file as a module, under its own name when that name is free (a runner that
    imports the agent back by name then gets this module, not a second copy)."""
    name = path.stem
    taken = sys.modules.get(name)
    if (
        not name.isidentifier()
        or name in sys.stdlib_module_names  # a student's random.py must not replace arena's
        or name == "arena"
        or (taken is not None and _file_of(taken) != path)
    ):
        name = f"arena_user_{abs(hash(str(path)))}"
    known = sys.modules.get(name)
    if known is not None and _file_of(known) == path:
        return known  # imported already (by an earlier load, or by the user's own runner)
    loader_spec = importlib.util.spec_from_file_location(name, path)
    if loader_spec is None or loader_spec.loader is None:
        raise SpecError(f"{spec!r}: cannot load {path}")
    module = importlib.util.module_from_spec(loader_spec)
    sys.modules[name] = module
    try:
        loader_spec.loader.exec_module(module)
    except BaseException as exc:  # the user's file failed to import: say so in one line
        sys.modules.pop(name, None)
        if not isinstance(exc, Exception):
            raise
        raise SpecError(f"{spec!r}: importing {path.name} failed: {crash_text(exc)}") from None
    return module


def _find_class(spec: str, module: ModuleType, name: str, path: Path) -> type:
    classes = {n: c for n, c in vars(module).items() if inspect.isclass(c)}
    found = classes.get(name)
    if found is None:
        agents = [n for n, c in classes.items() if callable(getattr(c, "choose", None))]
        near = [n for n in classes if n.lower() == name.lower()]
        near += [n for n in difflib.get_close_matches(name, agents, 3, 0.6) if n not in near]
        hint = f"; did you mean {near[0]!r}?" if near else ""
        raise SpecError(
            f"{spec!r}: no class {name!r} in {path.name}{hint} "
            f"(classes with choose(): {', '.join(agents) or 'none'}; names match exactly)"
        )
    problem = choose_problem(found)
    if problem:
        raise SpecError(f"{spec!r}: {problem}")
    return found


def _build(spec: str, owner: str, cls: type, raw: dict[str, str]) -> Any:
    """An instance of ``cls`` with the spec's parameters: bound by the declared ``params`` of
    an :class:`arena.Agent` subclass, otherwise passed to ``__init__`` typed by its signature."""
    declared = issubclass(cls, Agent) and (cls.params or cls.__init__ is Agent.__init__)
    arguments: dict[str, Any] = dict(raw) if declared else init_arguments(cls, raw, owner)
    try:
        return cls(**arguments)
    except SpecError:
        raise
    except Exception as exc:  # the user's __init__ raised: one line at their frame
        raise SpecError(f"{spec!r}: building {cls.__name__} failed: {crash_text(exc)}") from None


def init_arguments(cls: type, raw: dict[str, str], owner: str) -> dict[str, Any]:
    """The keyword arguments of ``cls(...)`` for the spec's ``key=value`` texts: each
    typed by the parameter's annotation (int, float, bool, str) or else its default's type.

    >>> class Mine:
    ...     def __init__(self, depth: int = 2, greedy=False, name="me"):
    ...         pass
    >>> init_arguments(Mine, {"depth": "3", "greedy": "1"}, "py:Mine")
    {'depth': 3, 'greedy': True}
    >>> init_arguments(Mine, {"width": "3"}, "py:Mine")
    Traceback (most recent call last):
    ...
    arena.core.errors.SpecError: py:Mine: unknown parameter 'width'; valid: depth=2 (int), \
greedy=False (bool), name='me' (str)
    """
    try:
        signature = inspect.signature(cls)
    except (TypeError, ValueError):
        return dict(raw)
    named = {
        p.name: p
        for p in signature.parameters.values()
        if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
    }
    free = any(p.kind is p.VAR_KEYWORD for p in signature.parameters.values())
    by_lower = {n.lower(): n for n in named}
    out: dict[str, Any] = {}
    for key, text in raw.items():
        name = key if key in named else by_lower.get(key.lower())
        if name is None:
            if free:
                out[key] = text
                continue
            valid = ", ".join(_describe(p) for p in named.values()) or "none"
            raise SpecError(f"{owner}: unknown parameter {key!r}; valid: {valid}")
        out[name] = _typed(owner, named[name], text)
    missing = [n for n, p in named.items() if p.default is inspect.Parameter.empty and n not in out]
    if missing:
        wanted = ",".join(f"{n}=VALUE" for n in missing)
        raise SpecError(f"{owner}: __init__ needs {', '.join(missing)}: give {owner}:{wanted}")
    return out


_KINDS = {"int": int, "float": float, "bool": bool, "str": str}


def _kind(parameter: inspect.Parameter) -> type | None:
    annotation = parameter.annotation
    if isinstance(annotation, str):  # from __future__ import annotations
        return _KINDS.get(annotation.strip())
    if annotation in _KINDS.values():
        return annotation  # type: ignore[no-any-return]
    default = parameter.default
    if default is not inspect.Parameter.empty and type(default) in _KINDS.values():
        return type(default)
    return None


def _typed(owner: str, parameter: inspect.Parameter, text: str) -> Any:
    kind = _kind(parameter)
    if kind is None or kind is str:
        return text  # as written: a file name keeps its case
    return Param(parameter.name, kind, None, "").convert(owner, text)


def _describe(parameter: inspect.Parameter) -> str:
    kind = _kind(parameter)
    shown = "" if kind is None else f" ({kind.__name__})"
    if parameter.default is inspect.Parameter.empty:
        return f"{parameter.name} (required){shown}".replace(") (", ", ")
    return f"{parameter.name}={parameter.default!r}{shown}"

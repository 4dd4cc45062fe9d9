"""The package's shape, checked from its source with ``ast`` (docs/architecture.md).

* **Layers.** Imports point down the layer order :data:`LAYERS` (a module may
  import its own layer). The package root and ``__main__`` may import anything;
  importing the root counts as importing the highest layer it imports itself.
  Module paths in strings (``"arena.search.mcts.agent:MCTSAgent"``, registries that
  import on first use) count as imports too.
* **No private reach-ins.** No ``from arena.x import _name``, no
  ``module._name`` on an arena module, and no ``obj._name`` unless this module
  defines ``_name`` itself or inherits it from an arena base class of one of its
  classes (a subclass may use its base's protected members).
* **No imports inside functions**, except the heavy optional dependencies of
  :data:`LAZY`: an import in a function either dodges a cycle or hides a cost.
* **No import cycles** among arena modules.
* **Rooms.** A layer with rooms (:data:`ROOMS`: ``search/``) holds at its top only its
  ``__init__``, its rooms (sub-packages, one idea each) and the few modules all rooms share
  (:data:`SHARED`); a room imports only the rooms it is allowed to, and a shared module none.
* **Docs point to tests.** Every module has a docstring; every module that is
  not a package ``__init__`` names its tests (``Tests: tests/...``), and every
  ``tests/....py`` path named anywhere in the source exists.

Each check is a function of ``{module name: source}``, so the tests at the end
feed each one a small bad package and watch it fail.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"

LAYERS: dict[str, int] = {
    "core": 0,
    "games": 1,
    "search": 2,
    "solvers": 2,
    "remote": 3,
    "agents": 4,
    "formats": 5,
    "stats": 6,
    "compete": 7,
    "experiments": 8,
    "bench": 8,
    "learn": 8,
    "web": 9,
    "cli": 10,
}
"""Each top-level folder of the package and its rank: imports go to an equal or lower rank."""

FREE = ("arena", "arena.__main__")
"""Modules outside the layers: the public API and ``python -m arena`` may import anything."""

LAZY: dict[str, str] = {
    "numba": "compiles kernels; a second to import, and only kernels need it",
    "numpy": "about 0.1 s to import; only benchmarks, experiments and kernels need it",
    "matplotlib": "optional extra (plot), for the experiments' figures",
    "ray": "optional extra (ray), for --ray; seconds to import",
    "open_spiel": "optional extra (bench), the OpenSpiel comparison",
    "pyspiel": "optional extra (bench), the OpenSpiel comparison",
    "easyAI": "optional extra (bench), the easyAI comparison",
    "jax": "optional extra (learn): arena train, and arena bench az's mctx comparison",
    "mctx": "optional extra (learn), arena bench az's mctx comparison",
    "fastapi": "optional extra (web), the web board",
    "starlette": "optional extra (web), the web board",
    "uvicorn": "optional extra (web), the web board",
    "playwright": "optional, browser tests of the web board",
    "optax": "optional extra (learn), for arena train only",
    "rich": "progress bars only; ~30 ms to import, which every arena command would pay",
}
"""Packages a function may import on first use, with the reason."""

FOREIGN_PRIVATE: dict[str, str] = {
    "_SubParsersAction": "argparse: the type of add_subparsers() has no public name",
    "_actions": "argparse: a parser's actions have no public accessor",
    # search/mcts/numba_cache.py replaces numba's Cache.load_overload so that warm starts skip
    # numba's target refresh (issue 12); it checks these exist (SUPPORTED) and falls back.
    "_guard_against_spurious_io_errors": "numba: Cache's I/O guard, used by its own load",
    "_enabled": "numba: whether a Cache is on",
    "_cache_file": "numba: a Cache's index and data files",
    "_index_key": "numba: a Cache's key for a signature",
    "_impl": "numba: a Cache's implementation (rebuilds a cached result)",
}
"""Underscore attributes of other libraries that arena code may use, with the reason."""

NO_TESTS_YET: dict[str, str] = {
    "arena.core.kernel": "the kernel contract: tested through each games/<game>/kernel.py",
}
"""Modules whose docstring may name no tests yet, with the reason (keep it short)."""

ROOMS: dict[str, dict[str, tuple[str, ...]]] = {
    "search": {
        "clock": (),
        "mcts": ("clock",),
        "alphabeta": ("clock", "az"),
        "az": ("clock",),
    },
}
"""Layers in rooms: each room and the other rooms of its layer it may import (time is the
floor every search stands on; MCTS and alpha-beta do not know each other; alpha-beta may
judge its leaves by an az network's value head, eval=net:)."""

SHARED: dict[str, tuple[str, ...]] = {
    "search": ("values", "report", "atomics", "threads"),
}
"""The modules at the top of a layer in rooms, shared by all its rooms (they import none)."""

_MODULE_STRING = re.compile(r"arena(\.[a-z_0-9]+)+(:\w+)?")
_TEST_PATH = re.compile(r"\btests/[\w/]+\.py\b")


# --- reading the package -------------------------------------------------------------


def read_package(src: Path = SRC) -> dict[str, str]:
    """Module name -> source of every module under ``src/arena``."""
    found = {}
    for path in sorted((src / "arena").rglob("*.py")):
        parts = list(path.relative_to(src).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path.read_text(encoding="utf-8")
    return found


@dataclass
class Module:
    name: str
    tree: ast.Module
    is_package: bool
    imports: list[tuple[int, str, str | None]] = field(default_factory=list)
    """(line, target module, imported name or None): static imports of arena modules."""

    @property
    def layer(self) -> str | None:
        parts = self.name.split(".")
        return None if self.name in FREE else parts[1]


def parse(sources: dict[str, str]) -> dict[str, Module]:
    """Parse ``sources`` and resolve their arena imports to module names."""
    modules = {}
    for name, text in sources.items():
        tree = ast.parse(text)
        # A package's own name is also the prefix of its modules; `sources` tells us which.
        is_package = any(other.startswith(name + ".") for other in sources)
        modules[name] = Module(name, tree, is_package)
    for module in modules.values():
        for node in _static_imports(module.tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name in modules:
                        module.imports.append((node.lineno, alias.name, None))
                continue
            base = _absolute(module, node)
            if base is None or not (base == "arena" or base.startswith("arena.")):
                continue
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                target = sub if sub in modules else base
                module.imports.append((node.lineno, target, None if target == sub else alias.name))
    return modules


def _absolute(module: Module, node: ast.ImportFrom) -> str | None:
    if not node.level:
        return node.module
    package = module.name.split(".")
    if not module.is_package:
        package.pop()
    package = package[: len(package) - (node.level - 1)]
    return ".".join([*package, node.module] if node.module else package)


def _static_imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement, except those under ``if TYPE_CHECKING:`` (never run)."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(inner) for stmt in node.body for inner in ast.walk(stmt))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom) and id(node) not in skipped:
            yield node


def _functions(tree: ast.AST) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda]:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            yield node


def _is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


# --- the checks: each returns a list of findings, empty when all is well -----------------


def layer_violations(modules: dict[str, Module]) -> list[str]:
    """Imports (static, or module paths in strings) that point up the layer order."""
    root_rank = max(
        (LAYERS[modules[t].layer] for _, t, _ in modules["arena"].imports if modules[t].layer),
        default=0,
    )

    def rank(name: str) -> int | None:
        if name == "arena":
            return root_rank
        layer = modules[name].layer if name in modules else name.split(".")[1]
        return LAYERS.get(layer) if layer else None

    found = []
    for module in modules.values():
        if module.layer is None:
            continue
        own = LAYERS[module.layer]
        targets = [(line, target) for line, target, _ in module.imports]
        targets += list(_module_strings(module))
        for line, target in targets:
            theirs = rank(target)
            if theirs is not None and theirs > own:
                found.append(f"{module.name}:{line} ({module.layer}) imports {target}")
    return found


def _module_strings(module: Module) -> Iterator[tuple[int, str]]:
    """Arena module paths named in string constants (``"arena.x.y"``, ``"arena.x.y:Name"``,
    ``f"arena.x.{name}"``): what registries import on first use."""
    for node in ast.walk(module.tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if _MODULE_STRING.fullmatch(node.value):
                yield node.lineno, node.value.partition(":")[0]
        elif isinstance(node, ast.JoinedStr) and node.values:
            head = node.values[0]
            if isinstance(head, ast.Constant) and isinstance(head.value, str):
                match = re.match(r"arena\.([a-z_]+)\.", head.value)
                if match:
                    yield node.lineno, f"arena.{match[1]}"


def private_imports(modules: dict[str, Module]) -> list[str]:
    """``from arena.x import _name``, and ``module._name`` on an imported arena module."""
    found = []
    for module in modules.values():
        aliases: dict[str, str] = {}  # local name -> arena module it is bound to
        for node in _static_imports(module.tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name in modules:
                        aliases[alias.asname or alias.name] = alias.name
                continue
            base = _absolute(module, node)
            if base is None or not base.startswith("arena"):
                continue
            for alias in node.names:
                if _is_private(alias.name):
                    found.append(f"{module.name}:{node.lineno} imports {base}.{alias.name}")
                elif f"{base}.{alias.name}" in modules:
                    aliases[alias.asname or alias.name] = f"{base}.{alias.name}"
        for node in ast.walk(module.tree):
            if isinstance(node, ast.Attribute) and _is_private(node.attr):
                owner = ast.unparse(node.value)
                target = aliases.get(owner, owner)
                if target in modules and target != module.name:
                    found.append(f"{module.name}:{node.lineno} uses {target}.{node.attr}")
    return found


def _defined(tree: ast.AST) -> set[str]:
    """The underscore names a piece of code defines: functions, classes, assigned names
    and attributes, parameters, imports and ``__slots__`` entries."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.alias):
            names.add(node.asname or node.name.split(".")[0])
        elif (
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "__slots__" for t in node.targets)
            and isinstance(node.value, ast.Tuple | ast.List)
        ):
            names.update(e.value for e in node.value.elts if isinstance(e, ast.Constant))
    return {name for name in names if _is_private(name)}


def _classes(modules: dict[str, Module]) -> dict[tuple[str, str], tuple[ast.ClassDef, Module]]:
    return {
        (m.name, node.name): (node, m)
        for m in modules.values()
        for node in m.tree.body
        if isinstance(node, ast.ClassDef)
    }


def _base_keys(node: ast.ClassDef, module: Module, modules: dict[str, Module]) -> list[tuple]:
    """The arena classes ``node`` derives from, as (module, class name)."""
    imported: dict[str, tuple[str, str]] = {}
    for imp in _static_imports(module.tree):
        if isinstance(imp, ast.ImportFrom):
            base = _absolute(module, imp)
            for alias in imp.names:
                imported[alias.asname or alias.name] = (base or "", alias.name)
    keys = []
    for base in node.bases:
        name = ast.unparse(base)
        if name in imported:
            keys.append(imported[name])
        elif "." not in name:
            keys.append((module.name, name))
    return keys


def private_reach_ins(modules: dict[str, Module]) -> list[str]:
    """``obj._name`` where ``_name`` is neither this module's own nor inherited by one of its
    classes from an arena base class: reaching into another module's internals."""
    classes = _classes(modules)

    def inherited(key: tuple[str, str], seen: set[tuple[str, str]]) -> set[str]:
        if key in seen or key not in classes:
            return set()
        seen.add(key)
        node, module = classes[key]
        names = _defined(node)
        for base in _base_keys(node, module, modules):
            names |= inherited(base, seen)
        return names

    found = []
    for module in modules.values():
        allowed = _defined(module.tree) | set(FOREIGN_PRIVATE)
        for node in module.tree.body:
            if isinstance(node, ast.ClassDef):
                for base in _base_keys(node, module, modules):
                    allowed |= inherited(base, set())
        for node in ast.walk(module.tree):
            private = isinstance(node, ast.Attribute) and _is_private(node.attr)
            if private and node.attr not in allowed:
                where = f"{module.name}:{node.lineno}"
                found.append(f"{where} uses {ast.unparse(node.value)}.{node.attr}")
    return found


def function_imports(modules: dict[str, Module]) -> list[str]:
    """Import statements inside function bodies, other than the :data:`LAZY` packages."""
    found = []
    for module in modules.values():
        for function in _functions(module.tree):
            for node in ast.walk(function):
                if isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom):
                    names = [_absolute(module, node) or ""]
                else:
                    continue
                for name in names:
                    if name.split(".")[0] not in LAZY:
                        found.append(f"{module.name}:{node.lineno} imports {name} in a function")
    return found


def import_cycles(modules: dict[str, Module]) -> list[str]:
    """Cycles of static imports among arena modules (each as ``a -> b -> a``)."""
    graph = {m.name: sorted({t for _, t, _ in m.imports if t != m.name}) for m in modules.values()}
    found, done, path = [], set(), []

    def visit(name: str) -> None:
        if name in path:
            found.append(" -> ".join([*path[path.index(name) :], name]))
            return
        if name in done:
            return
        path.append(name)
        for target in graph.get(name, ()):
            visit(target)
        path.pop()
        done.add(name)

    for name in sorted(graph):
        visit(name)
    return found


def room_violations(
    modules: dict[str, Module],
    rooms: dict[str, dict[str, tuple[str, ...]]] = ROOMS,
    shared: dict[str, tuple[str, ...]] = SHARED,
) -> list[str]:
    """Modules at the top of a layer in rooms that are neither a room nor shared, and imports
    (static, or module paths in strings) from one room into another it may not import."""

    def room_of(name: str) -> tuple[str, str] | None:
        parts = name.split(".")
        return (parts[1], parts[2]) if len(parts) > 2 and parts[1] in rooms else None

    found = []
    for module in modules.values():
        where = room_of(module.name)
        if where is None:
            continue
        layer, room = where
        allowed = rooms[layer].get(room)
        if allowed is None and room not in shared.get(layer, ()):
            found.append(
                f"{module.name}: {layer}/ holds only its rooms ({', '.join(rooms[layer])}) "
                f"and shared modules ({', '.join(shared.get(layer, ()))})"
            )
            continue
        targets = [(line, target) for line, target, _ in module.imports]
        targets += list(_module_strings(module))
        for line, target in targets:
            theirs = room_of(target)
            if theirs is None or theirs[0] != layer or theirs[1] not in rooms[layer]:
                continue
            if theirs[1] != room and theirs[1] not in (allowed or ()):
                kind = f"room {room}" if allowed is not None else "shared module"
                found.append(f"{module.name}:{line} ({kind}) imports {target}")
    return found


def missing_docs(modules: dict[str, Module], root: Path = ROOT) -> list[str]:
    """Modules without a docstring; modules that are not packages and whose docstring
    names no test file (``Tests: tests/...``); test paths in the source that do not exist."""
    found = []
    for module in modules.values():
        doc = ast.get_docstring(module.tree) or ""
        if not doc.strip():
            found.append(f"{module.name}: no docstring")
        elif not (module.is_package or module.name in (*FREE, *NO_TESTS_YET) or _names_tests(doc)):
            found.append(f"{module.name}: the docstring names no tests (Tests: tests/...)")
        for node in ast.walk(module.tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                for path in _TEST_PATH.findall(node.value):
                    if not (root / path).is_file():
                        found.append(f"{module.name}: names {path}, which does not exist")
    return found


def _names_tests(doc: str) -> bool:
    _, tests, after = doc.partition("Tests:")
    return bool(tests and _TEST_PATH.search(after))


# --- the package as it is ------------------------------------------------------------------

PACKAGE = parse(read_package())


def test_every_layer_is_known() -> None:
    layers = {m.layer for m in PACKAGE.values()} - {None}
    assert layers == set(LAYERS)


def test_imports_point_down_the_layers() -> None:
    assert layer_violations(PACKAGE) == []


def test_no_module_imports_or_uses_another_modules_private_names() -> None:
    assert private_imports(PACKAGE) == []
    assert private_reach_ins(PACKAGE) == []


def test_imports_inside_functions_are_only_heavy_optional_dependencies() -> None:
    assert function_imports(PACKAGE) == []


def test_no_import_cycles() -> None:
    assert import_cycles(PACKAGE) == []


def test_layers_in_rooms_keep_to_their_rooms() -> None:
    assert room_violations(PACKAGE) == []
    for layer, rooms in ROOMS.items():
        for room in rooms:
            assert PACKAGE[f"arena.{layer}.{room}"].is_package, room


def test_modules_document_themselves_and_point_to_existing_tests() -> None:
    assert missing_docs(PACKAGE) == []


def test_the_architecture_doc_lists_every_layer() -> None:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    for layer in LAYERS:
        assert f"{layer}/" in text, layer
    for layer, rooms in ROOMS.items():
        for room in rooms:
            assert f"`{layer}/{room}/`" in text, room


# --- the checks catch what they are for ----------------------------------------------------

GOOD = {
    "arena": '"""Root."""\nfrom arena.agents.base import Agent\n',
    "arena.core": '"""Core."""\n',
    "arena.core.game": '"""Game.\n\nTests: tests/test_architecture.py\n"""\n'
    "class State:\n    __slots__ = ('_ply',)\n    def _ident(self):\n        return self._ply\n",
    "arena.games": '"""Games."""\n',
    "arena.games.go": '"""Go.\n\nTests: tests/games/test_go.py\n"""\n',
    "arena.agents": '"""Agents."""\n',
    "arena.agents.base": '"""Base.\n\nTests: tests/agents/test_agent_api.py\n"""\n'
    "import arena.core.game\nfrom arena.core.game import State\n\n"
    "class Mine(State):\n    def key(self):\n        return self._ident(), self._ply\n\n"
    "def lazy():\n    import numpy\n    return numpy\n",
}


def bad(**changes: str) -> dict[str, Module]:
    """The good package with some modules replaced or added (``__`` for ``.`` in names)."""
    sources = dict(GOOD)
    for key, text in changes.items():
        sources[key.replace("__", ".")] = text
    return parse(sources)


DOC = '"""A module.\n\nTests: tests/test_architecture.py\n"""\n'


def test_the_good_example_passes_every_check() -> None:
    good = parse(GOOD)
    assert layer_violations(good) == []
    assert private_imports(good) == []
    assert private_reach_ins(good) == []
    assert function_imports(good) == []
    assert import_cycles(good) == []
    assert missing_docs(good) == []


def test_an_import_up_the_layers_is_found() -> None:
    found = layer_violations(bad(arena__core__game=DOC + "from arena.agents.base import Mine\n"))
    assert found == ["arena.core.game:5 (core) imports arena.agents.base"]
    via_string = bad(arena__games__go=DOC + 'WHERE = "arena.agents.base:Mine"\n')
    assert layer_violations(via_string) == ["arena.games.go:5 (games) imports arena.agents.base"]
    via_root = bad(arena__games__go=DOC + "from arena import Agent\n")
    assert layer_violations(via_root) == ["arena.games.go:5 (games) imports arena"]


def test_private_imports_and_reach_ins_are_found() -> None:
    source = DOC + "from arena.core.game import _helper\n"
    assert private_imports(bad(arena__games__go=source)) == [
        "arena.games.go:5 imports arena.core.game._helper"
    ]
    source = DOC + "from arena.core import game\n\ndef f():\n    return game._helper\n"
    assert private_imports(bad(arena__games__go=source)) == [
        "arena.games.go:8 uses arena.core.game._helper"
    ]
    source = DOC + "def evaluate(state):\n    return state._ply\n"
    assert private_reach_ins(bad(arena__games__go=source)) == ["arena.games.go:6 uses state._ply"]


def test_imports_in_functions_are_found() -> None:
    source = DOC + "def f():\n    from arena.core import game\n    import os\n    import numba\n"
    assert function_imports(bad(arena__games__go=source)) == [
        "arena.games.go:6 imports arena.core in a function",
        "arena.games.go:7 imports os in a function",
    ]


def test_cycles_are_found() -> None:
    cycle = bad(
        arena__games__a=DOC + "import arena.games.b\n",
        arena__games__b=DOC + "from arena.games import a\n",
    )
    assert import_cycles(cycle) == ["arena.games.a -> arena.games.b -> arena.games.a"]


def test_missing_docs_and_test_paths_are_found() -> None:
    found = missing_docs(
        bad(
            arena__games__a="x = 1\n",
            arena__games__b='"""No tests named."""\n',
            arena__games__c='"""Tests: tests/games/test_nothing_here.py"""\n',
        )
    )
    assert found == [
        "arena.games.a: no docstring",
        "arena.games.b: the docstring names no tests (Tests: tests/...)",
        "arena.games.c: names tests/games/test_nothing_here.py, which does not exist",
    ]


def test_modules_outside_the_rooms_and_imports_across_them_are_found() -> None:
    rooms = {
        "arena.search": '"""Search."""\n',
        "arena.search.values": DOC,
        "arena.search.clock": '"""Clock."""\n',
        "arena.search.clock.deadline": DOC,
        "arena.search.mcts": '"""MCTS."""\n',
        "arena.search.mcts.agent": DOC + "from arena.search.clock.deadline import Deadline\n"
        "from arena.search.values import WIN\n",
        "arena.search.alphabeta": '"""Alpha-beta."""\n',
        "arena.search.alphabeta.ids": DOC + "from arena.search.clock import deadline\n",
    }
    assert room_violations(parse({**GOOD, **rooms})) == []
    found = room_violations(
        parse(
            {
                **GOOD,
                **rooms,
                "arena.search.timing": DOC,
                "arena.search.values": DOC + "from arena.search.mcts.agent import X\n",
                "arena.search.clock.deadline": DOC + 'WHERE = "arena.search.mcts.agent:X"\n',
                "arena.search.alphabeta.ids": DOC + "from arena.search.mcts import agent\n",
            }
        )
    )
    assert found == [
        "arena.search.values:5 (shared module) imports arena.search.mcts.agent",
        "arena.search.clock.deadline:5 (room clock) imports arena.search.mcts.agent",
        "arena.search.alphabeta.ids:5 (room alphabeta) imports arena.search.mcts.agent",
        "arena.search.timing: search/ holds only its rooms (clock, mcts, alphabeta, az) "
        "and shared modules (values, report, atomics, threads)",
    ]


def test_no_two_test_files_share_a_name() -> None:
    """Test folders hold no ``__init__.py``, so pytest imports each test file by its
    basename: a second ``test_server.py`` (tests/remote/gtp/ and tests/remote/pbrain/)
    stops the whole suite's collection with 'import file mismatch'."""
    seen: dict[str, Path] = {}
    clashes = []
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        if "node_modules" in path.parts:
            continue
        if path.name in seen:
            clashes.append(f"{seen[path.name].relative_to(ROOT)} and {path.relative_to(ROOT)}")
        seen.setdefault(path.name, path)
    assert not clashes, clashes

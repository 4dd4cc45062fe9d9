"""The compiled code's cache directory follows the sources: an edit of a callee's file
recompiles its callers, a user's NUMBA_CACHE_DIR is kept, old versions are pruned."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import arena
from arena.core import numba_dir
from arena.core.numba_dir import digest, prune, use_versioned_cache

CALLEE = "from numba import njit\n\n@njit(cache=True)\ndef f():\n    return {value}\n"
CALLER = (
    "from numba import njit\nfrom callee import f\n\n"
    "@njit(cache=True)\ndef g():\n    return f() + 1\n"
)
# numba_dir.py loaded from its file: importing the arena package would choose the
# directory of arena's own sources first.
RUN = """
import importlib.util, sys
from pathlib import Path
spec = importlib.util.spec_from_file_location("numba_dir", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
print(module.use_versioned_cache(package=Path(sys.argv[2]), layers=()))
sys.path.insert(0, sys.argv[2])
import caller
print(caller.g())
"""


def _run(package: Path, cache: Path) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(cache)
    proc = subprocess.run(
        [sys.executable, "-c", RUN, numba_dir.__file__, str(package)],
        capture_output=True, text=True, env=env, timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout.split()


NOW = int(time.time())


def _write(path: Path, text: str, age: int) -> None:
    """Write ``text``, modified ``age`` seconds before the tests started."""
    path.write_text(text)
    os.utime(path, (NOW - age, NOW - age))


def test_editing_only_a_callee_recompiles_its_caller(tmp_path: Path) -> None:
    """numba checks a cached function against its own file only; the versioned directory
    makes the caller see the callee's new body."""
    package, cache = tmp_path / "package", tmp_path / "cache"
    package.mkdir()
    _write(package / "callee.py", CALLEE.format(value=1), age=100)
    _write(package / "caller.py", CALLER, age=100)
    first = _run(package, cache)
    assert first[1] == "2" and Path(first[0]).parent == cache / "arena" / "numba"
    assert _run(package, cache) == first  # the same sources: the same directory
    _write(package / "callee.py", CALLEE.format(value=5), age=50)  # caller.py untouched
    second = _run(package, cache)
    assert second[1] == "6" and second[0] != first[0]


def test_the_digest_follows_the_compiled_layers_sources_only(tmp_path: Path) -> None:
    for folder in ("search", "search/engines", "cli"):
        (tmp_path / folder).mkdir()
    _write(tmp_path / "search" / "a.py", "x = 1\n", age=10)
    _write(tmp_path / "search" / "engines" / "b.py", "y = 2\n", age=10)
    _write(tmp_path / "cli" / "c.py", "z = 3\n", age=10)
    before = digest(tmp_path, ("search", "games"))
    (tmp_path / "search" / "__pycache__").mkdir()
    _write(tmp_path / "search" / "__pycache__" / "d.py", "", age=1)
    _write(tmp_path / "search" / "notes.txt", "not a source", age=1)
    _write(tmp_path / "cli" / "c.py", "z = 4, 5\n", age=1)  # not a compiled layer
    assert digest(tmp_path, ("search", "games")) == before
    _write(tmp_path / "search" / "engines" / "b.py", "y = 3\n", age=10)  # same size and time
    assert digest(tmp_path, ("search", "games")) == before
    _write(tmp_path / "search" / "engines" / "b.py", "y = 3\n", age=5)
    assert digest(tmp_path, ("search", "games")) != before
    assert digest(tmp_path, ()) != digest(tmp_path, ("search", "games"))  # () : everything


def test_a_users_directory_and_an_unwritable_root_are_left_alone(tmp_path: Path) -> None:
    env = {"NUMBA_CACHE_DIR": "/mine", "XDG_CACHE_HOME": str(tmp_path)}
    assert use_versioned_cache(env) is None and env["NUMBA_CACHE_DIR"] == "/mine"
    blocked = tmp_path / "file"
    blocked.write_text("a file where the cache root would go")
    env = {"XDG_CACHE_HOME": str(blocked)}
    assert use_versioned_cache(env) is None and "NUMBA_CACHE_DIR" not in env
    env = {"XDG_CACHE_HOME": str(tmp_path / "home")}
    folder = use_versioned_cache(env)
    assert folder is not None and env["NUMBA_CACHE_DIR"] == str(folder) and folder.is_dir()


def test_a_directory_another_process_just_made_is_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two processes starting together after an edit (test workers, --jobs): the one
    whose mkdir comes second uses the directory, not numba's __pycache__."""
    env = {"XDG_CACHE_HOME": str(tmp_path)}
    folder = use_versioned_cache(dict(env))
    assert folder is not None
    is_dir, looks = Path.is_dir, []

    def not_there_at_first_look(self: Path) -> bool:  # the other made it before our mkdir
        if self == folder and not looks:
            looks.append(self)
            return False
        return is_dir(self)

    monkeypatch.setattr(Path, "is_dir", not_there_at_first_look)
    again = dict(env)
    assert use_versioned_cache(again) == folder and again["NUMBA_CACHE_DIR"] == str(folder)
    assert looks == [folder]


def test_a_new_version_keeps_the_three_directories_last_used(tmp_path: Path) -> None:
    root = tmp_path / "arena" / "numba"
    for name, days in (("a", 1), ("b", 2), ("c", 3), ("d", 4), ("e", 5)):
        (root / name / "x").mkdir(parents=True)
        stamp = time.time() - days * 86400
        os.utime(root / name, (stamp, stamp))
    current = use_versioned_cache({"XDG_CACHE_HOME": str(tmp_path)})
    assert current is not None
    assert sorted(p.name for p in root.iterdir()) == sorted(["a", "b", "c", current.name])
    assert prune(root, keep=current, others=1) == [root / "b", root / "c"]


def test_import_arena_points_numba_at_this_versions_directory(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(tmp_path)
    code = "import arena, numba; print(numba.config.CACHE_DIR)"
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    package = Path(arena.__file__).parent
    assert proc.stdout.strip() == str(tmp_path / "arena" / "numba" / digest(package))
    assert digest(package) != digest(package, ())  # the compiled layers only

"""Where numba keeps arena's compiled code: one directory per version of the sources.

numba caches each ``cache=True`` function beside its own source file and checks
it against that file alone. But a compiled function carries the functions it
calls inside it (the Othello search its evaluation, every search its game's
rules, constants of other modules frozen in): after an edit or a ``git pull``
that changes only a callee's file, numba would load the caller's old machine
code — stale values, or a crash when a signature changed. So, before numba
is imported, arena points ``NUMBA_CACHE_DIR`` at a directory named after a
digest of the ``.py`` files of the layers that hold compiled code
(:data:`LAYERS`; relative path, size and modification time): any change
there starts an empty cache, filled again on first use or by ``arena
warmup`` (an edit of the command line, the web board or the arena's match
code does not). When a new directory is made, those of other versions are
removed but the :data:`KEEP` last used.

A ``NUMBA_CACHE_DIR`` the user set is left alone, and so is numba's own
default (``__pycache__`` beside the sources) when the cache root cannot be
written.

>>> len(digest(PACKAGE))
16

Tests: tests/core/test_numba_dir.py
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
from collections.abc import MutableMapping
from pathlib import Path

LAYERS = ("core", "games", "search", "solvers")
"""The package's folders with compiled code (and the constants and functions it takes in)."""
KEEP = 3
"""Directories of other versions of the sources kept, the most recently used."""

PACKAGE = Path(__file__).resolve().parent.parent
"""The ``arena`` package's directory."""


def digest(package: Path, layers: tuple[str, ...] = LAYERS) -> str:
    """A digest of the ``.py`` files below ``package``'s folders ``layers`` (all of it when
    empty): path, size and modification time."""
    stamps: list[str] = []

    def walk(folder: str) -> None:
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    if entry.name != "__pycache__":
                        walk(entry.path)
                elif entry.name.endswith(".py"):
                    st = entry.stat()
                    relative = os.path.relpath(entry.path, package)
                    stamps.append(f"{relative}:{st.st_size}:{st.st_mtime_ns}")

    for folder in [package / layer for layer in layers] or [package]:
        if folder.is_dir():
            walk(str(folder))
    return hashlib.sha1("\n".join(sorted(stamps)).encode()).hexdigest()[:16]


def cache_root(env: MutableMapping[str, str]) -> Path:
    """``$XDG_CACHE_HOME/arena/numba`` (``~/.cache`` without it)."""
    base = env.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "arena" / "numba"


def use_versioned_cache(
    env: MutableMapping[str, str] = os.environ,
    package: Path = PACKAGE,
    layers: tuple[str, ...] = LAYERS,
) -> Path | None:
    """Set ``env["NUMBA_CACHE_DIR"]`` to this version's directory and return it; None
    (``env`` unchanged) when the user chose a directory or none can be written."""
    if env.get("NUMBA_CACHE_DIR"):
        return None
    try:
        root = cache_root(env)
    except RuntimeError:
        return None  # no home directory
    folder = root / digest(package, layers)
    try:
        if folder.is_dir():
            os.utime(folder)  # its last use, for the pruning of other versions
        else:
            folder.mkdir(parents=True, exist_ok=True)  # another process may make it first
            prune(root, keep=folder)
    except OSError:
        return None  # a read-only home: numba's own __pycache__, as before
    if not os.access(folder, os.W_OK):
        return None
    env["NUMBA_CACHE_DIR"] = str(folder)
    numba = sys.modules.get("numba")
    if numba is not None and env is os.environ:  # imported first: its config was read
        numba.config.CACHE_DIR = str(folder)
    return folder


def prune(root: Path, keep: Path, others: int = KEEP) -> list[Path]:
    """Remove the directories under ``root`` but ``keep`` and the ``others`` last used."""
    folders = []
    for folder in root.iterdir():
        try:
            if folder != keep and folder.is_dir():
                folders.append((folder.stat().st_mtime, folder))
        except OSError:
            continue  # another process pruned it first
    folders.sort(reverse=True)
    removed = [folder for _, folder in folders[others:]]
    for folder in removed:
        shutil.rmtree(folder, ignore_errors=True)
    return removed

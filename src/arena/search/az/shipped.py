"""The networks that ship with arena: ``az`` without ``net=`` plays the game's own.

A network in the package is a ``.npz`` file in ``search/az/nets/`` (the format of
:mod:`arena.search.az.network`), trained by ``arena train`` on two cores; which game it
plays is read from the file itself, so a board size it was not trained for (Connect Four
8x7, Othello 10x10) has none and says so in one line, naming the way to train one. How
each was trained (the command, its time and its curve) is in docs/az.md.

>>> import arena
>>> sorted(available()) == sorted(set(available()))
True
>>> network_for(arena.load_game("gomoku"))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
arena.core.errors.SpecError: az: no network ships for gomoku...

Tests: tests/search/test_az_shipped.py
"""

from __future__ import annotations

import zipfile
from functools import cache
from pathlib import Path

import numpy as np

from arena.core.errors import SpecError
from arena.core.game import Game

DIRECTORY = Path(__file__).with_name("nets")
"""Where the package's networks are (package data, ``pyproject.toml``)."""


def available(directory: Path | None = None) -> dict[str, Path]:
    """Each shipped network's game spec and file (in ``directory``, the package's by
    default)."""
    return scan(directory or DIRECTORY)


@cache
def scan(directory: Path) -> dict[str, Path]:
    """Each shipped network's game spec and file (only the ``game`` array of each file is
    read; a file that is not a network is left out: the tests check every file is one)."""
    found: dict[str, Path] = {}
    for path in sorted(directory.glob("*.npz")):
        try:
            with np.load(path, allow_pickle=False) as data:
                found[str(data["game"])] = path
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
            continue
    return found


def network_for(game: Game, directory: Path | None = None) -> Path:
    """The file of the network shipped for ``game``'s exact spec, or a one-line
    :class:`SpecError` that names the games that have one and how to train one."""
    found = available(directory)
    if game.spec in found:
        return found[game.spec]
    have = ", ".join(sorted(found)) or "none"
    raise SpecError(
        f"az: no network ships for {game.spec} (shipped: {have}); give net=FILE, "
        f"trained with `arena train {game.spec}` (docs/az.md)"
    )

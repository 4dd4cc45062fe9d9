"""A training run's checkpoint: everything ``arena train`` needs to go on after a kill.

One ``.npz`` file (``arena-az-checkpoint/1``), written to a temporary file beside it and
renamed over the old one, so a kill at any moment leaves the previous checkpoint whole:

==================  ===========================================================
key                 what
==================  ===========================================================
``format``          ``arena-az-checkpoint/1``
``settings``        JSON: the run's settings (game, network sizes, optimiser, self-play)
``progress``        JSON: step, self-play games, seconds trained, the replay buffer's
                    file, the state of the batch sampler's random generator, the
                    accepted network and its Elo
``param/NAME``      the network's parameters (:mod:`arena.learn.model`)
``stat/NAME``       its batch normalisations' running statistics
``opt/I``           the optimiser's state, as the leaves of its pytree in order
==================  ===========================================================

The replay buffer is a file of its own (:class:`arena.learn.selfplay.ReplayBuffer`), one
per step (``buffer-000012.npz``), written before the checkpoint that names it, so the
buffer a checkpoint names is the buffer of that step; older ones are removed after.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "checkpoint.npz")
>>> save(path, Checkpoint({"game": "tictactoe"}, {"step": 3}, {"w": np.ones(2, np.float32)},
...                      {}, [np.zeros(1, np.float32)]))
>>> back = load(path)
>>> back.progress["step"], back.params["w"].tolist(), len(back.opt)
(3, [1.0, 1.0], 1)

Tests: tests/learn/test_train.py
"""

from __future__ import annotations

import json
import os
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from arena.core.errors import ArenaError

FORMAT = "arena-az-checkpoint/1"


@dataclass(frozen=True)
class Checkpoint:
    """The saved state of a training run."""

    settings: dict[str, Any]
    progress: dict[str, Any]
    params: dict[str, np.ndarray]
    stats: dict[str, np.ndarray]
    opt: list[np.ndarray] = field(default_factory=list)


def save(path: str | Path, checkpoint: Checkpoint) -> None:
    """Write ``checkpoint`` atomically (temporary file, then rename)."""
    path = Path(path)
    arrays: dict[str, np.ndarray] = {
        "format": np.array(FORMAT),
        "settings": np.array(json.dumps(checkpoint.settings, sort_keys=True)),
        "progress": np.array(json.dumps(checkpoint.progress, sort_keys=True)),
    }
    arrays.update({f"param/{k}": np.asarray(v) for k, v in checkpoint.params.items()})
    arrays.update({f"stat/{k}": np.asarray(v) for k, v in checkpoint.stats.items()})
    arrays.update({f"opt/{i}": np.asarray(v) for i, v in enumerate(checkpoint.opt)})
    temporary = path.with_name(path.name + ".part.npz")
    np.savez(temporary, **arrays)  # type: ignore[arg-type]
    os.replace(temporary, path)


def load(path: str | Path) -> Checkpoint:
    """The checkpoint in ``path``, or a one-line :class:`ArenaError` saying what is wrong."""
    path = Path(path)
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {k: data[k] for k in data.files}
    except FileNotFoundError:
        raise ArenaError(f"checkpoint {path}: no such file") from None
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as exc:
        raise ArenaError(f"checkpoint {path}: not a checkpoint file (.npz): {exc}") from None
    if str(arrays.get("format", "")) != FORMAT:
        raise ArenaError(f"checkpoint {path}: not in format {FORMAT!r}")
    try:
        settings = json.loads(str(arrays["settings"]))
        progress = json.loads(str(arrays["progress"]))
    except (KeyError, ValueError) as exc:
        raise ArenaError(f"checkpoint {path}: settings or progress unreadable ({exc})") from None
    params = {k[6:]: v for k, v in arrays.items() if k.startswith("param/")}
    stats = {k[5:]: v for k, v in arrays.items() if k.startswith("stat/")}
    opt_keys = sorted(int(k[4:]) for k in arrays if k.startswith("opt/"))
    if opt_keys != list(range(len(opt_keys))):
        raise ArenaError(f"checkpoint {path}: the optimiser's state is incomplete")
    opt = [arrays[f"opt/{i}"] for i in opt_keys]
    return Checkpoint(settings, progress, params, stats, opt)

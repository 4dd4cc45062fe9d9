"""Experiments: one command each that reruns a figure from the course with honest statistics.

``arena experiment NAME [options] --out DIR`` writes a PNG, a CSV per table and
``NAME.md`` (the command, the tables and the figures). Every experiment module
exposes ``NAME``, ``SUMMARY``, ``add_arguments(parser)`` and ``run(args, report)``.

>>> experiment_names()[:3]
('visits-vs-c', 'heatmap', 'strength-vs-time')
>>> load("chess")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
arena.core.errors.ArenaError: unknown experiment 'chess'; valid: visits-vs-c, heatmap, ...
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

from arena.core.errors import ArenaError

EXPERIMENTS: dict[str, str] = {
    "visits-vs-c": "arena.experiments.visits_vs_c",
    "heatmap": "arena.experiments.heatmap",
    "strength-vs-time": "arena.experiments.strength_vs_time",
    "c-sweep": "arena.experiments.c_sweep",
    "rollouts-ratio": "arena.experiments.rollouts_ratio",
    "iterations-vs-time": "arena.experiments.iterations_vs_time",
    "depth-vs-time": "arena.experiments.depth_vs_time",
    "heuristic-duel": "arena.experiments.heuristic_duel",
    "learned-eval": "arena.experiments.learned_eval",
}
"""Experiment name -> module path, in the order of the issue."""


def experiment_names() -> tuple[str, ...]:
    return tuple(EXPERIMENTS)


def load(name: str) -> ModuleType:
    """The module of experiment ``name``; ArenaError when it is unknown."""
    if name not in EXPERIMENTS:
        raise ArenaError(f"unknown experiment {name!r}; valid: {', '.join(EXPERIMENTS)}")
    return import_module(EXPERIMENTS[name])

"""``ids`` (what ``best`` plays on Othello) with its Othello engine's settings as
parameters, so that a change is measured against the engine without it in one
``arena match``.

Usage (from the checkout; both sides loaded the same way, in one process):

    arena match othello "py:scripts/othello_variant.py:Variant:threads=1" \\
        "py:scripts/othello_variant.py:Variant:patterns=old.npz,threads=1" --in-process \\
        --move-time 0.1 --games 200 --openings random:plies=4 --jobs 2

- ``patterns``: a pattern file of ``scripts/fit_othello_weights.py`` (the features' weights
  fitted with it included; a file from before the families brings the edges and corner
  blocks with ``othello.evaluation.ANCHORS``); ``none``, the shipped file;
- ``probcut``: ProbCut's threshold in standard deviations (``othello.PROBCUT``; 0 off);
- ``mpc``: the ProbCut table (``othello.probcut.MODELS``): ``fitted``, Multi-ProbCut's
  tries fitted by stage (the engine's), or ``classic``, the one spread of before.

Defaults are the engine's own, so ``Variant`` alone plays as ``ids``.
Tests: tests/search/test_othello_patterns.py, tests/search/test_othello_probcut.py
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from arena.core.errors import SpecError
from arena.core.game import Game
from arena.core.spec import Param, file_path
from arena.search.alphabeta.engines import Engine
from arena.search.alphabeta.engines.othello import engine as othello
from arena.search.alphabeta.engines.othello.evaluation import masks, weights
from arena.search.alphabeta.engines.othello.probcut import MODELS, cut_table
from arena.search.alphabeta.ids import IDSAgent


class Variant(IDSAgent):
    name = "othello-variant"
    summary = "ids with the Othello engine's settings as parameters (measurements)"
    params = (
        *IDSAgent.params,
        Param("patterns", file_path, None, "pattern file (none: the shipped one)"),
        Param("probcut", float, othello.PROBCUT, "ProbCut's threshold in sigmas (0 off)", low=0.0),
        Param("mpc", str, "fitted", "ProbCut's table", choices=tuple(MODELS)),
    )

    def _setup(  # type: ignore[override]
        self, patterns: str | None, probcut: float, mpc: str, **rest: object
    ) -> None:
        super()._setup(**rest)  # type: ignore[arg-type]
        self.probcut = probcut
        self.mpc = mpc
        self.table: tuple[np.ndarray, np.ndarray] | None = None
        """The file's weight table and the masks of its layout, made once."""
        if patterns is not None:
            try:
                table, families = weights(8, Path(patterns))
            except ValueError as exc:
                raise SpecError(f"othello-variant: patterns={exc}") from None
            self.table = (table, masks(8, families))

    def tune(self, built: Engine | None) -> Engine | None:
        if isinstance(built, othello.OthelloEngine):
            built.probcut = self.probcut
            built.cuts = cut_table(built.size, self.mpc)
            if self.table is not None and built.size == 8:
                built.weights, built.masks = self.table
        return built

    def engine(self, game: Game) -> Engine | None:
        return self.tune(super().engine(game))

    def _engine_on_clock(self, game: Game, seconds: float | None) -> Engine | None:
        return self.tune(super()._engine_on_clock(game, seconds))

"""Value targets from an exact solver: self-play records rescored by perfect play.

A self-play game's result is a noisy value target: a position won for the player to move
is marked lost whenever the young network later throws the win away. Where the game has an
exact solver, a position it can settle within a small budget gets its exact value
instead (1 won, 0 drawn, -1 lost for the player to move), as Leela Chess Zero rescores
its training games with endgame tablebases. Positions it cannot settle keep the game's
result.

Connect Four has such a solver (:mod:`arena.solvers.connect4`, a weak solve: which side
wins, not how soon). The positions of a game are solved from the last to the first, so
the later ones fill the solver's table for the earlier; the first position the budget
does not settle ends the game's rescoring (the earlier ones are harder still). The table
is cleared before each game and the budget counts nodes, never seconds, so a game's
targets depend on nothing but its moves and the budget: a run stays repeatable however
its games are spread over worker processes, and after a resume.

>>> import arena
>>> game = arena.load_game("connect4")
>>> rescorer = Rescorer(game, Rescore(nodes=20_000))
>>> state = game.play_moves([3, 3, 4, 4, 5, 5])     # the first player wins at once
>>> rescorer.outcome(state), rescorer.outcome(game.play_moves([3, 3, 4, 4, 5, 5, 2]))
(1, -1)

Tests: tests/learn/test_rescore.py
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from importlib import import_module
from typing import Any

import numpy as np

from arena.core.errors import SpecError
from arena.core.game import Game, State
from arena.solvers.solve import connect4_bitboard, kind

METHODS = ("none", "solver")
"""The ``--rescore`` choices."""

TABLE_BITS = 20
"""The solver's table for rescoring: 2**20 entries (8 MB), cleared for each game."""


@dataclass(frozen=True)
class Rescore:
    """How self-play's value targets are rescored (``method="none"``: the game's result)."""

    method: str = "none"
    nodes: int = 1_000_000
    """The solver's budget for one position (nodes searched)."""
    min_ply: int = 0
    """Positions before this ply keep the game's result without a try."""

    @property
    def on(self) -> bool:
        return self.method != "none"


def check(game: Game, options: Rescore) -> None:
    """A one-line error unless ``options`` can rescore ``game``'s records."""
    if options.method not in METHODS:
        raise SpecError(f"--rescore must be one of {', '.join(METHODS)}, not {options.method!r}")
    if options.on and kind(game) != "connect4":
        raise SpecError(
            f"--rescore solver needs a fast exact solver for the game: connect4 has one, "
            f"{game.spec} has none"
        )
    if options.nodes < 1 or options.min_ply < 0:
        raise SpecError("--rescore-nodes must be >= 1 and --rescore-from >= 0")


class Rescorer:
    """The exact outcome of positions of one game, within a node budget each."""

    def __init__(self, game: Game, options: Rescore) -> None:
        check(game, options)
        self.game = game
        self.options = options
        module: Any = import_module("arena.solvers.connect4.solver")  # numba: on first use
        self.solver = module.Connect4Solver(game.rows, game.cols, game.k, table_bits=TABLE_BITS)  # type: ignore[attr-defined]

    def outcome(self, state: State) -> int | None:
        """1, 0 or -1 for the player to move with perfect play, or None (not settled)."""
        pos, mask = connect4_bitboard(state)
        return self.solver.outcome(pos, mask, state.ply, self.options.nodes)

    def values(self, states: Sequence[State], results: np.ndarray) -> tuple[np.ndarray, int]:
        """``results`` with each position's exact value where the budget settles it (the
        positions solved from the last back to the first unsettled one), and how many
        were settled."""
        self.solver.reset()
        values = np.array(results, np.float32)
        settled = 0
        for i in range(len(states) - 1, -1, -1):
            if states[i].ply < self.options.min_ply:
                break
            found = self.outcome(states[i])
            if found is None:
                break
            values[i] = found
            settled += 1
        return values, settled

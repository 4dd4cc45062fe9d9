"""One front door to the solvers: the exact value of a state and of each of its moves.

Tests: tests/solvers/test_generic_solver.py

:func:`solver_for` picks the compiled Connect Four solver (boards whose
``cols * (rows + 1) <= 63``), the compiled Othello endgame solver (standard
rules, boards up to 8x8) or the generic alpha-beta solver for anything else,
and keeps one instance per game so its table serves later positions.
Scores are those of :mod:`arena.solvers.generic` (all solvers agree).

>>> import arena
>>> game = arena.load_game("tictactoe")
>>> solve_state(game.initial_state()).score
0
>>> [(game.format_move(m), s.score) for m, s in move_values(game.play_moves([4]))][:3]
[('a1', 0), ('b1', -2), ('c1', 0)]
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from importlib import import_module

from arena.core.game import Game, State
from arena.solvers.generic import GenericSolver, terminal_value
from arena.solvers.solution import Solution

Progress = Callable[[str], None]
"""Where a long solve reports how it goes (a line of text at a time)."""
SolveFn = Callable[[State, "float | None", "Progress | None", "threading.Event | None"], Solution]
_SOLVERS: dict[str, SolveFn] = {}


def kind(game: Game) -> str:
    """Which solver handles the game: ``connect4``, ``othello`` or ``generic``."""
    if game.name == "connect4" and game.cols * (game.rows + 1) <= 63:  # type: ignore[attr-defined]
        return "connect4"
    if game.name == "othello" and game.size <= 8 and game.can_pass:  # type: ignore[attr-defined]
        return "othello"
    return "generic"


def connect4_bitboard(state: State) -> tuple[int, int]:
    """A Connect Four position as the compiled solver's ``(pos, mask)``: the stones of the
    player to move, and all stones (column by column, ``rows + 1`` bits a column)."""
    pos = mask = 0
    rows, cols = state.game.rows, state.game.cols  # type: ignore[attr-defined]
    for col in range(cols):
        for row in range(rows):
            owner = state.stone(row * cols + col)  # type: ignore[attr-defined]
            if owner is None:
                break
            bit = 1 << (col * (rows + 1) + row)
            mask |= bit
            if owner == state.to_move:
                pos |= bit
    return pos, mask


def solver_ready(game: Game) -> bool:
    """Whether :func:`solver_for` has built ``game``'s solver in this process (it answers
    at once)."""
    return game.spec in _SOLVERS


def solver_for(game: Game) -> SolveFn:
    """``solve(state, seconds, progress, stop)`` for states of ``game`` (one instance per
    game spec, shared by the threads that solve its positions)."""
    if game.spec in _SOLVERS:
        return _SOLVERS[game.spec]
    which = kind(game)
    fn: SolveFn
    if which == "connect4":
        # Imported on first use: these modules import numba.
        solver = import_module("arena.solvers.connect4.solver")
        c4 = solver.Connect4Solver(game.rows, game.cols, game.k)  # type: ignore[attr-defined]

        def fn(
            state: State,
            seconds: float | None,
            progress: Progress | None,
            stop: threading.Event | None = None,
        ) -> Solution:
            pos, mask = connect4_bitboard(state)
            return c4.solve_position(pos, mask, state.ply, seconds, stop)

    elif which == "othello":
        solver = import_module("arena.solvers.othello.solver")
        fn = solver.OthelloSolver(game.size).solve  # type: ignore[attr-defined]
    else:
        generic = GenericSolver()

        def fn(
            state: State,
            seconds: float | None,
            progress: Progress | None,
            stop: threading.Event | None = None,
        ) -> Solution:
            return generic.solve(state, seconds, stop)

    _SOLVERS[game.spec] = fn
    return fn


def is_ready(game: Game) -> bool:
    """Whether the solver of ``game`` is built (its compiled code loaded)."""
    return game.spec in _SOLVERS


def solve_state(
    state: State,
    seconds: float | None = None,
    progress: Progress | None = None,
    stop: threading.Event | None = None,
) -> Solution:
    """The score of ``state`` for the player to move (bounds if ``seconds`` run out, or
    once ``stop`` is set: every solver looks at it within a few hundredths of a second).

    ``progress``: the Othello solver reports long solves there (probes, nodes, time).
    """
    if state.is_terminal():
        value = terminal_value(state)
        return Solution(value, value, 0, 0.0)
    return solver_for(state.game)(state, seconds, progress, stop)


def move_values(
    state: State, seconds: float | None = None, progress: Progress | None = None
) -> list[tuple[int, Solution]]:
    """Each legal move with its score for the player to move, in move order.

    With ``seconds``, moves whose solve ran out of time get bounds; once the time
    is spent the remaining moves get the widest bounds, found in no time.
    """
    start = time.perf_counter()
    rows = []
    for move in state.legal_moves():
        left = None if seconds is None else max(0.0, seconds - (time.perf_counter() - start))
        child = solve_state(state.play(move), left, progress)
        rows.append((move, Solution(-child.high, -child.low, child.nodes, child.seconds)))
    return rows

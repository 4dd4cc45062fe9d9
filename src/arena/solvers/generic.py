"""An exact solver for any game over the State API: alpha-beta with a table of bounds.

Tests: tests/solvers/test_generic_solver.py

Slow (Python, a few hundred thousand nodes a second at best), so it is for
small trees: Tic-tac-toe and its m,n,k variants, Othello 4x4, small Connect
Four boards, endgames. The compiled solvers (:mod:`arena.solvers.connect4`,
:mod:`arena.solvers.othello`) give the same scores much faster.

Scores, for the player to move, with perfect play by both sides:

- k-in-a-row games (Tic-tac-toe, Connect Four, Gomoku): 0 for a draw; a win
  is worth ``(cells + 1) // 2 + 1`` minus the stones the winner has placed
  when the game ends (Pons' convention; 22 minus the stones on Connect Four
  7x6, 6 minus the stones on Tic-tac-toe 3x3); a loss is the negated score of
  the opponent's win. Faster wins score higher.
- games with a margin (:meth:`State.score`): the final margin; Othello counts
  the empty cells for the winner (the FFO convention); a fractional margin (Go
  with komi) is rounded away from zero.
- other games: +1, 0 or -1.

>>> import arena
>>> solve(arena.load_game("tictactoe").initial_state()).score
0
>>> solve(arena.load_game("tictactoe:m=4,n=4,k=3").initial_state()).score   # X wins, 3rd stone
6
>>> solve(arena.load_game("othello:size=4").initial_state()).score   # White wins 11-3 (+2 empty)
-10
"""

from __future__ import annotations

import math
import threading
import time

from arena.core.game import State
from arena.search.clock.deadline import Deadline
from arena.solvers.solution import Solution, bisect

_KINAROW = ("tictactoe", "connect4", "gomoku")


class OutOfTime(Exception):
    """Raised inside the search when the deadline passes."""


def _cells(state: State) -> int:
    game = state.game
    return int(game.rows * game.cols)  # type: ignore[attr-defined]


def win_score(state: State, stones: int) -> int:
    """What a win with ``stones`` stones of the winner is worth (k-in-a-row games)."""
    return (_cells(state) + 1) // 2 + 1 - stones


def terminal_value(state: State) -> int:
    """The score of a finished game for the player to move in it."""
    game = state.game
    if game.name in _KINAROW:
        winner = state.winner()
        if winner is None:
            return 0
        # The winner made the last move; stones alternate from the first player.
        ply = state.ply  # stones on the board: these games have no passes
        stones = (ply + 1) // 2 if winner == 0 else ply // 2
        value = win_score(state, stones)
        return value if winner == state.to_move else -value
    margin = state.score()
    if margin is None:
        r = state.returns()[state.to_move]
        return int(r)
    if game.name == "othello":
        black, white = state.discs()  # type: ignore[attr-defined]
        empty = game.size**2 - black - white  # type: ignore[attr-defined]
        margin += empty if margin > 0 else -empty if margin < 0 else 0
    # Scores are ints (null windows step by 1): a fractional margin such as
    # Go's with komi 7.5 is rounded away from zero, which keeps its sign.
    whole = int(math.copysign(math.ceil(abs(margin)), margin))
    return whole if state.to_move == 0 else -whole


def score_bounds(state: State) -> tuple[int, int]:
    """Bounds every score of the game lies within."""
    game = state.game
    if game.name in _KINAROW:
        top = (_cells(state) + 1) // 2 + 1
        return -top, top
    if state.score() is None:
        return -1, 1
    if game.name == "othello":
        return -(game.size**2), game.size**2  # type: ignore[attr-defined]
    return -(1 << 20), 1 << 20


class GenericSolver:
    """Alpha-beta over the State API with a table of ``(low, high, best move)``.

    Keeps its table between calls (positions of one game). One instance may serve
    several threads at once (a web server's boards): each solve keeps its own clock
    and stop request in a :class:`_Run`; the table is shared (a dictionary's single
    reads and writes are atomic).
    """

    def __init__(self) -> None:
        self.table: dict[State, tuple[int, int, int | None]] = {}
        self.nodes = 0

    def negamax(self, state: State, alpha: int, beta: int, run: _Run | None = None) -> int:
        if run is None:
            run = _Run(None, None)
        run.nodes += 1
        # The clock at every node, terminal ones too: a node over the State API costs
        # microseconds to milliseconds (a Go position's score, a Colosseum move's
        # reach), reading the clock tens of nanoseconds; terminal nodes (most of a late
        # Go position's) looked at nothing, and a 20 ms solve ran 7-30 s. The deadline
        # stops one node's longest cost early, so the node that would cross it is not
        # started.
        if run.over():
            raise OutOfTime
        if state.is_terminal():
            return terminal_value(state)
        low, high, best_move = self.table.get(state, (-(1 << 30), 1 << 30, None))
        if low >= beta:
            return low
        if high <= alpha:
            return high
        if low == high:
            return low
        a, b = max(alpha, low), min(beta, high)
        moves = list(state.legal_moves())
        if best_move is not None:
            moves.remove(best_move)
            moves.insert(0, best_move)
        best = -(1 << 30)
        chosen = moves[0]
        alpha_in = a
        for move in moves:
            v = -self.negamax(state.play(move), -b, -a, run)
            if v > best:
                best, chosen = v, move
                if v > a:
                    a = v
                    if a >= b:
                        break
        if best <= alpha_in:
            high = min(high, best)
        elif best >= b:
            low = max(low, best)
        else:
            low = high = best
        self.table[state] = (low, high, chosen)
        return best

    def solve(
        self, state: State, seconds: float | None = None, stop: threading.Event | None = None
    ) -> Solution:
        """The score of ``state`` for the player to move (bounds when ``seconds`` run out
        or ``stop`` is set first)."""
        start = time.perf_counter()
        if state.is_terminal():
            value = terminal_value(state)
            return Solution(value, value, 0, 0.0)
        low, high = score_bounds(state)
        run = _Run(None if seconds is None else Deadline(seconds, start, margin=0.0), stop)

        def probe(mid: int, left: float) -> tuple[int, int, bool]:
            before = run.nodes
            try:
                value = self.negamax(state, mid, mid + 1, run)
            except OutOfTime:
                return 0, run.nodes - before, True
            return value, run.nodes - before, False

        try:
            found = bisect(probe, low, high, seconds, stop=stop)
        finally:
            self.nodes += run.nodes
        return Solution(found.low, found.high, found.nodes, time.perf_counter() - start)


class _Run:
    """One solve's clock, stop request and node count."""

    __slots__ = ("deadline", "nodes", "stop")

    def __init__(self, deadline: Deadline | None, stop: threading.Event | None) -> None:
        self.deadline, self.stop, self.nodes = deadline, stop, 0

    def over(self) -> bool:
        return (self.deadline is not None and self.deadline.expired()) or (
            self.stop is not None and self.stop.is_set()
        )


def solve(
    state: State, seconds: float | None = None, stop: threading.Event | None = None
) -> Solution:
    """Solve one position with a fresh :class:`GenericSolver`."""
    return GenericSolver().solve(state, seconds, stop)

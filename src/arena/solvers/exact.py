"""Exact moves for agents: solve the position, then find a move that keeps its value.

Tests: tests/agents/test_solver_agent.py

Used by the ``solver`` agent and by ``ids`` on Othello (the exact endgame).
A search that cannot finish in its time returns None, and the caller falls back
to its heuristic search with the time that is left.

>>> import arena
>>> game = arena.load_game("tictactoe")
>>> found = exact_move(game.play_moves([0, 4, 8]), 5.0)
>>> game.format_move(found.move), found.score, found.info.root[0]["text"]
('b1', 0, 'exact 0 (draw)')
"""

from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass

from arena.core.agent import SearchInfo
from arena.core.game import Game, State
from arena.solvers.solve import is_ready, kind, solve_state, solver_for

# Othello: FFO #40 (20 empty cells) takes about 2 s of one core and every
# empty cell fewer about a third of that; predict from it when a solve fits.
_OTHELLO_SECONDS_AT_20 = 2.0
_OTHELLO_GROWTH = 3.0
MIN_BUDGET = 0.05
"""Seconds below which ``ids`` does not try the exact endgame: the Python work
around a solve (a few probes, the children) is then a large share of the time."""


@dataclass(frozen=True)
class ExactMove:
    move: int
    score: int
    """The exact score for the player to move (see :mod:`arena.solvers.generic`)."""
    info: SearchInfo
    """Root rows with ``"exact": True`` and texts ``exact +N (...)``."""


def empty_cells(state: State) -> int:
    """Empty cells of an Othello state."""
    black, white = state.discs()  # type: ignore[attr-defined]
    return int(state.game.size**2 - black - white)  # type: ignore[attr-defined]


def othello_reach(seconds: float) -> int:
    """The most empty cells an Othello endgame solve typically finishes in ``seconds``.

    >>> othello_reach(0.5), othello_reach(5.0)
    (18, 20)
    """
    if seconds <= 0:
        return 0
    return int(20 + math.log(seconds / _OTHELLO_SECONDS_AT_20) / math.log(_OTHELLO_GROWTH))


GENERIC_SHARE = 0.25
"""The generic solver is tried when one node for each move of the root (as long as
the first child's ``play``, ``is_terminal`` and ``legal_moves``) takes at most this
share of the time."""


def within_reach(state: State, seconds: float) -> bool:
    """Whether a solve of ``state`` is worth trying in ``seconds``: Othello by its empty
    cells; Connect Four always (the compiled solver keeps the time); other games (the
    generic solver over the State API) when one node for each move of the root fits
    :data:`GENERIC_SHARE` of the time, timed on the first child (Go 19x19 and Gomoku
    never: a first ply costs 10-300 ms there, and a solve that tried overran its share
    by its first nodes)."""
    which = kind(state.game)
    if which == "othello":
        return empty_cells(state) <= othello_reach(seconds)
    if which == "connect4":
        return True
    moves = state.legal_moves()
    start = time.perf_counter()
    child = state.play(moves[0])  # a node of the solve: a new state, its moves, its end
    if not child.is_terminal():
        child.legal_moves()
    return len(moves) * (time.perf_counter() - start) <= GENERIC_SHARE * seconds


EXACT_UNITS = (
    "exact: the final score margin for the player to move with perfect play from here "
    "(Othello: discs; games without a count: +1 win, 0 draw, -1 loss)"
)
"""The one line that explains solved values (``SearchInfo.units``)."""


def _text(score: int) -> str:
    return (
        f"exact {score:+d} (win)"
        if score > 0
        else f"exact {score:+d} (loss)"
        if score
        else "exact 0 (draw)"
    )


def exact_move(
    state: State, seconds: float, stop: threading.Event | None = None
) -> ExactMove | None:
    """A best move of ``state`` and its exact score, or None if ``seconds`` run out (or
    ``stop`` is set) first."""
    start = time.perf_counter()
    root = solve_state(state, seconds, stop=stop)
    if not root.exact:
        return None
    nodes = root.nodes
    fmt = state.game.format_move
    rows = []
    best = None
    # The children one by one until one keeps the root's value (the table
    # makes them cheap after the root's search).
    for move in state.legal_moves():
        left = seconds - (time.perf_counter() - start)
        if left <= 0 or (stop is not None and stop.is_set()):
            return None
        child = solve_state(state.play(move), left, stop=stop)
        nodes += child.nodes
        if not child.exact:
            return None
        value = -child.score
        rows.append({"move": fmt(move), "value": value, "bound": "=", "depth": 0, "exact": True})
        if value == root.score:
            best = move
            break
    assert best is not None, "no move keeps the solved value"
    rows.sort(key=lambda r: -r["value"])
    for r in rows:
        r["text"] = _text(r["value"])
    info = SearchInfo(
        seconds=time.perf_counter() - start,
        depth=0,
        nodes=nodes,
        value=root.score,
        root=rows,
        method="exact",
        units=EXACT_UNITS,
    )
    return ExactMove(best, root.score, info)


_loading: dict[str, threading.Thread] = {}


def prepare_in_background(game: Game) -> None:
    """Build the solver of ``game`` in a thread (loading compiled code takes a
    moment that must not be spent on a move's clock). Not a daemon: a program ending
    meanwhile waits for it, since a daemon thread cut off inside compiled code at the
    interpreter's end can crash the process (:mod:`arena.search.clock.background`)."""
    if game.spec not in _loading:
        thread = threading.Thread(target=solver_for, args=(game,), daemon=False)
        _loading[game.spec] = thread
        thread.start()


def wait_for_solver(game: Game) -> None:
    """Wait until a solver being built in the background is ready (if one is)."""
    thread = _loading.get(game.spec)
    if thread is not None:
        thread.join()


def exact_endgame(
    state: State, seconds: float | None, stop: threading.Event | None = None
) -> tuple[ExactMove | None, float | None]:
    """The hook of ``ids``: on Othello, solve the endgame when it is within reach of
    half the time. Returns the exact move (or None) and the seconds left.

    The solver is built in the background a few moves before it is needed
    (and until it is ready, ids plays on).
    """
    if seconds is None or kind(state.game) != "othello" or state.is_terminal():
        return None, seconds
    budget = seconds / 2
    if budget < MIN_BUDGET:
        return None, seconds
    if not is_ready(state.game):
        if empty_cells(state) <= othello_reach(budget) + 8:
            prepare_in_background(state.game)
        return None, seconds
    if not within_reach(state, budget):
        return None, seconds
    start = time.perf_counter()
    found = exact_move(state, budget, stop)
    return found, seconds - (time.perf_counter() - start)

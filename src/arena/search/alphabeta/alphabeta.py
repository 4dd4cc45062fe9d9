"""``alphabeta``: depth-limited negamax with alpha-beta pruning.

Options, each switchable so their effect can be measured:

``cache=1``
    A transposition table keyed by ``state.key()``. Each entry keeps the
    depth searched, the value, whether that value is exact or only a lower or
    upper bound, and the best move. Under pruning most values are bounds: a
    table that stored them as exact values would return wrong answers
    (``test_a_naive_cache_is_wrong_where_ours_is_right`` in ``tests/search/test_search.py``
    shows one that does).
``order=1``
    Children are searched best-first: the table's best move, then the rest
    by the evaluation of the position they lead to. Good ordering makes
    cut-offs come early, so fewer nodes are searched for the same value.

Wins are stored relative to the node (``WIN - plies from here``) so a cached
"win in 3" stays right wherever the position recurs in the tree.

>>> import arena
>>> game = arena.load_game("tictactoe")
>>> agent = arena.load_agent("alphabeta:depth=9")
>>> state = game.play_moves(game.parse_moves("a1 b2 a2"))   # O must block at a3
>>> game.format_move(agent.choose(state, arena.Limit()))
'a3'

``eval=net:FILE`` judges the horizon by an ``az`` network's value head
(:mod:`arena.search.az.value`) instead of the game's heuristic.

Tests: tests/search/test_search.py, tests/search/test_net_eval.py
"""

from __future__ import annotations

import math

from arena.core.agent import Agent, SearchInfo
from arena.core.game import Game, State
from arena.core.limit import Limit
from arena.core.spec import Param
from arena.search.az.value import CutoffEvaluation, cutoff_evaluation
from arena.search.clock.deadline import Deadline, SearchTimeout, quiet_gc
from arena.search.report import value_rows
from arena.search.values import (
    EVAL_PARAM,
    HEURISTIC_UNITS,
    PROVEN,
    Evaluate,
    Units,
    terminal_value,
)

EXACT, LOWER, UPPER = 0, 1, 2
INF = math.inf


def _to_table(value: float, ply: int) -> float:
    """Make a proven value relative to the node at ``ply`` (for storing)."""
    if value >= PROVEN:
        return value + ply
    if value <= -PROVEN:
        return value - ply
    return value


def _from_table(value: float, ply: int) -> float:
    if value >= PROVEN:
        return value - ply
    if value <= -PROVEN:
        return value + ply
    return value


class AlphaBeta:
    """One search configuration; ``table`` persists between searches when cached."""

    def __init__(self, evaluate: Evaluate, cache: bool, order: bool) -> None:
        self._evaluate = evaluate
        # Ordering evaluates the children of a node that the search then evaluates again
        # as leaves one level down: remember evaluations by key so each is computed once.
        self._evaluations: dict[int, float] = {}
        self.table: dict[int, tuple[int, float, int, int | None]] | None = {} if cache else None
        self.order = order
        self.nodes = 0
        self.root_best: int | None = None
        self.horizon = False
        """Whether the last search evaluated any position at its depth limit."""
        self.deadline = Deadline(None)
        self.max_nodes = INF

    def evaluate(self, state: State) -> float:
        key = state.key()
        value = self._evaluations.get(key)
        if value is None:
            if len(self._evaluations) > 2_000_000:  # bound the memory of long games
                self._evaluations.clear()
            value = self._evaluations[key] = self._evaluate(state)
        return value

    def ordered(self, state: State, ply: int, best: int | None) -> list[tuple[int, State]]:
        """Children, best-first for the player to move when ordering is on."""
        deadline = self.deadline
        children = []
        for move in state.legal_moves():
            if deadline.expired():  # wide positions (Colosseum, Go 19x19) take a while here
                raise SearchTimeout
            children.append((move, state.play(move)))
        if self.order:
            evaluate = self.evaluate

            def child_value(item: tuple[int, State]) -> float:
                if deadline.expired():
                    raise SearchTimeout
                child = item[1]
                # The child's value is for the opponent, so ascending is best-first for us.
                if child.is_terminal():
                    return terminal_value(child, ply + 1)
                return evaluate(child)

            children.sort(key=child_value)
            if best is not None:
                children.sort(key=lambda item: item[0] != best)  # stable: best move first
        elif best is not None:
            children.sort(key=lambda item: item[0] != best)
        return children

    def search(self, state: State, depth: int, alpha: float, beta: float, ply: int) -> float:
        self.nodes += 1
        if self.deadline.expired() or self.nodes > self.max_nodes:
            raise SearchTimeout
        if state.is_terminal():
            return terminal_value(state, ply)
        if depth <= 0:
            self.horizon = True
            return self.evaluate(state)
        table = self.table
        best_move = None
        if table is not None:
            entry = table.get(state.key())
            if entry is not None:
                e_depth, e_value, e_flag, best_move = entry
                if e_depth >= depth:
                    # The entry's subtree may have been cut off by the horizon.
                    self.horizon = True
                    value = _from_table(e_value, ply)
                    if e_flag == EXACT:
                        return value
                    if e_flag == LOWER and value > alpha:
                        alpha = value
                    elif e_flag == UPPER and value < beta:
                        beta = value
                    if alpha >= beta:
                        return value
        alpha_in = alpha
        best = -INF
        if depth == 1:
            # The children are leaves: ordering them by evaluation would evaluate each twice.
            moves = state.legal_moves()
            if best_move is not None:
                moves = (best_move, *(m for m in moves if m != best_move))
            children = ((m, state.play(m)) for m in moves)
        else:
            children = iter(self.ordered(state, ply, best_move))
        for move, child in children:
            value = -self.search(child, depth - 1, -beta, -alpha, ply + 1)
            if value > best:
                best, best_move = value, move
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        if table is not None:
            flag = UPPER if best <= alpha_in else LOWER if best >= beta else EXACT
            table[state.key()] = (depth, _to_table(best, ply), flag, best_move)
        return best

    def root(
        self, state: State, depth: int, first: int | None = None, exact: bool = False
    ) -> tuple[float, int, list[tuple[int, float, int]]]:
        """Search the root: (value, best move, [(move, value, bound flag)] best first).

        ``exact=True`` searches every root move with a full window, so each
        value is exact (slower; for analysis tables).
        """
        alpha, beta = -INF, INF
        self.root_best = None
        self.horizon = False
        if first is None and self.table is not None:
            entry = self.table.get(state.key())
            first = entry[3] if entry else None
        rows: list[tuple[int, float, int]] = []
        best, best_move = -INF, None
        for move, child in self.ordered(state, 0, first):
            window_low = -INF if exact else alpha
            value = -self.search(child, depth - 1, -beta, -window_low, 1)
            flag = EXACT if value > window_low or best == -INF else UPPER
            rows.append((move, value, flag))
            if value > best:
                best, best_move = value, move
                self.root_best = move  # what a timeout falls back on
                alpha = max(alpha, value)
        assert best_move is not None
        if self.table is not None:
            self.table[state.key()] = (depth, _to_table(best, 0), EXACT, best_move)
        rows.sort(key=lambda row: -row[1])
        return best, best_move, rows

    def open_window(
        self, state: State, rows: list[tuple[int, float, int]], depth: int, count: int
    ) -> tuple[list[tuple[int, float, int]], bool]:
        """``rows`` (move, value, flag) best first, with the first ``count`` that are bounds
        searched again to ``depth`` with an open window, so each has its own exact value
        (a multi-PV analysis), and whether the pass completed: the deadline ends it early,
        and the rows not reached keep their bounds. The order stays the deepening's among
        equal values."""
        out = list(rows)
        complete = True
        try:
            for i, (move, _, flag) in enumerate(rows[:count]):
                if flag != EXACT:
                    out[i] = (move, -self.search(state.play(move), depth - 1, -INF, INF, 1), EXACT)
        except SearchTimeout:
            complete = False
        return sorted(out, key=lambda row: -row[1]), complete

    def principal_variation(self, state: State, first: int, length: int) -> list[int]:
        """The expected line from the table's best moves (just ``first`` without a table)."""
        line = [first]
        if self.table is None:
            return line
        state = state.play(first)
        seen = {state.key()}
        while len(line) < length and not state.is_terminal():
            entry = self.table.get(state.key())
            if entry is None or entry[3] is None or entry[3] not in state.legal_moves():
                break
            line.append(entry[3])
            state = state.play(entry[3])
            if state.key() in seen:
                break
            seen.add(state.key())
        return line


class GameSearcher:
    """The :class:`AlphaBeta` of the game being played: built, with its evaluation warmed,
    once per game (in ``reset``, off the clock), and kept between moves."""

    def __init__(self, cutoff: CutoffEvaluation, cache: bool, order: bool) -> None:
        self.cutoff, self.cache, self.order = cutoff, cache, order
        self._searcher: AlphaBeta | None = None
        self._game: Game | None = None

    def reset(self, game: Game | None) -> None:
        """A new game starts: forget the table, and build the next searcher now."""
        self._searcher = None
        if game is not None:
            self.get(game)

    @property
    def current(self) -> AlphaBeta | None:
        """The searcher of the game being played, if one was built."""
        return self._searcher

    def get(self, game: Game) -> AlphaBeta:
        if self._searcher is None or self._game != game:
            self._game = game
            evaluate = self.cutoff.evaluation(game, warm=True)
            self._searcher = AlphaBeta(evaluate, self.cache, self.order)
        return self._searcher


def root_rows(
    state: State, rows: list[tuple[int, float, int]], depth: int, unit: Units = HEURISTIC_UNITS
) -> list[dict]:
    """Report rows for root moves searched to ``depth``, with their bound types."""
    bound = {EXACT: "=", LOWER: ">=", UPPER: "<="}
    return value_rows(state, [(m, v, bound[flag]) for m, v, flag in rows], depth, unit)


class AlphaBetaAgent(Agent):
    name = "alphabeta"
    summary = "depth-limited alpha-beta with an optional transposition table and move ordering"
    params = (
        Param("depth", int, 4, "plies to search", low=1, high=64),
        EVAL_PARAM,
        Param("cache", bool, True, "transposition table (depth + bound type)"),
        Param("order", bool, True, "search the table's move, then children by evaluation, first"),
        Param("exact", bool, False, "exact values for every root move (slower; for analysis)"),
    )

    def _setup(self, depth: int, eval: str, cache: bool, order: bool, exact: bool) -> None:
        self.depth, self.exact = depth, exact
        self.searchers = GameSearcher(cutoff_evaluation(eval, self.name), cache, order)

    def reset(self, game: Game | None = None) -> None:
        self.searchers.reset(game)

    def stop(self) -> None:
        searcher = self.searchers.current
        if searcher is not None:
            searcher.deadline.stop()  # every node looks at it

    def choose(self, state: State, limit: Limit) -> int:
        searcher = self.searchers.get(state.game)
        depth = min(self.depth, limit.depth or self.depth)
        searcher.deadline = Deadline(limit.time)
        searcher.max_nodes = limit.nodes or INF
        searcher.nodes = 0
        fallback = state.legal_moves()[0]
        unit = self.searchers.cutoff.units(state.game)
        info = SearchInfo(units=unit.note)
        with quiet_gc():
            try:
                value, move, rows = searcher.root(state, depth, exact=self.exact)
                info.depth = depth
                info.root = root_rows(state, rows, depth, unit)
                pv = searcher.principal_variation(state, move, depth)
                info.root[0]["pv"] = [state.game.format_move(m) for m in _replayable(state, pv)]
                info.value = value
            except SearchTimeout:
                # The best root move searched so far, or the first (best-ordered) one.
                move = fallback if searcher.root_best is None else searcher.root_best
                info.depth = 0
        info.nodes = searcher.nodes
        info.seconds = searcher.deadline.finish()
        self.last_search = info
        return move


def _replayable(state: State, line: list[int]) -> list[int]:
    out = []
    for move in line:
        if state.is_terminal() or move not in state.legal_moves():
            break
        out.append(move)
        state = state.play(move)
    return out

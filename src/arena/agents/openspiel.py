"""``openspiel:mcts``: OpenSpiel's C++ ``MCTSBot`` as an arena agent, to measure against it.

OpenSpiel (DeepMind's library of games and algorithms) ships a C++ MCTS with
random-rollout evaluation, the usual yardstick for MCTS speed and strength.
This agent runs it on a copy of the game kept in OpenSpiel, moves mapped
through each game's coordinates, so anyone can re-run a comparison::

    arena match connect4 mcts openspiel:mcts --move-time 0.3

Spec: ``openspiel:mcts[:key=value,...]`` with ``c`` (UCT constant, OpenSpiel's
default 2), ``rollouts`` (random rollouts per evaluation, 1), ``seed``,
``solve`` (MCTS-Solver) and ``memory`` (MB for the tree). The move's time goes
to the bot's own wall-clock limit (``max_wall_clock_time``), a rollouts budget
to ``max_simulations``. Games both libraries have: Tic-tac-toe 3x3, Connect
Four (any rows, cols, k), Othello 8x8 (standard rules), Go 5..19 (OpenSpiel
forbids suicide but checks only simple ko; a move it wants that arena's
superko forbids is replaced by its most visited legal alternative) and Gomoku
(freestyle). Needs the ``bench`` extra (``pip install -e '.[bench]'``).

Tests: ``tests/agents/test_openspiel.py``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from arena.core.agent import Agent, SearchInfo
from arena.core.errors import SpecError
from arena.core.game import Game, State
from arena.core.limit import Limit
from arena.core.spec import Param, split_spec

ALGORITHMS = ("mcts",)

MARGIN = 0.01
"""Seconds kept back from the move's time: the bot checks its clock between simulations."""


@dataclass(frozen=True)
class Mapping:
    """One game's bridge: OpenSpiel's game string and the action of each arena move."""

    name: str
    to_action: Callable[[int], int]
    from_action: Callable[[int], int]


def mapping(game: Game) -> Mapping:
    """How ``game`` is played in OpenSpiel, or SpecError for games it does not have."""
    c = game.config
    same = (lambda m: m, lambda a: a)
    if game.name == "tictactoe" and (c["m"], c["n"], c["k"]) == (3, 3, 3):
        return Mapping("tic_tac_toe", *same)
    if game.name == "connect4":
        return Mapping(
            f"connect_four(rows={c['rows']},columns={c['cols']},x_in_row={c['k']})", *same
        )
    if game.name == "othello" and c["size"] == 8 and c["rule"] == "standard":
        return Mapping("othello", *same)  # row-major from a1 at the top; pass is 64 in both
    if game.name == "gomoku" and c["overline"] == "win":
        return Mapping(f"gomoku(size={c['size']},connect={c['k']})", *same)
    if game.name == "go":
        n = c["size"]

        # arena numbers points from the top row, OpenSpiel from the bottom; pass is n*n in both
        def flip(point: int) -> int:
            return point if point == n * n else (n - 1 - point // n) * n + point % n

        return Mapping(
            f"go(board_size={n},komi={c['komi']:g},max_game_length={game.maxlen})", flip, flip
        )
    raise SpecError(
        f"openspiel: {game.spec} has no OpenSpiel counterpart here; it plays tictactoe (3x3), "
        "connect4, othello (8x8, rule=standard), go and gomoku (overline=win)"
    )


class OpenSpielMCTS(Agent):
    name = "openspiel"
    summary = "OpenSpiel's C++ MCTSBot with random rollouts (needs the bench extra)"
    params = (
        Param("c", float, 2.0, "UCT exploration constant", low=0.0),
        Param("rollouts", int, 1, "random rollouts per evaluation", low=1, high=1000),
        Param("simulations", int, 10_000_000, "simulations per move at most", low=1),
        Param("seed", int, None, "random seed"),
        Param("solve", bool, False, "MCTS-Solver: back up proven wins and losses"),
        Param("memory", int, 1000, "MB the tree may use", low=1, high=1 << 20),
    )

    def _setup(self, **values: Any) -> None:
        try:
            import pyspiel
        except ImportError:
            raise SpecError(
                "openspiel: OpenSpiel is not installed: pip install -e '.[bench]'"
            ) from None
        self._pyspiel = pyspiel
        self.spec = "openspiel:mcts" + self.spec[len(self.name) :]
        self._game: Game | None = None
        self._line: State | None = None
        self._moves: list[int] = []

    def reset(self, game: Game | None = None) -> None:
        if game is not None:
            mapping(game)  # a game OpenSpiel lacks is refused before the first move
        self._game = game
        self._line = None if game is None else game.initial_state()
        self._moves = []

    def observe(self, state: State, move: int) -> None:
        # OpenSpiel states are built by playing moves: follow the game's line of moves.
        if self._line is not None and state == self._line:
            self._moves.append(move)
            self._line = state.play(move)
        else:
            self._line = None

    def choose(self, state: State, limit: Limit) -> int:
        game = state.game
        if self._game != game or self._line != state:
            if state.ply == 0 and state == game.initial_state():
                self.reset(game)
            else:
                raise SpecError(
                    "openspiel: the position was not reached through observed moves, "
                    "so it cannot be set up in OpenSpiel"
                )
        bridge = mapping(game)
        spiel_game = self._pyspiel.load_game(bridge.name)
        spiel_state = spiel_game.new_initial_state()
        for move in self._moves:
            spiel_state.apply_action(bridge.to_action(move))
        p = self.config
        seed = p["seed"] if p["seed"] is not None else time.monotonic_ns() % (1 << 31)
        seconds = -1.0 if limit.time is None else max(limit.time - MARGIN, 0.001)
        simulations = p["simulations"] if limit.rollouts is None else limit.rollouts
        bot = self._pyspiel.MCTSBot(
            spiel_game,
            self._pyspiel.RandomRolloutEvaluator(p["rollouts"], seed),
            p["c"],
            simulations,
            p["memory"],
            p["solve"],
            seed,
            False,
            self._pyspiel.ChildSelectionPolicy.UCT,
            seconds,
        )
        started = time.perf_counter()
        root = bot.mcts_search(spiel_state)
        legal = set(state.legal_moves())
        children = sorted(root.children, key=lambda ch: (-ch.explore_count, -ch.total_reward))
        chosen = [ch for ch in children if bridge.from_action(ch.action) in legal]
        if not chosen:
            raise SpecError("openspiel: the bot proposed no move that is legal in arena")
        self.last_search = SearchInfo(
            seconds=time.perf_counter() - started,
            nodes=root.explore_count,
            value=_win_rate(chosen[0]),
            root=[
                {
                    "move": game.format_move(bridge.from_action(ch.action)),
                    "visits": ch.explore_count,
                    "win_rate": _win_rate(ch),
                    "ucb": None,
                    "rank": rank,
                }
                for rank, ch in enumerate(chosen, 1)
            ],
        )
        return bridge.from_action(chosen[0].action)


def _win_rate(child: Any) -> float | None:
    # total_reward sums returns in [-1, 1] for the player who moved into the child.
    n = child.explore_count
    return None if not n else round((child.total_reward / n + 1) / 2, 4)


def load_openspiel_agent(spec: str) -> OpenSpielMCTS:
    """``openspiel:ALGORITHM[:key=value,...]``."""
    algorithm, raw = split_spec(spec.strip()[len("openspiel:") :])
    if algorithm not in ALGORITHMS:
        raise SpecError(
            f"openspiel: unknown algorithm {algorithm!r}; valid: {', '.join(ALGORITHMS)}"
        )
    return OpenSpielMCTS(**raw)

"""Self-play: the ``az`` search plays a game against itself and keeps what it learns from.

Each position of a self-play game becomes one training record: its input planes
(:func:`arena.search.az.planes.encode`), the root's visit distribution over the game's
actions (the policy target) and the game's result for the player to move there (the
value target: +1 won, -1 lost, 0 drawn). Moves are drawn in proportion to the visits for
the first ``temperature_moves`` plies, then the most visited is played; Dirichlet noise
is mixed into every root's priors. One tree serves both sides and is kept from move to
move. The search is the compiled PUCT (:mod:`arena.search.az.puct_driver`, the same visits
as the readable :mod:`arena.search.az.puct`, several times faster) where the game's kernel
serves it; :func:`play_game` also takes a readable evaluator.

:class:`ReplayBuffer` holds the most recent records and is saved as one ``.npz`` file
(written beside and renamed, so a kill never leaves half a buffer):

==============  =================  ===================================================
key             shape              meaning
==============  =================  ===================================================
``format``      ``()`` str         ``arena-az-replay/1``
``game``        ``()`` str         the game's spec
``planes``      ``(N, C, H, W)``   uint8 input planes (they are 0 or 1)
``policy``      ``(N, A)``         float32 visit distributions (each sums to 1)
``value``       ``(N,)``           float32 results for the player to move
``games``       ``()`` int         self-play games added since the buffer began
==============  =================  ===================================================

>>> import arena
>>> from arena.search.az.network import random_network
>>> from arena.search.az.puct import net_evaluator
>>> game = arena.load_game("tictactoe")
>>> evaluate = net_evaluator(random_network(game, filters=4, blocks=0, seed=0))
>>> records = play_game(game, evaluate, SelfPlay(simulations=16), np.random.default_rng(0))
>>> records.planes.shape[1:], records.policy.shape[1], len(records) == len(records.value)
((4, 3, 3), 9, True)

Tests: tests/learn/test_selfplay.py
"""

from __future__ import annotations

import os
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from arena.core.errors import SpecError
from arena.core.game import Game
from arena.games import load_game
from arena.learn.rescore import Rescore, Rescorer
from arena.search.az import puct
from arena.search.az.network import Network
from arena.search.az.planes import encode, encoding
from arena.search.az.puct_driver import CompiledPUCT, game_kernel

FORMAT = "arena-az-replay/1"
"""The replay buffer file's format tag."""


@dataclass(frozen=True)
class SelfPlay:
    """How self-play games are searched (AlphaZero's values where it gave them)."""

    simulations: int = 200
    c_puct: float = 1.5
    noise: float = 0.25
    """The weight of the Dirichlet noise on each root's priors."""
    alpha: float = 0.3
    """The noise's concentration (AlphaZero: 0.3 chess, 0.03 Go; ~10 / legal moves)."""
    temperature_moves: int = 8
    """Plies whose move is drawn by visits (temperature 1); the most visited after them."""
    batch: int = 1
    """Leaves evaluated per network call (virtual loss, :func:`arena.search.az.puct.run`)."""


@dataclass(frozen=True)
class Records:
    """Training records: one row per position."""

    planes: np.ndarray
    policy: np.ndarray
    value: np.ndarray
    settled: int = 0
    """How many of the value targets are the exact solver's (:mod:`arena.learn.rescore`)."""

    def __len__(self) -> int:
        return int(self.value.shape[0])


def play_game(
    game: Game,
    evaluate: puct.Evaluator | CompiledPUCT,
    options: SelfPlay,
    rng: np.random.Generator,
    rescorer: Rescorer | None = None,
) -> Records:
    """One self-play game from the initial position: its records, in the order played
    (searched by the compiled PUCT when ``evaluate`` is one, else by the readable search
    with that evaluator: the same game either way). With a ``rescorer``, the value
    targets of the positions it settles are their exact values."""
    enc = encoding(game)
    state = game.initial_state()
    engine = evaluate if isinstance(evaluate, CompiledPUCT) else None
    tree = engine.new_tree(state) if engine else puct.Tree(state)
    planes, policies, movers, states = [], [], [], []
    while not state.is_terminal():
        kept = engine.reroot(tree, state) if engine else puct.reroot(tree, state)  # type: ignore[arg-type]
        if not kept:
            tree = engine.new_tree(state) if engine else puct.Tree(state)
        noise = (options.noise, options.alpha, rng) if options.noise > 0 else None
        if engine:
            engine.run(tree, options.simulations, options.c_puct, noise=noise, batch=options.batch)  # type: ignore[arg-type]
        else:
            puct.run(
                tree, evaluate, options.simulations, options.c_puct, noise=noise,  # type: ignore[arg-type]
                batch=options.batch,
            )  # fmt: skip
        moves, visits = puct.visit_counts(tree)
        target = np.zeros(enc.actions, np.float32)
        target[list(moves)] = visits / visits.sum()
        planes.append(encode(state).astype(np.uint8))
        policies.append(target)
        movers.append(state.to_move)
        states.append(state)
        temperature = 1.0 if state.ply < options.temperature_moves else 0.0
        state = state.play(puct.choose_move(tree, temperature, rng))
    returns = state.returns()
    values = np.array([np.sign(returns[m]) for m in movers], np.float32)
    settled = 0
    if rescorer is not None:
        values, settled = rescorer.values(states, values)
    return Records(np.stack(planes), np.stack(policies), values, settled)


def play_games(
    spec: str,
    net: Network,
    options: SelfPlay,
    seeds: Sequence[int | Sequence[int]],
    rescore: Rescore | None = None,
) -> list[Records]:
    """One self-play game of ``net`` per seed, each from ``np.random.default_rng(seed)``:
    what a worker process plays (so a game's moves depend on its seed, not on which
    worker played it); with ``rescore`` on, the solver's values as targets."""
    game = load_game(spec)
    search: puct.Evaluator | CompiledPUCT
    search = CompiledPUCT(net, game) if game_kernel(game) else puct.net_evaluator(net)
    rescorer = Rescorer(game, rescore) if rescore is not None and rescore.on else None
    return [
        play_game(game, search, options, np.random.default_rng(seed), rescorer) for seed in seeds
    ]


class ReplayBuffer:
    """The most recent ``capacity`` records of a game's self-play, and how many games."""

    def __init__(self, game: Game, capacity: int = 100_000) -> None:
        enc = encoding(game)
        self.game = game.spec
        self.capacity = capacity
        self.planes = np.zeros((0, enc.channels, enc.rows, enc.cols), np.uint8)
        self.policy = np.zeros((0, enc.actions), np.float32)
        self.value = np.zeros(0, np.float32)
        self.games = 0

    def __len__(self) -> int:
        return int(self.value.shape[0])

    def add(self, records: Records) -> None:
        """Append one game's records, dropping the oldest past the capacity."""
        keep = -self.capacity
        self.planes = np.concatenate([self.planes, records.planes])[keep:]
        self.policy = np.concatenate([self.policy, records.policy])[keep:]
        self.value = np.concatenate([self.value, records.value])[keep:]
        self.games += 1

    def sample(self, size: int, rng: np.random.Generator) -> Records:
        """``size`` records drawn uniformly (with replacement): one training batch."""
        index = rng.integers(0, len(self), size)
        return Records(self.planes[index].astype(np.float32), self.policy[index], self.value[index])

    def save(self, path: str | Path) -> None:
        """Write the buffer (a temporary file renamed over ``path``: a kill leaves the old)."""
        path = Path(path)
        temporary = path.with_name(path.name + ".part.npz")
        np.savez(
            temporary, format=np.array(FORMAT), game=np.array(self.game), planes=self.planes,
            policy=self.policy, value=self.value, games=np.array(self.games),
        )  # fmt: skip
        os.replace(temporary, path)

    @classmethod
    def load(cls, path: str | Path, game: Game, capacity: int = 100_000) -> ReplayBuffer:
        """The buffer saved in ``path`` for ``game``, or a one-line :class:`SpecError`."""
        path = Path(path)
        if not path.is_file():
            raise SpecError(f"replay buffer {path}: no such file")
        try:
            with np.load(path, allow_pickle=False) as data:
                arrays = {k: data[k] for k in data.files}
        except (OSError, ValueError, EOFError, zipfile.BadZipFile) as exc:
            raise SpecError(f"replay buffer {path}: not a buffer file (.npz): {exc}") from None
        if str(arrays.get("format", "")) != FORMAT:
            raise SpecError(f"replay buffer {path}: not in format {FORMAT!r}")
        if str(arrays.get("game", "")) != game.spec:
            raise SpecError(f"replay buffer {path}: for {arrays.get('game')}, not {game.spec}")
        buffer = cls(game, capacity)
        try:
            planes, policy, value = arrays["planes"], arrays["policy"], arrays["value"]
            games = int(arrays["games"])
        except KeyError as exc:
            raise SpecError(f"replay buffer {path}: missing array {exc}") from None
        if (
            planes.shape[1:] != buffer.planes.shape[1:]
            or policy.shape[1:] != buffer.policy.shape[1:]
            or not planes.shape[0] == policy.shape[0] == value.shape[0]
        ):
            raise SpecError(f"replay buffer {path}: arrays of the wrong shape for {game.spec}")
        buffer.planes = planes.astype(np.uint8)[-capacity:]
        buffer.policy = policy.astype(np.float32)[-capacity:]
        buffer.value = value.astype(np.float32)[-capacity:]
        buffer.games = games
        return buffer

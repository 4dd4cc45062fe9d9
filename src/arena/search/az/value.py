"""A network's value head as the cut-off evaluation of the other searches: ``eval=net:FILE``.

``alphabeta``, ``ids``, ``minimax`` and ``greedy`` judge the positions at their horizon
with the ``eval=`` they are given: the game's hand-written ``heuristic``, the plain
``utility``, or ``net:FILE``, the value head of an ``az`` network (:mod:`.network`), so
the same search can be played with a learned evaluation and a hand-written one.

The value head answers for the player to move in [-1, 1]; the searches value positions
for the player to move on the heuristics' scale, [-SCALE, SCALE] (SCALE = 1000), below
every proven result (``WIN - plies``), so a value ``v`` becomes ``v * SCALE``. Finished
games never reach the network: the searches value them exactly. Each position is
evaluated once per game spec and agent (a table of evaluations by ``State.key()``,
cleared when it holds :data:`CACHE_LIMIT` of them), by the compiled forward pass
(:func:`arena.search.az.kernel.evaluate_batch`).

>>> import arena, tempfile, os
>>> from arena.search.az.network import random_network
>>> game = arena.load_game("tictactoe")
>>> path = os.path.join(tempfile.mkdtemp(), "ttt.npz")
>>> random_network(game, filters=4, blocks=0, seed=1).save(path)
>>> cutoff = cutoff_evaluation(f"net:{path}", "alphabeta")
>>> evaluate = cutoff.evaluation(game)
>>> -SCALE <= evaluate(game.initial_state()) <= SCALE
True
>>> cutoff_evaluation("net:missing.npz", "ids")
Traceback (most recent call last):
...
arena.core.errors.SpecError: ids: eval=net:missing.npz: no such file

Tests: tests/search/test_net_eval.py
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import import_module

import numpy as np

from arena.core.errors import SpecError
from arena.core.evaluation import SCALE
from arena.core.game import Game, State
from arena.games import load_game
from arena.search.az.network import Network, load
from arena.search.az.planes import encode, encoding
from arena.search.values import NET, PROVEN_NOTE, Evaluate, Units, eval_kind, evaluation, units

CACHE_LIMIT = 1 << 20
"""Evaluations kept per game before the table starts afresh (memory, not strength)."""

NET_UNITS = Units(
    "",
    f"value: the value network's estimate for the player to move times {SCALE:g}, "
    f"-{SCALE:g} (sure loss) to +{SCALE:g} (sure win), 0 even; {PROVEN_NOTE}",
)
"""What the values of a search with ``eval=net:`` mean."""


class NetValue:
    """``state -> value`` for the player to move, ``value_head * SCALE``, remembered by
    ``state.key()``. Built for one game, which the network must fit."""

    def __init__(self, network: Network, game: Game, owner: str) -> None:
        try:
            network.check(game)
        except SpecError as exc:
            raise SpecError(f"{owner}: eval=net: {network_problem(str(exc))}") from None
        self.arrays = network.arrays()
        # The compiled forward pass, imported here, not at the top: alpha-beta, ids and
        # greedy import this module, and every command that loads the agents (``arena
        # replay`` of 30,000 games among them) would otherwise load numba (+70 MB).
        self.forward = import_module("arena.search.az.kernel").evaluate_batch
        enc = encoding(game)
        self.planes = np.zeros((1, enc.channels, enc.rows, enc.cols), np.float32)
        self.values: dict[int, float] = {}
        self.calls = 0
        """Forward passes run (evaluations not found in the table)."""

    def __call__(self, state: State) -> float:
        key = state.key()
        value = self.values.get(key)
        if value is None:
            if len(self.values) >= CACHE_LIMIT:
                self.values.clear()
            encode(state, self.planes[0])
            _, head = self.forward(self.arrays, self.planes)
            self.calls += 1
            value = self.values[key] = float(head[0]) * SCALE
        return value


@dataclass
class CutoffEvaluation:
    """An agent's ``eval=``: its kind and, for ``net:FILE``, the network loaded from the
    file (checked when the agent is made) and one :class:`NetValue` per game."""

    kind: str
    owner: str
    network: Network | None = None
    _by_game: dict[str, NetValue] = field(default_factory=dict)

    @property
    def path(self) -> str | None:
        """The network file of ``eval=net:FILE`` (None for the hand-written kinds)."""
        return self.kind[len(NET) :] if self.kind.startswith(NET) else None

    def evaluation(self, game: Game, warm: bool = False) -> Evaluate:
        """The cut-off evaluation for ``game`` (a one-line SpecError when the network is
        for another game)."""
        if self.network is None:
            return evaluation(game, self.kind, warm=warm)
        net_value = self._by_game.get(game.spec)
        if net_value is None:
            net_value = self._by_game[game.spec] = NetValue(self.network, game, self.owner)
            if warm:
                net_value(game.initial_state())
        return net_value

    def units(self, game: Game) -> Units:
        """What the search's values mean with this evaluation."""
        return NET_UNITS if self.network is not None else units(game, self.kind)


def cutoff_evaluation(kind: str, owner: str) -> CutoffEvaluation:
    """The checked ``eval=`` of agent ``owner``: for ``net:FILE`` the file is read now,
    so a missing file, a file that is not a network or a network for a game without an
    encoding is a one-line SpecError when the agent is made; the forward pass is
    compiled (or loaded from numba's cache) here too, off any clock."""
    kind = eval_kind(kind)
    if not kind.startswith(NET):
        return CutoffEvaluation(kind, owner)
    path = kind[len(NET) :]
    try:
        network = load(path)
        game = load_game(network.game)
    except SpecError as exc:
        raise SpecError(f"{owner}: eval=net:{path}: {network_problem(str(exc))}") from None
    cutoff = CutoffEvaluation(kind, owner, network)
    cutoff.evaluation(game, warm=True)  # its own game: checks the shapes, compiles
    return cutoff


def network_problem(message: str) -> str:
    """A message of :mod:`.network` without its ``az: net=FILE:`` prefix (the caller says
    whose ``eval=`` it is).

    >>> network_problem("az: net=x.npz: no such file")
    'no such file'
    >>> network_problem("az: the network is for a, not b")
    'the network is for a, not b'
    """
    if message.startswith("az: net="):
        return message.partition(": ")[2].partition(": ")[2] or message
    return message.removeprefix("az: ")

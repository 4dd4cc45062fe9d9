"""The games arena knows, by spec name, and what search may know about each.

Every game is a folder, ``arena/games/<name>/``: ``rules.py`` (the State API,
the readable reference of the rules) and ``heuristic.py`` (evaluation and
rollout hints for search). Modules are imported on first use, so loading one
game does not import all six.

>>> load_game("othello:size=6").spec
'othello:size=6'
>>> load_game("chess")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
arena.core.errors.SpecError: unknown game 'chess'; valid: tictactoe, connect4, othello, ...
>>> k = knowledge(load_game("connect4"))
>>> k.evaluate(load_game("connect4").initial_state())
0.0
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import import_module

from arena.core.errors import SpecError, excerpt
from arena.core.evaluation import Evaluate
from arena.core.game import Game, State
from arena.core.kernel import Kernel
from arena.core.spec import split_spec

_WHERE = {
    "tictactoe": "TicTacToe",
    "connect4": "ConnectFour",
    "othello": "Othello",
    "gomoku": "Gomoku",
    "go": "Go",
    "colosseum": "Colosseum",
}

NAMES: tuple[str, ...] = tuple(_WHERE)


def game_class(name: str) -> type[Game]:
    """The Game subclass registered as ``name`` (KeyError when unknown)."""
    return getattr(import_module(f"arena.games.{name}.rules"), _WHERE[name])  # type: ignore[no-any-return]


def all_games() -> dict[str, type[Game]]:
    return {name: game_class(name) for name in NAMES}


def load_game(spec: str | Game) -> Game:
    """The game a spec string names: ``name[:key=value,...]``."""
    if isinstance(spec, Game):
        return spec
    name, raw = split_spec(spec)
    if name not in NAMES:
        raise SpecError(f"unknown game {excerpt(name)!r}; valid: {', '.join(NAMES)}")
    return game_class(name)(**raw)


@dataclass(frozen=True)
class Knowledge:
    """What a game's ``heuristic`` module gives search.

    ``evaluate(state) -> float``
        How good the (non-terminal) position is for the FIRST player (player 0),
        within ``[-SCALE, SCALE]``. Search agents score terminal states
        themselves, as wins and losses worth more than any evaluation.
    ``immediate_wins(state, player) -> list[int]``
        The moves that would win the game at once for ``player`` if it were
        ``player``'s turn (used to take wins and block losses in rollouts).
    ``candidates(state, moves) -> tuple[int, ...]``
        A subset of ``moves`` worth sampling in smart rollouts (never empty when
        ``moves`` is not): e.g. cells near stones in Gomoku and Go, or moves that
        do not wall yourself in at Colosseum.
    ``margin_per_value(game) -> float``
        For an evaluation that is an estimated score margin (Go: points), the
        margin one unit of evaluation stands for, so reports can show the
        estimate in the game's units (absent: the evaluation has no unit).
    ``search_komi(state) -> float``
        For a game with a komi (Go), the komi a search should count at this
        position (``mcts:dynkomi=1``: a handicap counted back early on).
    """

    evaluate: Evaluate
    immediate_wins: Callable[[State, int], Sequence[int]] | None = None
    candidates: Callable[[State, tuple[int, ...]], tuple[int, ...]] | None = None
    margin_per_value: Callable[[Game], float] | None = None
    search_komi: Callable[[State], float] | None = None


def load_kernel(game: Game) -> Kernel | None:
    """The compiled kernel of ``game`` (``arena/games/<name>/kernel.py``), or None for a
    game without one. Imports numba; the kernel's functions compile on first call.

    >>> load_kernel(load_game("connect4")).max_moves
    7
    """
    try:
        module = import_module(f"arena.games.{game.name}.kernel")
    except ModuleNotFoundError as error:
        if error.name != f"arena.games.{game.name}.kernel":
            raise
        return None
    return module.kernel(game)  # type: ignore[no-any-return]


def preload() -> None:
    """Import every game's heuristic now, so no search pays for an import on its clock."""
    for name in NAMES:
        import_module(f"arena.games.{name}.heuristic")


def knowledge(game: Game) -> Knowledge:
    """What the heuristic module of ``game`` provides."""
    module = import_module(f"arena.games.{game.name}.heuristic")
    return Knowledge(
        evaluate=module.evaluate,
        immediate_wins=getattr(module, "immediate_wins", None),
        candidates=getattr(module, "candidates", None),
        margin_per_value=getattr(module, "margin_per_value", None),
        search_komi=getattr(module, "search_komi", None),
    )

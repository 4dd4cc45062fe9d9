"""Starting positions for fair comparisons: each is played twice, colours swapped.

``random:plies=4`` draws openings of four random legal moves, keeping only
those that are not over and that the game's heuristic does not already judge
lopsided (within a tenth of its scale), so neither colour starts won.
``random:plies=4,judge=4`` judges each candidate by a search instead: ``ids`` on one
thread to depth 4 (:class:`SearchJudge`), a fixed depth and never a clock, so the
openings are the same on every machine and under any load. A static heuristic cannot
see that a position is a win for the side to move a few moves on (freestyle Gomoku
after four scattered stones, docs/matches.md); a search can.
A FILE holds one opening per line in the game's notation (``#`` comments).

>>> import arena
>>> book = Openings.parse("random:plies=2", arena.load_game("connect4"))
>>> [len(book.get(i)) for i in range(3)]
[2, 2, 2]
>>> book.get(0) == Openings.parse("random:plies=2", arena.load_game("connect4")).get(0)
True
>>> book.spec, book == Openings.parse(book.spec, arena.load_game("connect4"))
('random:plies=2', True)

Tests: tests/compete/test_openings.py, tests/compete/test_match.py,
tests/compete/test_tournament.py
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from random import Random
from typing import Any

from arena.agents.registry import load_agent
from arena.core.agent import Agent
from arena.core.errors import ArenaError, SpecError, excerpt, read_text
from arena.core.evaluation import SCALE
from arena.core.game import Game, State
from arena.core.limit import Limit
from arena.core.spec import Param, bind_params, format_spec, split_spec
from arena.games import knowledge
from arena.search.values import is_proven

_RANDOM_PARAMS = (
    Param("plies", int, 4, "random moves per opening", low=1, high=200),
    Param("seed", int, 0, "seed of the draw"),
    Param(
        "balance",
        float,
        0.1,
        "largest |value| / scale kept, by the heuristic or the judge (1 = keep all)",
        low=0.0,
        high=1.0,
    ),
    Param(
        "judge",
        int,
        0,
        "0: the heuristic judges each candidate; D: a depth-D search (ids, one thread)",
        low=0,
        high=20,
    ),
)

DRAWS = 200
"""Candidates tried per opening before the most balanced one found is taken."""

JUDGED = 32
"""Candidates a search judges per opening (each costs a search): when none of them is
within the bound, the most balanced of them is taken. At ``judge=4,balance=0.005`` on
Gomoku one candidate in five passes (235 judged for 50 openings, 3 s of one core), so
the cap is rarely reached; on Go 5x5 at ``judge=2`` none is within 0.1 for some."""


class SearchJudge:
    """How lopsided a position is by a fixed-depth search: ``|value| / SCALE`` of
    ``ids`` on one thread searching ``depth`` plies (the game's compiled engine where
    it has one, the readable alpha-beta elsewhere), ``inf`` for a proven win or loss.

    The search has a depth and no clock, and keeps its table from one judged position
    to the next (a fresh table for each would cost Othello's engine 0.6 s), so the
    values depend on the positions judged before in the same order: an
    :class:`Openings` draws in order with one judge of its own, the same on every machine.

    >>> import arena
    >>> game = arena.load_game("tictactoe")
    >>> judge = SearchJudge(game, 9)
    >>> judge.lopsided(game.initial_state())   # a draw, found by searching to the end
    0.0
    >>> judge.lopsided(game.play_moves(game.parse_moves("b2 b1")))   # X wins (O took an edge)
    inf
    """

    def __init__(self, game: Game, depth: int) -> None:
        self.depth = depth
        self.agent: Agent = load_agent("ids:threads=1,exact=0")
        self.agent.reset(game)  # its compiled engine built (or loaded) once

    def lopsided(self, state: State) -> float:
        """``|value| / SCALE`` of the search from ``state`` (for the player to move)."""
        # A forced move is searched to no depth (Othello's engine plays it at once):
        # judge the position after it, where there is a choice.
        while not state.is_terminal() and len(state.legal_moves()) == 1:
            state = state.play(state.legal_moves()[0])
        if state.is_terminal():
            return 0.0 if not any(state.returns()) else float("inf")
        self.agent.choose(state, Limit(depth=self.depth))
        value = self.agent.last_search.value if self.agent.last_search else None
        if value is None:
            raise ArenaError(f"openings: the judge's search of {state.game.spec} gave no value")
        return float("inf") if is_proven(value) else abs(value) / SCALE


@dataclass(frozen=True)
class Openings:
    """A deterministic, indexable sequence of openings (move lists).

    ``spec`` is its canonical text: ``random:...`` with the parameters that differ
    from their defaults, or the file's path as given (what a results database stores).
    """

    game: Game
    spec: str = "none"
    fixed: tuple[tuple[int, ...], ...] = ()
    plies: int = 0
    seed: int = 0
    balance: float = 1.0
    judge: int = 0
    """Depth of the search that judges candidates (0: the game's heuristic judges)."""
    _drawn: dict[int, tuple[int, ...]] = field(
        default_factory=dict, compare=False, hash=False, repr=False
    )
    """Openings drawn so far (a cache: each is drawn once, in order)."""
    _values: dict[int, float] = field(default_factory=dict, compare=False, hash=False, repr=False)
    """How lopsided each drawn opening was judged (``|value| / SCALE``)."""
    _judges: list[SearchJudge] = field(default_factory=list, compare=False, hash=False, repr=False)
    """The search judge, built on the first draw that needs it."""

    @classmethod
    def none(cls, game: Game) -> Openings:
        return cls(game)

    @classmethod
    def random(cls, game: Game, **params: Any) -> Openings:
        """Random balanced openings: ``plies``, ``seed``, ``balance`` and ``judge`` as in
        ``random:...``."""
        p = bind_params("openings random", _RANDOM_PARAMS, params)
        return cls(
            game,
            spec=format_spec("random", p, _RANDOM_PARAMS),
            plies=p["plies"],
            seed=p["seed"],
            balance=p["balance"],
            judge=p["judge"],
        )

    @classmethod
    def line(cls, game: Game, moves: Sequence[int]) -> Openings:
        """Every game starts after ``moves`` (``--moves``, ``--sgf``): spec ``moves:4 4 5 3``.

        >>> import arena
        >>> game = arena.load_game("connect4")
        >>> book = Openings.line(game, game.parse_moves("4453"))
        >>> book.spec, book.get(0) == book.get(1) == (3, 3, 4, 2)
        ('moves:4 4 5 3', True)
        >>> Openings.parse(book.spec, game) == book
        True
        """
        game.play_moves(moves)  # raises IllegalMove for a line that cannot be played
        text = " ".join(game.format_move(m) for m in moves)
        return cls(game, spec=f"moves:{text}", fixed=(tuple(moves),))

    @classmethod
    def parse(cls, text: str, game: Game) -> Openings:
        """``random[:plies=N,seed=S,balance=B,judge=D]``, ``moves:MOVES`` or the path of a
        file of openings."""
        if text.strip().lower().startswith("moves:"):
            return cls.line(game, game.parse_moves(text.strip()[len("moves:") :]))
        if text.strip().lower().startswith("random"):
            name, raw = split_spec(text)
            if name != "random":
                raise SpecError(
                    f"openings {excerpt(text)!r}: expected random:plies=N[,judge=D] or a file"
                )
            return cls.random(game, **raw)
        path = Path(text)
        if not path.is_file():
            raise ArenaError(f"openings {excerpt(text)!r}: no such file (or use random:plies=N)")
        lines = read_text(path).splitlines()
        fixed = []
        for number, line in enumerate(lines, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            try:
                moves = game.parse_moves(line)
                game.play_moves(moves)
            except ArenaError as exc:
                raise ArenaError(f"{path}:{number}: {exc}") from None
            fixed.append(tuple(moves))
        if not fixed:
            raise ArenaError(f"{path}: no openings in the file")
        return cls(game, spec=text, fixed=tuple(fixed))

    def get(self, index: int) -> tuple[int, ...]:
        """Opening number ``index`` (files repeat from the start when exhausted)."""
        if self.fixed:
            return self.fixed[index % len(self.fixed)]
        if not self.plies:
            return ()
        # Draw in order, so each opening can avoid the ones before it (and a search
        # judge sees the same positions in the same order).
        for i in range(len(self._drawn), index + 1):
            self._drawn[i], self._values[i] = self._draw(i, set(self._drawn.values()))
        return self._drawn[index]

    def judged(self, index: int) -> float:
        """How lopsided opening ``index`` was judged when drawn: ``|value| / SCALE`` by
        the heuristic or the search judge (``inf``: a proven result), within ``balance``
        unless no candidate was.

        >>> import arena
        >>> book = Openings.parse("random:plies=2,judge=2", arena.load_game("connect4"))
        >>> book.judged(0) <= book.balance
        True
        """
        self.get(index)
        return self._values[index]

    def _lopsided(self) -> tuple[Callable[[State], float], int]:
        """How a candidate is judged, and how many candidates may be judged per opening."""
        if not self.judge:
            evaluate = knowledge(self.game).evaluate
            return (lambda state: abs(evaluate(state)) / SCALE), DRAWS
        if not self._judges:
            self._judges.append(SearchJudge(self.game, self.judge))
        return self._judges[0].lopsided, JUDGED

    def _draw(self, index: int, taken: set[tuple[int, ...]]) -> tuple[tuple[int, ...], float]:
        """A balanced opening not in ``taken`` (a repeat only when none other is found),
        with how lopsided it was judged."""
        lopsided, budget = self._lopsided()
        rng = Random(f"{self.game.spec}/{self.seed}/{index}")
        best: tuple[float, tuple[int, ...]] | None = None
        judged = 0
        for _ in range(DRAWS):
            state = self.game.initial_state(index)
            moves = []
            for _ in range(self.plies):
                if state.is_terminal():
                    break
                moves.append(rng.choice(state.legal_moves()))
                state = state.play(moves[-1])
            if state.is_terminal() or tuple(moves) in taken:
                continue
            value = lopsided(state)
            if value <= self.balance:
                return tuple(moves), value
            if best is None or value < best[0]:
                best = (value, tuple(moves))
            judged += 1
            if judged >= budget:
                break
        if best is None:
            if taken:  # every opening of this length is used: repeat the first
                first = min(taken)
                return first, lopsided(self.game.play_moves(first, self.game.initial_state(index)))
            raise ArenaError(f"no opening of {self.plies} plies leaves the game open")
        return best[1], best[0]  # the most balanced one found

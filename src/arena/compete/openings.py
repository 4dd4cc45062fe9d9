"""Starting positions for fair comparisons: each is played twice, colours swapped.

``random:plies=4`` draws openings of four random legal moves, keeping only
those that are not over and that the game's heuristic does not already judge
lopsided (within a tenth of its scale), so neither colour starts won.
A FILE holds one opening per line in the game's notation (``#`` comments).

>>> import arena
>>> book = Openings.parse("random:plies=2", arena.load_game("connect4"))
>>> [len(book.get(i)) for i in range(3)]
[2, 2, 2]
>>> book.get(0) == Openings.parse("random:plies=2", arena.load_game("connect4")).get(0)
True
>>> book.spec, book == Openings.parse(book.spec, arena.load_game("connect4"))
('random:plies=2', True)

Tests: tests/compete/test_match.py, tests/compete/test_tournament.py
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from random import Random
from typing import Any

from arena.core.errors import ArenaError, SpecError, excerpt, read_text
from arena.core.evaluation import SCALE
from arena.core.game import Game
from arena.core.spec import Param, bind_params, format_spec, split_spec
from arena.games import knowledge

_RANDOM_PARAMS = (
    Param("plies", int, 4, "random moves per opening", low=1, high=200),
    Param("seed", int, 0, "seed of the draw"),
    Param(
        "balance", float, 0.1, "largest |heuristic| / scale kept (1 = keep all)", low=0.0, high=1.0
    ),
)


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
    _drawn: dict[int, tuple[int, ...]] = field(
        default_factory=dict, compare=False, hash=False, repr=False
    )
    """Openings drawn so far (a cache: each is drawn once, in order)."""

    @classmethod
    def none(cls, game: Game) -> Openings:
        return cls(game)

    @classmethod
    def random(cls, game: Game, **params: Any) -> Openings:
        """Random balanced openings: ``plies``, ``seed`` and ``balance`` as in ``random:...``."""
        p = bind_params("openings random", _RANDOM_PARAMS, params)
        return cls(
            game,
            spec=format_spec("random", p, _RANDOM_PARAMS),
            plies=p["plies"],
            seed=p["seed"],
            balance=p["balance"],
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
        """``random[:plies=N,seed=S,balance=B]``, ``moves:MOVES`` or the path of a file of
        openings."""
        if text.strip().lower().startswith("moves:"):
            return cls.line(game, game.parse_moves(text.strip()[len("moves:") :]))
        if text.strip().lower().startswith("random"):
            name, raw = split_spec(text)
            if name != "random":
                raise SpecError(f"openings {excerpt(text)!r}: expected random:plies=N or a file")
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
        # Draw in order, so each opening can avoid the ones before it.
        for i in range(len(self._drawn), index + 1):
            self._drawn[i] = self._draw(i, set(self._drawn.values()))
        return self._drawn[index]

    def _draw(self, index: int, taken: set[tuple[int, ...]]) -> tuple[int, ...]:
        """A balanced opening not in ``taken`` (a repeat only when none other is found)."""
        evaluate = knowledge(self.game).evaluate
        rng = Random(f"{self.game.spec}/{self.seed}/{index}")
        best: tuple[float, tuple[int, ...]] | None = None
        for _ in range(200):
            state = self.game.initial_state(index)
            moves = []
            for _ in range(self.plies):
                if state.is_terminal():
                    break
                moves.append(rng.choice(state.legal_moves()))
                state = state.play(moves[-1])
            if state.is_terminal() or tuple(moves) in taken:
                continue
            lopsided = abs(evaluate(state)) / SCALE
            if lopsided <= self.balance:
                return tuple(moves)
            if best is None or lopsided < best[0]:
                best = (lopsided, tuple(moves))
        if best is None:
            if taken:  # every opening of this length is used: repeat the first
                return min(taken)
            raise ArenaError(f"no opening of {self.plies} plies leaves the game open")
        return best[1]  # the most balanced one found

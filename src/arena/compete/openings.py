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

Tests: tests/compete/test_match.py, tests/compete/test_tournament.py
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

from arena.core.errors import ArenaError, SpecError
from arena.core.evaluation import SCALE
from arena.core.game import Game
from arena.core.spec import Param, bind_params, split_spec
from arena.games import knowledge

_RANDOM_PARAMS = (
    Param("plies", int, 4, "random moves per opening", low=1, high=200),
    Param("seed", int, 0, "seed of the draw"),
    Param(
        "balance", float, 0.1, "largest |heuristic| / scale kept (1 = keep all)", low=0.0, high=1.0
    ),
)


@dataclass
class Openings:
    """A deterministic, indexable sequence of openings (move lists)."""

    game: Game
    fixed: list[tuple[int, ...]] = field(default_factory=list)
    plies: int = 0
    seed: int = 0
    balance: float = 1.0
    description: str = "none"
    _drawn: dict[int, tuple[int, ...]] = field(default_factory=dict)

    @classmethod
    def none(cls, game: Game) -> Openings:
        return cls(game)

    @classmethod
    def parse(cls, text: str, game: Game) -> Openings:
        """``random:plies=N[,seed=S][,balance=B]`` or the path of a file of openings."""
        if text.strip().lower().startswith("random"):
            name, raw = split_spec(text)
            if name != "random":
                raise SpecError(f"openings {text!r}: expected random:plies=N or a file")
            p = bind_params("openings random", _RANDOM_PARAMS, raw)
            return cls(
                game,
                plies=p["plies"],
                seed=p["seed"],
                balance=p["balance"],
                description=f"random:plies={p['plies']},seed={p['seed']}",
            )
        path = Path(text)
        if not path.is_file():
            raise ArenaError(f"openings {text!r}: no such file (or use random:plies=N)")
        fixed = []
        for number, line in enumerate(path.read_text().splitlines(), 1):
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
        return cls(game, fixed=fixed, description=f"file {path.name} ({len(fixed)} openings)")

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
        rng = random.Random(f"{self.game.spec}/{self.seed}/{index}")
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

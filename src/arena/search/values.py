"""How search agents value positions.

Values are from the point of view of the player to move (negamax). A won
game is worth ``WIN`` minus the plies it takes, so every win outranks every
evaluation (those lie within ``heuristics.SCALE``) and a faster win outranks
a slower one; a lost game is the negation; a draw is 0.

Tests: tests/search/test_search.py
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from arena.core.errors import SpecError
from arena.core.evaluation import SCALE, utility
from arena.core.game import Game, State
from arena.core.spec import Param
from arena.games import knowledge, preload

preload()  # search agents import this module: load the heuristics before any clock runs

WIN = 1_000_000.0
PROVEN = WIN - 10_000.0
"""Values beyond +-PROVEN are game results found by search, not estimates."""

Evaluate = Callable[[State], float]

NET = "net:"
"""The prefix of an ``eval=`` value that names a value network's file."""

WRITTEN_EVALUATIONS = ("heuristic", "utility")
"""The ``eval=`` kinds written by hand (the other is ``net:FILE``, a learned one)."""


def eval_kind(raw: object) -> str:
    """The ``eval=`` parameter checked: ``heuristic`` and ``utility`` lower-cased,
    ``net:FILE`` with the path as written (paths are case-sensitive).

    >>> eval_kind("Heuristic"), eval_kind("net:Nets/C4.npz")
    ('heuristic', 'net:Nets/C4.npz')
    >>> eval_kind("nets")
    Traceback (most recent call last):
    ...
    arena.core.errors.SpecError: eval=nets is not one of heuristic|utility|net:FILE
    """
    text = str(raw).strip()
    lowered = text.lower()
    if lowered in WRITTEN_EVALUATIONS:
        return lowered
    if lowered.startswith(NET) and text[len(NET) :].strip():
        return NET + text[len(NET) :].strip()
    raise SpecError(f"eval={text} is not one of heuristic|utility|net:FILE")


# What `Param.describe` shows as the parameter's domain (`arena agents`).
eval_kind.__name__ = "heuristic|utility|net:FILE"

EVAL_PARAM = Param(
    "eval",
    eval_kind,
    "heuristic",
    "how positions are judged at the cut-off: the game's hand-written heuristic, the "
    "plain utility (score margin), or net:FILE, the value head of an az network "
    "(docs/az.md)",
)
"""The ``eval`` parameter every depth-limited agent takes."""


def terminal_value(state: State, ply: int) -> float:
    """Value of a finished game for the player to move, ``ply`` plies below the root."""
    mine = state.returns()[state.to_move]
    return 0.0 if mine == 0 else mine * (WIN - ply)


def evaluation(game: Game, kind: str, warm: bool = False) -> Evaluate:
    """The cut-off evaluation for the player to move: ``heuristic`` or ``utility``.

    ``utility`` is the game's plain score margin (disc difference in Othello);
    games without a margin evaluate every unfinished position as 0.
    """
    if kind == "utility":
        base = utility
    elif kind == "heuristic":
        base = knowledge(game).evaluate
    else:
        raise SpecError(f"eval={kind} is not one of heuristic|utility")

    def for_mover(state: State) -> float:
        value = base(state)
        return value if state.to_move == 0 else -value

    if warm:
        # Evaluations build per-game tables on first use; do it now, off any clock.
        start = game.initial_state()
        for_mover(start.play(start.legal_moves()[0]) if not start.is_terminal() else start)
    return for_mover


def is_proven(value: float) -> bool:
    return abs(value) >= PROVEN


PROVEN_NOTE = "win/loss in N: a forced result N plies (moves of either side) ahead"


@dataclass(frozen=True)
class Units:
    """What a search's values mean to a person: the unit a value is shown in and one
    line that explains it (reports print the line above or below their table).

    ``convert`` turns a search value (within ``[-SCALE, SCALE]``) into the unit;
    without it values are shown as they are, in heuristic units.

    >>> DISC_MARGIN.text(12.0), HEURISTIC_UNITS.text(46.8), HEURISTIC_UNITS.text(WIN - 5)
    ('+12.0 discs', '+46.8', 'win in 5')
    """

    name: str
    """The unit: ``discs``, ``points``, or ``""`` for heuristic units."""
    note: str
    """One line for people: what the values are, for whom, and their range."""
    convert: Callable[[float], float] | None = None

    def text(self, value: float) -> str:
        """``value`` for people: ``win in 3``, ``loss in 2``, ``+11.7 discs`` or ``+46.8``."""
        if value >= PROVEN:
            return f"win in {int(WIN - value)}"
        if value <= -PROVEN:
            return f"loss in {int(WIN + value)}"
        shown = value if self.convert is None else self.convert(value)
        suffix = f" {self.name}" if self.name else ""
        return f"{shown + 0.0:+.1f}{suffix}"  # + 0.0 turns -0.0 into 0.0


HEURISTIC_UNITS = Units(
    "",
    f"value: the heuristic evaluation for the player to move, -{SCALE:g} (sure loss) to "
    f"+{SCALE:g} (sure win), 0 even; {PROVEN_NOTE}",
)
"""Evaluations without a unit of the game's own."""
DISC_MARGIN = Units(
    "discs",
    "value: the disc difference for the player to move (their discs minus the other's); "
    + PROVEN_NOTE,
)
POINT_MARGIN = Units(
    "points", f"value: the score margin in points for the player to move; {PROVEN_NOTE}"
)
RESULT_ONLY = Units(
    "", f"value: eval=utility sees only finished games, so 0 until a result is found; {PROVEN_NOTE}"
)
MARGINS = {"othello": DISC_MARGIN}
"""Games whose score (``State.score``) has a name other than points."""


def units(game: Game, kind: str = "heuristic") -> Units:
    """The units of the ``kind`` evaluation (``heuristic`` or ``utility``) of ``game``.

    Heuristic evaluations are squashed into ``[-SCALE, SCALE]`` and have no unit of
    the game's (engines with a calibrated evaluation report their own, as the Othello
    engine does discs); ``utility`` is the score margin where the game has one.

    >>> import arena
    >>> units(arena.load_game("othello"), "utility").name
    'discs'
    >>> units(arena.load_game("connect4"), "utility") is RESULT_ONLY
    True
    >>> units(arena.load_game("go:size=9,komi=7.5")).text(100.0)   # a 8.85-point lead
    '+8.8 points'
    >>> units(arena.load_game("connect4")).name   # heuristic units, explained in a line
    ''
    """
    if kind != "utility":
        per_value = knowledge(game).margin_per_value
        if per_value is None:
            return HEURISTIC_UNITS
        scale = per_value(game)
        return Units(
            "points",
            "value: the score margin in points the evaluation estimates for the player to move "
            f"(as the game counts it, komi included); {PROVEN_NOTE}",
            lambda value: value * scale,
        )
    if game.initial_state().score() is None:
        return RESULT_ONLY
    return MARGINS.get(game.name, POINT_MARGIN)


def describe(value: float, unit: Units = HEURISTIC_UNITS) -> str:
    """A value for people: ``win in 3``, ``loss in 2``, or the number (in ``unit``)."""
    return unit.text(value)


__all__ = [
    "DISC_MARGIN",
    "EVAL_PARAM",
    "HEURISTIC_UNITS",
    "NET",
    "POINT_MARGIN",
    "PROVEN",
    "PROVEN_NOTE",
    "RESULT_ONLY",
    "SCALE",
    "WIN",
    "WRITTEN_EVALUATIONS",
    "Units",
    "describe",
    "eval_kind",
    "evaluation",
    "is_proven",
    "terminal_value",
    "units",
]

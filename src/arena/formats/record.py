"""``GameRecord``: everything about one finished game, as one JSON line.

>>> r = GameRecord(game="tictactoe", players=("random", "greedy"), moves=["b2", "a1"],
...                seconds=[0.001, 0.002], returns=(0, 0), reason="normal")
>>> GameRecord.from_json(r.to_json()) == r
True

Tests: tests/cli/test_replay.py, tests/formats/test_sgf.py
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

REASONS = ("normal", "time", "illegal", "crash", "resign", "adjudication")
"""How a game ended: by the rules, or by a forfeit (time, illegal move, crash),
a resignation, or adjudication by score at the ply cap."""


@dataclass
class GameRecord:
    game: str
    """The game's spec."""
    players: tuple[str, str]
    """Agent specs: ``players[0]`` moved first."""
    moves: list[str] = field(default_factory=list)
    """Every move in notation, the opening's included."""
    seconds: list[float] = field(default_factory=list)
    """Time used per move (0 for opening moves)."""
    returns: tuple[int, int] = (0, 0)
    reason: str = "normal"
    loser: int | None = None
    """The player who forfeited or resigned (for those reasons)."""
    detail: str = ""
    """What went wrong, for forfeits: the exception, the illegal move, the overrun."""
    opening_plies: int = 0
    seed: int | None = None
    """Seed of the initial position (games with random set-ups)."""
    nodes: list[int | None] = field(default_factory=list)
    """Nodes or simulations each move searched (None for agents that do not say)."""
    game_id: str = ""
    score: float | None = None
    """The game's margin for the first player at the end, where it has one."""

    def __post_init__(self) -> None:
        self.players = tuple(self.players)  # type: ignore[assignment]
        self.returns = tuple(self.returns)  # type: ignore[assignment]

    @property
    def winner(self) -> int | None:
        r0 = self.returns[0]
        return 0 if r0 > 0 else 1 if r0 < 0 else None

    def to_json(self) -> str:
        return json.dumps(asdict(self), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        data: dict[str, Any] = json.loads(text)
        return cls(**data)

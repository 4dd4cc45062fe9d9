"""From finished games to standings: results, Elo with error bars, forfeits and timing.

Tests: tests/compete/test_tournament.py, tests/stats/test_tally.py
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from arena.core.errors import ArenaError
from arena.formats.record import GameRecord
from arena.games import load_game
from arena.stats.ratings import PRIOR_DRAWS, fit
from arena.stats.tally import Tally


@dataclass
class AgentLine:
    name: str
    tally: Tally = field(default_factory=Tally)
    forfeits: dict[str, int] = field(default_factory=dict)
    """Games this agent lost by a forfeit, by reason."""
    move_seconds: list[float] = field(default_factory=list)
    move_nodes: list[int] = field(default_factory=list)
    elo: float | None = None
    elo_low: float | None = None
    elo_high: float | None = None

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "wins": self.tally.wins,
            "draws": self.tally.draws,
            "losses": self.tally.losses,
            "forfeits": dict(self.forfeits),
            "points": self.tally.points,
            "score": round(self.tally.score, 4),
            "mean_move_seconds": round(_mean(self.move_seconds), 4),
            "max_move_seconds": round(max(self.move_seconds, default=0.0), 4),
            "mean_nodes_per_move": round(_mean(self.move_nodes), 1) if self.move_nodes else None,
        }
        if self.elo is not None:
            out["elo"] = _finite(self.elo)
            out["elo_95"] = [_finite(self.elo_low), _finite(self.elo_high)]
        return out


def _mean(values: list[float] | list[int]) -> float:
    return sum(values) / len(values) if values else 0.0


def _finite(x: float | None) -> float | str | None:
    if x is None:
        return None
    return round(x, 1) if math.isfinite(x) else ("inf" if x > 0 else "-inf")


@dataclass
class Standings:
    agents: dict[str, AgentLine]
    head_to_head: dict[str, dict[str, list[float]]]
    """``head_to_head[row][column] == [points, games]`` of row against column."""
    games: int
    anchor: str | None = None
    """The agent rated 0, or None when 0 is the average of all the agents."""

    @property
    def elo_method(self) -> str:
        """How the Elo column was made and what 0 means, in one line under the table."""
        zero = (
            f"0 = {self.anchor}"
            if self.anchor is not None
            else f"0 = the average of the {len(self.agents)} agents"
        )
        draws = f"{PRIOR_DRAWS:g} virtual draw{'s' if PRIOR_DRAWS != 1 else ''}"
        return (
            f"Elo: {zero}; Bradley-Terry fit with a prior of {draws} per pairing (keeps "
            "all-win and all-loss scores finite), 95% profile-likelihood intervals"
        )

    def as_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "elo_anchor": self.anchor,
            "elo_method": self.elo_method,
            "agents": {name: line.as_json() for name, line in self.agents.items()},
            "head_to_head": {
                a: {b: {"points": p, "games": g} for b, (p, g) in row.items()}
                for a, row in self.head_to_head.items()
            },
        }


@cache
def first_mover(spec: str) -> int:
    """The seat that makes a game's first move: 0, or 1 where the start says so (Go with
    a handicap); 0 for a spec this arena cannot load.

    >>> first_mover("go:size=9"), first_mover("go:size=9,handicap=2")
    (0, 1)
    """
    try:
        return load_game(spec).initial_state().to_move
    except ArenaError:
        return 0


def standings(records: list[GameRecord], names: list[str], anchor: str | None = None) -> Standings:
    """Tally ``records`` for the agents ``names`` and fit Elo ratings.

    The ratings are one Bradley-Terry fit over all games (:func:`arena.stats.ratings.fit`,
    with its prior of virtual draws, so a player who won or lost every game has a finite
    rating and does not stretch the others' intervals). 0 is ``anchor`` when it played;
    otherwise, with two agents, the second (the first is rated against it); with more, the
    average of all of them. An extreme player is a poor anchor: every interval measured
    against it carries its uncertainty.
    """
    lines = {n: AgentLine(n) for n in names}
    h2h: dict[str, dict[str, list[float]]] = {
        a: {b: [0.0, 0] for b in names if b != a} for a in names
    }
    results = []
    for record in records:
        first, second = record.players
        for seat, name in enumerate(record.players):
            line = lines.setdefault(name, AgentLine(name))
            line.tally = line.tally.add(record, name)
            if record.forfeited and record.loser == seat:
                line.forfeits[record.reason] = line.forfeits.get(record.reason, 0) + 1
            other = record.players[1 - seat]
            cell = h2h.setdefault(name, {}).setdefault(other, [0.0, 0])
            cell[0] += record.points(seat)
            cell[1] += 1
        opener = first_mover(record.game)  # 1 in Go with a handicap: White moves first
        for seat, spent in record.timed_moves(opener):  # the forfeited last answer's too
            lines[record.players[seat]].move_seconds.append(spent)
        for ply in range(record.opening_plies, len(record.moves)):
            nodes = record.nodes[ply] if ply < len(record.nodes) else None
            if nodes is not None:
                lines[record.players[(ply + opener) % 2]].move_nodes.append(nodes)
        results.append((first, second, record.points(0)))
    if anchor not in lines:
        anchor = list(lines)[1] if len(lines) == 2 else None
    if records:
        for name, rating in fit(results, anchor=anchor).items():
            lines[name].elo, lines[name].elo_low, lines[name].elo_high = (
                rating.elo,
                rating.low,
                rating.high,
            )
    return Standings(lines, h2h, len(records), anchor)


def format_standings(table: Standings, title: str = "") -> str:
    """The standings as a text table, best first, then the head-to-head matrix."""
    rows = sorted(table.agents.values(), key=lambda r: (-r.tally.points, r.name))
    width = max([len(r.name) for r in rows] + [5])
    out = [title] if title else []
    out.append(
        f"{'agent':<{width}}  {'games':>5} {'W':>4} {'D':>4} {'L':>4} {'points':>7} "
        f"{'score':>6}  {'Elo (95%)':<22} {'forfeits':<14} {'s/move':>7} {'max s':>6} "
        f"{'nodes/move':>10}"
    )
    for r in rows:
        elo = (
            ""
            if r.elo is None
            else f"{_fmt_elo(r.elo)} [{_fmt_elo(r.elo_low)}, {_fmt_elo(r.elo_high)}]"
        )
        forfeits = ",".join(f"{k}:{v}" for k, v in sorted(r.forfeits.items())) or "-"
        nodes = f"{_mean(r.move_nodes):,.0f}" if r.move_nodes else "-"
        out.append(
            f"{r.name:<{width}}  {r.tally.games:>5} {r.tally.wins:>4} {r.tally.draws:>4} "
            f"{r.tally.losses:>4} {r.tally.points:>7.1f} {r.tally.score:>6.1%}  {elo:<22} "
            f"{forfeits:<14} "
            f"{_mean(r.move_seconds):>7.3f} {max(r.move_seconds, default=0):>6.2f} "
            f"{nodes:>10}"
        )
    if any(r.elo is not None for r in rows):
        out.append(table.elo_method)
    if len(rows) > 2:
        out.append("")
        out.append("head to head (points of the row against the column):")
        names = [r.name for r in rows]
        col = max(6, *(len(n) for n in names))
        out.append(" " * (width + 2) + " ".join(f"{n[:col]:>{col}}" for n in names))
        for a in names:
            cells = []
            for b in names:
                p, g = table.head_to_head.get(a, {}).get(b, [0.0, 0])
                cells.append(f"{'-':>{col}}" if a == b else f"{f'{p:g}/{g}':>{col}}")
            out.append(f"{a:<{width}}  " + " ".join(cells))
    return "\n".join(out)


def _fmt_elo(x: float | None) -> str:
    if x is None:
        return "?"
    if not math.isfinite(x):
        return "+inf" if x > 0 else "-inf"
    return f"{x:+.0f}"

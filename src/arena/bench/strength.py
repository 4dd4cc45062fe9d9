"""``arena bench strength``: the strength table of issue 15, rerun on this machine.

Our agents against OpenSpiel's C++ MCTSBot (``openspiel:mcts``, the ``bench``
extra), GNU Go (Chinese rules, ``--capture-all-dead``) and GRhino over GTP
(:mod:`arena.bench.engines` has their commands), one game at a time, colours
alternating from paired openings, at a fixed time per move for both sides.

A game lost on time is a forfeit, never strength: the score, W-D-L and 95%
interval count only the games not ended by a time forfeit, and the forfeits
column says who overran and how often. Engines that do not keep time (GNU Go
and GRhino at a fixed level: GRhino at level 5 overruns 1 s on most moves) are
measured as the MoGo and Fuego papers do: the engine at its level with no
clock (a grace of :data:`UNTIMED_GRACE` for both sides), our agent at the
stated time — it stops at the move's time whatever the grace, and the
``ours s`` column shows the mean and longest time it took. The machine's load
average (``os.getloadavg``) before and after each row is printed with it:
time-based results depend on what else runs.

Tests: tests/bench/test_bench_strength.py
"""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from arena.bench.engines import GNUGO, GRHINO, RAPFI
from arena.compete.timecontrol import TimeControl
from arena.core.errors import ArenaError
from arena.core.limit import DEFAULT_GRACE
from arena.experiments.games import play_pairs, score_row
from arena.formats.record import GameRecord

OPENSPIEL = "openspiel:mcts"
GO_MCTS = "mcts:rollout=heuristic,reuse=1"
GNUGO_10 = GNUGO.format(level=10)
GO5_RAVE = "mcts:c=0,rave=1000,prior=20,rollout=tactics,reuse=1"
"""The compiled MC-RAVE search with Go knowledge on 5x5 (docs/strength.md, "Go: MC-RAVE")."""
GO9_RAVE = GO5_RAVE
"""The same on 9x9 (one setting serves both sizes so far)."""


@dataclass(frozen=True)
class Case:
    """One row: ``ours`` against ``opponent`` at ``game``, ``move_time`` s per move."""

    name: str
    game: str
    ours: str
    opponent: str
    move_time: float
    untimed: bool = False
    """The opponent plays at its level without a clock (see the module)."""
    target: float | None = None
    """The score issue 15 asks of this row, if it is one of its targets."""
    openings: str | None = None
    """Where each pair of games starts (``random:plies=2``); None: the initial position."""
    handicap: bool = False
    """The opponent is the first player in every game (``arena match --colours fixed``): with
    ``go:handicap=N`` it is Black and has the stones, we give them as White."""


UNTIMED_GRACE = 120.0
"""Seconds a move may run past its time in an untimed case before it is lost."""

CASES: tuple[Case, ...] = (
    Case("c4-ids", "connect4", "ids", OPENSPIEL, 0.3),
    Case("c4-mcts", "connect4", "mcts:solver=1,reuse=1", OPENSPIEL, 0.3),
    Case("othello-ids", "othello", "ids", OPENSPIEL, 0.3),
    Case("othello-mcts", "othello", "mcts:reuse=1", OPENSPIEL, 0.3),
    Case("go5-mcts", "go:size=5", GO_MCTS, OPENSPIEL, 0.3),
    Case("go5-gnugo", "go:size=5", GO_MCTS, GNUGO_10, 1.0, True),
    Case("go9-gnugo", "go:size=9", GO_MCTS, GNUGO_10, 1.0, True),
    Case("othello-grhino3", "othello", "ids", GRHINO.format(level=3), 1.0, True),
    Case("othello-grhino5", "othello", "ids", GRHINO.format(level=5), 1.0, True),
    Case("ttt-ids", "tictactoe", "ids", OPENSPIEL, 0.1),
    Case("c4-ids-python", "connect4", "ids", "ids:engine=python", 0.1),
    Case("gomoku-ids-python", "gomoku", "ids", "ids:engine=python", 0.1),
)
"""The issue's table (first eight rows) and two of its targets (GRhino at its
strongest level, and never losing at Tic-tac-toe); then the compiled engines of
``ids`` against the readable reference (``ids:engine=python``)."""

PAIRED = "random:plies=2"
"""The targets' openings: two random plies, each position played with both colours (at
Tic-tac-toe two random plies can lose the game, so it starts from the empty board)."""

TARGETS: tuple[Case, ...] = (
    *(
        Case(f"best-{short_name}-{label}", game, "best", OPENSPIEL, seconds, target=0.75,
             openings=PAIRED)
        for short_name, game in (
            ("c4", "connect4"), ("othello", "othello"), ("go5", "go:size=5"),
            ("go9", "go:size=9"), ("gomoku", "gomoku"),
        )
        for label, seconds in (("0.1s", 0.1), ("1s", 1.0))
    ),
    Case("best-ttt", "tictactoe", "best", OPENSPIEL, 0.1, target=0.5),
    Case("best-go5-gnugo", "go:size=5", "best", GNUGO_10, 2.0, True, 0.75, PAIRED),
    Case("best-go9-gnugo", "go:size=9", "best", GNUGO_10, 2.0, True, 0.5, PAIRED),
    Case("best-grhino5", "othello", "best", GRHINO.format(level=5), 1.0, True, 0.75, PAIRED),
)  # fmt: skip
"""Issue 15's targets for ``best``: >= 75% against OpenSpiel's MCTS at 0.1 s and
1 s a move (>= 40 games each), never a loss at Tic-tac-toe (the target there is
the draw's 50% with no game lost), >= 75% against GNU Go level 10 on 5x5 and
>= 50% on 9x9 at 2 s a move for us, >= 75% against GRhino level 5 at 1 s."""

GO_RAVE: tuple[Case, ...] = (
    Case("go5-rave", "go:size=5", GO5_RAVE, OPENSPIEL, 0.1, target=0.75),
    Case("go9-rave", "go:size=9", GO9_RAVE, OPENSPIEL, 0.1, target=0.75),
    Case("go5-rave-gnugo", "go:size=5", GO5_RAVE, GNUGO_10, 2.0, True, target=0.75),
    Case("go9-rave-gnugo", "go:size=9", GO9_RAVE, GNUGO_10, 2.0, True, target=0.5),
)
"""The compiled MC-RAVE Go search against the issue's Go targets (``--cases go-rave``)."""

GOMOCUP: tuple[Case, ...] = (
    Case("best-rapfi-odds", "gomoku", "best", RAPFI.format(options="turn=0.1:"), 1.0,
         openings=PAIRED),
    Case("best-rapfi-1s", "gomoku", "best", RAPFI.format(options=""), 1.0, openings=PAIRED),
)  # fmt: skip
"""``best`` against Rapfi, a Gomocup champion brain built from its public source
(``scripts/build-rapfi``, on the PATH as ``pbrain-rapfi``): at 1 s a move for us and
0.1 s for Rapfi (odds), then at 1 s each (``--cases gomocup``)."""

GO19: tuple[Case, ...] = (
    Case("best-go19-gnugo", "go:size=19", "best", GNUGO_10, 5.0, True, 0.9, PAIRED),
    Case("best-go19-gnugo-h4", "go:size=19,handicap=4,komi=0.5", "best", GNUGO_10, 5.0, True,
         0.5, handicap=True),
)  # fmt: skip
"""Issue 29's full-board targets: ``best`` at 5 s a move against GNU Go level 10 (no
clock), >= 90% in even games (paired openings, colours alternating) and >= 50% giving it
four handicap stones (GNU Go Black in every game, komi 0.5). A game takes 10-25 minutes
(``--cases go19``; docs/strength.md)."""

GROUPS: dict[str, tuple[Case, ...]] = {
    "table": CASES,
    "targets": TARGETS,
    "go-rave": GO_RAVE,
    "gomocup": GOMOCUP,
    "go19": GO19,
}
"""Names for sets of rows: ``--cases targets``."""


def select(names: list[str] | None) -> list[Case]:
    """The cases named, or groups of them (``table``, the default, and ``targets``),
    or a one-line error naming the valid ones.

    >>> [c.name for c in select(["ttt-ids", "c4-ids"])]
    ['ttt-ids', 'c4-ids']
    >>> len(select(None)), len(select(["targets"]))
    (12, 14)
    >>> select(["chess"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    arena.core.errors.ArenaError: unknown case 'chess'; valid: table, targets, go-rave, ...
    """
    known = {case.name: case for group in GROUPS.values() for case in group}
    chosen: list[Case] = []
    for name in names or ["table"]:
        if name in GROUPS:
            chosen.extend(GROUPS[name])
        elif name in known:
            chosen.append(known[name])
        else:
            valid = ", ".join([*GROUPS, *known])
            raise ArenaError(f"unknown case {name!r}; valid: {valid}")
    return chosen


def verdict(case: Case, row: dict[str, Any]) -> str:
    """Whether a target row met its target: ``met``, ``missed`` or ``-`` (not a target).

    At Tic-tac-toe the target is never to lose; elsewhere the score over the
    games counted must reach the target.

    >>> ttt = select(["best-ttt"])[0]
    >>> verdict(ttt, {"counted": 4, "score": 0.5, "losses": 0})
    'met'
    >>> verdict(ttt, {"counted": 4, "score": 0.625, "losses": 1})
    'missed'
    """
    if case.target is None or not row["counted"]:
        return "-"
    if case.game == "tictactoe":
        return "met" if row["losses"] == 0 else "missed"
    return "met" if row["score"] >= case.target else "missed"


def tally(records: list[GameRecord], ours: str) -> dict[str, Any]:
    """Our row: score, W-D-L and interval over the games not lost on time, and the
    forfeits by side and reason (``ours time``, ``opponent crash``...)."""
    played = [r for r in records if r.reason != "time"]
    row = score_row(played, ours) if played else {"games": 0, "wins": 0, "draws": 0, "losses": 0}
    by = Counter(
        f"{'ours' if r.players[r.loser] == ours else 'opponent'} {r.reason}"  # type: ignore[index]
        for r in records
        if r.forfeited
    )
    ours_seconds = [  # every move, the one lost on time too
        spent for r in records for seat, spent in r.timed_moves() if r.players[seat] == ours
    ]
    row.update(
        games=len(records),
        counted=len(played),
        forfeits=dict(sorted(by.items())),
        ours_mean=sum(ours_seconds) / len(ours_seconds) if ours_seconds else 0.0,
        ours_max=max(ours_seconds, default=0.0),
    )
    return row


HEADER = (
    f"{'case':<16} {'ours':<30} {'opponent':<24} {'s/move':>6} {'ours s':>11} {'games':>5} "
    f"{'W-D-L':>8} {'score':>6} {'95% interval':>14}  {'load':>9}  {'target':>13}  forfeits"
)


def line(case: Case, row: dict[str, Any], load: tuple[float, float]) -> str:
    """One row of the table (the opponent's command cut to its program and level)."""
    wdl = f"{row['wins']}-{row['draws']}-{row['losses']}"
    if row["counted"]:
        score = f"{100 * row['score']:5.1f}%"
        interval = f"[{100 * row['low']:.0f}, {100 * row['high']:.0f}]"
    else:
        score, interval = "-", "-"
    opponent = short(case.opponent)
    shown = ", ".join(f"{k}: {v}" for k, v in row["forfeits"].items()) or "-"
    used = f"{row['ours_mean']:.2f}/{row['ours_max']:.2f}"
    timing = f"{case.move_time:g}" + ("*" if case.untimed else "")
    goal = "-" if case.target is None else f">={100 * case.target:.0f}% {verdict(case, row)}"
    return (
        f"{case.name:<16} {case.ours:<30} {opponent:<24} {timing:>6} {used:>11} {row['games']:>5} "
        f"{wdl:>8} {score:>6} {interval:>14}  {load[0]:>4.1f}/{load[1]:<4.1f}  {goal:>13}  {shown}"
    )


def short(spec: str) -> str:
    """An opponent's spec for the table.

    >>> short(GNUGO.format(level=10)), short(GRHINO.format(level=5)), short("openspiel:mcts")
    ('gnugo level 10', 'gtp-rhino level 5', 'openspiel:mcts')
    >>> short(RAPFI.format(options="turn=0.1:")), short(RAPFI.format(options=""))
    ('pbrain-rapfi at 0.1 s', 'pbrain-rapfi')
    """
    if spec.startswith("pbrain:"):
        options, _, command = spec[7:].rpartition(":")
        turn = dict(p.split("=", 1) for p in options.split(",") if "=" in p).get("turn")
        return command.split()[0] + (f" at {turn} s" if turn else "")
    if not spec.startswith("gtp:"):
        return spec
    words = spec[4:].split()
    level = words[words.index("--level") + 1] if "--level" in words else "?"
    return f"{words[0]} level {level}"


def run(
    games: int,
    move_time: float | None,
    seed: int,
    selected: list[Case],
    report: Callable[[str], None] = print,
) -> dict[str, Any]:
    """Play every selected case (``move_time`` overrides each case's own) and report rows."""
    if games < 1:
        raise ArenaError(f"--games must be >= 1, not {games}")
    if move_time is not None and not move_time > 0:
        raise ArenaError(f"--move-time must be > 0, not {move_time}")
    report(
        f"{os.cpu_count()} cores; load = 1-minute load average before/after each row; "
        "ours s = our mean/longest seconds per move; * = the opponent plays without a clock"
    )
    report(HEADER)
    rows = []
    for case in selected:
        if move_time is not None:
            case = replace(case, move_time=move_time)
        before = os.getloadavg()[0]
        started = time.perf_counter()
        first, second = (case.opponent, case.ours) if case.handicap else (case.ours, case.opponent)
        records = play_pairs(
            case.game, first, second, games, TimeControl.moving(case.move_time), seed,
            1, None, grace=UNTIMED_GRACE if case.untimed else DEFAULT_GRACE,
            openings=case.openings, alternate=not case.handicap,
        )  # fmt: skip
        row = tally(records, case.ours)
        load = (before, os.getloadavg()[0])
        report(line(case, row, load))
        row.update(minutes=round((time.perf_counter() - started) / 60, 2), load=load)
        rows.append({"case": case.name, "game": case.game, "ours": case.ours,
                     "opponent": case.opponent, "move_time": case.move_time,
                     "openings": case.openings, "target": case.target,
                     "verdict": verdict(case, row), **row})  # fmt: skip
    return {"seed": seed, "cases": rows}

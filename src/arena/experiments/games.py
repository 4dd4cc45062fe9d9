"""Games between two agents for the experiments: colours balanced, seeded, in parallel.

>>> records = play_pairs("tictactoe", "alphabeta:depth=9", "random", games=4,
...                      control="rollouts=1", seed=3, jobs=1, advance=None)
>>> [r.players[0] for r in records] == ["alphabeta:depth=9", "random"] * 2
True
>>> wins, draws, losses = tally(records, "random")
>>> wins, draws + losses
(0, 4)

Tests: tests/experiments/test_framework.py
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from arena.agents import load_agent
from arena.compete.runner import Job, run_pool, run_serial
from arena.compete.schedule import unique_names
from arena.compete.timecontrol import TimeControl
from arena.compete.tournament import seeded_spec
from arena.core.errors import ArenaError
from arena.core.limit import DEFAULT_GRACE
from arena.experiments.stats import score_interval
from arena.formats.record import GameRecord
from arena.games import load_game


def play_pairs(
    game: str,
    first: str,
    second: str,
    games: int,
    control: str,
    seed: int,
    jobs: int,
    advance: Callable[[int], None] | None,
    *,
    grace: float = DEFAULT_GRACE,
    max_plies: int | None = None,
) -> list[GameRecord]:
    """Play ``games`` games of ``first`` against ``second``; the records in game order.

    Game ``i`` has ``first`` moving first when ``i`` is even; games ``2k`` and
    ``2k + 1`` start from the same position (seed ``seed + k`` for games with
    random set-ups) with the colours swapped. Each agent that takes a seed gets
    one derived from ``seed`` and the game (:func:`arena.compete.tournament.seeded_spec`),
    so the same call plays the same games — except that agents stopping on a clock
    do as much work as the machine allows. Records name the players ``first`` and
    ``second`` as given (``second`` gets ``#2`` when both specs are equal).
    ``advance(1)`` is called as each game ends.
    """
    if games < 1:
        raise ArenaError(f"games must be >= 1, not {games}")
    if jobs < 1:
        raise ArenaError(f"--jobs must be >= 1, not {jobs}")
    load_game(game)
    TimeControl.parse(control)
    for spec in (first, second):
        load_agent(spec)
    names = unique_names([first, second])
    specs = {names[0]: first, names[1]: second}
    planned = []
    for i in range(games):
        a, b = (names[0], names[1]) if i % 2 == 0 else (names[1], names[0])
        game_id = f"game={i}"
        planned.append(
            Job(
                game=game,
                game_id=game_id,
                first=a,
                second=b,
                first_spec=seeded_spec(specs[a], game_id, 0, seed),
                second_spec=seeded_spec(specs[b], game_id, 1, seed),
                round=i // 2,
                seed=seed + i // 2,
                opening=(),
                control=control,
                grace=grace,
                max_plies=max_plies,
            )
        )
    stream = run_serial(planned, _never) if jobs == 1 else run_pool(planned, jobs, _never)
    done: dict[str, GameRecord] = {}
    for job, record in stream:
        done[job.game_id] = record
        if advance is not None:
            advance(1)
    return [done[job.game_id] for job in planned]


def tally(records: list[GameRecord], spec_or_name: str) -> tuple[int, int, int]:
    """``(wins, draws, losses)`` of the player named ``spec_or_name``, whichever colour
    it had; forfeits count as the losses they are."""
    wins = draws = losses = 0
    for record in records:
        if spec_or_name not in record.players:
            raise ArenaError(f"{spec_or_name!r} did not play {' vs '.join(record.players)}")
        result = record.returns[record.players.index(spec_or_name)]
        if result > 0:
            wins += 1
        elif result < 0:
            losses += 1
        else:
            draws += 1
    return wins, draws, losses


def score_row(records: list[GameRecord], spec_or_name: str) -> dict[str, Any]:
    """A player's results as table columns: games, wins, draws, losses, its mean score
    with the 95 % interval (``low``, ``high``) and the games ended by a forfeit."""
    wins, draws, losses = tally(records, spec_or_name)
    score, low, high = score_interval(wins, draws, losses)
    return {
        "games": len(records),
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "score": score,
        "low": low,
        "high": high,
        "forfeits": forfeits(records),
    }


def forfeits(records: list[GameRecord]) -> int:
    """Games that ended by a forfeit (time, illegal move, crash) rather than by the rules."""
    return sum(1 for r in records if r.reason in ("time", "illegal", "crash"))


def _never() -> bool:
    return False

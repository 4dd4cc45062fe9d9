"""Games between two agents for the experiments: colours balanced, seeded, in parallel.

>>> records = play_pairs("tictactoe", "alphabeta:depth=9", "random", games=4,
...                      control=TimeControl.parse("rollouts=1"), seed=3, jobs=1, advance=None)
>>> [r.players[0] for r in records] == ["alphabeta:depth=9", "random"] * 2
True
>>> wins, draws, losses = Tally.of(records, "random")
>>> wins, draws + losses
(0, 4)

Tests: tests/experiments/test_framework.py
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from arena.compete import tournament
from arena.compete.plan import unique_names
from arena.compete.timecontrol import TimeControl
from arena.core.errors import ArenaError
from arena.core.limit import DEFAULT_GRACE
from arena.experiments.stats import score_interval
from arena.formats.record import GameRecord
from arena.stats.tally import Tally


def play_pairs(
    game: str,
    first: str,
    second: str,
    games: int,
    control: TimeControl | str,
    seed: int,
    jobs: int,
    advance: Callable[[int], None] | None,
    *,
    grace: float = DEFAULT_GRACE,
    max_plies: int | None = None,
    openings: str | None = None,
    alternate: bool = True,
) -> list[GameRecord]:
    """Play ``games`` games of ``first`` against ``second``; the records in game order.

    A match of ``games`` games (:class:`arena.compete.tournament.Settings` with
    ``games_per_pair``), played by the tournament's runner: game ``i`` has ``first``
    moving first when ``i`` is even; games ``2k`` and ``2k + 1`` start from the
    same position (seed ``seed + k`` for games with random set-ups) with the colours
    swapped; with ``alternate`` False ``first`` is the first player in every game, game ``i``
    from position ``i`` (a handicap game: ``first`` is Black and has the stones).
    Each agent that takes a seed gets one derived from ``seed`` and the game
    (:func:`arena.compete.tournament.seeded_spec`), so the same call plays the same
    games — except that agents stopping on a clock do as much work as the machine
    allows. Records name the players ``first`` and ``second`` as given (``second``
    gets ``#2`` when both specs are equal). ``advance(1)`` is called as each game ends.
    """
    if games < 1:
        raise ArenaError(f"games must be >= 1, not {games}")
    if jobs < 1:
        raise ArenaError(f"--jobs must be >= 1, not {jobs}")
    settings = tournament.Settings(
        game=game,  # text is parsed by Settings, once
        agents=tuple(unique_names([first, second])),
        control=control,
        games_per_pair=games,
        grace=grace,
        max_plies=max_plies,
        seed=seed,
        openings=openings,
        alternate=alternate,
    )
    on_record = None if advance is None else lambda *_: advance(1)
    outcome = tournament.run(settings, jobs=jobs, on_record=on_record)
    order = {p.game_id: i for i, p in enumerate(settings.planned())}
    return sorted(outcome.records, key=lambda r: order[r.game_id])


def score_row(records: list[GameRecord], spec_or_name: str) -> dict[str, Any]:
    """A player's results as table columns: games, wins, draws, losses, its mean score
    with the 95 % interval (``low``, ``high``) and the games ended by a forfeit."""
    tally = Tally.of(records, spec_or_name)
    score, low, high = score_interval(*tally)
    return {
        "games": len(records),
        "wins": tally.wins,
        "draws": tally.draws,
        "losses": tally.losses,
        "score": score,
        "low": low,
        "high": high,
        "forfeits": forfeits(records),
    }


def forfeits(records: list[GameRecord]) -> int:
    """Games that ended by a forfeit (:attr:`GameRecord.forfeited`), either side's."""
    return sum(1 for r in records if r.forfeited)

"""Playing one game between two agents under a time control, with forfeits.

The arena is the referee: it gives each agent a :class:`~arena.limit.Limit`
for every move, times the answer on its own clock, and ends the game when a
player runs out of time (beyond the grace), answers an illegal move, or
raises. Every such end is recorded with its reason.

>>> import arena
>>> from arena.timecontrol import TimeControl
>>> record = play_game(arena.load_game("tictactoe"), ["random:seed=1", "alphabeta:depth=9"],
...                    TimeControl.parse("rollouts=1"))
>>> record.reason, record.winner in (None, 1)
('normal', True)
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable, Sequence
from typing import Any

from arena.agents import load_agent, start_game
from arena.agents.human import Resign, Undo
from arena.errors import ArenaError
from arena.game import Game, State
from arena.record import GameRecord
from arena.timecontrol import TimeControl

DEFAULT_GRACE = 0.05
"""Seconds a move may exceed the clock before it loses on time (process overhead)."""

MoveHook = Callable[[State, int, float, Any], None]


def _spec(agent: Any) -> str:
    return str(getattr(agent, "spec", type(agent).__name__))


def play_game(
    game: Game,
    agents: Sequence[Any],
    control: TimeControl,
    *,
    seed: int | None = None,
    opening: Sequence[int] = (),
    grace: float = DEFAULT_GRACE,
    max_plies: int | None = None,
    allow_undo: bool = False,
    on_move: MoveHook | None = None,
    names: Sequence[str] | None = None,
) -> GameRecord:
    """Play ``agents[0]`` (first) against ``agents[1]`` and return the record.

    ``opening`` moves are played first, for both sides, off the clock.
    ``max_plies`` ends a longer game by adjudication on the game's score.
    """
    players = [load_agent(a) if isinstance(a, str) else a for a in agents]
    specs = tuple(names or (_spec(p) for p in players))
    record = GameRecord(game=game.spec, players=specs, seed=seed)  # type: ignore[arg-type]
    state = game.initial_state(seed)
    for move in opening:
        state = state.play(move)
        record.moves.append(game.format_move(move))
        record.seconds.append(0.0)
        record.nodes.append(None)
    record.opening_plies = len(opening)
    for player in players:
        start_game(player, game)
        if hasattr(player, "observe"):
            # Agents that keep a tree follow the opening too.
            replay = game.initial_state(seed)
            for move in opening:
                player.observe(replay, move)
                replay = replay.play(move)
    clock = [control.start(), control.start()]
    history: list[State] = []

    def forfeit(mover: int, reason: str, detail: str) -> GameRecord:
        record.reason, record.loser, record.detail = reason, mover, detail
        record.returns = (-1, 1) if mover == 0 else (1, -1)
        return record

    while not state.is_terminal():
        if max_plies is not None and state.ply >= max_plies:
            return _adjudicate(record, state)
        mover = state.to_move
        limit = control.allotment(clock[mover])
        agent = players[mover]
        started = time.perf_counter()
        try:
            move = agent.choose(state, limit)
        except Undo:
            if allow_undo and len(history) >= 2:
                state = history[-2]
                del history[-2:], record.moves[-2:], record.seconds[-2:], record.nodes[-2:]
                for player in players:
                    start_game(player, game)  # kept trees no longer match the position
            continue
        except Resign as exc:
            return forfeit(mover, "resign", str(exc) or "resigned")
        except Exception as exc:  # any failure of the agent is its loss, never the arena's
            tail = traceback.format_exception_only(type(exc), exc)[-1].strip()
            return forfeit(mover, "crash", tail)
        spent = time.perf_counter() - started
        over = _overrun(control, clock[mover], spent, grace)
        if over:
            return forfeit(mover, "time", over)
        if clock[mover] is not None:
            clock[mover] = clock[mover] - spent + control.increment  # type: ignore[operator]
        if not isinstance(move, int) or isinstance(move, bool) or move not in state.legal_moves():
            return forfeit(mover, "illegal", f"illegal move {move!r}: {_why(state, move)}")
        info = getattr(agent, "last_search", None)
        record.moves.append(game.format_move(move))
        record.seconds.append(round(spent, 6))
        record.nodes.append(getattr(info, "nodes", None) if info is not None else None)
        for player in players:
            if hasattr(player, "observe"):
                player.observe(state, move)
        history.append(state)
        if on_move is not None:
            on_move(state, move, spent, info)
        state = state.play(move)
    record.returns = state.returns()
    record.score = state.score()
    return record


def _overrun(control: TimeControl, remaining: float | None, spent: float, grace: float) -> str:
    if control.per_move is not None and spent > control.per_move + grace:
        return f"{spent:.3f} s for a {control.per_move:g} s move"
    if remaining is not None and spent > remaining + grace:
        return f"{spent:.3f} s with {remaining:.3f} s on the clock"
    return ""


def _why(state: State, move: Any) -> str:
    try:
        state.play(move)
    except ArenaError as exc:
        return getattr(exc, "reason", str(exc))
    return "not among the legal moves"


def _adjudicate(record: GameRecord, state: State) -> GameRecord:
    """Past the ply cap: the game's score decides (a draw where it has none)."""
    margin = state.score()
    record.reason = "adjudication"
    record.score = margin
    record.detail = f"ply cap {state.ply}: score {margin}"
    if margin is None or margin == 0:
        record.returns = (0, 0)
    else:
        record.returns = (1, -1) if margin > 0 else (-1, 1)
    return record

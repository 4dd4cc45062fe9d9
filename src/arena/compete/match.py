"""Playing one game between two agents under a time control, with forfeits.

The arena is the referee: it gives each agent a :class:`~arena.core.limit.Limit`
for every move, times the answer on its own clock, and ends the game when a
player runs out of time (beyond the grace), answers an illegal move, or
raises. Every such end is recorded with its reason.

>>> import arena
>>> from arena.compete.timecontrol import Clock, TimeControl
>>> record = play_game(arena.load_game("tictactoe"), ["random:seed=1", "alphabeta:depth=9"],
...                    TimeControl.parse("rollouts=1"))
>>> record.reason, record.winner in (None, 1)
('normal', True)

Tests: tests/compete/test_match.py
"""

from __future__ import annotations

import logging
import operator
import time
import traceback
from collections.abc import Callable, Sequence
from typing import Any

from arena.agents import load_agent
from arena.compete.timecontrol import Clock, TimeControl, moves_to_share
from arena.core.agent import (
    Resign,
    Undo,
    answer_problem,
    choose_problem,
    end_game,
    start_game,
)
from arena.core.crash import crash_text
from arena.core.errors import AgentFailure, SpecError, printable
from arena.core.game import Game, State, returns_of_margin
from arena.core.limit import DEFAULT_GRACE
from arena.formats.record import FORFEITS, GameRecord, stderr_tail

log = logging.getLogger(__name__)

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
    start: State | None = None,
) -> GameRecord:
    """Play ``agents[0]`` (first) against ``agents[1]`` and return the record.

    ``opening`` moves are played first, for both sides, off the clock.
    ``start``: a position to play from instead of the initial state (e.g. from a
    position string); the record's moves then start there.
    ``max_plies`` ends a longer game by adjudication on the game's score.
    """
    players = [load_agent(a) if isinstance(a, str) else a for a in agents]
    specs = tuple(names or (_spec(p) for p in players))
    record = GameRecord(game=game.spec, players=specs, seed=seed)  # type: ignore[arg-type]
    try:
        _play(
            game,
            players,
            control,
            record,
            seed,
            opening,
            grace,
            max_plies,
            allow_undo,
            on_move,
            start,
        )
        return _told(record, players)
    finally:
        for player in players:
            end_game(player)  # programs in other processes end with the game


def _play(
    game: Game,
    players: list[Any],
    control: TimeControl,
    record: GameRecord,
    seed: int | None,
    opening: Sequence[int],
    grace: float,
    max_plies: int | None,
    allow_undo: bool,
    on_move: MoveHook | None,
    start: State | None = None,
) -> GameRecord:
    line: list[tuple[State, int]] = []
    """Every move played so far, with the state it was played in."""
    state = game.initial_state(seed) if start is None else start
    for move in opening:
        line.append((state, move))
        state = state.play(move)
        record.moves.append(game.format_move(move))
        record.seconds.append(0.0)
        record.nodes.append(None)
    record.opening_plies = len(opening)

    def forfeit(
        mover: int, reason: str, detail: str, spent: float | None = None, stderr: str = ""
    ) -> GameRecord:
        # The agent's words (its stderr, its exception, its answer) as text, never as
        # control sequences for the terminals that show the record.
        record.reason, record.loser, record.detail = reason, mover, printable(detail)
        if spent is not None:  # the answer that lost: its time counts like any move's
            record.last_seconds = round(spent, 6)
        if reason in FORFEITS:  # what the loser wrote last, for its author (bounded)
            record.stderr = printable(stderr_tail(stderr or stderr_log(players[mover])))
        record.returns = (-1, 1) if mover == 0 else (1, -1)
        return record

    def rejoin() -> GameRecord | None:
        # A new game for every agent (started off the clock), then the moves so far:
        # agents that keep a tree or a program follow them. A program that fails
        # to start loses the game.
        for seat, player in enumerate(players):
            try:
                # Programs in other processes are killed past their clock plus the grace.
                start_game(player, game, player=seat, seed=seed, grace=grace)
                if hasattr(player, "observe"):
                    for before, move in line:
                        player.observe(before, move)
            except AgentFailure as exc:
                return forfeit(seat, exc.reason, exc.detail)
            except SpecError:
                # The spec cannot play this game (mcts:rave= on Othello): every game would
                # end the same way, so the match stops with the error instead of forfeits.
                raise
            except Exception as exc:  # a user's reset() or observe() raised
                return crashed(seat, player, exc)
        return None

    def crashed(seat: int, player: Any, exc: Exception, spent: float | None = None) -> GameRecord:
        # One line at the user's own frame; the whole traceback with `arena --debug`.
        log.debug("%s crashed", _spec(player), exc_info=True)
        # A choose(self, state) fails in the referee's call: name the user's def instead.
        kind = type(player)
        signature = isinstance(exc, TypeError) and callable(getattr(kind, "choose", None))
        return forfeit(
            seat,
            "crash",
            (signature and choose_problem(kind)) or crash_text(exc),
            spent,
            "".join(traceback.format_exception(exc)),  # what Python would have printed
        )

    failed = rejoin()
    if failed is not None:
        return failed
    clocks = [Clock.start(control), Clock.start(control)]

    while not state.is_terminal():
        if max_plies is not None and state.ply >= max_plies:
            return _adjudicate(record, state)
        mover = state.to_move
        limit = clocks[mover].limit(moves_to_share(state))
        agent = players[mover]
        started = time.perf_counter()
        try:
            move = agent.choose(state, limit)
        except Undo:
            if allow_undo and len(line) - len(opening) >= 2:
                state = line[-2][0]
                del line[-2:], record.moves[-2:], record.seconds[-2:], record.nodes[-2:]
                failed = rejoin()  # kept trees no longer match the position
                if failed is not None:
                    return failed
            continue
        except Resign as exc:
            return forfeit(mover, "resign", str(exc) or "resigned", time.perf_counter() - started)
        except AgentFailure as exc:  # a program timed out, crashed or answered garbage
            return forfeit(mover, exc.reason, exc.detail, time.perf_counter() - started)
        except Exception as exc:  # any failure of the agent is its loss, never the arena's
            return crashed(mover, agent, exc, time.perf_counter() - started)
        spent = time.perf_counter() - started
        over = clocks[mover].charge(spent, grace)
        if over:
            return forfeit(mover, "time", over, spent)
        wrong = answer_problem(state, move)
        if wrong:
            return forfeit(mover, "illegal", wrong, spent)
        move = operator.index(move)  # a numpy integer is a move too; the record keeps ints
        info = getattr(agent, "last_search", None)
        record.moves.append(game.format_move(move))
        record.seconds.append(round(spent, 6))
        record.nodes.append(getattr(info, "nodes", None) if info is not None else None)
        for seat, player in enumerate(players):
            if hasattr(player, "observe"):
                try:
                    player.observe(state, move)
                except AgentFailure as exc:
                    return forfeit(seat, exc.reason, exc.detail)
                except Exception as exc:
                    return crashed(seat, player, exc)
        line.append((state, move))
        if on_move is not None:
            on_move(state, move, spent, info)
        state = state.play(move)
    record.returns = state.returns()
    record.score = state.score()
    return record


def stderr_log(player: Any) -> str:
    """The end of a program agent's stderr log (``stderr_log()`` of the agents that run
    programs); empty for an agent in arena's process."""
    read = getattr(player, "stderr_log", None)
    if not callable(read):
        return ""
    try:
        text = read()
    except Exception:  # a user's object with a method of that name: not ours to trust
        return ""
    return text if isinstance(text, str) else ""


def _told(record: GameRecord, players: list[Any]) -> GameRecord:
    """The names programs gave themselves and the notes agents kept, in the record."""
    names = tuple(getattr(p, "program_name", None) for p in players)
    if any(names):
        record.names = tuple(n and printable(n) for n in names)  # type: ignore[assignment]
    for player in players:
        record.notes.extend(printable(note) for note in getattr(player, "record_notes", ()))
    return record


def _adjudicate(record: GameRecord, state: State) -> GameRecord:
    """Past the ply cap: the game's score decides (a draw where it has none)."""
    margin = state.score()
    record.reason = "adjudication"
    record.score = margin
    record.detail = f"ply cap {state.ply}: score {margin}"
    record.returns = returns_of_margin(margin)
    return record

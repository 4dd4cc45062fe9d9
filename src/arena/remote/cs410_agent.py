"""``cs410-agent:[OPTIONS:]PATH/agents.py``: an agent class of the Go final project
(iterative deepening, MCTS, a learned value function), unmodified.

The project's agents are classes with ``get_move(game_state, time_limit)`` over the
stencil's own ``GoState`` (a wrapper of an OpenSpiel Go state, or of the stencil's
fallback engine), returning an action index. The class runs in its own process --
:mod:`arena.remote.cs410_host`, started with the student's Python in the student's
folder -- under the ``cmd:`` rules (startup off the clock, a hard deadline, memory and
CPU limits, the process group killed at the end). The state it gets is built by the
student's own stencil: ``GoProblem(size)``'s start state and ``transition`` for each
move played, so it is the very object the agent was written for. ``time_limit`` is
what the course's runner passes: the player's time left on the clock (on a move-time
control, the move's time).

The stencil's action index is OpenSpiel's: row-major from the stencil's row 0 (the
bottom row, ``a1``), ``size*size`` the pass; arena counts rows from the top.
``docs/course-agents.md`` has the protocol and what each error means.

Tests: tests/remote/course/test_cs410_agent.py

>>> [to_action(5, p) for p in (0, 4, 20, 24, 25)]
[20, 24, 0, 4, 25]
>>> all(to_action(5, to_action(5, p)) == p for p in range(26))
True
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from arena.core.errors import SpecError
from arena.core.game import Game, State
from arena.core.limit import Limit
from arena.core.spec import Param
from arena.remote.course import PYTHON, interpreter, missing_package, name, program_file, short_path
from arena.remote.external import OPTIONS, ExternalAgent

HOST = Path(__file__).resolve().with_name("cs410_host.py")

COURSE_OPTIONS = (
    Param("class", name, "MCTSAgent", "the agent class of the file to play"),
    PYTHON,
)


def to_action(size: int, point: int) -> int:
    """The stencil's action of arena's Go move ``point`` (and back: the map is its own
    inverse). Rows flip: arena counts from the top, the stencil (OpenSpiel) from a1."""
    if point == size * size:
        return point
    row, col = divmod(point, size)
    return (size - 1 - row) * size + col


class CS410Agent(ExternalAgent):
    prefix = "cs410-agent"
    name = "cs410-agent"
    summary = "a Go final project agent (a class with get_move(game_state, time_limit))"
    usage = "cs410-agent:[OPTIONS:]PATH/agents.py"
    params = COURSE_OPTIONS + OPTIONS

    def command(self, body: str) -> list[str]:
        self.path = program_file(self.prefix, body, "agents.py")
        self.cwd = str(self.path.parent)
        self.program_name: str | None = None
        self.told = 0
        """How many of the game's moves the host has been told."""
        self.record_notes: list[str] = []
        """What the record should say: moves passed because the stencil's game had ended."""
        python = interpreter(self.config["python"])
        return [python, "-u", str(HOST), str(self.path), self.config["class"]]

    @property
    def label(self) -> str:
        return f"{self.prefix}:{short_path(self.path)}"

    def started(self, game: Game, player: int | None, seed: Any) -> None:
        if game.name != "go":
            raise self._failure("crash", f"a Go final project agent cannot play {game.name}")
        assert self.process is not None
        self.told = 0
        self.record_notes = []
        size: int = game.config["size"]
        self.process.send(f"new {size}")
        words = self.ready_words(lambda text: missing_package(self.label, text, self.argv[0]))
        if len(words) < 3:
            raise self._failure("illegal", f"said 'ready {' '.join(words)[:50]}' at the start")
        self.program_name = " ".join(words[3:]) or None
        self.check_rules(game, words[0], words[1], words[2])

    def check_rules(self, game: Game, size: str, komi: str, maxlen: str) -> None:
        """Refuse a game whose rules are not the stencil's (every game would be scored or
        ended differently from the course's): a one-line SpecError naming the spec to use."""
        n: int = game.config["size"]
        wanted = {"size": str(n)}
        differs = size != str(n) or game.config["ko"] != "simple"
        if komi != "?":
            wanted["komi"] = f"{float(komi):g}"
            differs = differs or float(komi) != game.config["komi"]
        wanted["ko"] = "simple"
        if maxlen != "?" and int(maxlen) != 2 * n * n:
            wanted["maxlen"] = maxlen
        if maxlen != "?":
            differs = differs or int(maxlen) != game.maxlen  # type: ignore[attr-defined]
        if differs:
            self.close()
            spec = "go:" + ",".join(f"{key}={value}" for key, value in wanted.items())
            raise SpecError(
                f"{self.prefix}: {short_path(self.path)}'s stencil plays {size}x{size} Go with "
                f"komi {wanted.get('komi', '?')}, simple ko and at most {maxlen} plies "
                f"(OpenSpiel's rules), not {game.spec}: use {spec}"
            )

    def choose(self, state: State, limit: Limit) -> int:
        process = self.running(state.game)
        self.followed(state)
        size: int = state.game.config["size"]
        for move in self.moves[self.told :]:
            process.send(f"play {to_action(size, move)}")
        self.told = len(self.moves)
        seconds = limit.clock if limit.clock is not None else limit.time
        process.send(f"go {self.config['timeout'] if seconds is None else seconds:.6f}")
        answer = process.read_line(self.move_timeout(limit), "move")
        word, _, rest = answer.partition(" ")
        if word == "over":
            return self.stencil_over(state, rest)
        if word == "refused":
            action, _, why = rest.partition(" ")
            raise self._failure(
                "crash",
                f"the stencil's transition refused action {action}, a move arena's rules "
                f"allow: {why}; log {process.log_path}",
            )
        if word == "raised":
            raise self._failure("crash", f"get_move raised {rest}; log {process.log_path}")
        if word == "invalid":
            raise self._failure("illegal", rest)
        if word != "move" or not rest.strip().lstrip("-").isdigit():
            raise self._failure("illegal", f"answered {answer[:60]!r}, not 'move A'")
        action = int(rest)
        if not 0 <= action <= size * size:
            raise self._failure(
                "illegal",
                f"get_move returned {action}: an action is 0..{size * size} "
                f"({size * size} the pass)",
            )
        move = to_action(size, action)
        if move not in state.legal_moves():
            try:
                state.play(move)
                why = "not a legal move"
            except Exception as exc:  # the rules say why: IllegalMove's reason
                why = str(getattr(exc, "reason", exc))
            shown = state.game.format_move(move) if move < size * size else "pass"
            raise self._failure("illegal", f"get_move returned {action} ({shown}): {why}")
        return move

    def stencil_over(self, state: State, returns: str) -> int:
        """The stencil's rules ended its game and arena's did not: OpenSpiel's Go ends a game
        as a draw when a stone move repeats an earlier board (its superko), which arena's
        ``ko=simple`` allows. The agent cannot be asked (its state is terminal): it passes,
        noted in the record, and arena's rules finish the game."""
        size: int = state.game.config["size"]
        if not self.record_notes:
            mover = state.game.player_names[state.to_move]
            self.record_notes.append(
                f"{mover} ply {state.ply + 1}: the stencil's game is over (returns {returns}: "
                "OpenSpiel's Go ends a game as a draw when a stone move repeats an earlier "
                "board); arena's rules play on, and the agent passes"
            )
        return size * size

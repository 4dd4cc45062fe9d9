"""``colosseum-agent:[OPTIONS:]PATH/student_agent.py``: a Colosseum Survival student
agent, unmodified.

The Colosseum Survival project's agents are classes that subclass
``agents.agent.Agent``, are registered with ``@register_agent("...")`` from
``store``, and answer ``step(chess_board, my_pos, adv_pos, max_step)`` with
``((row, col), dir)``. Student code can hang, crash or hog memory, so it runs in
its own process -- :mod:`arena.remote.colosseum_host`, started with the
student's Python -- under the ``cmd:`` rules (startup off the clock, a hard
deadline, memory and CPU limits, the process group killed at the end). One
instance of the class plays a whole game and keeps its state between moves,
as in the simulator; a new game gets a new process.
``docs/course-agents.md`` has the protocol and what each error means.

Tests: tests/remote/course/test_colosseum_agent.py

Each move the host builds the simulator's board: a numpy bool array
(M, M, 4) of walls, sides up, right, down, left, the border walled and every
inner wall set on both of its cells; positions are (row, col) tuples and
``max_step`` is (M + 1) // 2. An exception in ``step``, an answer that is not
``((row, col), dir)`` or an invalid move loses the game with the reason --
unless ``on_error=random``: then, as the simulator does, a random walk is
played instead and the game record notes it (:attr:`ColosseumAgent.record_notes`).

>>> from arena.games import load_game
>>> state = load_game("colosseum:size=4,walls=0").initial_state(seed=3)
>>> import random
>>> move = random_walk(state, random.Random(1))
>>> move in state.legal_moves()
True
>>> step_line(load_game("colosseum:size=3").position([(0, 0), (2, 2)]))
'step 3 2 0 0 2 2 913802c46'
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

from arena.core.game import Game, State
from arena.core.limit import Limit
from arena.core.spec import Param
from arena.remote import colosseum_host
from arena.remote.colosseum_host import SIDE_BITS, project_root
from arena.remote.course import PYTHON, interpreter, name, program_file, short_path
from arena.remote.external import OPTIONS, ExternalAgent

COURSE_OPTIONS = (
    Param(
        "class", name, None, "the class to play when the file has several", default_text="its only"
    ),
    Param(
        "on_error",
        str,
        "forfeit",
        "forfeit: an exception or invalid move loses; random: play a random walk instead "
        "(the simulator's behaviour), noted in the record",
        choices=("forfeit", "random"),
    ),
    PYTHON,
)

SIDES = "urdl"
_STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))  # (row, col) of up, right, down, left


_INT = re.compile(r"-?[0-9]+")
"""An integer as a program writes it (ASCII digits only: ``int`` takes more)."""


class ColosseumAgent(ExternalAgent):
    prefix = "colosseum-agent"
    name = "colosseum-agent"
    summary = "a Colosseum Survival student agent (a class with step(chess_board, ...))"
    usage = "colosseum-agent:[OPTIONS:]PATH/student_agent.py"
    params = COURSE_OPTIONS + OPTIONS

    def command(self, body: str) -> list[str]:
        self.path = program_file(self.prefix, body, "student_agent.py")
        root = project_root(self.path)
        self.cwd = str(root if root is not None else self.path.parent)
        self.program_name: str | None = None
        self.record_notes: list[str] = []
        """What the record should say: steps replaced by random walks."""
        self.rng = random.Random()
        host = Path(colosseum_host.__file__).resolve()
        argv = [interpreter(self.config["python"]), "-u", str(host), str(self.path)]
        return argv + ([self.config["class"]] if self.config["class"] else [])

    @property
    def label(self) -> str:
        return f"{self.prefix}:{short_path(self.path)}"

    def started(self, game: Game, player: int | None, seed: Any) -> None:
        if game.name != "colosseum":
            raise self._failure("crash", f"a Colosseum Survival agent cannot play {game.name}")
        assert self.process is not None
        self.record_notes = []
        self.rng = random.Random(f"{seed}/{player}")
        with self.starting():
            line = self.process.read_line(self.config["startup"], "'ready'")
        word, _, rest = line.partition(" ")
        if word == "error":
            raise self._failure("crash", f"{rest}; log {self.process.log_path}")
        if word != "ready":
            raise self._failure("illegal", f"said {line[:60]!r} at the start, not 'ready NAME'")
        self.program_name = rest.strip() or None

    def choose(self, state: State, limit: Limit) -> int:
        process = self.running(state.game)
        process.send(step_line(state))
        answer = process.read_line(self.move_timeout(limit), "move")
        word, _, rest = answer.partition(" ")
        if word == "raised":
            return self.failed(state, "crash", f"step raised {rest}")
        if word == "invalid":
            return self.failed(state, "illegal", rest)
        if word != "move":
            return self.failed(state, "illegal", f"answered {answer[:60]!r}, not 'move R C D'")
        move, why = parse_step(state, rest)
        if why:
            return self.failed(state, "illegal", why)
        return move

    def failed(self, state: State, reason: str, detail: str) -> int:
        """A failed step: the game is lost, or (``on_error=random``) a random walk is played."""
        if self.config["on_error"] != "random":
            log = f"; log {self.process.log_path}" if self.process and reason == "crash" else ""
            raise self._failure(reason, detail + log)
        move = random_walk(state, self.rng)
        mover = state.game.player_names[state.to_move]
        self.record_notes.append(
            f"{mover} ply {state.ply + 1}: {detail}; played a random walk "
            f"{state.game.format_move(move)} instead (on_error=random)"
        )
        return move


def step_line(state: State) -> str:
    """The host's ``step`` message for the player to move (see :mod:`colosseum_host`)."""
    size: int = state.size  # type: ignore[attr-defined]
    positions = state.positions  # type: ignore[attr-defined]
    (ar, ac), (br, bc) = positions[state.to_move], positions[1 - state.to_move]
    digits = "".join(
        f"{sum(bit for d, bit in enumerate(SIDE_BITS) if state.has_wall(r, c, d)):x}"  # type: ignore[attr-defined]
        for r in range(size)
        for c in range(size)
    )
    return f"step {size} {state.max_steps} {ar} {ac} {br} {bc} {digits}"  # type: ignore[attr-defined]


def parse_step(state: State, text: str) -> tuple[int, str]:
    """The move of a ``R C D`` answer, or (-1, why it is not a legal move)."""
    size: int = state.size  # type: ignore[attr-defined]
    words = text.split()
    if len(words) != 3 or not all(_INT.fullmatch(w) for w in words):
        return -1, f"step returned {text[:60]!r}"
    r, c, d = map(int, words)
    if not 0 <= d <= 3:
        return -1, f"step returned dir {d}: a side is 0..3 (up, right, down, left)"
    if not (0 <= r < size and 0 <= c < size):
        return -1, f"step returned cell ({r}, {c}), off the {size}x{size} board"
    move = (r * state.game.stride + c) * 4 + d  # type: ignore[attr-defined]
    if move in state.legal_moves():
        return move, ""
    try:
        state.play(move)
    except Exception as exc:  # the rules say why: IllegalMove's reason
        return -1, f"step returned (({r}, {c}), {d}): {getattr(exc, 'reason', exc)}"
    return -1, f"step returned (({r}, {c}), {d}), not a legal move"


def random_walk(state: State, rng: random.Random) -> int:
    """The simulator's stand-in for a failed step: up to K random steps, each through an
    open side and not onto the adversary, then a wall on a random free side."""
    positions = state.positions  # type: ignore[attr-defined]
    (r, c), adversary = positions[state.to_move], positions[1 - state.to_move]
    for _ in range(rng.randint(0, state.max_steps)):  # type: ignore[attr-defined]
        ways = [
            d
            for d, (dr, dc) in enumerate(_STEPS)
            if not state.has_wall(r, c, d) and (r + dr, c + dc) != adversary  # type: ignore[attr-defined]
        ]
        if not ways:
            break
        dr, dc = _STEPS[rng.choice(ways)]
        r, c = r + dr, c + dc
    free = [d for d in range(4) if not state.has_wall(r, c, d)]  # type: ignore[attr-defined]
    return (r * state.game.stride + c) * 4 + rng.choice(free)  # type: ignore[attr-defined]

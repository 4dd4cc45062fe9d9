"""``mcts-lab:[OPTIONS:]PATH/MCTS.py``: a Connect Four MCTS lab's ``MCTS(root, rollouts)``,
unmodified.

The lab hands students ``game1.py`` (Connect Four: ``State`` with ``getMoves``,
``nextState``, ``isTerminal``, ``value`` and ``turn``) and ``MCTS.py``, where they write
``Node`` and ``MCTS(root, rollouts)``, which returns a column. The student's code runs in
its own process -- :mod:`arena.remote.mcts_lab_host`, started with the student's Python
in their folder -- under the ``cmd:`` rules (startup off the clock, a hard deadline,
memory and CPU limits, the process group killed at the end). Each move the host
rebuilds the student's ``game1`` state from the columns played and calls ``MCTS`` with a
root ``Node`` as the lab's ``main`` does; ``rollouts=`` is ``--rollouts`` and ``ucb=``
sets the module's ``UCB_CONST`` (the lab's question: sweep it). The board is the one
``game1.py`` sets: a game spec with another size is refused in one line that names the
spec to use. ``docs/course-agents.md`` has the protocol and what each error means.

Tests: tests/remote/course/test_mcts_lab.py
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from arena.core.errors import SpecError
from arena.core.game import Game, State
from arena.core.limit import Limit
from arena.core.spec import Param
from arena.remote.course import PYTHON, interpreter, missing_package, program_file, short_path
from arena.remote.external import OPTIONS, ExternalAgent

HOST = Path(__file__).resolve().with_name("mcts_lab_host.py")

COURSE_OPTIONS = (
    Param("rollouts", int, 100, "rollouts per move: MCTS(root, rollouts)", low=1, high=10**7),
    Param(
        "ucb",
        float,
        None,
        "the module's UCB_CONST (the exploration constant)",
        low=0.0,
        default_text="the file's own",
    ),
    PYTHON,
)


def board_spec(rows: str, cols: str, k: str) -> str:
    """The connect4 spec of a ``game1.py`` board.

    >>> board_spec("6", "5", "4"), board_spec("6", "7", "4"), board_spec("6", "8", "5")
    ('connect4:rows=6,cols=5', 'connect4', 'connect4:rows=6,cols=8,k=5')
    """
    given = [f"rows={rows}"] if rows != "?" else []
    given += [f"cols={cols}"] if cols != "?" else []
    given += [f"k={k}"] if k not in ("?", "4") else []
    default = given in (["rows=6", "cols=7"], [])
    return "connect4" if default else "connect4:" + ",".join(given)


class MCTSLabAgent(ExternalAgent):
    prefix = "mcts-lab"
    name = "mcts-lab"
    summary = "a Connect Four MCTS lab's MCTS(root, rollouts) from MCTS.py and game1.py"
    usage = "mcts-lab:[OPTIONS:]PATH/MCTS.py"
    params = COURSE_OPTIONS + OPTIONS

    def command(self, body: str) -> list[str]:
        self.path = program_file(self.prefix, body, "MCTS.py")
        if not (self.path.parent / "game1.py").is_file():
            raise SpecError(
                f"{self.prefix}: no game1.py beside {short_path(self.path)} "
                "(the lab's MCTS.py imports it)"
            )
        self.cwd = str(self.path.parent)
        ucb = self.config["ucb"]
        return [
            interpreter(self.config["python"]),
            "-u",
            str(HOST),
            str(self.path),
            str(self.config["rollouts"]),
            "-" if ucb is None else repr(float(ucb)),
        ]

    @property
    def label(self) -> str:
        return f"{self.prefix}:{short_path(self.path)}"

    def started(self, game: Game, player: int | None, seed: Any) -> None:
        if game.name != "connect4":
            raise self._failure("crash", f"an MCTS lab agent plays connect4, not {game.name}")
        assert self.process is not None
        words = self.ready_words(lambda text: missing_package(self.label, text, self.argv[0]))
        if len(words) != 3:
            raise self._failure("illegal", f"said 'ready {' '.join(words)[:50]}' at the start")
        rows, cols, k = words
        c = game.config
        if any(v not in ("?", str(c[key])) for key, v in zip(("rows", "cols", "k"), words)):
            self.close()
            board = f"{rows} rows x {cols} columns" + ("" if k in ("?", "4") else f", {k} to win")
            raise SpecError(
                f"{self.prefix}: {short_path(self.path.parent / 'game1.py')} plays Connect Four "
                f"on {board}, not {game.spec}: use {board_spec(rows, cols, k)}"
            )

    def choose(self, state: State, limit: Limit) -> int:
        process = self.running(state.game)
        self.followed(state)
        process.send(" ".join(["go", *map(str, self.moves)]))
        answer = process.read_line(self.move_timeout(limit), "move")
        word, _, rest = answer.partition(" ")
        if word == "raised":
            raise self._failure("crash", f"MCTS raised {rest}; log {process.log_path}")
        if word == "invalid":
            raise self._failure("illegal", rest)
        if word != "move" or not rest.strip().lstrip("-").isdigit():
            raise self._failure("illegal", f"answered {answer[:60]!r}, not 'move C'")
        column = int(rest)
        if column in state.legal_moves():
            return column
        cols: int = state.game.config["cols"]
        why = (
            f"no such column (0..{cols - 1})"
            if not 0 <= column < cols
            else f"column {column} is full"
        )
        raise self._failure("illegal", f"MCTS returned column {column}: {why}")

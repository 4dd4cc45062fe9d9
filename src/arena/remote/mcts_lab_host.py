"""The process an ``mcts-lab:`` agent runs in: loads a Connect Four MCTS lab's ``MCTS.py``
(with its ``game1.py`` beside it) and answers arena's questions with its ``MCTS``.

Run as a file by the student's Python (``python -u mcts_lab_host.py FILE ROLLOUTS UCB``)
in the student's folder, so it imports nothing from arena -- the standard library,
:mod:`course_host` beside it, and the student's files. ``MCTS.py`` is imported by its
own name, as ``python MCTS.py`` would run it (its ``main`` does not run), and ``game1``
is the module it imported. Messages, one line each:

* host -> arena, once: ``ready ROWS COLS CONNECT``, the board ``game1.py`` sets
  (``HEIGHT``, ``WIDTH``, ``CONNECT``; ``?`` for a constant it does not define), or
  ``error TEXT`` (the host then exits);
* arena -> host: ``go C1 C2 ...``: the columns played so far (0 the leftmost). The host
  rebuilds the student's state from ``game1``'s new game with ``nextState`` for each
  column, makes a root ``Node(state, None)`` and calls ``MCTS(root, ROLLOUTS)``, as the
  lab's ``main`` does, and answers ``move C``; ``raised TEXT`` when it raised (the
  traceback goes to stderr, the agent's log); ``invalid TEXT`` when it returned
  something that is not a column;
* arena -> host: ``quit``.

UCB, when not ``-``, is set as the module's ``UCB_CONST`` before any move (the lab's
constant to sweep).

Tests: tests/remote/course/test_mcts_lab.py
"""

from __future__ import annotations

import importlib
import operator
import sys
import traceback
import types
from pathlib import Path
from typing import IO, Any

if __package__:  # imported by arena (tests, doctests)
    from arena.remote import course_host
else:  # run as a script by the student's Python: the file beside this one
    import course_host


def board_of(game1: types.ModuleType) -> str:
    """``ROWS COLS CONNECT`` from ``game1``'s constants (``?`` for one it lacks)."""
    return " ".join(
        str(value) if isinstance(value, int) else "?"
        for value in (getattr(game1, key, None) for key in ("HEIGHT", "WIDTH", "CONNECT"))
    )


def new_state(game1: types.ModuleType) -> Any:
    """A new game in ``game1``'s terms (``new_game()``, ``newGame()`` or ``State()``)."""
    for maker in ("new_game", "newGame"):
        if callable(getattr(game1, maker, None)):
            return getattr(game1, maker)()
    return game1.State()


def replay(game1: types.ModuleType, columns: list[int]) -> Any:
    """The student's state after ``columns``, each move taken from its own ``getMoves``
    (so it has the type their code expects)."""
    state = new_state(game1)
    for column in columns:
        moves = [m for m in state.getMoves() if m == column]
        if not moves:
            raise ValueError(f"game1's getMoves() has no column {column} after {columns}")
        state = state.nextState(moves[0])
    return state


def serve(file: Path, rollouts: int, ucb: str, out: IO[str]) -> int:
    send = course_host.sender(out)
    try:
        module = course_host.import_from_folder(file)
        game1 = sys.modules.get("game1") or importlib.import_module("game1")
        if ucb != "-":
            module.UCB_CONST = float(ucb)  # type: ignore[attr-defined]
        for needed in ("MCTS", "Node"):
            if not callable(getattr(module, needed, None)):
                raise LookupError(f"{file.name} defines no {needed}")
    except BaseException as exc:
        traceback.print_exc()
        send(course_host.load_error(file, exc))
        return 1
    send(f"ready {board_of(game1)}")
    for words in course_host.commands():
        # Replaying runs the student's game1 too: a raise there is theirs as well.
        ok, result = course_host.student_call(
            send,
            lambda columns: module.MCTS(module.Node(replay(game1, columns), None), rollouts),
            [int(w) for w in words[1:]],
        )
        if not ok:
            continue
        try:
            if isinstance(result, bool):
                raise TypeError
            send(f"move {operator.index(result)}")
        except TypeError:
            send(f"invalid MCTS returned {result!r:.60}, not a column")
    return 0


def main(argv: list[str]) -> int:
    out = course_host.protocol_out()
    return serve(Path(argv[1]).resolve(), int(argv[2]), argv[3], out)


if __name__ == "__main__":
    sys.exit(main(sys.argv))

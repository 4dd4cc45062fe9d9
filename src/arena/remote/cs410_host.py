"""The process a ``cs410-agent:`` runs in: loads a Go final project's agent class and
answers arena's questions with its ``get_move(game_state, time_limit)``.

Run as a file by the student's Python (``python -u cs410_host.py FILE CLASS``) with the
student's folder as working directory, so it imports nothing from arena -- only the
standard library, :mod:`course_host` beside it, and the student's own stencil. The
agent's file is imported by its own module name (``agents``), the folder first on the
import path, so ``go_search_problem``, ``models`` and saved model files are found as
in the course. Messages, one line each:

* arena -> host, once per game: ``new SIZE``;
* host -> arena: ``ready SIZE KOMI MAXLEN NAME``: the stencil's start state for
  ``GoProblem(SIZE)``, its komi and its game's ply limit as OpenSpiel reports them
  (``?`` when its Go engine does not say), and the class's name; or ``error TEXT``
  when the file, its stencil or the class did not load (the host then exits);
* arena -> host: ``play A`` for each move played, the stencil's action index
  (row-major from the stencil's row 0, ``SIZE*SIZE`` the pass), applied with the
  stencil's ``GoProblem.transition``;
* arena -> host: ``go SECONDS``: the host calls ``get_move(state.clone(), SECONDS)``,
  as the course's ``game_runner.py`` does, and answers ``move A``; ``raised TEXT``
  when it raised (the traceback goes to stderr, the agent's log); ``invalid TEXT``
  when it returned something that is not an action index;
* host -> arena: ``over RETURNS`` instead of calling ``get_move`` when the stencil's
  own rules ended its game while arena's go on (OpenSpiel's Go ends a game as a draw
  when a stone move repeats an earlier board); later ``play`` lines are then ignored;
* arena -> host: ``quit``.

Tests: tests/remote/course/test_cs410_agent.py

>>> action_of(7), action_of(True)
(7, None)
"""

from __future__ import annotations

import importlib
import inspect
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

DEFAULT_CLASS = "MCTSAgent"


def action_of(value: Any) -> int | None:
    """The action index ``get_move`` returned (numpy integers too), or None."""
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


def find_class(module: types.ModuleType, wanted: str) -> type:
    """The agent class ``wanted`` of ``module`` (a class with ``get_move`` defined there)."""
    found = {
        name: cls
        for name, cls in vars(module).items()
        if inspect.isclass(cls)
        and cls.__module__ == module.__name__
        and callable(getattr(cls, "get_move", None))
        and not inspect.isabstract(cls)
    }
    for name, cls in found.items():
        if name == wanted:
            return cls
    listed = ", ".join(found) or "none"
    raise LookupError(
        f"no class {wanted!r} in {module.__name__}.py; its classes with get_move: {listed} "
        "(choose with class=NAME)"
    )


def rules(state: Any) -> tuple[str, str]:
    """The komi and ply limit of the stencil's Go engine, as text (``?``: it does not say)."""
    inner = getattr(state, "internal_state", state)
    komi, maxlen = "?", "?"
    try:  # OpenSpiel: the game's parameters
        game = inner.get_game()
        komi = repr(float(game.get_parameters()["komi"]))
        maxlen = str(int(game.max_game_length()))
    except Exception:  # another engine (the stencil's fallback): its configuration, if any
        config = getattr(inner, "config", None)
        value = config.get("komi") if isinstance(config, dict) else getattr(inner, "komi", None)
        if isinstance(value, (int, float)):
            komi = repr(float(value))
    return komi, maxlen


def ended(state: Any) -> bool:
    """Whether the stencil's own rules ended its game (OpenSpiel's Go also ends it, as a
    draw, when a stone move repeats an earlier board)."""
    try:
        return bool(state.is_terminal_state())
    except Exception:  # a stencil without the method: its agent will say
        return False


def new_problem(size: int) -> tuple[Any, Any]:
    """The stencil's ``GoProblem(size)`` and its start state."""
    stencil = importlib.import_module("go_search_problem")
    problem = stencil.GoProblem(size=size)
    return problem, problem.start_state


def serve(file: Path, wanted: str, out: IO[str]) -> int:
    """Load the class, then play games: ``new``, ``play``, ``go`` until ``quit``."""
    send = course_host.sender(out)
    try:
        module = course_host.import_from_folder(file)
        cls = find_class(module, wanted)
    except BaseException as exc:  # the student's import: report, then leave
        traceback.print_exc()
        send(course_host.load_error(file, exc))
        return 1
    agent: Any = None
    problem: Any = None
    state: Any = None
    for words in course_host.commands():
        if words[0] == "new":
            try:
                problem, state = new_problem(int(words[1]))
                agent = cls()
            except BaseException as exc:
                traceback.print_exc()
                send(course_host.load_error(file, exc))
                return 1
            komi, maxlen = rules(state)
            name = str(getattr(agent, "name", "") or cls.__name__).split()
            send(f"ready {getattr(state, 'size', words[1])} {komi} {maxlen} {' '.join(name)[:80]}")
        elif words[0] == "play":
            if ended(state):
                continue  # the stencil's game is over: its state stays as it ended
            try:
                state = problem.transition(state, int(words[1]))
            except BaseException as exc:
                traceback.print_exc()
                send(f"refused {words[1]} {course_host.one_line(exc)}")
        elif words[0] == "go":
            if ended(state):
                send(f"over {' '.join(str(v) for v in state.terminal_value())}")
                continue
            ok, result = course_host.student_call(
                send, agent.get_move, state.clone(), float(words[1])
            )
            if not ok:
                continue
            action = action_of(result)
            if action is None:
                send(f"invalid get_move returned {result!r:.60}, not an action index")
            else:
                send(f"move {action}")
    return 0


def main(argv: list[str]) -> int:
    out = course_host.protocol_out()
    file = Path(argv[1]).resolve()
    return serve(file, argv[2] if len(argv) > 2 else DEFAULT_CLASS, out)


if __name__ == "__main__":
    sys.exit(main(sys.argv))

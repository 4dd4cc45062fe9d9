"""Agents by name: ``load_agent`` turns a spec string into an agent of any kind.

Built-in agents (here and in :mod:`arena.search`) are named ``name[:key=value,...]``;
the kinds that run users' code are named by a prefix: ``py:`` (a class in a file),
``cmd:``, ``gtp:`` and ``pbrain:`` (programs, :mod:`arena.remote`), ``othello-ai:``,
``colosseum-agent:``, ``cs410-agent:`` and ``mcts-lab:`` (course assignments' agents,
``docs/course-agents.md``). Tests:
``tests/agents/test_agent_api.py``.


>>> import random, arena
>>> agent = arena.load_agent("random:seed=7")
>>> game = arena.load_game("tictactoe")
>>> agent.choose(game.initial_state(), arena.Limit(time=1.0)) in range(9)
True
>>> arena.load_agent("random:depth=2")
Traceback (most recent call last):
...
arena.core.errors.SpecError: random: unknown parameter 'depth'; valid: seed=fresh (int): random seed
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from arena.core.agent import Agent
from arena.core.errors import SpecError, excerpt
from arena.core.spec import split_spec, utf8_text

_WHERE = {
    "random": "arena.agents.random_agent:RandomAgent",
    "greedy": "arena.agents.greedy:GreedyAgent",
    "human": "arena.agents.human:HumanAgent",
    "minimax": "arena.search.alphabeta.minimax:MinimaxAgent",
    "alphabeta": "arena.search.alphabeta.alphabeta:AlphaBetaAgent",
    "ids": "arena.search.alphabeta.ids:IDSAgent",
    "mcts": "arena.search.mcts.agent:MCTSAgent",
    "az": "arena.search.az.agent:AZAgent",
    "solver": "arena.agents.solver:SolverAgent",
    "best": "arena.agents.best:BestAgent",
}


_PREFIXED = {
    "py:": "arena.agents.pyclass:load_py_agent",
    "cmd:": "arena.remote.command:CommandAgent",
    "gtp:": "arena.remote.gtp.client:GTPAgent",
    "pbrain:": "arena.remote.pbrain.client:PbrainAgent",
    "openspiel:": "arena.agents.openspiel:load_openspiel_agent",
    "othello-ai:": "arena.remote.othello_ai:OthelloAIAgent",
    "colosseum-agent:": "arena.remote.colosseum_agent:ColosseumAgent",
    "cs410-agent:": "arena.remote.cs410_agent:CS410Agent",
    "mcts-lab:": "arena.remote.mcts_lab:MCTSLabAgent",
}
"""Agents named by a prefix and the rest of the spec; each is built from the whole spec."""


def _resolve(where: str) -> Any:
    module, _, attr = where.partition(":")
    return getattr(import_module(module), attr)


def prefixed(spec: str) -> bool:
    """Whether ``spec`` names an agent by a prefix (``py:``, ``cmd:``...) rather than by name."""
    return spec.strip().lower().startswith(tuple(_PREFIXED))


def agent_names() -> tuple[str, ...]:
    return tuple(_WHERE)


def agent_class(name: str) -> type[Agent]:
    return _resolve(_WHERE[name])  # type: ignore[no-any-return]


def _file_hint(text: str) -> str:
    """For a spec that names a Python file without ``py:``: the spec meant ("" otherwise).

    >>> _file_hint("MyAlphaBeta.py:MyAlphaBeta")
    "'MyAlphaBeta.py:MyAlphaBeta' names a Python file: did you mean py:MyAlphaBeta.py:MyAlphaBeta?"
    >>> _file_hint("mine.py")
    "'mine.py' names a Python file: did you mean py:mine.py:CLASS?"
    """
    path, sep, rest = text.partition(".py")
    if not sep or not path or (rest and not rest.startswith(":")):
        return ""
    meant = f"py:{text}" if rest[1:].strip() else f"py:{path}.py:CLASS"
    return f"{text!r} names a Python file: did you mean {meant}?"


def load_agent(spec: str | Agent) -> Agent:
    """The agent a spec string names: ``name[:key=value,...]``, ``py:…``, ``cmd:…`` or ``gtp:…``."""
    if isinstance(spec, Agent):
        return spec
    text = utf8_text(spec.strip())
    for prefix, where in _PREFIXED.items():
        if text[: len(prefix)].lower() == prefix:
            return _resolve(where)(text)  # type: ignore[no-any-return]
    hint = _file_hint(text)
    if hint:
        raise SpecError(hint)
    name, raw = split_spec(spec)
    if name not in _WHERE:
        valid = ", ".join(
            [
                *_WHERE,
                *("py:FILE.py:CLASS", "cmd:COMMAND", "gtp:COMMAND", "pbrain:COMMAND"),
                "openspiel:mcts",
                *("othello-ai:PATH/agent.py", "colosseum-agent:PATH/student_agent.py"),
                *("cs410-agent:PATH/agents.py", "mcts-lab:PATH/MCTS.py"),
            ]
        )
        raise SpecError(f"unknown agent {excerpt(name)!r}; valid: {valid}")
    return agent_class(name)(**raw)

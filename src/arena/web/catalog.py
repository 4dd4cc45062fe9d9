"""What the browser may choose from, and the checks on what it sends.

Games and agents are listed with their parameters (as ``arena games`` and
``arena agents`` show them). Specs from the browser go through the same
parsers as the command line; agents named by a prefix (``py:``, ``cmd:``, ``gtp:``,
the course adapters...: they run users' code or other programs) are refused
unless the server was started with ``--allow-programs``,
and so are ``az`` and ``eval=net:FILE`` (they read a file on the server); ``human``
(which reads the terminal) is never an agent here: a person
plays by clicking.

>>> agent = check_agent("mcts:rollouts=200", allow_programs=False)
>>> agent.spec
'mcts:rollouts=200'
>>> check_agent("cmd:python evil.py", allow_programs=False)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
arena.core.errors.SpecError: cmd: agents run programs or code on the server; start it with ...
>>> check_limit(61)
Traceback (most recent call last):
...
arena.core.errors.SpecError: time per move must be a number of seconds in 0.01..60, not 61

Tests: tests/web/test_app.py, tests/search/test_net_eval.py
"""

from __future__ import annotations

import math
from typing import Any

from arena.agents.registry import agent_class, agent_names, load_agent, prefixed
from arena.core.agent import Agent
from arena.core.errors import SpecError
from arena.core.limit import Limit
from arena.core.spec import Param, split_spec
from arena.games import NAMES, game_class, load_game
from arena.search.values import EVAL_PARAM, NET, WRITTEN_EVALUATIONS

MAX_SECONDS = 60.0
"""The longest search the browser may ask for (a move, a hint or an analysis)."""

BUILT_IN = tuple(name for name in agent_names() if name != "human")

SERVER_FILES = {"az": ("net",)}
"""Parameters that name a file on the server: the board offers the agent with the package's
own files (az plays the network shipped for the game) and hides them, and a page may set
them only when the server runs with --allow-programs (never a way to open its files)."""


def param_json(param: Param) -> dict[str, Any]:
    return {
        "name": param.name,
        "type": param.kind.__name__,
        "default": param.default,
        "defaultText": param.default_text,
        "low": param.low,
        "high": param.high,
        "choices": list(param.choices) if param.choices else _offered(param),
        "help": param.help,
        "text": param.describe(),
    }


def _offered(param: Param) -> list[str] | None:
    """The choices the board's forms offer for a parameter without fixed choices: eval=
    offers the hand-written evaluations (net:FILE names a file on the server)."""
    return list(WRITTEN_EVALUATIONS) if param is EVAL_PARAM else None


def games_json() -> list[dict[str, Any]]:
    out = []
    for name in NAMES:
        cls = game_class(name)
        out.append(
            {
                "name": name,
                "summary": cls.summary,
                "players": list(cls.player_names),
                "params": [param_json(p) for p in cls.params],
            }
        )
    return out


def agents_json() -> list[dict[str, Any]]:
    out = []
    for name in BUILT_IN:
        cls = agent_class(name)
        hidden = SERVER_FILES.get(name, ())
        params = [param_json(p) for p in cls.params if p.name not in hidden]
        out.append({"name": name, "summary": cls.summary, "params": params})
    return out


def check_game(spec: Any) -> Any:
    if not isinstance(spec, str) or not spec.strip():
        raise SpecError("a game spec is a non-empty string such as 'connect4:rows=6'")
    return load_game(spec)


def check_agent(spec: Any, allow_programs: bool) -> Agent:
    """The agent a spec from the browser names, if the server allows it."""
    if not isinstance(spec, str) or not spec.strip():
        raise SpecError("an agent spec is a non-empty string such as 'mcts:rollouts=200'")
    text = spec.strip()
    if prefixed(text) and not allow_programs:
        prefix = text.split(":")[0].lower() + ":"
        raise SpecError(
            f"{prefix} agents run programs or code on the server; start it with --allow-programs"
        )
    if text.split(":")[0].strip().lower() == "human":
        raise SpecError("'human' is not an agent here: choose 'person' for a side you play")
    if not allow_programs:
        name, params = split_spec(text)
        for key in SERVER_FILES.get(name, ()):
            if key in params:
                raise SpecError(
                    f"{name}:{key}= reads a file on the server; start it with "
                    f"--allow-programs (without {key}=, {name} plays the network shipped "
                    "for the game)"
                )
        if params.get("eval", "").lower().startswith(NET):
            raise SpecError(
                "eval=net: reads a network file on the server; start it with --allow-programs"
            )
    return load_agent(text)


def check_limit(seconds: Any) -> Limit:
    """A time per move from the browser: 0.01..60 seconds."""
    ok = isinstance(seconds, int | float) and not isinstance(seconds, bool)
    if not ok or not math.isfinite(seconds) or not 0.01 <= seconds <= MAX_SECONDS:
        raise SpecError(
            f"time per move must be a number of seconds in 0.01..{MAX_SECONDS:g}, not {seconds!r}"
        )
    return Limit(time=float(seconds))

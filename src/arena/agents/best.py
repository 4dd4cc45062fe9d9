"""``best``: the strongest configuration we have for each game, under one name.

``arena play go:size=9 human best`` should need no knowledge of which family
of search is strongest where. :data:`BEST` is that knowledge, one row per
game (a game spec such as ``go:size=5`` before its game's name), with the
evidence for the choice in ``docs/strength.md``. The agent builds the row's
agent when a game starts and hands it every call; ``last_search.engine``
names the configuration that played.

>>> import arena
>>> agent = arena.load_agent("best:time=2")
>>> game = arena.load_game("tictactoe")
>>> game.format_move(agent.choose(game.play_moves([0, 4, 8]), arena.Limit(time=1.0)))
'b1'
>>> agent.last_search.engine
'solver'

Tests: tests/agents/test_best_agent.py
"""

from __future__ import annotations

from arena.agents.registry import agent_class, load_agent
from arena.core.agent import Agent
from arena.core.game import Game, State
from arena.core.limit import Limit
from arena.core.spec import Param

BEST: dict[str, str] = {
    "tictactoe": "solver",
    "connect4": "ids",
    "othello": "ids",
    "gomoku": "ids",
    "go:size=5": "mcts:c=0,rave=1000,prior=20,rollout=tactics,reuse=1,ladders=1",
    "go": "mcts:c=0,rave=1000,prior=20,rollout=tactics,reuse=1,ladders=1,patterns=10",
    "colosseum": "ids",
}
"""Game spec or game name -> the spec of the strongest agent we have for it."""


THREADED = ("ids", "mcts")
"""The agents that search with threads (``threads=N``)."""


def best_spec(game: Game, threads: int | None = None) -> str:
    """The spec ``best`` plays ``game`` with: the row of its exact spec, else of its name;
    with ``threads``, searching with that many threads where the row's agent can.

    >>> import arena
    >>> best_spec(arena.load_game("connect4")), best_spec(arena.load_game("othello"), 2)
    ('ids', 'ids:threads=2')
    >>> best_spec(arena.load_game("tictactoe"), 2)
    'solver'
    """
    spec = BEST.get(game.spec) or BEST.get(game.name) or "ids"
    name = spec.split(":")[0]
    if threads is None or name not in THREADED:
        return spec
    return f"{spec}{',' if ':' in spec else ':'}threads={threads}"


class BestAgent(Agent):
    name = "best"
    summary = "the strongest configuration for each game (the table in docs/strength.md)"
    params = (
        Param("time", float, 1.0, "seconds per move when the match gives no limit", low=0.001),
        Param(
            "threads",
            int,
            None,
            "threads of the search (ids: Lazy SMP; mcts: a shared tree or a tree per "
            "thread); none: the cores the machine has free, 1 in a game played beside "
            "others (--jobs)",
            low=1,
            high=256,
            default_text="free cores",
        ),
    )
    notes = tuple(f"plays {game} with {spec}" for game, spec in BEST.items())
    param_hint = (
        "best plays a fixed spec for each game (arena agents lists them): to change one of "
        f"its knobs, give that spec with the knob added instead (go: {BEST['go']},KEY=VALUE)"
    )

    def _setup(self, time: float, threads: int | None) -> None:
        self.default_time = time
        self.threads = threads
        self.playing: Agent | None = None
        self.agents: dict[str, Agent] = {}
        # The agents it plays through are imported now (ids brings numba: a second on a
        # busy machine), not inside the first move's limit.
        for spec in set(BEST.values()):
            agent_class(spec.split(":")[0])

    def agent_for(self, game: Game) -> Agent:
        """The agent that plays ``game`` (built once per game spec)."""
        agent = self.agents.get(game.spec)
        if agent is None:
            # No time= in the row's spec: an agent's own time caps the match's (2 s a
            # move would be searched for 1 s); ``best``'s time only fills an unbounded limit.
            agent = self.agents[game.spec] = load_agent(best_spec(game, self.threads))
        self.playing = agent
        agent.listener = self.listener
        return agent

    def reset(self, game: Game | None = None) -> None:
        if game is not None:
            self.agent_for(game).reset(game)
        elif self.playing is not None:
            self.playing.reset()

    def observe(self, state: State, move: int) -> None:
        self.agent_for(state.game).observe(state, move)

    def choose(self, state: State, limit: Limit) -> int:
        agent = self.agent_for(state.game)
        move = agent.choose(state, Limit(time=self.default_time) if limit.unbounded else limit)
        self.last_search = agent.last_search
        if self.last_search is not None:
            self.last_search.engine = agent.spec
        return move

    def stop(self) -> None:
        if self.playing is not None:
            self.playing.stop()

    def close(self) -> None:
        for agent in self.agents.values():
            agent.close()

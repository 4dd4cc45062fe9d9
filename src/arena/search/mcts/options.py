"""MCTS options: the agent's parameters as one typed frozen value, and the parts they choose.

The spec string is parsed once (``Param`` binding) into :class:`MCTSOptions`;
the tree policy and the evaluator are built from it once, when the agent is
built, so the search loop never looks at an option string.

Tests: ``tests/search/test_mcts.py``, ``tests/games/test_go_ladders.py`` (``ladders``),
``tests/games/test_go_replies.py`` (``lgrf``), ``tests/games/test_go_learned.py`` (``patterns``),
``tests/games/test_go_nakade.py`` (``nakade``), ``tests/games/test_go_lowlib.py`` (``lowlib``).

>>> o = MCTSOptions.from_config({"tree": "egreedy", "eps": 0.2, "rollouts": 50})
>>> o.policy(), o.rollouts, o.expand_all
(EGreedy(eps=0.2), 50, False)
>>> MCTSOptions().policy()
UCT(c=1.4142135623730951)
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from arena.core.errors import SpecError
from arena.core.spec import Param, file_path
from arena.search.mcts.evaluator import Evaluator, HeuristicRollout, RandomRollout
from arena.search.mcts.tree_policy import UCT, EGreedy, TreePolicy

PARAMS = (
    # No number of its own: under a clock MCTS searches on time (MCTSAgent.budget), and
    # 1000 applies only when neither the match nor time= gives a budget.
    Param(
        "rollouts",
        int,
        None,
        "simulations per move at most; none: as many as the move's time allows "
        "(1000 when neither the match nor time= sets a limit)",
        low=1,
    ),
    Param(
        "time",
        float,
        None,
        "seconds per move at most (the match's time caps it; with rollouts: whichever first)",
        low=0.001,
    ),
    Param("c", float, math.sqrt(2), "UCT exploration constant", low=0.0),
    Param("tree", str, "uct", "tree policy", choices=("uct", "egreedy")),
    Param("eps", float, 0.1, "exploration rate of tree=egreedy", low=0.0, high=1.0),
    Param("expand", str, "one", "children added per iteration", choices=("one", "all")),
    Param(
        "rollout",
        str,
        "random",
        "simulation policy: uniform, heuristic (python engine), the kernel's cheap policy, "
        "the kernel's tactical policy (fast engine; go: captures, atari escapes)",
        choices=("random", "heuristic", "cheap", "tactics"),
    ),
    Param(
        "final", str, "robust", "move played: most visits or best rate", choices=("robust", "max")
    ),
    Param("reuse", bool, False, "keep the subtree of the moves played"),
    Param(
        "manage",
        bool,
        False,
        "on a game clock: stop once the runner-up cannot catch the most visited move, think "
        "on (up to half as long again) while a well-visited move has a better win rate",
    ),
    Param("solver", bool, False, "MCTS-Solver: propagate proven wins and losses"),
    Param(
        "rave",
        float,
        0.0,
        "MC-RAVE equivalence k of beta = sqrt(k/(3n+k)); 0 off (fast engine: go, gomoku, ttt)",
        low=0.0,
    ),
    Param(
        "bias", float, 0.0, "rave: minimum-MSE schedule with this bias (0: the k schedule)", low=0.0
    ),
    Param(
        "prior", float, 0.0, "rave: virtual simulations of the game's knowledge per move", low=0.0
    ),
    Param(
        "widen",
        float,
        0.0,
        "rave, with prior: progressive widening, a node looks at its moves best prior first, "
        "one more after A, 1.4A, 1.4^2 A... simulations (Coulom: 40); 0 all moves (it lost "
        "on Go 13x13)",
        low=0.0,
    ),
    Param(
        "ladders",
        int,
        0,
        "go, with rave and prior: 1 the prior reads ladders; 2 the tactical rollout too "
        "(rollout=tactics: no running a captured string, the atari that starts a ladder)",
        low=0,
        high=2,
    ),
    Param(
        "lgrf",
        int,
        0,
        "go, rollout=tactics: the rollout plays the last good reply to the last two moves "
        "(else the last one) and forgets replies that lost (Baier and Drake's LGRF-2); "
        "1 before its own policy, 2 after its saves, captures and shapes",
        low=0,
        high=2,
    ),
    Param(
        "nakade",
        int,
        0,
        "go, rollout=tactics: 1 the rollout (and the prior) may put two stones or more in "
        "atari inside the opponent's eye space of up to six points once the opponent has no "
        "liberty outside it, to kill a group whose vital point is taken",
        low=0,
        high=1,
    ),
    Param(
        "lowlib",
        int,
        0,
        "go, rollout=tactics: 1 the rollout answers a move that leaves a string with two "
        "liberties (the owner extends to three or captures, the opponent gives an atari the "
        "string cannot run from), after its saves and captures, before its shapes",
        low=0,
        high=1,
    ),
    Param(
        "patterns",
        int,
        0,
        "go, with rave and prior: the prior from move features fitted to GNU Go's choices "
        "(3x3 shapes, distances to the last moves, line, the tactics), K percent a nat "
        "around 50; 0 the hand-set prior",
        low=0,
        high=100,
    ),
    Param(
        "priors",
        file_path,
        None,
        "go, with patterns: the weights file (.npz) scripts/fit_go_priors.py wrote; none: "
        "the shipped weights",
    ),
    Param(
        "threads",
        int,
        None,
        "threads searching at once (compiled engine); none: the cores the machine has free, "
        "1 in a game played beside others (--jobs)",
        low=1,
        high=256,
        default_text="free cores",
    ),
    Param(
        "parallel",
        str,
        "auto",
        "threads>1: one shared tree (virtual loss), one tree per thread (root), or per game",
        choices=("auto", "tree", "root"),
    ),
    Param(
        "dynkomi",
        int,
        0,
        "go, compiled engine: 1 a handicap's stones counted back in the search's komi early "
        "on; 2 that and, while well ahead, a komi against itself (situational)",
        low=0,
        high=2,
    ),
    Param("seed", int, None, "random seed", default_text="fresh"),
    Param(
        "engine",
        str,
        "fast",
        "compiled search where the game has a kernel, or the python reference",
        choices=("fast", "python"),
    ),
)
"""The ``mcts`` agent's parameters, in the order ``arena agents`` lists them."""


@dataclass(frozen=True)
class MCTSOptions:
    rollouts: int | None = None
    time: float | None = None
    c: float = math.sqrt(2)
    tree: str = "uct"
    eps: float = 0.1
    expand_all: bool = False
    """``expand=all``: every child of a leaf at once, one simulation each (the 5x5 Go
    course assignment's variant); otherwise one child per iteration."""
    rollout: str = "random"
    robust: bool = True
    """``final=robust`` plays the most visited move; ``final=max`` the best win rate."""
    reuse: bool = False
    manage: bool = False
    """On a game clock, stop early or think on by the root's visits
    (:mod:`arena.search.clock.stopping`)."""
    solver: bool = False
    rave: float = 0.0
    """MC-RAVE (compiled engine): the ``k`` of the schedule ``beta = sqrt(k / (3n + k))``."""
    bias: float = 0.0
    """MC-RAVE's minimum-MSE schedule with this bias instead (when > 0)."""
    prior: float = 0.0
    """Virtual simulations, at the kernel's knowledge rate, that start each move's AMAF values."""
    widen: float = 0.0
    """Progressive widening (with ``prior``): a node looks at its first
    :func:`~arena.search.mcts.rave.width_of` moves by the prior; 0 at all of them."""
    dynkomi: int = 0
    """1: search with the game's ``search_komi`` (Go: a handicap counted back early on,
    falling to the rules' komi) instead of the rules' komi; 2: that, and while the search is
    well ahead, points given away (:mod:`arena.search.mcts.komi`). The compiled engine only."""
    ladders: int = 0
    """The kernel's knob ``ladders`` (Go: 1 ``prior`` reads ladders, 2 the tactical rollout
    too); needs ``prior``, and 2 needs ``rollout=tactics``."""
    lgrf: int = 0
    """The kernel's knob ``lgrf`` (Go: the tactical rollout plays and learns the last good
    replies, 1 before its own policy, 2 after its urgent moves); needs ``rollout=tactics``."""
    nakade: int = 0
    """The kernel's knob ``nakade`` (Go: a self-atari inside the opponent's small eye space
    is allowed in the tactical rollout and its prior); needs ``rollout=tactics``."""
    lowlib: int = 0
    """The kernel's knob ``lowlib`` (Go: the tactical rollout answers strings left with two
    liberties); needs ``rollout=tactics``."""
    patterns: int = 0
    """The kernel's knob ``patterns`` (Go: ``prior`` from the fitted move features,
    ``games/go/learned.py``, K percent a nat); needs ``prior``."""
    priors: str | None = None
    """A weights file of ``scripts/fit_go_priors.py`` that ``patterns`` reads in place of the
    shipped one (``Kernel.weights``)."""
    seed: int | None = None
    engine: str = "fast"
    threads: int | None = None
    """Threads of the compiled search (None: :func:`~arena.search.threads.default_threads`)."""
    parallel: str = "auto"
    """``tree`` (one shared tree), ``root`` (a tree per thread) or ``auto`` (per game)."""

    def __post_init__(self) -> None:
        if (self.bias or self.prior) and not self.rave:
            raise SpecError("mcts: bias= and prior= shape RAVE: give rave=K (K > 0) too")
        if self.ladders and not self.prior:
            raise SpecError(
                f"mcts: ladders={self.ladders} shapes the prior: give rave=K and prior=N too"
            )
        if self.widen and not self.prior:
            raise SpecError(
                "mcts: widen= ranks the moves by the prior: give rave=K and prior=N too"
            )
        if self.patterns and not self.prior:
            raise SpecError(
                f"mcts: patterns={self.patterns} shapes the prior: give rave=K and prior=N too"
            )
        if self.priors and not self.patterns:
            raise SpecError("mcts: priors= holds the weights of patterns=K: give patterns=K too")
        if self.ladders >= 2 and self.rollout != "tactics":
            raise SpecError(
                "mcts: ladders=2 reads ladders in the tactical rollout: give rollout=tactics too"
            )
        for name, value in (("lgrf", self.lgrf), ("nakade", self.nakade), ("lowlib", self.lowlib)):
            if value and self.rollout != "tactics":
                raise SpecError(
                    f"mcts: {name}={value} shapes the tactical rollout: give rollout=tactics too"
                )
        if self.compiled_only and (self.engine == "python" or self.rollout == "heuristic"):
            raise SpecError(
                "mcts: rave=, rollout=tactics and dynkomi= run in the compiled engine only "
                "(not with engine=python or rollout=heuristic)"
            )
        if self.rave and (self.tree != "uct" or self.expand_all):
            raise SpecError("mcts: rave= works with tree=uct and expand=one")

    @property
    def compiled_only(self) -> bool:
        """Whether these options need the compiled engine (RAVE, the tactical rollout, the
        dynamic komi)."""
        return bool(self.rave) or self.rollout == "tactics" or self.dynkomi > 0

    @property
    def knobs(self) -> dict[str, int]:
        """The kernel knobs (``Kernel.knobs``) these options turn on, with their values."""
        pairs = (
            ("ladders", self.ladders),
            ("lgrf", self.lgrf),
            ("nakade", self.nakade),
            ("lowlib", self.lowlib),
            ("patterns", self.patterns),
        )
        return {name: v for name, v in pairs if v}

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> MCTSOptions:
        """The options from bound parameters (``Agent.config``); missing ones keep defaults."""
        names = {f.name for f in fields(cls)}
        values = {k: v for k, v in config.items() if k in names}
        if "expand" in config:
            values["expand_all"] = config["expand"] == "all"
        if "final" in config:
            values["robust"] = config["final"] == "robust"
        return cls(**values)

    def policy(self) -> TreePolicy:
        """The tree policy these options choose."""
        return UCT(self.c) if self.tree == "uct" else EGreedy(self.eps)

    def evaluator(self) -> Evaluator:
        """The evaluator of the python engine (``cheap`` is the compiled kernels' own
        policy; the python engine plays uniform random rollouts for it)."""
        return HeuristicRollout() if self.rollout == "heuristic" else RandomRollout()

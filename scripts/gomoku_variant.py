"""``ids`` (what ``best`` plays on Gomoku) with its Gomoku engine's settings as parameters,
so that a change is measured against the engine without it in one ``arena match``.

Usage (from the checkout; both sides loaded the same way, in one process):

    arena match gomoku "py:scripts/gomoku_variant.py:Variant:defend=1,threads=1" \\
        "py:scripts/gomoku_variant.py:Variant:defend=-1,threads=1" --in-process \\
        --move-time 0.5 --games 100 --openings random:plies=4,judge=6,balance=0.005

- ``defend``: threes of the opponent's threat search before each move
  (``gomoku.DEFEND_THREES``; -1: not looked for, the engine before it);
- ``root_threes``: one thread's root VCT in place of its VCF (``gomoku.ROOT_THREES``; 0:
  the VCF);
- ``answer``: 1 (``gomoku.ANSWER``): a node facing a threat of an open four searches only
  its answers; 0: the engine before it;
- ``w1`` ... ``w4``, ``tempo``, ``threat``, ``fork``, ``fork_other``, ``line1`` ...
  ``line3``, ``edge``: the evaluation's constants (``gomoku.WINDOW``, ``gomoku.TEMPO``,
  ``gomoku.THREAT``, ``gomoku.FORK``, ``gomoku.LINES``, ``gomoku.EDGE``; 15x15 boards);
- ``pattern``: 1, the evaluation by the empty cells' pattern classes (``gomoku.PATTERN``);
  ``moves``: the moves' scores by those classes too, times this (``gomoku.PATTERN_MOVES``;
  the classes are kept only with ``pattern`` on, so it needs it); ``combos``: the pattern
  weights, ``shipped`` (the engine's own, one a combination of four shapes:
  ``gomoku.COMBOS_FILE``), ``classes`` (one a class: ``gomoku.PATTERN_MOVER`` and
  ``gomoku.PATTERN_OTHER``, the engine before them; no count terms) or an ``.npz`` of
  weights by combination and, if it has them, count terms (``fit_gomoku_eval.py --combos``,
  ``--counts``: ``gomoku.load_counts``);
- ``beam``: the moves a node searches below the root (``gomoku.BEAM``), every thread's;
  ``leaf``: the plies of the VCF at the horizon (``gomoku.LEAF_PLIES``; 0: none);
- ``lmr``: late moves below the root (``gomoku.LMR``): 0, plain alpha-beta; N, PVS with the
  moves from the Nth on a ply shallower first (late move reductions); 99, PVS alone;
  ``null``: null-move pruning below the root (``gomoku.NULL``): 0, none; R, a pass searched
  R + 1 plies shallower;

Defaults are the engine's own, so ``Variant`` alone plays as ``ids``.
Tests: tests/search/test_gomoku_threats.py
"""

from __future__ import annotations

from pathlib import Path

from arena.core.errors import SpecError
from arena.core.game import Game
from arena.core.spec import Param
from arena.search.alphabeta.engines import Engine
from arena.search.alphabeta.engines.gomoku import engine as gomoku
from arena.search.alphabeta.ids import IDSAgent


class Variant(IDSAgent):
    name = "gomoku-variant"
    summary = "ids with the Gomoku engine's settings as parameters (measurements)"
    params = (
        *IDSAgent.params,
        Param("defend", int, gomoku.DEFEND_THREES, "opponent's threats: threes (-1 off)", low=-1),
        Param("root_threes", int, gomoku.ROOT_THREES, "one thread's root VCT threes", low=0),
        Param("answer", int, gomoku.ANSWER, "search only the answers to a three (0 off)", low=0),
        *(
            Param(f"w{j}", float, gomoku.WINDOW[j - 1], f"a window of {j} stones", low=0.0)
            for j in (1, 2, 3, 4)
        ),
        Param("tempo", float, gomoku.TEMPO, "the mover's windows count this many times", low=0.0),
        Param("threat", float, gomoku.THREAT, "each of the other side's open-four cells", low=0.0),
        Param("fork", float, gomoku.FORK[0], "each of the mover's four-three cells", low=0.0),
        Param("fork_other", float, gomoku.FORK[1], "each of the other's four-three cells", low=0.0),
        *(
            Param(f"line{j}", float, gomoku.LINES[j - 1], f"a stone on line {j} from the edge")
            for j in (1, 2, 3)
        ),
        Param("edge", float, gomoku.EDGE, "the weight of a window along the edge", low=0.0),
        Param("pattern", float, gomoku.PATTERN, "1: the pattern evaluation (0: windows)", low=0.0),
        Param("moves", float, gomoku.PATTERN_MOVES, "moves ordered by classes too", low=0.0),
        Param("combos", str, "shipped", "pattern weights: shipped, classes or an .npz"),
        Param("beam", int, gomoku.BEAM, "moves a node searches below the root", low=1),
        Param("leaf", int, gomoku.LEAF_PLIES, "plies of the VCF at the horizon", low=0),
        Param("lmr", int, gomoku.LMR, "PVS, reducing from this move on (0: alpha-beta)", low=0),
        Param("null", int, gomoku.NULL, "null-move pruning, R plies deeper cut (0: none)", low=0),
    )

    def _setup(  # type: ignore[override]
        self,
        defend: int,
        root_threes: int,
        answer: int,
        w1: float,
        w2: float,
        w3: float,
        w4: float,
        tempo: float,
        threat: float,
        fork: float,
        fork_other: float,
        line1: float,
        line2: float,
        line3: float,
        edge: float,
        pattern: float,
        moves: float,
        combos: str,
        beam: int,
        leaf: int,
        lmr: int,
        null: int,
        **rest: object,
    ) -> None:
        if moves != 0.0 and pattern == 0.0:
            raise SpecError("gomoku-variant: moves= orders by the cells' classes: needs pattern=1")
        weights = None if combos == "shipped" else (gomoku.PATTERN_MOVER, gomoku.PATTERN_OTHER)
        counts = None
        if combos not in ("shipped", "classes"):
            if pattern == 0.0:
                raise SpecError("gomoku-variant: combos= weighs the patterns: needs pattern=1")
            try:
                weights = gomoku.load_combos(Path(combos))
                counts = gomoku.load_counts(Path(combos))
            except ValueError as error:
                raise SpecError(f"gomoku-variant: combos: {error}") from None
        super()._setup(**rest)  # type: ignore[arg-type]
        self.defend, self.root_threes = defend, root_threes
        self.answer = answer
        self.beam, self.leaf, self.lmr, self.null = beam, leaf, lmr, null
        self.evaluation, self.move_attack, self.move_defend = gomoku.weights(
            5, tempo, threat, (w1, w2, w3, w4), (fork, fork_other), 15, (line1, line2, line3), edge,
            pattern, weights, moves, counts,
        )  # fmt: skip

    def tune(self, built: Engine | None) -> Engine | None:
        if isinstance(built, gomoku.GomokuEngine):
            built.defend_threes = self.defend
            built.root_threes = self.root_threes
            value = built.search.value  # shared by the helpers; set_root sums it afresh
            if value.size == self.evaluation.size:  # five in a row (the table is for k=5)
                value[:] = self.evaluation
                built.search.attack[:] = self.move_attack
                built.search.defend[:] = self.move_defend
            searches = [built.search, *(built.smp.helpers if built.smp is not None else [])]
            for search in searches:  # each has a geometry row of its own (GomokuSearch.varied)
                search.geo[0][gomoku.G_ANSWER] = self.answer  # type: ignore[attr-defined]
                search.geo[0][gomoku.G_BEAM] = self.beam  # type: ignore[attr-defined]
                search.geo[0][gomoku.G_LMR] = self.lmr  # type: ignore[attr-defined]
                search.geo[0][gomoku.G_NULL] = self.null  # type: ignore[attr-defined]
                search.leaf_vcf = self.leaf  # type: ignore[attr-defined]
        return built

    def engine(self, game: Game) -> Engine | None:
        return self.tune(super().engine(game))

    def _engine_on_clock(self, game: Game, seconds: float | None) -> Engine | None:
        return self.tune(super()._engine_on_clock(game, seconds))

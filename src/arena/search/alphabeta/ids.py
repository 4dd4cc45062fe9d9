"""``ids``: iterative-deepening alpha-beta that answers in time.

It searches depth 1, 2, 3, ... while time remains and plays the best move of
the last depth it completed. Each iteration starts from the previous one's
best move and reuses the transposition table, so the re-searches of shallow
depths cost little and order the deeper search well. It stops early when the
value is a proven win or loss, or when a depth evaluated no position at its
horizon (every line ended the game, so deeper search cannot change the answer).
On Othello it plays the exact endgame instead when a solve fits in half the
move's time (:func:`arena.solvers.exact.exact_endgame`), and on 8x8 on a clock with
``book=FILE`` the opening book's move while the position is in the book
(:mod:`arena.search.alphabeta.engines.othello.book`). Games with a compiled
engine (:mod:`arena.search.alphabeta.engines`: Othello up to 8x8) are searched by it
unless ``engine=python`` or an evaluation other than the game's heuristic is asked for:
``eval=utility``, or ``eval=net:FILE``, a network's value head
(:mod:`arena.search.az.value`), which no compiled engine calls. On a clock it decides
its own time for the move (:mod:`arena.search.clock.time_management`: more in the middle game,
next to nothing with one legal move).

Even with 1 ms it returns a legal move: the first depth is preceded by a
fallback move, and the deadline keeps a margin for answering.

>>> import arena
>>> game = arena.load_game("connect4")
>>> state = game.play_moves(game.parse_moves("4455"))
>>> agent = arena.load_agent("ids")
>>> game.format_move(agent.choose(state, arena.Limit(time=0.5))) in ("3", "6")
True
>>> agent.last_search.root[0]["text"]   # 3 (or 6), a block, then the other end
'win in 3'

Tests: tests/search/test_search.py, tests/agents/test_agent_api.py (progress and stop),
tests/search/test_ids_engines.py, tests/search/test_net_eval.py
"""

from __future__ import annotations

import threading
from functools import partial
from pathlib import Path

from arena.core.agent import Agent, SearchInfo
from arena.core.errors import SpecError
from arena.core.game import Game, State
from arena.core.limit import Limit
from arena.core.spec import Param, file_path
from arena.search.alphabeta.alphabeta import GameSearcher, root_rows
from arena.search.alphabeta.engines import Engine, engine_for
from arena.search.alphabeta.engines.othello.book import Book, read_book
from arena.search.az.value import cutoff_evaluation
from arena.search.clock.background import Background
from arena.search.clock.deadline import Deadline, SearchTimeout, quiet_gc
from arena.search.clock.time_management import move_time
from arena.search.threads import default_threads
from arena.search.values import EVAL_PARAM, is_proven
from arena.solvers.exact import exact_endgame

ONE_THREAD_UNLESS_ASKED: frozenset[str] = frozenset({"othello"})
"""Games whose compiled engine searches on one thread unless ``threads=`` says otherwise
(where a second thread measured no stronger than one, so it would only take a core).
Othello: with its helper restarted at every depth, 9.5 of 30 against one thread at 0.5 s
a move; rebuilt (helpers deepening over the whole move, the table checked by XOR),
49.5 of 100 at 0.5 s a move (2026-11-26, docs/speed.md "Threads"): no longer weaker,
not stronger, and its longest move took 0.52 s of 0.5."""


class IDSAgent(Agent):
    name = "ids"
    summary = "iterative-deepening alpha-beta: deepens while time remains, never overruns"
    params = (
        Param("time", float, 1.0, "seconds per move when the match gives no limit", low=0.001),
        Param("maxdepth", int, 64, "deepest iteration", low=1, high=256),
        EVAL_PARAM,
        Param("cache", bool, True, "keep the transposition table between iterations and moves"),
        Param("exact", bool, True, "Othello: play the exact endgame when a solve fits the time"),
        Param(
            "engine",
            str,
            "auto",
            "auto: the game's compiled engine where it has one; python: the reference",
            choices=("auto", "python"),
        ),
        Param(
            "threads",
            int,
            None,
            "compiled engines: threads searching at once (Lazy SMP through the shared "
            "table); none: the cores the machine has free, 1 in a game played beside "
            "others (--jobs)",
            low=1,
            high=256,
            default_text="free cores",
        ),
        Param(
            "book",
            file_path,
            "none",
            "Othello 8x8: an opening book file of scripts/build_othello_book.py, played on a "
            "clock while the position is in it (none: every move searched; docs/strength.md)",
        ),
        Param(
            "multipv",
            int,
            0,
            "analysis: after each depth, search the best N root moves again with an open "
            "window so each has an exact value, not a bound (the python "
            "search and the Othello engine; arena analyze and the web board's Analyze set it)",
            low=0,
            high=256,
        ),
    )

    def _setup(
        self,
        time: float,
        maxdepth: int,
        eval: str,
        cache: bool,
        exact: bool,
        engine: str,
        threads: int | None,
        book: str,
        multipv: int,
    ) -> None:
        self.default_time, self.maxdepth, self.exact = time, maxdepth, exact
        self.threads = threads or default_threads()
        """Threads of the compiled engines (Lazy SMP); the readable search runs on one."""
        self.threads_given = threads is not None
        """``threads=`` was in the spec: the games of :data:`ONE_THREAD_UNLESS_ASKED` too."""
        self.multipv = multipv
        """Root moves to value exactly (analysis: ``arena analyze``, the web board)."""
        self.book: Book | None = None
        """The Othello opening book its engines play (``book=FILE``)."""
        if book.lower() != "none":
            try:  # read now: a bad file is an error of the spec, not of a move
                self.book = read_book(Path(book))
            except ValueError as exc:
                raise SpecError(f"ids: book={book}: {exc}") from None
        self.searchers = GameSearcher(cutoff_evaluation(eval, self.name), cache, order=True)
        # The compiled engine is the game's own search: only with the game's own evaluation
        # (utility and a value network, eval=net:, are searched by the readable alpha-beta).
        self.compiled = engine == "auto" and eval == "heuristic"
        self.engines: dict[str, Engine | None] = {}
        self._building = Background()
        """Compiled engines asked for by a timed move before they were built."""
        self.halt = threading.Event()
        """Set by :meth:`stop` until the next move: the exact endgame looks at it."""

    def reset(self, game: Game | None = None) -> None:
        self.searchers.reset(game)
        self.engines.clear()
        if game is not None:
            self.engine(game)  # build it (load its compiled code) now, off the clock

    def threads_for(self, game: Game) -> int:
        """The threads ``game``'s engine searches with: one by default on the games of
        :data:`ONE_THREAD_UNLESS_ASKED`, where Lazy SMP measured weaker than one thread."""
        if game.name in ONE_THREAD_UNLESS_ASKED and not self.threads_given:
            return 1
        return self.threads

    def engine(self, game: Game) -> Engine | None:
        """The compiled engine that plays ``game`` for this agent, if any."""
        if not self.compiled:
            return None
        if game.spec not in self.engines:
            # One a timed move started building: wait for it rather than build twice.
            built = self._building.wait(game.spec)
            if built is None:
                built = self._built(game)
            self.engines[game.spec] = built or None
        return self.engines[game.spec]

    def _built(self, game: Game) -> Engine | None:
        """A new compiled engine for ``game``, with the book ``book=`` asks for."""
        built = engine_for(game, self.threads_for(game))
        if built is not None and self.book is not None and hasattr(built, "book"):
            built.book = self.book
        return built

    def _engine_on_clock(self, game: Game, seconds: float | None) -> Engine | None:
        """The engine for a move of ``seconds``: one nobody built yet (no ``reset(game)``:
        its compiled code and table take 0.1-7 s to load) is built in the background while
        the readable search answers within the limit (:mod:`arena.search.clock.background`)."""
        if seconds is None or not self.compiled or game.spec in self.engines:
            return self.engine(game)
        built = self._building.get(game.spec, lambda: self._built(game) or False)
        if built is None:
            return None
        self.engines[game.spec] = built or None
        return self.engines[game.spec]

    def stop(self) -> None:
        self.halt.set()
        searcher = self.searchers.current
        if searcher is not None:
            searcher.deadline.stop()
        for engine in list(self.engines.values()):
            stop = getattr(engine, "stop", None)  # engines that can be stopped from outside
            if stop is not None:
                stop()

    def choose(self, state: State, limit: Limit) -> int:
        self.halt.clear()
        # On a clock the agent decides its own time (search/clock/time_management.py).
        seconds = limited = move_time(limit, state)
        if seconds is None and not (limit.depth or limit.nodes):
            seconds = self.default_time
        # The caller's time (not the agent's own default) is what a cold move must keep.
        engine = self._engine_on_clock(state.game, limited)
        if engine is not None and self.multipv > 1 and not getattr(engine, "multipv", False):
            # An analysis asks each move its own value: the compiled Connect Four and Gomoku
            # engines search a whole depth per call and cannot re-search one move with an
            # open window, so the readable search (which can) answers, slower but exact.
            engine = None
        if engine is not None:
            depth = min(self.maxdepth, limit.depth or self.maxdepth)
            # A node budget: the engine searches it on one thread (the same move on any
            # machine), as the readable search counts its nodes.
            budget = {"nodes": limit.nodes} if limit.nodes else {}
            if self.multipv > 1 and getattr(engine, "multipv", False):
                move, self.last_search = engine.choose(  # type: ignore[call-arg]
                    state, seconds, depth, self, multipv=self.multipv, **budget
                )
            else:
                move, self.last_search = engine.choose(state, seconds, depth, self, **budget)
            return move
        searcher = self.searchers.get(state.game)
        # Othello: the exact endgame when it fits in half the time (report rows say "exact").
        exact, seconds = exact_endgame(state, seconds, self.halt) if self.exact else (None, seconds)
        if exact is not None:
            self.last_search = exact.info
            return exact.move
        deadline = searcher.deadline = Deadline(0.0 if self.halt.is_set() else seconds)
        searcher.nodes = 0
        searcher.max_nodes = limit.nodes or float("inf")
        maxdepth = min(self.maxdepth, limit.depth or self.maxdepth)
        move = state.legal_moves()[0]
        unit = self.searchers.cutoff.units(state.game)
        info = SearchInfo(depth=0, units=unit.note)
        first = None
        with quiet_gc():
            for depth in range(1, maxdepth + 1):
                try:
                    value, best, rows = searcher.root(state, depth, first)
                except SearchTimeout:
                    # A partial iteration's first move is the previous best, searched
                    # first; one that beat it is better still.
                    if searcher.root_best is not None and info.depth:
                        move = searcher.root_best
                    break
                if self.multipv > 1:
                    # Analysis: the best moves each get an exact value at this depth. A
                    # pass the deadline cuts short would leave the rest with their bounds:
                    # the analysis shows the last depth whose every row is exact instead.
                    rows, complete = searcher.open_window(state, rows, depth, self.multipv)
                    if not complete and info.depth:
                        break
                move = first = best
                info.depth, info.value = depth, value
                info.root = root_rows(state, rows, depth, unit)
                line = searcher.principal_variation(state, best, depth)
                shown_best = state.game.format_move(best)
                row = next((r for r in info.root if r["move"] == shown_best), info.root[0])
                row["pv"] = [state.game.format_move(m) for m in line]
                shown = info.root
                if self.listener is not None and self.report(
                    partial(
                        SearchInfo,
                        deadline.elapsed(),
                        depth,
                        searcher.nodes,
                        value,
                        shown,
                        units=unit.note,
                    ),
                    force=True,
                ):
                    break
                if is_proven(value) or not searcher.horizon:
                    break
        info.nodes = searcher.nodes
        info.seconds = deadline.finish()
        self.last_search = info
        return move

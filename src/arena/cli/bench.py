"""``arena bench``: speed figures (benchmarks, never tests).

Tests: tests/cli/test_cli.py
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from importlib import import_module
from typing import Any

from arena.agents import load_agent
from arena.bench import engines, measure, parallel, strength
from arena.bench import sandbox as sandbox_bench
from arena.bench import timing as timing_bench
from arena.bench import tournament as bench_tournament
from arena.core.errors import ArenaError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "bench",
        help="measure speed: random playouts per second, with OpenSpiel alongside",
        description="Benchmarks run in one process on this machine; ratios are measured in the "
        "same run. Install the 'bench' extra (pip install -e '.[bench]') to compare with "
        "OpenSpiel.",
    )
    kinds = p.add_subparsers(dest="kind", metavar="KIND", required=True)
    playouts = kinds.add_parser(
        "playouts",
        help="random playouts per second for each game",
        description="Random playouts per second from the start position for each game "
        "(Tic-tac-toe, Connect Four, Othello, Go 5x5 and 9x9, Gomoku, Colosseum): Game.playout, "
        "the game's compiled kernel where it has one (with the ratio), and OpenSpiel's C++ "
        "games driven from Python in the same run when it is installed.",
    )
    playouts.set_defaults(func=run_kind, module="playouts")

    agents = kinds.add_parser(
        "agents",
        help="MCTS simulations/s (fast, reference, OpenSpiel C++) and alpha-beta nodes/s",
        description="MCTS simulations per second from the empty board (one random rollout "
        "each) with the compiled engine and the python reference, and alpha-beta nodes per "
        "second at a fixed depth, per game. With the bench extra, OpenSpiel's C++ MCTSBot and "
        "easyAI's Negamax (Connect Four, depth 6) run in the same process and the ratios are "
        "printed. With --sims N, instead: the time of a move of exactly N simulations, ours "
        "(mcts:rollouts=N, one thread, through the agent's choose(), set-up and reading of the "
        "result included) against OpenSpiel's MCTSBot with max_simulations=N (same UCT "
        "constant, one random rollout), interleaved move by move from the empty board and two "
        "fixed positions; prints the medians, the ratio (theirs / ours: above 1 when ours is "
        "faster) and our per-move overhead (choose()'s wall time less the time inside the "
        "compiled search). --seconds is not used then.",
    )
    agents.add_argument(
        "--sims",
        metavar="N",
        help="compare moves of exactly N simulations (e.g. 3000) instead of rates",
    )
    agents.add_argument(
        "--moves",
        type=int,
        default=7,
        help="with --sims: moves timed per position and side (default 7)",
    )
    agents.set_defaults(func=run_agents, module="agents")
    compile_ = kinds.add_parser(
        "compile",
        help="first-use compile time per game, and the warm start of arena analyze",
        description="Run 'arena warmup GAME' for each game in an empty numba cache (the "
        "compilation a user's first use pays), then time 'arena analyze connect4 \"\" "
        "mcts:rollouts=1000' warm, with the fast and the python engine.",
    )
    compile_.add_argument("--games", nargs="*", metavar="GAME", help="only these games")
    _json_option(compile_)
    compile_.set_defaults(func=run_compile)
    timing = kinds.add_parser(
        "timing",
        help="do agents answer within their time? (10,000 moves, limits 20 ms .. 1 s)",
        description="Let every built-in agent (random, greedy, minimax, alpha-beta, ids, mcts "
        "with random and with heuristic rollouts, solver, best) answer positions from every "
        "game at limits from 20 ms to 1 s, and print the overruns (target: none), the "
        "p50/p99/max of time used over the limit, and the same for each agent's first (cold) "
        "move on each game. An agent that cannot play a game is left out of it with one line "
        "(an error when the game was named with --game). The default 10,000 moves take about "
        "ten minutes.",
    )
    timing.add_argument("--moves", type=int, default=10_000, help="moves to time (default 10000)")
    timing.add_argument("--seed", type=int, default=0, help="seed of the positions")
    timing.add_argument(
        "--agents",
        nargs="+",
        metavar="AGENT",
        help="only these agent specs, py: classes too (default: every built-in agent: "
        + ", ".join(timing_bench.AGENTS)
        + ")",
    )
    timing.add_argument(
        "--game",
        nargs="+",
        metavar="GAME",
        help="only these game specs (e.g. othello go:size=9); every agent must play them "
        "(default: " + ", ".join(timing_bench.GAMES) + ", leaving out a game an agent "
        "cannot play)",
    )
    timing.add_argument(
        "--move-time",
        nargs="+",
        type=float,
        metavar="S",
        help="only these limits in seconds, the moves shared evenly "
        "(default: 0.02 .. 1, most moves at the short ones)",
    )
    timing.add_argument(
        "--threads",
        type=int,
        metavar="N",
        help="search on N threads where an agent's spec does not say threads= (mcts, ids, "
        "best; default: the cores the machine has free)",
    )
    _json_option(timing)
    timing.set_defaults(func=run_timing)
    parallel = kinds.add_parser(
        "jobs",
        help="games per minute with --jobs N against --jobs 1 (fixed-budget games)",
        description="Play the same 12 fixed-budget Connect Four games (MCTS 2000 vs 1000 rollouts) "
        "in one process and with N worker processes, and print games per minute and the "
        "speed-up.",
    )
    parallel.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    _json_option(parallel)
    parallel.set_defaults(func=run_parallel)
    solve = kinds.add_parser(
        "solve",
        help="the exact solvers on reference positions (Connect Four 200, Othello FFO #40-#44)",
        description="Solve the reference positions with the compiled solvers, check every score "
        "and print total and mean time, nodes and nodes/s (Othello: each position's time). "
        "Pascal Pons' C++ solver takes 12.5-15.0 s for the 200 Connect Four positions on this "
        "project's machine. Othello: with an Edax executable (--edax, or edax on the PATH), "
        "Edax solves the same positions in the same run, one thread, with an all-zero "
        "evaluation file unless --edax-eval gives one, and the time ratio is printed.",
    )
    solve.add_argument(
        "game", nargs="?", default="connect4", choices=("connect4", "othello"), help="which set"
    )
    solve.add_argument("--file", default=None, help="another positions file in the same format")
    solve.add_argument(
        "--positions",
        default=None,
        metavar="N-M",
        help="othello: the FFO numbers to solve, e.g. 45-49 or 40,47 (default 40-44; #40-#49 "
        "are in the set)",
    )
    solve.add_argument(
        "--edax", default=None, metavar="PATH", help="othello: the Edax executable to compare with"
    )
    solve.add_argument(
        "--edax-eval",
        default=None,
        metavar="FILE",
        help="othello: Edax's evaluation file (default: all zeros, no evaluation-guided order)",
    )
    solve.add_argument(
        "--every-move",
        action="store_true",
        help="othello: also time each move's exact value, the rest of what arena solve prints "
        "(with Edax: Edax's hint does the same in the same run, each value checked)",
    )
    solve.add_argument("--json", action="store_true", help="print one JSON object as the last line")
    solve.set_defaults(func=run_solve)
    engines = kinds.add_parser(
        "engines",
        help="score against GNU Go (Go 5x5, 9x9) and GRhino (Othello) over GTP",
        description="Play our agents against real engines at a fixed time per move, colours "
        "alternating, one game at a time, and print our score with its 95% interval and the "
        "forfeits. Needs gnugo and gtp-rhino (Debian packages gnugo and grhino; "
        "scripts/install-engines installs them). Defaults: mcts:rollout=heuristic,reuse=1 for "
        "Go and ids for Othello; GNU Go at level 10, GRhino at level 3.",
    )
    engines.add_argument("--games", type=int, default=10, help="games per case (default 10)")
    engines.add_argument(
        "--move-time", type=float, default=2.0, help="seconds per move, both sides (default 2)"
    )
    engines.add_argument("--seed", type=int, default=1, help="seed of our agents (default 1)")
    engines.add_argument(
        "--cases",
        nargs="*",
        metavar="GAME",
        help="only these cases: go:size=5, go:size=9, othello (default all)",
    )
    engines.add_argument("--go", metavar="AGENT", help="our agent for Go")
    engines.add_argument("--othello", metavar="AGENT", help="our agent for Othello")
    engines.add_argument("--gnugo-level", type=int, default=10, help="GNU Go --level (default 10)")
    engines.add_argument("--grhino-level", type=int, default=3, help="GRhino --level (default 3)")
    _json_option(engines)
    engines.set_defaults(func=run_engines)
    power = kinds.add_parser(
        "strength",
        help="issue 15's strength table and targets: vs OpenSpiel MCTS, GNU Go and GRhino",
        description="Play each case one game at a time, colours alternating, at a fixed time per "
        "move for both sides, and print score, W-D-L and 95% interval over the games not lost "
        "on time, the forfeits apart, the machine's load average and, for the rows of issue "
        "15's targets ('best' against each opponent), whether the target is met. Needs the "
        "'bench' extra for openspiel:mcts and gnugo/gtp-rhino for theirs "
        "(scripts/install-engines); the 'gomocup' rows need pbrain-rapfi on the PATH "
        "(scripts/build-rapfi). The 'go19' rows (19x19 against GNU Go, even and giving it "
        "four handicap stones as White in every game) take 10-25 minutes a game.",
    )
    power.add_argument("--games", type=int, default=10, help="games per case (default 10)")
    power.add_argument(
        "--move-time",
        type=float,
        help="seconds per move for every case (default: each case's own, 0.1 to 2)",
    )
    power.add_argument("--seed", type=int, default=1, help="seed of our agents (default 1)")
    rows = ", ".join(
        c.name for c in (*strength.CASES, *strength.TARGETS, *strength.GOMOCUP, *strength.GO19)
    )
    power.add_argument(
        "--cases",
        nargs="*",
        metavar="CASE",
        help="rows, or the groups 'table' (the issue's table, the default), 'targets' "
        f"(best against each target), 'gomocup' (best against Rapfi) and 'go19' (best "
        f"against GNU Go on 19x19): {rows}",
    )
    _json_option(power)
    power.set_defaults(func=run_strength)
    tournament = kinds.add_parser(
        "tournament",
        help="what a tournament costs around its games: 100 games of fast agents",
        description="Play a round robin of fast agents (random and greedy on Connect Four: "
        "their moves take microseconds) into a fresh results database and print the median "
        "wall and CPU time of --repeat runs: the cost of planning, refereeing, storing and "
        "the standings.",
    )
    tournament.add_argument("--games", type=int, default=100, help="games (default 100)")
    tournament.add_argument("--repeat", type=int, default=3, help="runs (default 3)")
    _json_option(tournament)
    tournament.set_defaults(func=run_tournament)
    sandbox = kinds.add_parser(
        "sandbox",
        help="what --sandbox adds to an agent program's start: time to its first move",
        description="Launch a cmd: program (no arena import) and a py: class (served by "
        "arena's Python) --repeat times each, plain and under --sandbox alternately, and "
        "print the median time from launch to the first Connect Four move and the "
        "difference. Fails with one line where bubblewrap cannot run.",
    )
    sandbox.add_argument("--repeat", type=int, default=10, help="launches per case (default 10)")
    _json_option(sandbox)
    sandbox.set_defaults(func=run_sandbox)
    web = kinds.add_parser(
        "web",
        help="the web board's time from New game to a drawn board, per game",
        description="Open the web board's WebSocket in this process, ask for a new game of "
        "each game and time its first state message (the first of each game apart), while a "
        "second client's pings are timed. Needs the web extra.",
    )
    web.add_argument("--repeat", type=int, default=30, help="boards per game (default 30)")
    _json_option(web)
    web.set_defaults(func=run_web)
    az = kinds.add_parser(
        "az",
        help="az's forward pass and search, batched and not, and beside DeepMind's mctx",
        description="The compiled forward pass (us a position, single calls and batches) and "
        "PUCT's simulations a second with leaves one at a time and batched, the readable "
        "search (python) beside the compiled one (the az agent's default); then, with the "
        "'learn' extra (jax, mctx), the same network in JAX searched by mctx.muzero_policy "
        "and mctx.gumbel_muzero_policy on fixed positions of Tic-tac-toe and Connect Four "
        "(whose rules are written in JAX here): how often the moves agree, the distance "
        "between the visit distributions, and the time per move of each (docs/az.md). "
        "Random networks of 32 filters and 2 blocks unless --net names one.",
    )
    az.add_argument("--net", metavar="FILE", help="a network (.npz) instead of random ones")
    az.add_argument(
        "--games", nargs="+", metavar="GAME", default=["tictactoe", "connect4"],
        help="games (default tictactoe connect4)",
    )  # fmt: skip
    az.add_argument("--sims", type=int, default=64, help="simulations a move (default 64)")
    az.add_argument("--positions", type=int, default=16, help="positions a game (default 16)")
    az.add_argument(
        "--root", nargs="+", choices=("puct", "gumbel"), default=["puct", "gumbel"],
        help="root selections compared (default both)",
    )  # fmt: skip
    az.add_argument("--c-puct", type=float, default=1.5, help="PUCT's constant (default 1.5)")
    az.add_argument("--gumbel-m", type=int, default=16, help="Gumbel's m (default 16)")
    az.add_argument("--batch", type=int, default=8, help="leaves a batch (default 8)")
    az.add_argument("--seed", type=int, default=0, help="positions and networks (default 0)")
    _json_option(az)
    az.set_defaults(func=run_az)
    threats = kinds.add_parser(
        "threats",
        help="Gomoku's threat search (VCF, VCT): nodes/s near the stones and whole-board",
        description="Run Gomoku's compiled threat search (VCF, then VCT with three threes for "
        "the side to move; two threes for the other side) from --positions positions of "
        "clustered stones, each search twice, interleaved: scanning only near the stones "
        "(the engine's way) and scanning the whole board (the reference). Prints nodes per "
        "second of each, their ratio and the machine's load; both must search the same "
        "nodes and find the same wins (exit status 1 otherwise).",
    )
    threats.add_argument(
        "--positions", type=int, default=200, help="positions to search from (default 200)"
    )
    threats.add_argument(
        "--nodes", type=int, default=2000, help="most nodes of one search (default 2000)"
    )
    threats.add_argument("--seed", type=int, default=0, help="the positions' draw (default 0)")
    _json_option(threats)
    threats.set_defaults(func=run_threats)
    threads = kinds.add_parser(
        "threads",
        help="MCTS simulations/s and ids nodes/s per thread count (e.g. --threads 1,2)",
        description="Search each game's start position with every thread count in turn "
        "(interleaved --rounds times): the compiled MCTS with one shared tree "
        "(parallel=tree) and with a tree per thread (parallel=root), and ids' compiled "
        "engine with Lazy SMP (Connect Four, Othello, Gomoku). Prints work per second and "
        "the ratio to the first count, with the work per processor-second (the cost of "
        "sharing, which the machine's load does not change) and the load before and after. "
        "Run it with nothing else running: a core the machine's other work uses is not "
        "the search's to gain.",
    )
    threads.add_argument(
        "--threads",
        default="1,2",
        metavar="N,N",
        help="thread counts, comma-separated (default 1,2)",
    )
    threads.add_argument(
        "--kinds",
        default="tree,root,ids",
        metavar="K,K",
        help="what to measure: tree, root (MCTS), ids (default tree,root,ids)",
    )
    threads.add_argument("--rounds", type=int, default=3, help="rounds per figure (default 3)")
    threads.set_defaults(func=run_threads)
    for sub_parser in (playouts, agents, threads):
        sub_parser.add_argument(
            "--seconds",
            type=float,
            default=2.0,
            help="seconds of measurement per figure (default 2)",
        )
        sub_parser.add_argument(
            "--games", nargs="*", metavar="GAME", help="only these games (names or specs as listed)"
        )
        _json_option(sub_parser)


def _json_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--json", action="store_true", help="print one JSON object as the last line"
    )


def _reported(
    args: argparse.Namespace, bench_run: Callable[[Callable[[str], None]], dict[str, Any]]
) -> dict[str, Any]:
    """Run a benchmark that reports line by line: the lines on stdout, or with
    ``--json`` on stderr and its result as one JSON object last on stdout."""
    result = bench_run((lambda line: print(line, file=sys.stderr)) if args.json else print)
    if args.json:
        print(json.dumps(result))
    return result


def run_sandbox(args: argparse.Namespace) -> int:
    if args.repeat < 1:
        raise ArenaError(f"--repeat must be >= 1, not {args.repeat}")
    _reported(args, lambda report: sandbox_bench.run(args.repeat, report))
    return 0


def run_tournament(args: argparse.Namespace) -> int:
    if args.games < 2 or args.repeat < 1:
        raise ArenaError("--games must be >= 2 and --repeat >= 1")
    _reported(args, lambda report: bench_tournament.run_bench(report, args.games, args.repeat))
    return 0


def run_az(args: argparse.Namespace) -> int:
    if args.sims < 2 or args.positions < 1 or args.batch < 1 or args.gumbel_m < 1:
        raise ArenaError("--sims must be >= 2, --positions, --batch and --gumbel-m >= 1")
    az_bench = import_module("arena.bench.az")
    _reported(
        args,
        lambda report: az_bench.run_bench(
            report,
            tuple(args.games),
            args.sims,
            args.positions,
            tuple(args.root),
            args.net,
            args.c_puct,
            args.gumbel_m,
            args.batch,
            args.seed,
        ),
    )
    return 0


def run_web(args: argparse.Namespace) -> int:
    if args.repeat < 1:
        raise ArenaError(f"--repeat must be >= 1, not {args.repeat}")
    web_bench = import_module("arena.web.bench")
    _reported(args, lambda report: web_bench.run_bench(report, repeat=args.repeat))
    return 0


def run_compile(args: argparse.Namespace) -> int:
    agents = import_module("arena.bench.agents")
    _reported(args, lambda report: agents.compile_times(args.games, report))
    return 0


def run_parallel(args: argparse.Namespace) -> int:
    if args.jobs < 2:
        raise ArenaError(f"--jobs must be >= 2 to compare with one process, not {args.jobs}")
    _reported(args, lambda report: parallel.run(args.jobs, report))
    return 0


def run_engines(args: argparse.Namespace) -> int:
    ours = {k: v for k, v in (("go", args.go), ("othello", args.othello)) if v}
    for spec in ours.values():
        load_agent(spec)
    if not 1 <= args.gnugo_level <= 10 or not 1 <= args.grhino_level <= 5:
        raise ArenaError("--gnugo-level must be in 1..10 and --grhino-level in 1..5")
    every = engines.cases(args.gnugo_level, args.grhino_level, ours)
    selected = every
    if args.cases:
        known = {c.game: c for c in every}
        unknown = [name for name in args.cases if name not in known]
        if unknown:
            raise ArenaError(f"unknown case {unknown[0]!r}; valid: {', '.join(known)}")
        selected = [known[name] for name in args.cases]
    for case in selected:
        load_agent(case.engine)  # the engine is installed, or one line saying it is not
    _reported(
        args, lambda report: engines.run(args.games, args.move_time, args.seed, selected, report)
    )
    return 0


def run_strength(args: argparse.Namespace) -> int:
    selected = strength.select(args.cases)
    for case in selected:  # every agent loads, or one line saying what is missing
        load_agent(case.ours)
        load_agent(case.opponent)
    _reported(
        args, lambda report: strength.run(args.games, args.move_time, args.seed, selected, report)
    )
    return 0


def run_timing(args: argparse.Namespace) -> int:
    if args.moves < 1:
        raise ArenaError(f"--moves must be >= 1, not {args.moves}")
    for seconds in args.move_time or ():
        if not seconds > 0:
            raise ArenaError(f"--move-time must be > 0, not {seconds:g}")
    if args.threads is not None and args.threads < 1:
        raise ArenaError(f"--threads must be >= 1, not {args.threads}")
    agents = tuple(args.agents or timing_bench.AGENTS)
    for spec in agents:
        load_agent(spec)  # a bad spec is one line, before any move is timed
    result = _reported(
        args,
        lambda report: timing_bench.run(
            args.moves, args.seed, report, agents, args.game, args.move_time, args.threads
        ),
    )
    return 1 if result["overruns"] else 0


def run_threats(args: argparse.Namespace) -> int:
    if args.positions < 1 or args.nodes < 1:
        raise ArenaError(
            f"--positions and --nodes must be >= 1, not {args.positions} and {args.nodes}"
        )
    threats_bench = import_module("arena.bench.threats")  # numba: only when asked for
    result = _reported(
        args, lambda report: threats_bench.run(args.positions, args.nodes, args.seed, report)
    )
    return 1 if result["differ"] else 0


def run_threads(args: argparse.Namespace) -> int:
    threads_bench = import_module("arena.bench.threads")  # numba: only when asked for
    try:
        counts = [int(n) for n in args.threads.split(",")]
    except ValueError:
        raise ArenaError(f"--threads takes counts like 1,2, not {args.threads!r}") from None
    if not counts or min(counts) < 1:
        raise ArenaError(f"--threads counts must be >= 1, not {args.threads!r}")
    kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
    unknown = [k for k in kinds if k not in ("tree", "root", "ids")]
    if unknown or not kinds:
        raise ArenaError(f"--kinds takes tree, root and ids, not {args.kinds!r}")
    if args.seconds <= 0 or args.rounds < 1:
        raise ArenaError("--seconds must be > 0 and --rounds >= 1")
    known = measure.names(threads_bench.CASES)
    for name in args.games or ():
        if name not in known:
            raise ArenaError(f"unknown benchmark game {name!r}; valid: {', '.join(sorted(known))}")
    _reported(
        args,
        lambda report: threads_bench.run(
            args.seconds, args.games, report, counts, kinds, args.rounds
        ),
    )
    return 0


def run_solve(args: argparse.Namespace) -> int:
    solve = import_module("arena.bench.solve")  # numba: only when asked for
    report = (lambda line: print(line, file=sys.stderr)) if args.json else print
    result = solve.run(
        args.game,
        args.file,
        report,
        args.positions,
        args.edax,
        args.edax_eval,
        args.every_move,
    )
    if args.json:
        print(json.dumps(result))
    return 1 if result["wrong"] else 0


def run_agents(args: argparse.Namespace) -> int:
    if args.sims is None:
        return run_kind(args)
    try:
        sims = int(args.sims)
    except ValueError:
        raise ArenaError(f"--sims takes a number of simulations, not {args.sims!r}") from None
    if sims < 1 or args.moves < 1:
        raise ArenaError(f"--sims and --moves must be >= 1, not {sims} and {args.moves}")
    bench = import_module(f"arena.bench.{args.module}")
    known = measure.names(bench.CASES)
    for name in args.games or ():
        if name not in known:
            raise ArenaError(f"unknown benchmark game {name!r}; valid: {', '.join(sorted(known))}")
    _reported(args, lambda report: bench.fixed_budget(sims, args.games, report, args.moves))
    return 0


def run_kind(args: argparse.Namespace) -> int:
    bench = import_module(f"arena.bench.{args.module}")
    if args.seconds <= 0:
        raise ArenaError(f"--seconds must be > 0, not {args.seconds}")
    known = measure.names(bench.CASES)
    for name in args.games or ():
        if name not in known:
            raise ArenaError(f"unknown benchmark game {name!r}; valid: {', '.join(sorted(known))}")
    _reported(args, lambda report: bench.run(args.seconds, args.games, report))
    return 0

"""``arena train GAME``: AlphaZero-style self-play training of an ``az`` network.

The loop, its files and its defaults are :mod:`arena.learn.train`'s; this module reads
the options, checks them (one line each), and resumes a run whose directory already
holds a checkpoint. Training needs the ``learn`` extra (JAX, optax); without it the
command says how to install it and exits with status 2.

Tests: tests/learn/test_train.py
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.core.errors import ArenaError
from arena.games import load_game

if TYPE_CHECKING:
    from arena.learn.train import Plan, Settings

# (option dest, where it goes, the minimum) for the integer options.
INTEGERS = (
    ("sims", "selfplay.simulations", 1),
    ("games_per_step", "games_per_step", 1),
    ("batches_per_step", "batches_per_step", 1),
    ("batch_size", "batch_size", 1),
    ("buffer_size", "buffer_size", 1),
    ("blocks", "arch.blocks", 0),
    ("channels", "arch.filters", 1),
    ("temperature_moves", "selfplay.temperature_moves", 0),
    ("batch", "selfplay.batch", 1),
)
SIZE_OPTIONS = {"arch.blocks": "--blocks", "arch.filters": "--channels"}
"""The network's sizes an option sets, and the option (an ``--init`` network must agree)."""
SEED = ("seed", "seed")
RESCORE = (("rescore_nodes", "rescore.nodes", 1), ("rescore_from", "rescore.min_ply", 0))
FLOATS = (("lr", "optimiser.learning_rate"), ("l2", "optimiser.l2"))


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "train",
        help="train an az network by self-play (AlphaZero), needs pip install -e '.[learn]'",
        description="Self-play reinforcement learning of a policy and value network for the "
        "az agent: the current network plays games against itself (PUCT search with Dirichlet "
        "noise at the root, moves drawn by visits in the opening), the positions go to a "
        "replay buffer, the network trains on it (JAX), and every few steps it plays the last "
        "accepted network and arena's mcts for an Elo estimate. DIR receives latest.npz (the "
        "network, playable as az:net=DIR/latest.npz), nets/step-N.npz, log.jsonl, "
        "training.svg (Elo against time, the losses) and the checkpoint; running the same "
        "command again resumes from it. Defaults depend on the game (docs/az.md).",
        epilog="examples: arena train tictactoe --steps 30 | "
        "arena train connect4 --out c4 --time-budget 3600 --jobs 2",
    )
    p.add_argument("game", metavar="GAME", help="game spec: tictactoe, connect4, othello, ...")
    p.add_argument("--out", metavar="DIR", help="the run's directory (default: train-GAME)")
    p.add_argument("--steps", type=int, help="train until this step (counted from the start)")
    p.add_argument(
        "--time-budget", type=float, metavar="SECONDS",
        help="start no new step after this many seconds (of this invocation)",
    )  # fmt: skip
    p.add_argument("--sims", type=int, help="simulations a move in self-play")
    p.add_argument("--games-per-step", type=int, metavar="N", help="self-play games a step")
    p.add_argument("--batches-per-step", type=int, metavar="N", help="training batches a step")
    p.add_argument("--batch-size", type=int, metavar="N", help="records a training batch")
    p.add_argument("--buffer-size", type=int, metavar="N", help="records the buffer keeps")
    p.add_argument("--blocks", type=int, help="residual blocks of the network")
    p.add_argument("--channels", type=int, help="filters of each convolution")
    p.add_argument("--temperature-moves", type=int, metavar="N",
                   help="plies whose self-play move is drawn by visits")  # fmt: skip
    p.add_argument("--batch", type=int, metavar="B",
                   help="self-play leaves a network call (default 8, tictactoe 1)")  # fmt: skip
    p.add_argument("--lr", type=float, help="Adam's learning rate")
    p.add_argument("--l2", type=float, help="weight of the L2 penalty on the weights")
    p.add_argument("--seed", type=int, help="seed of the run (the same seed, the same run)")
    p.add_argument(
        "--init", metavar="NET.npz",
        help="start a new run from this exported network (az's .npz, e.g. a run's "
        "latest.npz) instead of a random one: its weights only, with a fresh optimiser and "
        "an empty buffer; the network's sizes are the file's (--blocks/--channels must "
        "agree); give it a smaller --lr than it was trained with (e.g. 5e-4). A resume keeps "
        "the run's start: the same --init or none",
    )  # fmt: skip
    p.add_argument(
        "--rescore", choices=("none", "solver"),
        help="value targets: none (the game's result, AlphaZero's) or solver (each "
        "self-play position the exact solver settles within --rescore-nodes gets its exact "
        "value, win/draw/loss; connect4 only). May be switched on at a resume",
    )  # fmt: skip
    p.add_argument("--rescore-nodes", type=int, metavar="N",
                   help="the solver's budget a position, in nodes (default 1000000)")  # fmt: skip
    p.add_argument("--rescore-from", type=int, metavar="PLY",
                   help="rescore only positions from this ply on (default 0)")  # fmt: skip
    p.add_argument("--eval-games", type=int, metavar="N",
                   help="games of each evaluation match (0: none; default 20)")  # fmt: skip
    p.add_argument("--eval-every", type=int, metavar="N", help="steps between evaluations (5)")
    p.add_argument("--eval-sims", type=int, metavar="N",
                   help="simulations a move in evaluations (default: --sims)")  # fmt: skip
    p.add_argument("--jobs", type=int, help="worker processes for self-play (default 1)")
    p.set_defaults(func=run)


def settings_from(args: argparse.Namespace, base: Settings) -> tuple[Settings, dict[str, Any]]:
    """``base`` with the options given; also the given options by their settings path."""
    given: dict[str, Any] = {}
    for dest, path, low in (*INTEGERS, *RESCORE):
        value = getattr(args, dest)
        if value is not None:
            if value < low:
                flag = "--" + dest.replace("_", "-")
                raise ArenaError(f"{flag} must be a whole number >= {low}, not {value}")
            given[path] = value
    if args.seed is not None:
        given["seed"] = args.seed
    if args.rescore is not None:
        given["rescore.method"] = args.rescore
    if args.init is not None:
        given["init"] = str(Path(args.init).resolve())
    for dest, path in FLOATS:
        value = getattr(args, dest)
        if value is not None:
            if not value >= 0 or value == float("inf"):
                raise ArenaError(f"--{dest} must be a finite number >= 0, not {value}")
            given[path] = value
    settings = base
    for path, value in given.items():
        settings = set_path(settings, path, value)
    return settings, given


def set_path(settings: Settings, path: str, value: Any) -> Settings:
    if "." in path:
        part, name = path.split(".")
        return replace(settings, **{part: replace(getattr(settings, part), **{name: value})})
    return replace(settings, **{path: value})


def get_path(settings: Settings, path: str) -> Any:
    """The value at ``path`` (``arch.filters``) of ``settings``."""
    value: Any = settings
    for part in path.split("."):
        value = getattr(value, part)
    return value


def plan_from(args: argparse.Namespace, base: Plan) -> Plan:
    plan = base
    for dest, low in (("steps", 1), ("eval_games", 0), ("eval_every", 1), ("eval_sims", 1),
                      ("jobs", 1)):  # fmt: skip
        value = getattr(args, dest)
        if value is not None:
            if value < low:
                flag = "--" + dest.replace("_", "-")
                raise ArenaError(f"{flag} must be a whole number >= {low}, not {value}")
            plan = replace(plan, **{dest: value})
    if args.time_budget is not None:
        if not 0 < args.time_budget < float("inf"):
            raise ArenaError(
                f"--time-budget must be a number of seconds > 0, not {args.time_budget}"
            )
        plan = replace(plan, time_budget=args.time_budget)
    return plan


def echo(line: str) -> None:
    print(line, flush=True)


def run(args: argparse.Namespace) -> int:
    # numpy, numba and the training loop only when a run starts (not for `arena --help`).
    learn = import_module("arena.learn.train")
    game = load_game(args.game)
    base, plan = learn.defaults(game)
    out = Path(args.out or f"train-{game.name}")
    if out.exists() and not out.is_dir():
        raise ArenaError(f"--out {out}: not a directory")
    settings, given = settings_from(args, base)
    saved = out / "checkpoint.npz"
    if saved.exists():
        stored = learn.Settings.from_json(learn.saved_settings(saved))
        if stored.game != game.spec:
            raise ArenaError(f"{out} holds a run of {stored.game}, not {game.spec}")
        for path, value in given.items():
            if path.startswith("rescore."):  # may change at a resume
                stored = set_path(stored, path, value)
            elif get_path(stored, path) != value:
                raise ArenaError(
                    f"{out} holds a run with {path}={json.dumps(get_path(stored, path))}, "
                    f"not {value}: resume it without that option, or use another --out"
                )
        settings = stored
    elif args.init is not None:
        # A new run from a network: its sizes are the file's, unless the options differ.
        asked = [path.split(".")[1] for path in SIZE_OPTIONS if path in given]
        try:
            net = learn.initial_network(settings.init, game, settings.arch, asked)
        except learn.SizeMismatch as exc:
            raise ArenaError(
                f"--init {args.init}: the network has {learn.sizes(exc.has)}, not "
                f"{SIZE_OPTIONS['arch.' + exc.size]} {exc.wanted}"
            ) from None
        settings = replace(settings, arch=learn.architecture_of_network(net))
    import_module("arena.learn.rescore").check(game, settings.rescore)
    bar = GameBar() if sys.stdout.isatty() else None
    trainer = learn.Trainer(
        out, settings, plan_from(args, plan), echo=bar.echo if bar else echo,
        on_game=bar.update if bar else learn.quiet,
    )  # fmt: skip
    try:
        trainer.run()
    finally:
        if bar is not None:
            bar.close()
    return 0


class GameBar:
    """A transient progress bar of the step's games on a terminal (rich), the step lines
    printed above it."""

    def __init__(self) -> None:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

        self.progress = Progress(
            "{task.description}", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
            transient=True,
        )  # fmt: skip
        self.task = self.progress.add_task("self-play", total=None)
        self.progress.start()
        self.phase = ""

    def echo(self, line: str) -> None:
        self.progress.console.print(line, highlight=False, markup=False, soft_wrap=True)

    def update(self, phase: str, done: int, total: int) -> None:
        if phase != self.phase or done <= 1:  # a new phase: its own clock
            self.progress.reset(self.task, total=total, description=phase)
            self.phase = phase
        self.progress.update(self.task, completed=done)

    def close(self) -> None:
        self.progress.stop()

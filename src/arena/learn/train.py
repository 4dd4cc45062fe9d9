"""``arena train``'s loop: self-play, the replay buffer, training, checkpoints, evaluation.

Each step of a run:

1. the current network plays ``games_per_step`` self-play games (the ``az`` search with
   Dirichlet noise at each root and moves drawn by visits for the first plies,
   :mod:`arena.learn.selfplay`), on ``jobs`` worker processes if asked; game ``g`` of
   the run draws from ``default_rng([seed, g])``, so which worker plays it does not matter;
2. their records join the replay buffer (the latest ``buffer_size`` records);
3. ``batches_per_step`` training batches are drawn from the buffer (each record under a
   random symmetry of the board, :mod:`arena.learn.augment`) and the network is trained
   on them (:mod:`arena.learn.model`);
4. the network is exported to ``DIR/latest.npz``, the buffer and the checkpoint are
   written (:mod:`arena.learn.checkpoint`), one line is appended to ``DIR/log.jsonl``
   and the figure ``DIR/training.svg`` is redrawn;
5. every ``eval_every`` steps the network is kept as ``DIR/nets/step-N.npz`` and plays
   ``eval_games`` games against the last accepted network and as many against ``mcts``
   at the same simulations (:mod:`arena.learn.evaluate`). A network that scores at
   least half against the accepted one becomes the accepted one. Its Elo is the accepted
   network's plus the match's difference (the first, random network is 0).

A run may start from an exported network of the same game and sizes instead of a random
one (``Settings.init``, ``arena train --init FILE``): its weights only, with a fresh
optimiser and an empty buffer; before the first training batch its batch normalisations
take the statistics of the first step's positions without changing what the network
computes (:func:`arena.learn.model.renormalise`).

A run started again in the same ``DIR`` goes on from its checkpoint: the same network,
optimiser state, buffer, step and random generators, so a run killed at any moment and
resumed plays and learns exactly what it would have without the kill. ``steps`` counts
from the run's beginning.

Tests: tests/learn/test_train.py
"""

from __future__ import annotations

import json
import math
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from arena.core.agent import Agent
from arena.core.errors import ArenaError, SpecError
from arena.core.game import Game
from arena.games import load_game
from arena.learn import checkpoint as ckpt
from arena.learn.augment import symmetries, transform
from arena.learn.evaluate import Result, match
from arena.learn.figure import figure
from arena.learn.model import (
    Architecture,
    Model,
    Optimiser,
    build,
    export,
    from_network,
    init_params,
    renormalise,
)
from arena.learn.rescore import Rescore
from arena.learn.selfplay import Records, ReplayBuffer, SelfPlay, play_games
from arena.search.az.agent import AZAgent
from arena.search.az.network import Network, load
from arena.search.az.planes import encoding
from arena.search.mcts.agent import MCTSAgent


@dataclass(frozen=True)
class Settings:
    """What a run learns with: fixed from its first step (a resume keeps them)."""

    game: str
    arch: Architecture = field(default_factory=Architecture)
    optimiser: Optimiser = field(default_factory=Optimiser)
    selfplay: SelfPlay = field(default_factory=SelfPlay)
    seed: int = 0
    games_per_step: int = 32
    batches_per_step: int = 16
    batch_size: int = 128
    buffer_size: int = 50_000
    rescore: Rescore = field(default_factory=Rescore)
    """Value targets from the exact solver (:mod:`arena.learn.rescore`); may be switched
    on or changed at a resume."""
    init: str | None = None
    """The exported network (a path) the run's first network is, or None: random."""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Settings:
        """The settings :meth:`to_json` wrote, or a one-line error for others."""
        try:
            return cls(
                game=data["game"],
                arch=Architecture(**data["arch"]),
                optimiser=Optimiser(**data["optimiser"]),
                selfplay=SelfPlay(**data["selfplay"]),
                rescore=Rescore(**data.get("rescore", {})),
                init=data.get("init"),
                **{k: data[k] for k in ("seed", "games_per_step", "batches_per_step",
                                        "batch_size", "buffer_size")},
            )  # fmt: skip
        except (KeyError, TypeError) as exc:
            raise ArenaError(
                f"the checkpoint's settings are not this version's ({type(exc).__name__}: {exc})"
            ) from None


@dataclass(frozen=True)
class Plan:
    """How long this invocation trains and how it evaluates (may change on a resume)."""

    steps: int = 50
    time_budget: float | None = None
    """Seconds of this invocation after which no new step starts."""
    eval_every: int = 5
    eval_games: int = 20
    eval_sims: int | None = None
    """Simulations a move in the evaluation matches (default: self-play's)."""
    jobs: int = 1


DEFAULTS: dict[str, dict[str, Any]] = {
    "tictactoe": {
        "arch": Architecture(filters=32, blocks=1, policy=2, hidden=32),
        "selfplay": SelfPlay(simulations=48, alpha=1.0, temperature_moves=3),
        "games_per_step": 24, "batches_per_step": 24, "batch_size": 64, "buffer_size": 4000,
        "steps": 30,
    },
    "connect4": {
        "arch": Architecture(filters=32, blocks=3, policy=2, hidden=64),
        "selfplay": SelfPlay(simulations=100, alpha=1.0, temperature_moves=10, batch=8),
        "games_per_step": 32, "batches_per_step": 32, "batch_size": 128, "buffer_size": 40_000,
        "steps": 200,
    },
    "othello": {
        "arch": Architecture(filters=48, blocks=3, policy=2, hidden=64),
        "selfplay": SelfPlay(simulations=100, alpha=0.5, temperature_moves=12, batch=8),
        "games_per_step": 24, "batches_per_step": 32, "batch_size": 128, "buffer_size": 50_000,
        "steps": 200,
    },
    "go": {
        "arch": Architecture(filters=32, blocks=3, policy=2, hidden=64),
        "selfplay": SelfPlay(simulations=100, alpha=0.5, temperature_moves=8, batch=8),
        "games_per_step": 16, "batches_per_step": 32, "batch_size": 128, "buffer_size": 50_000,
        "steps": 200,
    },
    "gomoku": {
        "arch": Architecture(filters=32, blocks=3, policy=2, hidden=64),
        "selfplay": SelfPlay(simulations=100, alpha=0.3, temperature_moves=8, batch=8),
        "games_per_step": 16, "batches_per_step": 32, "batch_size": 128, "buffer_size": 50_000,
        "steps": 200,
    },
}  # fmt: skip
"""Per game: the network's sizes, self-play's search and the step's sizes that train it
in reasonable time on two cores."""


def defaults(game: Game) -> tuple[Settings, Plan]:
    """The settings and plan ``arena train GAME`` uses when no option says otherwise."""
    encoding(game)  # a one-line error for a game without an encoding
    given = dict(DEFAULTS.get(game.name, DEFAULTS["connect4"]))
    steps = given.pop("steps")
    return Settings(game=game.spec, **given), Plan(steps=steps)


SIZES = ("blocks", "filters", "policy", "hidden")
"""The :class:`Architecture` fields, in the order :func:`initial_network` checks them."""


class SizeMismatch(ArenaError):
    """``--init``'s network is not of the sizes asked for: its ``size`` (an
    :class:`Architecture` field) is ``has``'s, the run asks for ``wanted``. ``arena
    train`` words it after the option that asked (``--blocks``, ``--channels``)."""

    def __init__(self, path: str | Path, has: Architecture, size: str, run: Architecture):
        self.path, self.has, self.size = path, has, size
        self.wanted: int = getattr(run, size)
        super().__init__(f"--init {path}: the network has {sizes(has)}, the run {sizes(run)}")


def initial_network(
    path: str | Path, game: Game, arch: Architecture | None = None, check: Sequence[str] = SIZES
) -> Network:
    """The network a run starts from (``--init``): it must be for ``game`` and, when
    ``arch`` is given, of its sizes named in ``check`` (:data:`SIZES`; a
    :class:`SizeMismatch` names the first that differs); anything else is a one-line
    :class:`ArenaError`."""
    try:
        net = load(path)
        net.check(game)
    except SpecError as exc:
        text = str(exc)
        for prefix in (f"az: net={Path(path)}: ", "az: "):
            text = text.removeprefix(prefix)
        raise ArenaError(f"--init {path}: {text}") from None
    has = architecture_of_network(net)
    for size in check if arch is not None else ():
        if getattr(has, size) != getattr(arch, size):
            raise SizeMismatch(path, has, size, arch)  # type: ignore[arg-type]
    return net


def architecture_of_network(net: Network) -> Architecture:
    """The sizes of an exported network."""
    w = net.weights
    return Architecture(
        filters=net.filters, blocks=net.blocks, policy=int(w["pol_w"].shape[0]),
        hidden=int(w["val_fc1_w"].shape[0]),
    )  # fmt: skip


def sizes(arch: Architecture) -> str:
    return (
        f"{arch.blocks} blocks of {arch.filters} filters ({arch.policy} policy planes, "
        f"{arch.hidden} value units)"
    )


def saved_settings(path: str | Path) -> dict[str, Any]:
    """The settings a run's checkpoint holds (as JSON), or a one-line error."""
    return ckpt.load(path).settings


Echo = Callable[[str], None]
OnGame = Callable[[str, int, int], None]
"""Told ``(phase, games done, games in all)`` after each game of a step's phase."""


def quiet(phase: str, done: int, total: int) -> None:
    """An :data:`OnGame` that shows nothing."""


@dataclass
class State:
    """A run's mutable state between steps (what the checkpoint saves)."""

    params: dict[str, Any]
    stats: dict[str, Any]
    opt: Any
    buffer: ReplayBuffer
    sampler: np.random.Generator
    step: int = 0
    seconds: float = 0.0
    accepted: dict[str, Any] = field(default_factory=dict)
    """The accepted network: ``{"net": path in DIR, "step": N, "elo": E}``."""
    renormalise: bool = False
    """A network from ``--init`` whose batch normalisations still wait for the statistics
    of the positions it trains on (done before its first batch)."""


class Trainer:
    """One ``arena train`` run in its directory."""

    def __init__(
        self,
        out: str | Path,
        settings: Settings,
        plan: Plan,
        echo: Echo = print,
        on_game: OnGame = quiet,
    ) -> None:
        self.on_game = on_game
        self.out = Path(out)
        self.settings = settings
        self.plan = plan
        self.echo = echo
        self.game = load_game(settings.game)
        self.model: Model | None = None

    # --- files -----------------------------------------------------------------------

    @property
    def checkpoint_path(self) -> Path:
        return self.out / "checkpoint.npz"

    @property
    def log_path(self) -> Path:
        return self.out / "log.jsonl"

    def save_net(self, net: Network, name: str) -> None:
        """Write a network atomically (a reader never sees half a file)."""
        path = self.out / name
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(path.name + ".part.npz")
        net.save(temporary)
        os.replace(temporary, path)

    def log_rows(self) -> list[dict[str, Any]]:
        if not self.log_path.is_file():
            return []
        rows = []
        for line in self.log_path.read_text().splitlines():
            try:
                rows.append(json.loads(line))
            except ValueError:
                continue  # a line cut by a kill
        return rows

    # --- state -----------------------------------------------------------------------

    def fresh(self, model: Model) -> State:
        s = self.settings
        if s.init is None:
            params, stats = init_params(s.arch, self.game, np.random.default_rng([s.seed, 0]))
        else:
            params, stats = from_network(initial_network(s.init, self.game, s.arch))
        state = State(
            params, stats, model.init_opt(params), ReplayBuffer(self.game, s.buffer_size),
            np.random.default_rng([s.seed, 1]), renormalise=s.init is not None,
        )  # fmt: skip
        self.save_net(export(self.game, params, stats), "nets/step-000000.npz")
        state.accepted = {"net": "nets/step-000000.npz", "step": 0, "elo": 0.0}
        return state

    def resume(self, model: Model, saved: ckpt.Checkpoint) -> State:
        progress = saved.progress
        template = self.fresh_template(model)
        buffer = ReplayBuffer.load(
            self.out / progress["buffer"], self.game, self.settings.buffer_size
        )
        sampler = np.random.default_rng()
        sampler.bit_generator.state = progress["sampler"]
        state = State(
            saved.params, saved.stats, model.unflatten(template, saved.opt), buffer, sampler,
            step=int(progress["step"]), seconds=float(progress["seconds"]),
            accepted=dict(progress["accepted"]),
            renormalise=bool(progress.get("renormalise", False)),
        )  # fmt: skip
        # Log lines a kill left after the checkpoint are played again: drop them.
        rows = [r for r in self.log_rows() if r.get("step", 0) <= state.step]
        self.log_path.write_text("".join(json.dumps(r) + "\n" for r in rows))
        return state

    def fresh_template(self, model: Model) -> Any:
        params, _ = init_params(self.settings.arch, self.game, np.random.default_rng(0))
        return model.init_opt(params)

    def save(self, state: State) -> None:
        """The buffer of this step, then the checkpoint naming it, then old buffers go."""
        name = f"buffer-{state.step:06d}.npz"
        state.buffer.save(self.out / name)
        assert self.model is not None
        progress = {
            "step": state.step, "games": state.buffer.games, "records": len(state.buffer),
            "seconds": state.seconds, "buffer": name,
            "sampler": state.sampler.bit_generator.state, "accepted": state.accepted,
            "renormalise": state.renormalise,
        }  # fmt: skip
        params = {k: np.asarray(v) for k, v in state.params.items()}
        stats = {k: np.asarray(v) for k, v in state.stats.items()}
        ckpt.save(
            self.checkpoint_path,
            ckpt.Checkpoint(self.settings.to_json(), progress, params, stats,
                            self.model.flatten(state.opt)),
        )  # fmt: skip
        for old in self.out.glob("buffer-*.npz"):
            if old.name != name:
                old.unlink(missing_ok=True)

    # --- the loop --------------------------------------------------------------------

    def run(self) -> State:
        """Train until ``plan.steps`` steps are done or the time budget is spent."""
        model = self.model = build(self.settings.optimiser)  # JAX missing: nothing written
        self.out.mkdir(parents=True, exist_ok=True)
        if self.checkpoint_path.exists():
            try:
                state = self.resume(model, ckpt.load(self.checkpoint_path))
            except (KeyError, TypeError, ValueError) as exc:
                raise ArenaError(
                    f"checkpoint {self.checkpoint_path}: incomplete or of another network "
                    f"({type(exc).__name__}: {exc})"
                ) from None
            self.echo(
                f"resuming {self.out} at step {state.step} ({state.buffer.games} games, "
                f"{len(state.buffer)} records)"
            )
        else:
            state = self.fresh(model)
            self.save(state)
            self.echo(f"training {self.game.spec} in {self.out}: {describe(self.settings)}")
        started = time.monotonic()
        executor = make_executor(self.plan.jobs)
        try:
            while state.step < self.plan.steps:
                budget = self.plan.time_budget
                if budget is not None and time.monotonic() - started >= budget:
                    self.echo(f"time budget of {budget:g} s spent: stopping at step {state.step}")
                    break
                self.step(state, executor)
        finally:
            if executor is not None:
                executor.shutdown(cancel_futures=True)
        self.echo(
            f"step {state.step}: the network is {self.out / 'latest.npz'} "
            f"(play it as az:net=FILE; the run resumes with the same command)"
        )
        return state

    def self_play(self, net: Network, first: int, executor: Executor | None) -> list[Records]:
        """The step's games, in the order of their numbers however they were played."""
        s = self.settings
        numbers = range(first, first + s.games_per_step)
        games: list[Records] = []
        if executor is None:
            for g in numbers:
                games += play_games(s.game, net, s.selfplay, [[s.seed, 2, g]], s.rescore)
                self.on_game("self-play", len(games), len(numbers))
            return games
        futures = {
            executor.submit(play_games, s.game, net, s.selfplay, [[s.seed, 2, g]], s.rescore): g
            for g in numbers
        }
        played: dict[int, Records] = {}
        for future in as_completed(futures):
            played[futures[future]] = future.result()[0]
            self.on_game("self-play", len(played), len(numbers))
        return [played[g] for g in numbers]

    def step(self, state: State, executor: Executor | None) -> None:
        assert self.model is not None
        start = time.monotonic()
        net = export(self.game, state.params, state.stats)
        games = self.self_play(net, state.buffer.games, executor)
        for records in games:
            state.buffer.add(records)
        played = time.monotonic() - start
        losses = self.train(state)
        state.step += 1
        net = export(self.game, state.params, state.stats)
        self.save_net(net, "latest.npz")
        row: dict[str, Any] = {
            "step": state.step, "games": state.buffer.games, "records": len(state.buffer),
            "games_per_s": round(len(games) / max(played, 1e-9), 3),
        }  # fmt: skip
        if self.settings.rescore.on:
            made = sum(len(r) for r in games)
            row["rescored"] = round(sum(r.settled for r in games) / max(made, 1), 4)
        if losses is not None:
            row.update(zip(("loss", "policy_loss", "value_loss", "l2"), map(float, losses)))
        evaluated: tuple[Result, Result] | None = None
        if self.plan.eval_games > 0 and (
            state.step % self.plan.eval_every == 0 or state.step == self.plan.steps
        ):
            versus, mcts, elo = self.evaluate(state, net)
            evaluated = (versus, mcts)
            row.update(vs_accepted=versus.as_dict(), vs_mcts=mcts.as_dict(), elo=round(elo, 1))
        state.seconds += time.monotonic() - start
        row["minutes"] = round(state.seconds / 60, 3)
        # The step's line before its checkpoint: a kill between the two leaves a line the
        # resume drops and writes again; the other way round it lost the line for good.
        with self.log_path.open("a") as log:
            log.write(json.dumps(row) + "\n")
        self.save(state)
        self.draw()
        self.echo(progress_line(row, self.plan.steps, evaluated))

    def train(self, state: State) -> np.ndarray | None:
        """``batches_per_step`` training steps; the mean losses (None: too few records)."""
        assert self.model is not None
        s = self.settings
        if len(state.buffer) < s.batch_size:
            return None
        count = len(symmetries(self.game))
        totals = []
        if state.renormalise:
            latest = state.buffer.planes[-RENORMALISE_RECORDS:].astype(np.float32)
            state.params, state.stats = renormalise(state.params, state.stats, latest)
            state.renormalise = False
        params, stats, opt = state.params, state.stats, state.opt
        for _ in range(s.batches_per_step):
            batch = state.buffer.sample(s.batch_size, state.sampler)
            batch = transform(batch, self.game, state.sampler.integers(0, count, s.batch_size))
            params, stats, opt, losses = self.model.step(
                params, stats, opt, batch.planes, batch.policy, batch.value
            )
            totals.append(np.asarray(losses))
        state.params = {k: np.asarray(v) for k, v in params.items()}
        state.stats = {k: np.asarray(v) for k, v in stats.items()}
        state.opt = opt
        return np.mean(totals, axis=0)

    def evaluate(self, state: State, net: Network) -> tuple[Result, Result, float]:
        """The matches of ``net`` against the accepted network and ``mcts``, and its Elo;
        the accepted network changes when ``net`` scores at least half."""
        name = f"nets/step-{state.step:06d}.npz"
        self.save_net(net, name)
        sims = self.plan.eval_sims or self.settings.selfplay.simulations
        seed = self.settings.seed * 100_003 + state.step
        total = 2 * 2 * math.ceil(self.plan.eval_games / 2)

        def az(path: Path) -> Callable[[], Agent]:
            # Agents made here, not from spec strings: DIR may hold any character.
            return lambda: AZAgent(net=str(path), sims=sims)

        def shown(offset: int) -> Callable[[int], None]:
            return lambda done: self.on_game("evaluation", offset + done, total)

        games = self.plan.eval_games
        versus = match(
            self.game, az(self.out / name), lambda _: az(self.out / state.accepted["net"])(),
            games, sims, seed, shown(0),
        )  # fmt: skip
        versus = replace(versus, opponent=f"step {state.accepted['step']}")
        mcts = match(
            self.game, az(self.out / name), lambda s: MCTSAgent(seed=s), games, sims, seed,
            shown(total // 2),
        )  # fmt: skip
        mcts = replace(mcts, opponent=f"mcts (rollouts={sims})")
        elo = float(state.accepted["elo"]) + versus.elo
        if versus.score >= 0.5:
            state.accepted = {"net": name, "step": state.step, "elo": elo}
        return versus, mcts, elo

    def draw(self) -> None:
        svg = figure(self.log_rows(), self.game.spec)
        temporary = self.out / "training.svg.part"
        temporary.write_text(svg)
        os.replace(temporary, self.out / "training.svg")


RENORMALISE_RECORDS = 4096
"""At most this many of the buffer's latest records give an ``--init`` network's batch
normalisations their statistics."""


def make_executor(jobs: int) -> Executor | None:
    """Worker processes for self-play (``spawn``: JAX's threads do not survive a fork),
    each ending itself when the run's process is gone (killed with SIGKILL, say)."""
    if jobs <= 1:
        return None
    return ProcessPoolExecutor(
        jobs, mp_context=multiprocessing.get_context("spawn"), initializer=watch_parent,
        initargs=(os.getpid(),),
    )  # fmt: skip


def watch_parent(parent: int) -> None:
    """In a worker: a thread that ends the process once ``parent`` is no longer its
    parent (a killed parent cannot shut its pool down, and the workers would wait on
    their queue for ever)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os.kill(os.getpid(), signal.SIGKILL)

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()


def describe(settings: Settings) -> str:
    a, p = settings.arch, settings.selfplay
    return (
        f"{a.blocks} blocks of {a.filters} filters, {p.simulations} simulations a move, "
        f"{settings.games_per_step} games and {settings.batches_per_step} batches of "
        f"{settings.batch_size} a step, seed {settings.seed}"
    ) + (f", from {settings.init}" if settings.init else "") + (
        f", values rescored by the solver ({settings.rescore.nodes} nodes a position)"
        if settings.rescore.on else ""
    )  # fmt: skip


def progress_line(row: dict[str, Any], steps: int, evaluated: Sequence[Result] | None) -> str:
    """One step's line: games, their rate, the losses, the evaluation."""
    text = (
        f"step {row['step']}/{steps}  games {row['games']} ({row['games_per_s']:.2f}/s)  "
        f"records {row['records']}  "
    )
    if "loss" in row:
        text += (
            f"loss {row['loss']:.3f} (policy {row['policy_loss']:.3f}, "
            f"value {row['value_loss']:.3f}, l2 {row['l2']:.4f})"
        )
    else:
        text += "loss - (too few records to train)"
    if "rescored" in row:
        text += f"  solved {100 * row['rescored']:.0f}%"
    text += f"  {row['minutes']:.1f} min"
    if evaluated:
        versus, mcts = evaluated
        text += (
            f"\n  vs {versus.opponent}: {versus}   vs {mcts.opponent}: {mcts}   "
            f"Elo {row['elo']:+.0f}"
        )
    return text

"""``arena bench az``: the az search beside DeepMind's mctx, on the same network.

mctx (https://github.com/google-deepmind/mctx, the optional ``learn`` extra) searches
with a model written in JAX: a ``recurrent_fn`` that plays an action and evaluates the
position reached. A rules engine in JAX is a project of its own, so the comparison uses
the games whose rules fit in a few lines of array code: Tic-tac-toe and Connect Four (k in
a row, with gravity for Connect Four; :class:`JaxRules`). The network is the same ``.npz``
read into a JAX forward pass (:func:`jax_forward`, equal to the numpy one to float
tolerance). On each fixed position both searches run the same number of simulations:

- ``puct``: our PUCT (``c_puct``, no noise) against ``mctx.muzero_policy`` with
  ``pb_c_init = c_puct``, ``pb_c_base`` so large that its log term vanishes, no Dirichlet
  noise, and a Q transform that is ours (the mean value, 0 while unvisited; illegal
  moves never chosen), so the two differ only in float32 against float64 and mctx's
  1e-7 tie-breaking noise;
- ``gumbel``: our Gumbel search (:mod:`arena.search.az.gumbel`) against
  ``mctx.gumbel_muzero_policy`` with the same ``m`` and the same Gumbel draws (mctx's,
  read from its tree), completed Q over the legal moves.

mctx counts the root's expansion apart (``num_simulations`` are the walks after it), our
``sims`` counts it: mctx runs ``sims - 1``. Printed per game and mode: how often the moves
agree, the mean total-variation distance between the visit distributions (and between the
improved policies for Gumbel), and the time per move of each — ours one leaf at a time
and in batches, mctx's jitted search on one position and per position of a batch of them.

Tests: tests/bench/test_bench_az.py
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from arena.core.errors import ArenaError
from arena.core.game import Game, State
from arena.games import load_game
from arena.search.az import gumbel, puct
from arena.search.az.kernel import evaluate_prepared, prepare
from arena.search.az.network import Network, load, random_network
from arena.search.az.planes import encode, encoding
from arena.search.az.puct_driver import CompiledPUCT, game_kernel

GAMES = ("tictactoe", "connect4")
"""The games whose rules :class:`JaxRules` writes in JAX."""


def require_mctx() -> tuple[Any, Any, Any]:
    """``(jax, jax.numpy, mctx)``, or a one-line error saying how to install them."""
    try:
        import jax
        import jax.numpy as jnp
        import mctx
    except ImportError as exc:
        raise ArenaError(
            f"arena bench az needs jax and mctx (pip install -e '.[learn]'): {exc}"
        ) from None
    return jax, jnp, mctx


def jax_forward(net: Network) -> Callable[[Any], tuple[Any, Any]]:
    """The network as a JAX function ``planes (N, C, H, W) -> (logits (N, A), values (N,))``:
    the arithmetic of :func:`arena.search.az.network.forward`, batched."""
    jax, jnp, _ = require_mctx()
    w = {k: jnp.asarray(v) for k, v in net.weights.items()}

    def conv(x: Any, kernel: Any, bias: Any) -> Any:
        out = jax.lax.conv_general_dilated(
            x, kernel, (1, 1), "SAME", dimension_numbers=("NCHW", "OIHW", "NCHW")
        )
        return out + bias[None, :, None, None]

    def forward(planes: Any) -> tuple[Any, Any]:
        h = jax.nn.relu(conv(planes, w["stem_w"], w["stem_b"]))
        for i in range(w["res_w"].shape[0]):
            y = jax.nn.relu(conv(h, w["res_w"][i, 0], w["res_b"][i, 0]))
            h = jax.nn.relu(h + conv(y, w["res_w"][i, 1], w["res_b"][i, 1]))
        p = jax.nn.relu(jnp.einsum("pf,nfhw->nphw", w["pol_w"], h) + w["pol_b"][:, None, None])
        logits = p.reshape(p.shape[0], -1) @ w["pol_fc_w"].T + w["pol_fc_b"]
        v = jax.nn.relu(jnp.einsum("pf,nfhw->nphw", w["val_w"], h) + w["val_b"][:, None, None])
        hidden = jax.nn.relu(v.reshape(v.shape[0], -1) @ w["val_fc1_w"].T + w["val_fc1_b"])
        value = jnp.tanh(hidden @ w["val_fc2_w"].T + w["val_fc2_b"])[:, 0]
        return logits, value

    return forward


def winning_lines(rows: int, cols: int, k: int) -> np.ndarray:
    """Every line of ``k`` cells (``row * cols + col``) on the board, ``(L, k)``."""
    lines = []
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                end_r, end_c = r + dr * (k - 1), c + dc * (k - 1)
                if 0 <= end_r < rows and 0 <= end_c < cols:
                    lines.append([(r + dr * i) * cols + c + dc * i for i in range(k)])
    return np.array(lines, np.int32)


@dataclass(frozen=True)
class JaxRules:
    """k in a row in JAX, for mctx's model. A position (the embedding) is ``board``
    (cells, +1 the mover's stones, -1 the opponent's), ``to_move`` (0 or 1) and ``done``;
    an action is a cell, or a column when ``gravity`` (Connect Four: the lowest empty cell,
    rows counted from the bottom as arena's planes do)."""

    rows: int
    cols: int
    k: int
    gravity: bool

    @staticmethod
    def of(game: Game) -> JaxRules:
        if game.name not in GAMES:
            raise ArenaError(
                f"arena bench az: {game.name} has no JAX rules here; games: tictactoe, connect4"
            )
        return JaxRules(game.rows, game.cols, game.k, game.name == "connect4")  # type: ignore[attr-defined]

    def embed(self, state: State) -> dict[str, np.ndarray]:
        planes = encode(state)
        return {
            "board": (planes[0] - planes[1]).reshape(-1).astype(np.int32),
            "to_move": np.int32(state.to_move),
            "done": np.bool_(state.is_terminal()),
        }

    def legal(self, board: Any, done: Any) -> Any:
        """The legal actions of a batch of boards, ``(N, A)``."""
        if self.gravity:
            top = board.reshape(-1, self.rows, self.cols)[:, self.rows - 1, :]
            return (top == 0) & ~done[:, None]
        return (board == 0) & ~done[:, None]

    def planes(self, board: Any, to_move: Any) -> Any:
        _, jnp, _ = require_mctx()
        n = board.shape[0]
        grid = board.reshape(n, self.rows, self.cols)
        side = jnp.broadcast_to(to_move[:, None, None], grid.shape).astype(jnp.float32)
        return jnp.stack(
            [(grid == 1).astype(jnp.float32), (grid == -1).astype(jnp.float32), side,
             jnp.ones_like(side)], axis=1,
        )  # fmt: skip

    def step(self, board: Any, to_move: Any, done: Any, action: Any) -> tuple[Any, ...]:
        """Play ``action`` on each board: the new boards (turned to the next mover), the
        movers' rewards, and which are over. A finished position stays as it is."""
        _, jnp, _ = require_mctx()
        n = board.shape[0]
        if self.gravity:
            column = board.reshape(n, self.rows, self.cols)[jnp.arange(n), :, action]
            row = jnp.argmax(column == 0, axis=1)
            cell = row * self.cols + action
        else:
            cell = action
        placed = board.at[jnp.arange(n), cell].set(1)
        lines = jnp.asarray(winning_lines(self.rows, self.cols, self.k))
        won = jnp.any(jnp.all(placed[:, lines] == 1, axis=2), axis=1)
        full = jnp.all(placed != 0, axis=1)
        reward = jnp.where(done, 0.0, won.astype(jnp.float32))
        new_board = jnp.where(done[:, None], board, -placed)
        new_to_move = jnp.where(done, to_move, 1 - to_move)
        return new_board, new_to_move, done | won | full, reward


def mctx_model(net: Network, rules: JaxRules) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """``(root_fn, recurrent_fn)`` for mctx: the root's output of a batch of embeddings, and
    the model's step (discount -1 between the players, 0 after the end)."""
    _, jnp, mctx = require_mctx()
    forward = jax_forward(net)

    def evaluate(board: Any, to_move: Any, done: Any) -> tuple[Any, Any]:
        logits, value = forward(rules.planes(board, to_move))
        logits = jnp.where(rules.legal(board, done), logits, -1e9)
        return logits, value

    def root_fn(embedding: dict[str, Any]) -> Any:
        logits, value = evaluate(embedding["board"], embedding["to_move"], embedding["done"])
        return mctx.RootFnOutput(prior_logits=logits, value=value, embedding=embedding)

    def recurrent_fn(params: Any, rng: Any, action: Any, embedding: dict[str, Any]) -> Any:
        del params, rng
        board, to_move, done, reward = rules.step(
            embedding["board"], embedding["to_move"], embedding["done"], action
        )
        logits, value = evaluate(board, to_move, done)
        discount = jnp.where(done, 0.0, -1.0)
        out = mctx.RecurrentFnOutput(
            reward=reward, discount=discount, prior_logits=logits, value=value * (1.0 - done)
        )
        return out, {"board": board, "to_move": to_move, "done": done}

    return root_fn, recurrent_fn


def puct_qtransform(rules: JaxRules) -> Callable[[Any, Any], Any]:
    """Our PUCT's Q for mctx: the mean value of a visited child, 0 of an unvisited one, and
    a value no move reaches for an illegal action (mctx masks them at the root only)."""
    _, jnp, _ = require_mctx()

    def transform(tree: Any, node: Any) -> Any:
        legal = node_legal(rules, tree, node)
        visits = tree.children_visits[node]
        q = jnp.where(visits > 0, tree.qvalues(node), 0.0)
        return jnp.where(legal, q, -1e9)

    return transform


def node_legal(rules: JaxRules, tree: Any, node: Any) -> Any:
    board = tree.embeddings["board"][node]
    done = tree.embeddings["done"][node]
    return rules.legal(board[None, :], done[None])[0]


def completed_qtransform(rules: JaxRules) -> Callable[[Any, Any], Any]:
    """Gumbel's sigma(completed Q) (:func:`arena.search.az.gumbel.completed_q`) in JAX, over
    the legal moves only: mctx's ``qtransform_completed_by_mix_value`` with its defaults,
    but rescaled over the legal moves (mctx's spans every action)."""
    jax, jnp, _ = require_mctx()

    def transform(tree: Any, node: Any) -> Any:
        legal = node_legal(rules, tree, node)
        visits = tree.children_visits[node]
        visited = (visits > 0) & legal
        q = tree.qvalues(node)
        prior = jnp.maximum(jax.nn.softmax(tree.children_prior_logits[node]), 1e-30)
        total = jnp.sum(jnp.where(legal, visits, 0))
        weighted = jnp.sum(jnp.where(visited, prior * q, 0.0)) / jnp.maximum(
            jnp.sum(jnp.where(visited, prior, 0.0)), 1e-30
        )
        mixed = jnp.where(
            total > 0,
            (tree.raw_values[node] + total * weighted) / (total + 1),
            tree.raw_values[node],
        )
        completed = jnp.where(visited, q, mixed)
        low = jnp.min(jnp.where(legal, completed, jnp.inf))
        high = jnp.max(jnp.where(legal, completed, -jnp.inf))
        completed = (completed - low) / jnp.maximum(high - low, 1e-8)
        scale = (gumbel.C_VISIT + jnp.max(visits)) * gumbel.C_SCALE
        return jnp.where(legal, scale * completed, 0.0)

    return transform


@dataclass(frozen=True)
class Searched:
    """One search of one position: the move, the visits and the policy over the actions
    (the visit distribution, or Gumbel's improved policy), and mctx's Gumbel draws."""

    move: int
    visits: np.ndarray
    policy: np.ndarray
    gumbel: np.ndarray | None = None


def mctx_searcher(
    net: Network, game: Game, sims: int, c_puct: float, root: str, considered: int
) -> Callable[[list[State], int], list[Searched]]:
    """A jitted mctx search of a batch of positions (``sims - 1`` walks after the root's
    expansion, see the module's docstring); call it with the positions and a seed."""
    jax, jnp, mctx = require_mctx()
    rules = JaxRules.of(game)
    root_fn, recurrent_fn = mctx_model(net, rules)

    def search(embedding: dict[str, Any], key: Any) -> Any:
        out = root_fn(embedding)
        invalid = ~rules.legal(embedding["board"], embedding["done"])
        if root == "gumbel":
            return mctx.gumbel_muzero_policy(
                params=(), rng_key=key, root=out, recurrent_fn=recurrent_fn,
                num_simulations=sims - 1, invalid_actions=invalid,
                max_num_considered_actions=considered, qtransform=completed_qtransform(rules),
            )  # fmt: skip
        return mctx.muzero_policy(
            params=(), rng_key=key, root=out, recurrent_fn=recurrent_fn,
            num_simulations=sims - 1, invalid_actions=invalid, dirichlet_fraction=0.0,
            pb_c_init=c_puct, pb_c_base=1e12, qtransform=puct_qtransform(rules), temperature=1.0,
        )  # fmt: skip

    jitted = jax.jit(search)

    def run(states: list[State], seed: int) -> list[Searched]:
        embeds = [rules.embed(s) for s in states]
        batch = {k: jnp.asarray(np.stack([e[k] for e in embeds])) for k in embeds[0]}
        out = jitted(batch, jax.random.PRNGKey(seed))
        out.action.block_until_ready()
        tree = out.search_tree
        visits = np.asarray(tree.children_visits[:, 0])
        weights = np.asarray(out.action_weights)
        if root == "gumbel":
            draws = np.asarray(tree.extra_data.root_gumbel)
            return [
                Searched(int(out.action[i]), visits[i], weights[i], draws[i])
                for i in range(len(states))
            ]
        # The most visited, the first of equals, as ours (mctx's action is drawn).
        return [Searched(int(np.argmax(v)), v, v / max(v.sum(), 1)) for v in visits]

    return run


def our_search(
    evaluate: puct.Evaluator,
    state: State,
    sims: int,
    c_puct: float,
    root: str,
    considered: int,
    gumbels: np.ndarray | None = None,
    batch: int = 1,
) -> Searched:
    """Our search of one position (``gumbels``: the Gumbel draws over the actions)."""
    actions = encoding(state.game).actions
    tree = puct.Tree(state)
    if root == "gumbel":
        moves = state.legal_moves()
        draws = None if gumbels is None else gumbels[np.asarray(moves)]
        search, _, _ = gumbel.run(tree, evaluate, sims, considered, draws, batch=batch)
        assert search is not None
        move = search.best_move(tree)
        policy = np.zeros(actions)
        policy[list(moves)] = gumbel.improved_policy(tree)
    else:
        puct.run(tree, evaluate, sims, c_puct, batch=batch)
        move = puct.choose_move(tree, 0.0, np.random.default_rng(0))
        policy = None
    played, visits = puct.visit_counts(tree)
    counts = np.zeros(actions, np.int64)
    counts[list(played)] = visits
    return Searched(move, counts, counts / max(counts.sum(), 1) if policy is None else policy)


def positions(game: Game, count: int, seed: int) -> list[State]:
    """``count`` distinct positions that are not over, from random games."""
    rng = random.Random(seed)
    found: list[State] = []
    tries = 0
    while len(found) < count and tries < 100 * count:
        tries += 1
        state = game.initial_state()
        for _ in range(rng.randrange(0, 8)):
            state = state.play(rng.choice(state.legal_moves()))
            if state.is_terminal():
                break
        if not state.is_terminal() and state not in found:
            found.append(state)
    return found


def total_variation(a: np.ndarray, b: np.ndarray) -> float:
    pa, pb = a / max(a.sum(), 1e-12), b / max(b.sum(), 1e-12)
    return float(0.5 * np.abs(pa - pb).sum())


@dataclass(frozen=True)
class Comparison:
    """One game and mode: agreement and the time per move of each search."""

    game: str
    root: str
    sims: int
    positions: int
    same_move: int
    visits_tv: float
    policy_tv: float
    ours_ms: float
    ours_batched_ms: float
    mctx_ms: float
    mctx_batched_ms: float


def compare(
    net: Network,
    game: Game,
    states: list[State],
    sims: int,
    c_puct: float = 1.5,
    root: str = "puct",
    considered: int = gumbel.DEFAULT_CONSIDERED,
    seed: int = 0,
    batch: int = 8,
    timing: bool = True,
) -> Comparison:
    """Both searches on ``states``: moves and distributions agreement, then (``timing``)
    the time per move of each."""
    evaluate = puct.net_evaluator(net)
    mctx_run = mctx_searcher(net, game, sims, c_puct, root, considered)
    theirs = [mctx_run([s], seed + i)[0] for i, s in enumerate(states)]
    gumbels = [t.gumbel for t in theirs]
    ours = [
        our_search(evaluate, s, sims, c_puct, root, considered, g) for s, g in zip(states, gumbels)
    ]
    same = sum(o.move == t.move for o, t in zip(ours, theirs))
    visits_tv = float(np.mean([total_variation(o.visits, t.visits) for o, t in zip(ours, theirs)]))
    policy_tv = float(np.mean([total_variation(o.policy, t.policy) for o, t in zip(ours, theirs)]))
    times = [0.0, 0.0, 0.0, 0.0]
    if timing:
        mctx_run(states, seed)  # compile the batched search apart
        for rep in range(2):  # interleaved, the best of two
            clocks = []
            for kind in range(4):
                start = time.perf_counter()
                if kind == 0:
                    for s, g in zip(states, gumbels):
                        our_search(evaluate, s, sims, c_puct, root, considered, g)
                elif kind == 1:
                    for s, g in zip(states, gumbels):
                        our_search(evaluate, s, sims, c_puct, root, considered, g, batch)
                elif kind == 2:
                    for i, s in enumerate(states):
                        mctx_run([s], seed + i)
                else:
                    mctx_run(states, seed)
                clocks.append((time.perf_counter() - start) * 1000 / len(states))
            times = clocks if rep == 0 else [min(a, b) for a, b in zip(times, clocks)]
    return Comparison(game.spec, root, sims, len(states), same, visits_tv, policy_tv, *times)


def forward_speed(
    net: Network, game: Game, batch: int, seconds: float = 0.5
) -> tuple[float, float]:
    """Microseconds a position of the compiled forward pass: ``batch`` single calls, and
    one call on a batch of ``batch`` (interleaved, the best of three rounds each)."""
    weights = prepare(net.arrays())
    planes = np.stack([encode(s) for s in positions(game, batch, 1)] * batch)[:batch]
    evaluate_prepared(weights, planes)
    best = [np.inf, np.inf]
    for _ in range(3):
        for kind in (0, 1):
            start, calls = time.perf_counter(), 0
            while time.perf_counter() - start < seconds / 6:
                if kind == 0:
                    for i in range(batch):
                        evaluate_prepared(weights, planes[i : i + 1])
                else:
                    evaluate_prepared(weights, planes)
                calls += 1
            best[kind] = min(best[kind], (time.perf_counter() - start) * 1e6 / (calls * batch))
    return best[0], best[1]


def search_speed(
    net: Network, game: Game, batch: int, sims: int = 400
) -> tuple[float, float, float, float]:
    """Simulations a second of the PUCT search from the start position, one leaf at a time
    and ``batch`` leaves a call: the readable search, then the compiled one (0 where the
    game's kernel cannot serve it); interleaved, the best of two (the compiled search
    runs ``4 * sims`` simulations, so that its runs are not too short to time)."""
    evaluate = puct.net_evaluator(net)
    evaluate([game.initial_state()])
    engine = CompiledPUCT(net, game) if game_kernel(game) else None
    if engine is not None:  # compile, or load from numba's cache, before timing
        engine.run(engine.new_tree(game.initial_state()), 2, 1.5, batch=2)
    best = [0.0, 0.0, 0.0, 0.0]
    for _ in range(2):
        for i, size in enumerate((1, batch, 1, batch)):
            start = time.perf_counter()
            if i < 2:
                puct.run(puct.Tree(game.initial_state()), evaluate, sims, 1.5, batch=size)
                rate = sims / (time.perf_counter() - start)
            elif engine is not None:
                engine.run(engine.new_tree(game.initial_state()), 4 * sims, 1.5, batch=size)
                rate = 4 * sims / (time.perf_counter() - start)
            else:
                rate = 0.0
            best[i] = max(best[i], rate)
    return best[0], best[1], best[2], best[3]


def run_bench(
    report: Callable[[str], None],
    games: tuple[str, ...] = GAMES,
    sims: int = 64,
    count: int = 16,
    roots: tuple[str, ...] = ("puct", "gumbel"),
    net_path: str | None = None,
    c_puct: float = 1.5,
    considered: int = gumbel.DEFAULT_CONSIDERED,
    batch: int = 8,
    seed: int = 0,
) -> dict[str, Any]:
    """The bench: the forward pass and the search batched and not, then (with jax and
    mctx) the comparison with mctx on ``count`` positions of each game."""
    load_average = os.getloadavg()
    report(f"load average {load_average[0]:.2f} {load_average[1]:.2f} {load_average[2]:.2f}")
    nets: dict[str, Network] = {}
    if net_path is not None:
        net = load(net_path)
        nets[net.game] = net
    else:
        for spec in games:
            game = load_game(spec)
            nets[game.spec] = random_network(game, filters=32, blocks=2, seed=seed)
    result: dict[str, Any] = {"load": load_average, "speed": [], "mctx": []}
    report(f"{'game':<12}{'network':>10}{'forward 1':>11}{f'x{batch}':>9}"
           f"{'python 1':>10}{f'x{batch}':>9}{'compiled 1':>12}{f'x{batch}':>9}")  # fmt: skip
    for spec, net in nets.items():
        game = load_game(spec)
        single, batched = forward_speed(net, game, batch)
        one, many, fast_one, fast_many = search_speed(net, game, batch)
        size = f"{net.filters}x{net.blocks}"
        report(f"{game.name:<12}{size:>10}{single:>8.0f} us{batched:>6.0f} us"
               f"{one:>7.0f}/s{many:>7.0f}/s{fast_one:>10.0f}/s{fast_many:>7.0f}/s")  # fmt: skip
        result["speed"].append(
            {"game": spec, "forward_us": single, "forward_batched_us": batched,
             "sims_per_s": one, "sims_per_s_batched": many,
             "compiled_sims_per_s": fast_one, "compiled_sims_per_s_batched": fast_many,
             "batch": batch}
        )  # fmt: skip
    report("(forward: us a position, single calls and one call a batch; search: PUCT "
           "simulations a second from the start, the readable search (python) and the "
           "compiled one, the az agent's default)")  # fmt: skip
    try:
        require_mctx()
    except ArenaError as exc:
        report(f"the mctx comparison is left out: {exc}")
        return result
    report(
        f"{'game':<12}{'root':<8}{'sims':>5}{'same move':>11}{'visits TV':>11}{'policy TV':>11}"
        f"{'ours':>9}{f'ours x{batch}':>10}{'mctx':>9}{'mctx/pos':>10}"
    )
    for spec, net in nets.items():
        game = load_game(spec)
        if game.name not in GAMES:
            report(f"{game.name}: no JAX rules for mctx here (tictactoe, connect4)")
            continue
        states = positions(game, count, seed)
        for root in roots:
            row = compare(net, game, states, sims, c_puct, root, considered, seed, batch)
            report(
                f"{game.name:<12}{root:<8}{sims:>5}{row.same_move:>6}/{row.positions:<4}"
                f"{row.visits_tv:>11.4f}{row.policy_tv:>11.4f}{row.ours_ms:>7.1f}ms"
                f"{row.ours_batched_ms:>8.1f}ms{row.mctx_ms:>7.1f}ms{row.mctx_batched_ms:>8.2f}ms"
            )
            result["mctx"].append(row.__dict__)
    report(
        "(TV: mean total-variation distance between the two searches' visit distributions, "
        "and policies; times per move: ours one leaf at a time and batched, mctx jitted on "
        f"one position and per position of a batch of {count})"
    )
    return result

"""The ``az`` network in JAX for training, and its export to the ``.npz`` format.

The network is exactly the one :mod:`arena.search.az.network` plays: a 3x3 stem, ``B``
residual blocks of two 3x3 convolutions, a policy head (1x1 convolution to ``P`` planes,
ReLU, dense to the action logits) and a value head (1x1 convolution to one plane, ReLU,
dense to ``V`` hidden units, ReLU, dense to the value through tanh). While training,
every convolution is followed by batch normalisation (the batch's statistics, and a
running average of them for inference); :func:`export` folds the running statistics
into the convolutions' weights and biases, which is the ``.npz`` network's arithmetic.

The parameters are a flat ``dict`` of float32 arrays (a JAX pytree): the ``.npz`` names
for the dense layers and the convolutions' weights, ``*_gamma`` and ``*_beta`` for the
batch normalisations; the running statistics are a second dict (``*_mean``, ``*_var``).
Creating them, and the export, need numpy only; :func:`build` imports JAX and optax
(the ``learn`` extra) and compiles the forward pass and the training step.

>>> import arena
>>> game = arena.load_game("tictactoe")
>>> arch = Architecture(filters=8, blocks=1)
>>> params, stats = init_params(arch, game, np.random.default_rng(0))
>>> net = export(game, params, stats)
>>> net.filters, net.blocks, net.weights["pol_fc_w"].shape
(8, 1, (9, 18))

Tests: tests/learn/test_train.py
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from arena.core.errors import ArenaError
from arena.core.game import Game
from arena.search.az.network import Network, conv3x3
from arena.search.az.planes import encoding

EPSILON = 1e-5
"""Batch normalisation's variance floor (inside the square root)."""

INSTALL_HINT = "arena train needs JAX and optax: pip install -e '.[learn]'"

Arrays = dict[str, np.ndarray]


@dataclass(frozen=True)
class Architecture:
    """The network's sizes: ``filters`` (F), residual ``blocks`` (B), ``policy`` planes
    (P) and the value head's ``hidden`` units (V)."""

    filters: int = 32
    blocks: int = 2
    policy: int = 2
    hidden: int = 64


@dataclass(frozen=True)
class Optimiser:
    """Adam on the loss below; ``l2`` weighs the sum of squared weights (not the biases or
    the batch normalisations' scales)."""

    learning_rate: float = 2e-3
    l2: float = 1e-4
    momentum: float = 0.9
    """Of the batch normalisations' running statistics (new = m * old + (1 - m) * batch)."""


CONVOLUTIONS = ("stem", "res", "pol", "val")
"""The layers followed by batch normalisation (``res`` holds ``B x 2`` of them)."""


def init_params(arch: Architecture, game: Game, rng: np.random.Generator) -> tuple[Arrays, Arrays]:
    """He-scaled random weights, unit scales, zero shifts and biases; the running
    statistics at mean 0, variance 1."""
    enc = encoding(game)
    c, h, w, a = enc.channels, enc.rows, enc.cols, enc.actions
    f, b, p, v = arch.filters, arch.blocks, arch.policy, arch.hidden

    def he(shape: tuple[int, ...], fan_in: int) -> np.ndarray:
        return (rng.standard_normal(shape) * np.sqrt(2.0 / fan_in)).astype(np.float32)

    params = {
        "stem_w": he((f, c, 3, 3), c * 9),
        "res_w": he((b, 2, f, f, 3, 3), f * 9),
        "pol_w": he((p, f), f),
        "pol_fc_w": he((a, p * h * w), p * h * w) * np.float32(0.5),
        "pol_fc_b": np.zeros(a, np.float32),
        "val_w": he((1, f), f),
        "val_fc1_w": he((v, h * w), h * w),
        "val_fc1_b": np.zeros(v, np.float32),
        "val_fc2_w": he((1, v), v) * np.float32(0.5),
        "val_fc2_b": np.zeros(1, np.float32),
    }
    stats = {}
    for name, units in (("stem", (f,)), ("res", (b, 2, f)), ("pol", (p,)), ("val", (1,))):
        params[f"{name}_gamma"] = np.ones(units, np.float32)
        params[f"{name}_beta"] = np.zeros(units, np.float32)
        stats[f"{name}_mean"] = np.zeros(units, np.float32)
        stats[f"{name}_var"] = np.ones(units, np.float32)
    return params, stats


def from_network(net: Network) -> tuple[Arrays, Arrays]:
    """Parameters whose inference-mode network is ``net`` (the exported one): each
    convolution's weights as they are, its batch normalisation the identity (the scale
    that cancels the variance floor, the bias as the shift, mean 0, variance 1), the dense
    layers as they are. :func:`export` gives ``net`` back to float precision;
    :func:`renormalise` then fits the statistics to the positions it will train on."""
    w = net.weights
    params = {k: np.array(v, np.float32) for k, v in w.items() if not k.endswith("_b")}
    for key in ("pol_fc_b", "val_fc1_b", "val_fc2_b"):
        params[key] = np.array(w[key], np.float32)
    stats = {}
    for name in CONVOLUTIONS:
        bias = np.asarray(w[f"{name}_b"], np.float32)
        params[f"{name}_gamma"] = np.full(bias.shape, np.sqrt(1.0 + EPSILON), np.float32)
        params[f"{name}_beta"] = bias.copy()
        stats[f"{name}_mean"] = np.zeros(bias.shape, np.float32)
        stats[f"{name}_var"] = np.ones(bias.shape, np.float32)
    return params, stats


def renormalise(params: Arrays, stats: Arrays, planes: np.ndarray) -> tuple[Arrays, Arrays]:
    """The same inference-mode network with each batch normalisation's running statistics
    those of ``planes`` (``(N, C, H, W)``): its scale and shift change so that every
    convolution's output is what it was, so training on such positions (which normalises
    with the batch's statistics) starts from the network it was given, not a distorted one.

    A network made by :func:`from_network` has the statistics of no data (mean 0, variance
    1); the first batches of training would otherwise see its layers normalised anew."""
    p = {k: np.asarray(v, np.float64) for k, v in params.items()}
    s = {k: np.asarray(v, np.float64) for k, v in stats.items()}
    out_p = {k: np.array(v, np.float32) for k, v in params.items()}
    out_s = {k: np.array(v, np.float32) for k, v in stats.items()}

    def norm(y: np.ndarray, name: str, index: tuple[int, ...] = ()) -> np.ndarray:
        gamma, beta = p[f"{name}_gamma"][index], p[f"{name}_beta"][index]
        mean, var = s[f"{name}_mean"][index], s[f"{name}_var"][index]
        scale = gamma / np.sqrt(var + EPSILON)
        new_mean, new_var = y.mean(axis=(0, 2, 3)), y.var(axis=(0, 2, 3))
        new_gamma = scale * np.sqrt(new_var + EPSILON)
        # gamma' (y - m') / sqrt(v' + eps) + beta' == scale (y - mean) + beta for every y:
        out_p[f"{name}_gamma"][index] = new_gamma
        out_p[f"{name}_beta"][index] = beta + scale * (new_mean - mean)
        out_s[f"{name}_mean"][index] = new_mean
        out_s[f"{name}_var"][index] = new_var
        return y * scale[None, :, None, None] + (beta - mean * scale)[None, :, None, None]

    x = np.asarray(planes, np.float64)
    h = np.maximum(norm(conv3x3(x, p["stem_w"]), "stem"), 0.0)
    for i in range(p["res_w"].shape[0]):
        y = np.maximum(norm(conv3x3(h, p["res_w"][i, 0]), "res", (i, 0)), 0.0)
        y = norm(conv3x3(y, p["res_w"][i, 1]), "res", (i, 1))
        h = np.maximum(h + y, 0.0)
    for name in ("pol", "val"):
        norm(np.einsum("pf,nfhw->nphw", p[f"{name}_w"], h), name)
    return out_p, out_s


def architecture_of(params: Arrays) -> Architecture:
    """The sizes of a parameter dict."""
    return Architecture(
        filters=int(params["stem_w"].shape[0]),
        blocks=int(params["res_w"].shape[0]),
        policy=int(params["pol_w"].shape[0]),
        hidden=int(params["val_fc1_w"].shape[0]),
    )


def fold(w: np.ndarray, gamma: np.ndarray, beta: np.ndarray, mean: np.ndarray, var: np.ndarray):  # type: ignore[no-untyped-def]
    """A bias-free convolution ``w`` (output channels first, on the last axis of the
    statistics) followed by batch normalisation, as one convolution: weights and bias."""
    scale = gamma / np.sqrt(var + EPSILON)
    shape = scale.shape + (1,) * (w.ndim - scale.ndim)
    return (w * scale.reshape(shape)).astype(np.float32), (beta - mean * scale).astype(np.float32)


def export(game: Game, params: Arrays, stats: Arrays) -> Network:
    """The ``.npz`` network of trained parameters (batch normalisation folded in), which
    the numpy and numba forward passes evaluate as the trained network does in
    inference mode."""
    p = {k: np.asarray(v, np.float64) for k, v in params.items()}
    s = {k: np.asarray(v, np.float64) for k, v in stats.items()}
    weights: dict[str, np.ndarray] = {}
    for name in CONVOLUTIONS:
        w, b = fold(
            p[f"{name}_w"], p[f"{name}_gamma"], p[f"{name}_beta"], s[f"{name}_mean"],
            s[f"{name}_var"],
        )  # fmt: skip
        weights[f"{name}_w"], weights[f"{name}_b"] = w, b
    for key in ("pol_fc_w", "pol_fc_b", "val_fc1_w", "val_fc1_b", "val_fc2_w", "val_fc2_b"):
        weights[key] = np.ascontiguousarray(p[key], np.float32)
    weights = {k: np.ascontiguousarray(v, np.float32) for k, v in weights.items()}
    return Network(game.spec, weights)


@dataclass(frozen=True)
class Model:
    """The compiled functions of one architecture and optimiser (:func:`build`).

    - ``apply(params, stats, planes)``: inference-mode logits ``(N, A)`` and values ``(N,)``;
    - ``init_opt(params)``: the optimiser's initial state;
    - ``step(params, stats, opt_state, planes, policy, value)``: one training step on a
      batch, returning the new params, stats and optimiser state and the losses
      ``(total, policy, value, l2)``;
    - ``flatten(tree)`` / ``unflatten(like, leaves)``: a pytree as a list of numpy arrays
      and back (the checkpoint's optimiser state).
    """

    apply: Callable[..., Any]
    init_opt: Callable[..., Any]
    step: Callable[..., Any]
    flatten: Callable[[Any], list[np.ndarray]]
    unflatten: Callable[[Any, list[np.ndarray]], Any]


def require_jax() -> None:
    """An :class:`ArenaError` with the install command unless JAX and optax import."""
    try:
        import jax  # noqa: F401
        import optax  # noqa: F401
    except ImportError:
        raise ArenaError(INSTALL_HINT) from None


def build(optimiser: Optimiser) -> Model:
    """JAX's forward pass, loss and ``jax.jit``-compiled training step (Adam from
    optax); an :class:`ArenaError` with the install command when JAX is missing. One
    model per optimiser and process, so its compiled code is reused."""
    require_jax()
    return compiled(optimiser)


@functools.cache
def compiled(optimiser: Optimiser) -> Model:
    """:func:`build`'s model, made once per optimiser."""
    import jax
    import jax.numpy as jnp
    import optax

    def conv3x3(x, w):  # type: ignore[no-untyped-def]
        # Cross-correlation with zero padding, as the numba pass computes it.
        return jax.lax.conv_general_dilated(
            x, w, (1, 1), "SAME", dimension_numbers=("NCHW", "OIHW", "NCHW"),
            precision=jax.lax.Precision.HIGHEST,
        )  # fmt: skip

    def conv1x1(x, w):  # type: ignore[no-untyped-def]
        return jnp.einsum("pf,nfhw->nphw", w, x, precision=jax.lax.Precision.HIGHEST)

    def norm(x, gamma, beta, mean, var, train, updates, key, index):  # type: ignore[no-untyped-def]
        """Batch normalisation over (N, H, W) per channel; in training the batch's
        statistics (their new running averages go to ``updates``)."""
        if train:
            m = x.mean(axis=(0, 2, 3))
            v = x.var(axis=(0, 2, 3))
            updates.append((key, index, m, v))
        else:
            m, v = mean, var
        scale = gamma / jnp.sqrt(v + EPSILON)
        return x * scale[None, :, None, None] + (beta - m * scale)[None, :, None, None]

    def forward(params, stats, x, train):  # type: ignore[no-untyped-def]
        updates: list[Any] = []
        p, s = params, stats
        h = conv3x3(x, p["stem_w"])
        h = jax.nn.relu(
            norm(h, p["stem_gamma"], p["stem_beta"], s["stem_mean"], s["stem_var"], train,
                 updates, "stem", None)
        )  # fmt: skip
        for i in range(p["res_w"].shape[0]):
            y = h
            for j in range(2):
                y = conv3x3(y, p["res_w"][i, j])
                y = norm(
                    y, p["res_gamma"][i, j], p["res_beta"][i, j], s["res_mean"][i, j],
                    s["res_var"][i, j], train, updates, "res", (i, j),
                )  # fmt: skip
                if j == 0:
                    y = jax.nn.relu(y)
            h = jax.nn.relu(h + y)
        heads = []
        for name in ("pol", "val"):
            z = conv1x1(h, p[f"{name}_w"])
            z = norm(
                z, p[f"{name}_gamma"], p[f"{name}_beta"], s[f"{name}_mean"], s[f"{name}_var"],
                train, updates, name, None,
            )  # fmt: skip
            heads.append(jax.nn.relu(z).reshape(z.shape[0], -1))
        hi = jax.lax.Precision.HIGHEST
        logits = jnp.dot(heads[0], p["pol_fc_w"].T, precision=hi) + p["pol_fc_b"]
        hidden = jax.nn.relu(jnp.dot(heads[1], p["val_fc1_w"].T, precision=hi) + p["val_fc1_b"])
        value = jnp.tanh(jnp.dot(hidden, p["val_fc2_w"].T, precision=hi) + p["val_fc2_b"])[:, 0]
        return logits, value, updates

    def new_stats(stats, updates):  # type: ignore[no-untyped-def]
        m = optimiser.momentum
        out = dict(stats)
        for key, index, mean, var in updates:
            for field, batch in (("mean", mean), ("var", var)):
                name = f"{key}_{field}"
                old = out[name] if index is None else out[name][index]
                new = m * old + (1.0 - m) * jax.lax.stop_gradient(batch)
                out[name] = new if index is None else out[name].at[index].set(new)
        return out

    def loss(params, stats, x, pi, z):  # type: ignore[no-untyped-def]
        logits, value, updates = forward(params, stats, x, True)
        policy_loss = -jnp.mean(jnp.sum(pi * jax.nn.log_softmax(logits), axis=-1))
        value_loss = jnp.mean((value - z) ** 2)
        l2 = optimiser.l2 * sum(jnp.sum(params[k] ** 2) for k in params if k.endswith("_w"))
        total = policy_loss + value_loss + l2
        return total, (new_stats(stats, updates), jnp.stack([total, policy_loss, value_loss, l2]))

    tx = optax.adam(optimiser.learning_rate)

    @jax.jit
    def step(params, stats, opt_state, x, pi, z):  # type: ignore[no-untyped-def]
        grads, (stats, losses) = jax.grad(loss, has_aux=True)(params, stats, x, pi, z)
        updates, opt_state = tx.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), stats, opt_state, losses

    @jax.jit
    def apply(params, stats, x):  # type: ignore[no-untyped-def]
        logits, value, _ = forward(params, stats, x, False)
        return logits, value

    def flatten(tree):  # type: ignore[no-untyped-def]
        return [np.asarray(leaf) for leaf in jax.tree_util.tree_leaves(tree)]

    def unflatten(like, leaves):  # type: ignore[no-untyped-def]
        treedef = jax.tree_util.tree_structure(like)
        return jax.tree_util.tree_unflatten(treedef, [jnp.asarray(x) for x in leaves])

    return Model(apply, tx.init, step, flatten, unflatten)

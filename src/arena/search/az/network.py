"""The ``.npz`` network format of ``az`` agents, and its readable forward pass.

A network is a small residual tower with AlphaZero's two heads, stored as plain arrays
so that playing needs numpy and numba only (whatever trained it). Batch normalisation
is folded into the convolutions when a network is exported, so inference is
convolutions, additions, ReLU, two dense heads and a tanh. One file, ``numpy.savez``,
``allow_pickle`` never needed:

=============  ======================  ===================================================
key            shape                   meaning
=============  ======================  ===================================================
``format``     ``()`` str              ``arena-az/1``
``game``       ``()`` str              the game's spec (``connect4:cols=7,k=4,rows=6``)
``stem_w``     ``(F, C, 3, 3)``        the input convolution (3x3, zero padding)
``stem_b``     ``(F,)``
``res_w``      ``(B, 2, F, F, 3, 3)``  B residual blocks of two 3x3 convolutions (B >= 0)
``res_b``      ``(B, 2, F)``
``pol_w``      ``(P, F)``              policy head: a 1x1 convolution to P planes, ReLU
``pol_b``      ``(P,)``
``pol_fc_w``   ``(A, P*H*W)``          then a dense layer to A action logits
``pol_fc_b``   ``(A,)``
``val_w``      ``(1, F)``              value head: a 1x1 convolution to 1 plane, ReLU
``val_b``      ``(1,)``
``val_fc1_w``  ``(V, H*W)``            a dense layer to V hidden units, ReLU
``val_fc1_b``  ``(V,)``
``val_fc2_w``  ``(1, V)``              and one to the value, through tanh
``val_fc2_b``  ``(1,)``
=============  ======================  ===================================================

C, H, W and A are the game's (:func:`arena.search.az.planes.encoding`); F, B, P and V
are the network's own. A residual block is ``h = relu(h + conv2(relu(conv1(h))))``; the
stem is ``relu(conv(x))``. Flattening is row-major over ``(P, H, W)`` (``H*W`` for the
value plane). The value is for the player to move, in [-1, 1]; the logits cover every
action and the search masks the illegal ones.

>>> import arena
>>> game = arena.load_game("tictactoe")
>>> net = random_network(game, filters=8, blocks=1, seed=0)
>>> logits, value = forward(net, encode(game.initial_state()))
>>> logits.shape, -1.0 <= value <= 1.0
((9,), True)

Tests: tests/search/test_az.py
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from arena.core.errors import SpecError
from arena.core.game import Game
from arena.search.az.planes import encode, encoding

FORMAT = "arena-az/1"
"""The format tag this module reads and writes."""

WEIGHTS = (
    "stem_w", "stem_b", "res_w", "res_b", "pol_w", "pol_b", "pol_fc_w", "pol_fc_b",
    "val_w", "val_b", "val_fc1_w", "val_fc1_b", "val_fc2_w", "val_fc2_b",
)  # fmt: skip
"""The weight arrays, in the order the compiled forward pass takes them."""

__all__ = ["FORMAT", "WEIGHTS", "Network", "encode", "forward", "load", "random_network"]


@dataclass(frozen=True, eq=False)
class Network:
    """A loaded network: the game it plays and its weights (float32, C-contiguous)."""

    game: str
    weights: dict[str, np.ndarray]

    @property
    def filters(self) -> int:
        return int(self.weights["stem_w"].shape[0])

    @property
    def blocks(self) -> int:
        return int(self.weights["res_w"].shape[0])

    def arrays(self) -> tuple[np.ndarray, ...]:
        """The weights in :data:`WEIGHTS` order (the compiled forward pass's arguments)."""
        return tuple(self.weights[k] for k in WEIGHTS)

    def check(self, game: Game) -> None:
        """A one-line :class:`SpecError` unless this network plays ``game``."""
        if self.game != game.spec:
            raise SpecError(f"az: the network is for {self.game}, not {game.spec}")
        problem = shape_problem(self.weights, game)
        if problem:
            raise SpecError(f"az: the network does not fit {game.spec}: {problem}")

    def save(self, path: str | Path) -> None:
        """Write the network in the ``.npz`` format above."""
        np.savez(Path(path), format=np.array(FORMAT), game=np.array(self.game), **self.weights)


def expected_shapes(weights: dict[str, np.ndarray], game: Game) -> dict[str, tuple[int, ...]]:
    """The shape each array must have for ``game``, given the network's own sizes (F, B,
    P, V read from ``stem_w``, ``res_w``, ``pol_w`` and ``val_fc1_w``)."""
    enc = encoding(game)
    c, h, w, a = enc.channels, enc.rows, enc.cols, enc.actions
    f = weights["stem_w"].shape[0] if weights["stem_w"].ndim else 0
    b = weights["res_w"].shape[0] if weights["res_w"].ndim else 0
    p = weights["pol_w"].shape[0] if weights["pol_w"].ndim else 0
    v = weights["val_fc1_w"].shape[0] if weights["val_fc1_w"].ndim else 0
    return {
        "stem_w": (f, c, 3, 3), "stem_b": (f,),
        "res_w": (b, 2, f, f, 3, 3), "res_b": (b, 2, f),
        "pol_w": (p, f), "pol_b": (p,), "pol_fc_w": (a, p * h * w), "pol_fc_b": (a,),
        "val_w": (1, f), "val_b": (1,), "val_fc1_w": (v, h * w), "val_fc1_b": (v,),
        "val_fc2_w": (1, v), "val_fc2_b": (1,),
    }  # fmt: skip


def shape_problem(weights: dict[str, np.ndarray], game: Game) -> str:
    """The first array whose shape does not fit ``game`` ("" when all do)."""
    for key, shape in expected_shapes(weights, game).items():
        if weights[key].shape != shape:
            return f"{key} has shape {weights[key].shape}, expected {shape}"
    if (
        min(weights["stem_w"].shape[0], weights["pol_w"].shape[0], weights["val_fc1_w"].shape[0])
        < 1
    ):
        return "a layer has no units"
    return ""


def load(path: str | Path) -> Network:
    """The network in ``path``, or a one-line :class:`SpecError` naming what is wrong
    (no such file, not a network, another format, a missing or non-finite array)."""
    path = Path(path)
    if not path.is_file():
        raise SpecError(f"az: net={path}: no such file")
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {k: data[k] for k in data.files}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as exc:
        raise SpecError(f"az: net={path}: not a network file (.npz): {exc}") from None
    tag = str(arrays.get("format", ""))
    if tag != FORMAT:
        raise SpecError(f"az: net={path}: format {tag or 'missing'!r}, expected {FORMAT!r}")
    missing = [k for k in ("game", *WEIGHTS) if k not in arrays]
    if missing:
        raise SpecError(f"az: net={path}: missing arrays {', '.join(missing)}")
    weights = {}
    for key in WEIGHTS:
        value = arrays[key]
        if value.dtype.kind not in "fiu":
            raise SpecError(f"az: net={path}: {key} is not numbers ({value.dtype})")
        value = np.ascontiguousarray(value, dtype=np.float32)
        if not np.isfinite(value).all():
            raise SpecError(f"az: net={path}: {key} holds NaN or infinity")
        weights[key] = value
    return Network(str(arrays["game"]), weights)


def random_network(
    game: Game, filters: int = 16, blocks: int = 1, policy: int = 2, hidden: int = 32, seed: int = 0
) -> Network:
    """An untrained network for ``game`` (He-scaled normal weights): for tests, and the
    first network of a self-play run."""
    rng = np.random.default_rng(seed)
    enc = encoding(game)
    f, b, p, v = filters, blocks, policy, hidden
    shapes = expected_shapes(
        {
            "stem_w": np.zeros((f,)), "res_w": np.zeros((b,)),
            "pol_w": np.zeros((p,)), "val_fc1_w": np.zeros((v,)),
        },
        game,
    )  # fmt: skip
    weights = {}
    for key, shape in shapes.items():
        if key.endswith("_b"):
            weights[key] = (rng.standard_normal(shape) * 0.01).astype(np.float32)
            continue
        fan_in = int(np.prod(shape[-3:])) if key.startswith(("stem", "res")) else shape[-1]
        scale = np.sqrt(2.0 / max(fan_in, 1))
        weights[key] = (rng.standard_normal(shape) * scale).astype(np.float32)
    del enc
    return Network(game.spec, weights)


# --- the readable forward pass ---------------------------------------------------------


def conv3x3(x: np.ndarray, w: np.ndarray, b: np.ndarray | None = None) -> np.ndarray:
    """A 3x3 convolution with zero padding: ``(C, H, W) -> (F, H, W)``, or a batch of them,
    ``(N, C, H, W) -> (N, F, H, W)``; ``b`` (``(F,)``) is added when given. The result has
    the inputs' type (float32 for a network's arrays, float64 for
    :func:`arena.learn.model.renormalise`'s)."""
    h, wd = x.shape[-2:]
    padded = np.pad(x, ((0, 0),) * (x.ndim - 2) + ((1, 1), (1, 1)))
    out = np.zeros((*x.shape[:-3], w.shape[0], h, wd), np.result_type(x, w))
    if b is not None:
        out += b[:, None, None]
    for dy in range(3):
        for dx in range(3):
            out += np.einsum(
                "fc,...chw->...fhw", w[:, :, dy, dx], padded[..., dy : dy + h, dx : dx + wd]
            )
    return out


def relu(x: np.ndarray) -> np.ndarray:
    return np.maximum(x, 0.0)


def forward(net: Network, planes: np.ndarray) -> tuple[np.ndarray, float]:
    """The action logits ``(A,)`` and the value (for the player to move) of one position's
    ``(C, H, W)`` planes: the reference the compiled pass is tested against."""
    w = net.weights
    h = relu(conv3x3(planes, w["stem_w"], w["stem_b"]))
    for i in range(w["res_w"].shape[0]):
        y = relu(conv3x3(h, w["res_w"][i, 0], w["res_b"][i, 0]))
        y = conv3x3(y, w["res_w"][i, 1], w["res_b"][i, 1])
        h = relu(h + y)
    p = relu(np.einsum("pf,fhw->phw", w["pol_w"], h) + w["pol_b"][:, None, None])
    logits = w["pol_fc_w"] @ p.reshape(-1) + w["pol_fc_b"]
    v = relu(np.einsum("pf,fhw->phw", w["val_w"], h) + w["val_b"][:, None, None])
    hidden = relu(w["val_fc1_w"] @ v.reshape(-1) + w["val_fc1_b"])
    value = np.tanh(w["val_fc2_w"] @ hidden + w["val_fc2_b"])[0]
    return logits.astype(np.float32), float(value)

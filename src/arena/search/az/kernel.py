"""The network's forward pass compiled with numba: a batch of positions at once.

Plain functions over explicit arrays, the same arithmetic as the readable
:func:`arena.search.az.network.forward` (float32 throughout; the tests hold them equal
to 1e-4 on random positions). Activations are kept channels-last, ``(N, H, W, F)``, and
the 3x3 convolutions' weights as ``(3, 3, C, F)`` (:func:`prepare`), so that at each
cell the work is a small matrix product: every weight row ``w[dy, dx, c, :]`` is read
once for the whole batch and applied to each position's filters in one vectorised
loop. A batch of B positions therefore costs less than B single calls (the weights
come from cache once, not B times; ``arena bench az`` measures it), and each output
element still sums its terms in the readable order (bias, then channel, row, column),
so a position's logits and value are bitwise the same whatever batch it is in.

Tests: tests/search/test_az.py
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def conv3x3(x, w, b, out):  # type: ignore[no-untyped-def]
    """``out[n, r, c, f] = b[f] + sum_k w[dy, dx, k, f] * x[n, r+dy-1, c+dx-1, k]`` with
    zero padding; ``x`` is ``(N, H, W, K)``, ``w`` ``(3, 3, K, F)``, ``out`` ``(N, H, W, F)``.
    Terms are added channel by channel, then row and column of the window (the readable
    pass's order)."""
    batch, rows, cols, channels = x.shape
    filters = w.shape[3]
    for r in range(rows):
        for c in range(cols):
            for n in range(batch):
                for f in range(filters):
                    out[n, r, c, f] = b[f]
            for k in range(channels):
                for dy in range(3):
                    rr = r + dy - 1
                    if rr < 0 or rr >= rows:
                        continue
                    for dx in range(3):
                        cc = c + dx - 1
                        if cc < 0 or cc >= cols:
                            continue
                        row = w[dy, dx, k]
                        for n in range(batch):
                            xv = x[n, rr, cc, k]
                            acc = out[n, r, c]
                            for f in range(filters):
                                acc[f] += row[f] * xv


@njit(cache=True)
def relu_in_place(x):  # type: ignore[no-untyped-def]
    flat = x.reshape(-1)
    for i in range(flat.size):
        if flat[i] < 0.0:
            flat[i] = 0.0


@njit(cache=True)
def pointwise(h, w, b, out):  # type: ignore[no-untyped-def]
    """A 1x1 convolution ``(N, H, W, F) -> (N, H, W, P)`` followed by ReLU."""
    for n in range(h.shape[0]):
        for r in range(h.shape[1]):
            for c in range(h.shape[2]):
                for p in range(w.shape[0]):
                    total = b[p]
                    for f in range(h.shape[3]):
                        total += w[p, f] * h[n, r, c, f]
                    out[n, r, c, p] = total if total > 0.0 else 0.0


@njit(cache=True)
def forward_batch(
    planes, stem_w, stem_b, res_w, res_b, pol_w, pol_b, pol_fc_w, pol_fc_b,
    val_w, val_b, val_fc1_w, val_fc1_b, val_fc2_w, val_fc2_b, logits, values,
):  # type: ignore[no-untyped-def]  # fmt: skip
    """Fill ``logits[n]`` (the action logits) and ``values[n]`` (tanh, for the player to
    move) for each of the ``(N, H, W, C)`` positions in ``planes``; the convolutions'
    weights are :func:`prepare`'s ``(3, 3, K, F)``."""
    batch, rows, cols = planes.shape[0], planes.shape[1], planes.shape[2]
    filters = stem_w.shape[3]
    h = np.empty((batch, rows, cols, filters), np.float32)
    y = np.empty((batch, rows, cols, filters), np.float32)
    z = np.empty((batch, rows, cols, filters), np.float32)
    p = np.empty((batch, rows, cols, pol_w.shape[0]), np.float32)
    v = np.empty((batch, rows, cols, 1), np.float32)
    hidden = np.empty(val_fc1_w.shape[0], np.float32)
    conv3x3(planes, stem_w, stem_b, h)
    relu_in_place(h)
    for i in range(res_w.shape[0]):
        conv3x3(h, res_w[i, 0], res_b[i, 0], y)
        relu_in_place(y)
        conv3x3(y, res_w[i, 1], res_b[i, 1], z)
        hf = h.reshape(-1)
        zf = z.reshape(-1)
        for j in range(hf.size):
            s = hf[j] + zf[j]
            hf[j] = s if s > 0.0 else 0.0
    pointwise(h, pol_w, pol_b, p)
    pointwise(h, val_w, val_b, v)
    planes_p = pol_w.shape[0]
    for n in range(batch):
        # The dense layers read the planes row-major over (P, H, W), as the format says.
        for a in range(pol_fc_w.shape[0]):
            total = pol_fc_b[a]
            j = 0
            for q in range(planes_p):
                for r in range(rows):
                    for c in range(cols):
                        total += pol_fc_w[a, j] * p[n, r, c, q]
                        j += 1
            logits[n, a] = total
        for u in range(val_fc1_w.shape[0]):
            total = val_fc1_b[u]
            j = 0
            for r in range(rows):
                for c in range(cols):
                    total += val_fc1_w[u, j] * v[n, r, c, 0]
                    j += 1
            hidden[u] = total if total > 0.0 else 0.0
        total = val_fc2_b[0]
        for u in range(hidden.size):
            total += val_fc2_w[0, u] * hidden[u]
        values[n] = np.tanh(total)


def prepare(arrays: tuple[np.ndarray, ...]) -> tuple[np.ndarray, ...]:
    """The weights of :meth:`arena.search.az.network.Network.arrays` in the compiled
    pass's layout (the 3x3 convolutions as ``(3, 3, K, F)``); made once per network."""
    stem_w, stem_b, res_w, res_b, *heads = arrays
    stem = np.ascontiguousarray(stem_w.transpose(2, 3, 1, 0))
    res = np.ascontiguousarray(res_w.transpose(0, 1, 4, 5, 3, 2))
    return (stem, stem_b, res, res_b, *heads)


def evaluate_prepared(
    prepared: tuple[np.ndarray, ...], planes: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The logits ``(N, A)`` and values ``(N,)`` of a batch of ``(N, C, H, W)`` planes,
    compiled, with weights from :func:`prepare`."""
    actions = prepared[6].shape[0]
    logits = np.empty((planes.shape[0], actions), np.float32)
    values = np.empty(planes.shape[0], np.float32)
    x = np.ascontiguousarray(planes.transpose(0, 2, 3, 1), dtype=np.float32)
    forward_batch(x, *prepared, logits, values)
    return logits, values


_prepared: list[tuple[tuple[np.ndarray, ...], tuple[np.ndarray, ...]]] = []
"""The last weights :func:`evaluate_batch` prepared, with the tuple they came from (held,
so its identity cannot be reused while it is remembered)."""


def evaluate_batch(
    arrays: tuple[np.ndarray, ...], planes: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The logits ``(N, A)`` and values ``(N,)`` of a batch of planes, compiled; ``arrays``
    is :meth:`arena.search.az.network.Network.arrays`. The weights are prepared once for
    the same tuple called again (a caller evaluating one position at a time keeps its
    tuple); a search can also call :func:`prepare` once and :func:`evaluate_prepared`."""
    last = _prepared[0] if _prepared else None
    if last is not None and last[0] is arrays:
        return evaluate_prepared(last[1], planes)
    prepared = prepare(arrays)
    _prepared[:] = [(arrays, prepared)]
    return evaluate_prepared(prepared, planes)

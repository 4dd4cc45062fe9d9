"""The network's forward pass compiled with numba: a batch of positions at once.

Plain functions over explicit arrays, in the weights' :data:`arena.search.az.network.WEIGHTS`
order, the same arithmetic as the readable :func:`arena.search.az.network.forward`
(float32 throughout; the tests hold them equal to 1e-4 on random positions).

Tests: tests/search/test_az.py
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def conv3x3(x, w, b, out):  # type: ignore[no-untyped-def]
    """``out[f] = b[f] + sum_c w[f, c] * x[c]`` over 3x3 windows, zero padding; ``x`` is
    ``(C, H, W)``, ``out`` ``(F, H, W)``."""
    filters, channels = w.shape[0], w.shape[1]
    rows, cols = x.shape[1], x.shape[2]
    for f in range(filters):
        for r in range(rows):
            for c in range(cols):
                total = b[f]
                for k in range(channels):
                    for dy in range(3):
                        rr = r + dy - 1
                        if rr < 0 or rr >= rows:
                            continue
                        for dx in range(3):
                            cc = c + dx - 1
                            if cc < 0 or cc >= cols:
                                continue
                            total += w[f, k, dy, dx] * x[k, rr, cc]
                out[f, r, c] = total


@njit(cache=True)
def relu_in_place(x):  # type: ignore[no-untyped-def]
    flat = x.reshape(-1)
    for i in range(flat.size):
        if flat[i] < 0.0:
            flat[i] = 0.0


@njit(cache=True)
def pointwise(h, w, b, out):  # type: ignore[no-untyped-def]
    """A 1x1 convolution ``(F, H, W) -> (P, H, W)`` followed by ReLU."""
    for p in range(w.shape[0]):
        for r in range(h.shape[1]):
            for c in range(h.shape[2]):
                total = b[p]
                for f in range(h.shape[0]):
                    total += w[p, f] * h[f, r, c]
                out[p, r, c] = total if total > 0.0 else 0.0


@njit(cache=True)
def forward_batch(
    planes, stem_w, stem_b, res_w, res_b, pol_w, pol_b, pol_fc_w, pol_fc_b,
    val_w, val_b, val_fc1_w, val_fc1_b, val_fc2_w, val_fc2_b, logits, values,
):  # type: ignore[no-untyped-def]  # fmt: skip
    """Fill ``logits[n]`` (the action logits) and ``values[n]`` (tanh, for the player to
    move) for each of the ``(N, C, H, W)`` positions in ``planes``."""
    filters = stem_w.shape[0]
    rows, cols = planes.shape[2], planes.shape[3]
    h = np.empty((filters, rows, cols), np.float32)
    y = np.empty((filters, rows, cols), np.float32)
    z = np.empty((filters, rows, cols), np.float32)
    p = np.empty((pol_w.shape[0], rows, cols), np.float32)
    v = np.empty((1, rows, cols), np.float32)
    hidden = np.empty(val_fc1_w.shape[0], np.float32)
    for n in range(planes.shape[0]):
        conv3x3(planes[n], stem_w, stem_b, h)
        relu_in_place(h)
        for i in range(res_w.shape[0]):
            conv3x3(h, res_w[i, 0], res_b[i, 0], y)
            relu_in_place(y)
            conv3x3(y, res_w[i, 1], res_b[i, 1], z)
            for f in range(filters):
                for r in range(rows):
                    for c in range(cols):
                        s = h[f, r, c] + z[f, r, c]
                        h[f, r, c] = s if s > 0.0 else 0.0
        pointwise(h, pol_w, pol_b, p)
        flat = p.reshape(-1)
        for a in range(pol_fc_w.shape[0]):
            total = pol_fc_b[a]
            for j in range(flat.size):
                total += pol_fc_w[a, j] * flat[j]
            logits[n, a] = total
        pointwise(h, val_w, val_b, v)
        vflat = v.reshape(-1)
        for u in range(val_fc1_w.shape[0]):
            total = val_fc1_b[u]
            for j in range(vflat.size):
                total += val_fc1_w[u, j] * vflat[j]
            hidden[u] = total if total > 0.0 else 0.0
        total = val_fc2_b[0]
        for u in range(hidden.size):
            total += val_fc2_w[0, u] * hidden[u]
        values[n] = np.tanh(total)


def evaluate_batch(
    arrays: tuple[np.ndarray, ...], planes: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The logits ``(N, A)`` and values ``(N,)`` of a batch of planes, compiled; ``arrays``
    is :meth:`arena.search.az.network.Network.arrays`."""
    actions = arrays[6].shape[0]
    logits = np.empty((planes.shape[0], actions), np.float32)
    values = np.empty(planes.shape[0], np.float32)
    forward_batch(np.ascontiguousarray(planes, dtype=np.float32), *arrays, logits, values)
    return logits, values

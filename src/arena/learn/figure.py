"""The figure of a training run: Elo against time and the losses against the step, as
a standalone SVG written from ``log.jsonl`` (no plotting library needed).

>>> rows = [{"step": 1, "minutes": 0.5, "loss": 2.0, "policy_loss": 1.5, "value_loss": 0.5},
...         {"step": 2, "minutes": 1.0, "loss": 1.5, "policy_loss": 1.2, "value_loss": 0.3,
...          "elo": 120.0, "vs_mcts": {"elo": -50.0}}]
>>> svg = figure(rows, "tictactoe")
>>> svg.startswith("<svg") and "policy" in svg and "Elo" in svg
True

Tests: tests/learn/test_train.py
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape
from typing import Any

WIDTH, HEIGHT = 760, 360
MARGIN = 56
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd")


def ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round tick values covering ``[low, high]``.

    >>> ticks(0, 10)
    [0.0, 2.0, 4.0, 6.0, 8.0, 10.0]
    """
    span = high - low
    if span <= 0:
        return [low]
    raw = span / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next((m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw), raw)
    first = step * (low // step)
    values = []
    value = first
    while value <= high + step * 1e-9:
        if value >= low - step * 1e-9:
            values.append(round(float(value), 10))
        value += step
    return values


def panel(
    x0: float, title: str, xlabel: str, series: Sequence[tuple[str, list[tuple[float, float]]]]
) -> list[str]:
    """One chart at horizontal offset ``x0``: axes, ticks, a line per series, a legend."""
    w, h = WIDTH / 2 - MARGIN - 10, HEIGHT - 2 * MARGIN - 40
    points = [p for _, line in series for p in line]
    out = [
        f'<text x="{x0 + w / 2:.1f}" y="{MARGIN - 22}" text-anchor="middle" '
        f'font-weight="bold">{escape(title)}</text>',
        f'<text x="{x0 + w / 2:.1f}" y="{MARGIN + h + 34}" text-anchor="middle">'
        f"{escape(xlabel)}</text>",
        f'<rect x="{x0}" y="{MARGIN}" width="{w:.1f}" height="{h}" fill="none" stroke="#888"/>',
    ]
    if not points:
        out.append(f'<text x="{x0 + w / 2:.1f}" y="{MARGIN + h / 2}" text-anchor="middle" '
                   f'fill="#888">no data yet</text>')  # fmt: skip
        return out
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    xlo, xhi = min(xs), max(xs)
    ylo, yhi = min(ys), max(ys)
    if xhi == xlo:
        xhi = xlo + 1
    if yhi == ylo:
        ylo, yhi = ylo - 1, yhi + 1

    def sx(x: float) -> float:
        return x0 + (x - xlo) / (xhi - xlo) * w

    def sy(y: float) -> float:
        return MARGIN + h - (y - ylo) / (yhi - ylo) * h

    for t in ticks(xlo, xhi):
        out.append(f'<text x="{sx(t):.1f}" y="{MARGIN + h + 16}" text-anchor="middle" '
                   f'font-size="11">{t:g}</text>')  # fmt: skip
    for t in ticks(ylo, yhi):
        out.append(f'<line x1="{x0}" x2="{x0 + w:.1f}" y1="{sy(t):.1f}" y2="{sy(t):.1f}" '
                   f'stroke="#eee"/>')  # fmt: skip
        out.append(f'<text x="{x0 - 4}" y="{sy(t) + 4:.1f}" text-anchor="end" '
                   f'font-size="11">{t:g}</text>')  # fmt: skip
    for i, (name, line) in enumerate(series):
        colour = COLOURS[i % len(COLOURS)]
        if line:
            path = " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y in line)
            out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" '
                       f'stroke-width="1.8"/>')  # fmt: skip
            for x, y in line if len(line) < 60 else ():
                out.append(f'<circle cx="{sx(x):.1f}" cy="{sy(y):.1f}" r="2.2" fill="{colour}"/>')
        out.append(f'<text x="{x0}" y="{HEIGHT - 42 + 14 * i}" font-size="11" '
                   f'fill="{colour}">&#8212; {escape(name)}</text>')  # fmt: skip
    return out


def figure(rows: Sequence[dict[str, Any]], title: str) -> str:
    """The SVG of a run's log rows: left, the Elo estimates against minutes of training
    (the chain of matches against the last accepted network, and the match against
    ``mcts``); right, the losses against the step."""
    elo = [(r["minutes"], r["elo"]) for r in rows if r.get("elo") is not None]
    if elo:
        elo.insert(0, (0.0, 0.0))  # the random first network
    mcts = [(r["minutes"], r["vs_mcts"]["elo"]) for r in rows if r.get("vs_mcts")]
    losses = [
        (name, [(r["step"], r[key]) for r in rows if r.get(key) is not None])
        for name, key in (("total", "loss"), ("policy", "policy_loss"), ("value", "value_loss"))
    ]
    body = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="13">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
        f'<text x="{WIDTH / 2}" y="18" text-anchor="middle" font-size="14">'
        f"arena train {escape(title)}</text>",
    ]
    body += panel(
        MARGIN,
        "Elo",
        "minutes of training",
        [
            ("chained via the accepted networks (random first = 0)", elo),
            ("against mcts at equal simulations (mcts = 0)", mcts),
        ],
    )
    body += panel(WIDTH / 2 + MARGIN, "training loss", "step", losses)
    body.append("</svg>")
    return "\n".join(body) + "\n"

"""Bitboards in Python ints for k-in-a-row games (Tic-tac-toe, Connect Four, Gomoku).

Cell ``(row, col)`` is bit ``row * stride + col`` with ``stride = cols + 1``:
the spare column of zeros stops horizontal and diagonal runs from wrapping
into the next row, so a whole-board test for a run of k is a handful of
shifts and ands per direction.

>>> b = LineBoard(6, 7)
>>> stones = b.bits_of_cells([b.cell(5, c) for c in range(3, 7)])
>>> b.has_run(stones, 4), b.has_run(stones, 5)
(True, False)

Tests: tests/games/test_kinarow.py
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator


def iter_bits(x: int) -> Iterator[int]:
    """Indices of the set bits of ``x``, lowest first."""
    while x:
        low = x & -x
        yield low.bit_length() - 1
        x ^= low


def run_plan(k: int) -> list[int]:
    """Shift multiples that build runs of length k by doubling.

    Runs of length L become runs of length L + m with ``r &= r >> (m * d)``,
    so k = 5 takes three steps (1, 2, 1) instead of four.
    """
    plan, length = [], 1
    while length < k:
        step = min(length, k - length)
        plan.append(step)
        length += step
    return plan


class LineBoard:
    """Geometry of a rows x cols board laid out with one padding column."""

    def __init__(self, rows: int, cols: int) -> None:
        self.rows, self.cols = rows, cols
        self.stride = cols + 1
        self.directions = (1, self.stride, self.stride + 1, self.stride - 1)
        self.cell_bit = [1 << (r * self.stride + c) for r in range(rows) for c in range(cols)]
        self.full = sum(self.cell_bit)
        self._plans: dict[int, list[int]] = {}

    def cell(self, row: int, col: int) -> int:
        return row * self.cols + col

    def bits_of_cells(self, cells: Iterable[int]) -> int:
        bits = 0
        for cell in cells:
            bits |= self.cell_bit[cell]
        return bits

    def cells_of_bits(self, bits: int) -> list[int]:
        """Cell indices of the set bits, in cell order."""
        stride, cols = self.stride, self.cols
        return [i // stride * cols + i % stride for i in iter_bits(bits)]

    def _plan(self, k: int) -> list[int]:
        plan = self._plans.get(k)
        if plan is None:
            plan = self._plans[k] = run_plan(k)
        return plan

    def runs(self, bits: int, k: int, d: int) -> int:
        """Start bits of every run of at least k stones in direction ``d``."""
        for m in self._plan(k):
            bits &= bits >> (m * d)
        return bits

    def has_run(self, bits: int, k: int) -> bool:
        """True when ``bits`` holds k or more in a row in any direction."""
        plan = self._plan(k)
        for d in self.directions:
            r = bits
            for m in plan:
                r &= r >> (m * d)
                if not r:
                    break
            else:
                return True
        return False

    def has_exact_run(self, bits: int, k: int) -> bool:
        """True when some maximal line of ``bits`` is exactly k long (an overline is not)."""
        for d in self.directions:
            r = self.runs(bits, k, d)
            if r and r & ~(bits << d) & ~(bits >> (k * d)):
                return True
        return False

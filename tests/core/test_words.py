"""Counts in words: every message that counts says ``1 ply``, never ``1 plies``."""

from __future__ import annotations

from arena.core.words import plural
from arena.formats.record import GameRecord
from arena.formats.sgf import to_sgf


def test_one_is_singular_and_the_rest_plural() -> None:
    assert [plural(n, "ply") for n in (0, 1, 2)] == ["0 plies", "1 ply", "2 plies"]
    assert plural(1, "move") == "1 move" and plural(3, "move") == "3 moves"


def test_an_unfinished_record_of_one_move() -> None:
    record = GameRecord(game="go:size=9", players=("a", "b"), moves=["E5"], finished=False)
    assert "unfinished after 1 move]" in to_sgf(record)

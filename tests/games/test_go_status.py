"""Go's final status by playouts (games/go/status.py): dead stones found, living groups kept."""

from __future__ import annotations

import pytest

import arena
from arena.games.go.status import final_status, ownership


def position(spec: str, moves: str):  # type: ignore[no-untyped-def]
    game = arena.load_game(spec)
    return game, game.play_moves(game.parse_moves(moves))


def names(game, points) -> list[str]:  # type: ignore[no-untyped-def]
    return sorted(game.format_move(p) for p in points)


def test_a_stone_inside_the_other_area_is_dead() -> None:
    game, state = position("go:size=5", "b1 d1 b2 d2 b3 d3 b4 d4 b5 d5 e3 c3 pass pass")
    assert names(game, final_status(state, "dead")) == ["E3"]
    owned = ownership(state, playouts=20)
    e3 = game.parse_move("E3")
    assert owned.white[e3] > 0.5 and owned.playouts == 20


def test_two_eyed_groups_live_and_nothing_is_dead_at_the_start() -> None:
    # Black's wall on column C and White's on E, each with the whole side behind it.
    _, state = position("go:size=7", "c1 e1 c2 e2 c3 e3 c4 e4 c5 e5 c6 e6 c7 e7 a4 g4 pass pass")
    assert final_status(state, "dead") == ()
    assert len(final_status(state, "alive")) == 16
    empty = arena.load_game("go:size=9").initial_state()
    assert final_status(empty, "dead") == final_status(empty, "alive") == ()


def test_an_unknown_status_is_refused() -> None:
    _, state = position("go:size=5", "c3")
    with pytest.raises(ValueError, match="zombie"):
        final_status(state, "zombie")


def test_a_seki_is_found() -> None:
    # Black's inner group (A2 B2 B1, an eye at A1) and White's (A3..E2, an eye at E1) share
    # the liberty C1: whoever fills it is captured, so neither does.
    black = ["B5", "C5", "E5", "A4", "B4", "C4", "D4", "E4", "D3", "E3", "A2", "B2", "B1"]
    white = ["A3", "B3", "C3", "C2", "D2", "D1", "E2"]
    moves = [m for i, b in enumerate(black) for m in (b, white[i] if i < len(white) else "pass")]
    game, state = position("go:size=5", " ".join(moves[:-1]))
    inner = ["A2", "A3", "B1", "B2", "B3", "C2", "C3", "D1", "D2", "E2"]
    assert names(game, final_status(state, "seki")) == inner
    assert len(final_status(state, "alive")) == 10 and final_status(state, "dead") == ()

"""The Othello endgame solver against FFO #40-#42 and the game's own rules."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from arena.core.game import State
from arena.formats.position import format_position, parse_position
from arena.games import load_game
from arena.solvers.generic import GenericSolver
from arena.solvers.othello import search, stability, symmetry
from arena.solvers.othello import solver as solver_module
from arena.solvers.othello.board import board_mask
from arena.solvers.othello.solver import OthelloSolver, discs

DATA = Path(__file__).parent / "data" / "othello_ffo.txt"
FFO = {fields[4]: fields for fields in (line.split() for line in DATA.open())}


@pytest.fixture(scope="module")
def solver() -> OthelloSolver:
    return OthelloSolver(8, table_bits=20)


def _solve(solver: OthelloSolver, name: str) -> None:
    board, side, score, best, _ = FFO[name]
    state = parse_position(load_game("othello"), f"{board} {side}")
    solver.reset()
    assert solver.solve(state).score == int(score)
    # The suite's best move keeps the value.
    game = state.game
    child = state.play(game.parse_move(best))
    assert -solver.solve(child).score == int(score)


def test_ffo_40(solver: OthelloSolver) -> None:
    _solve(solver, "FFO#40")


@pytest.mark.slow
@pytest.mark.parametrize("name", ["FFO#41", "FFO#42"])
def test_ffo_41_42(solver: OthelloSolver, name: str) -> None:
    _solve(solver, name)


def endgame(rng: random.Random, empties: int) -> State:
    game = load_game("othello")
    while True:
        state = game.initial_state()
        while not state.is_terminal() and 64 - sum(state.discs()) > empties:  # type: ignore[attr-defined]
            state = state.play(rng.choice(state.legal_moves()))
        if not state.is_terminal():
            return state


def test_random_endgames_equal_the_generic_solver(solver: OthelloSolver) -> None:
    # Passes, wipe-outs and games ending with empty cells all come up in 30 games.
    rng = random.Random(40)
    for _ in range(30):
        state = endgame(rng, rng.choice((7, 8, 9)))
        expected = GenericSolver().solve(state).score
        assert solver.solve(state).score == expected, format_position(state)


def test_time_limit_gives_bounds() -> None:
    board, side = FFO["FFO#42"][:2]
    state = parse_position(load_game("othello"), f"{board} {side}")
    found = OthelloSolver(8, table_bits=16).solve(state, seconds=0.1)
    assert not found.exact and found.low <= 6 <= found.high


# 6x6 and the helpers of deep solves: symmetry, stability, parity regions.


def _images(size: int) -> set[tuple[tuple[int, int], ...]]:
    # The eight symmetries of the square, written out cell by cell.
    n = size - 1
    maps = (
        lambda r, c: (r, c),
        lambda r, c: (r, n - c),
        lambda r, c: (n - r, c),
        lambda r, c: (n - r, n - c),
    )
    cells = [(r, c) for r in range(size) for c in range(size)]
    out = set()
    for f in maps:
        out.add(tuple(f(r, c) for r, c in cells))
        out.add(tuple(f(r, c)[::-1] for r, c in cells))
    return out


@pytest.mark.parametrize("size", [4, 6, 8])
def test_the_eight_images_are_the_symmetries_of_the_board(size: int) -> None:
    found = set()
    for k in range(8):
        mapped = []
        for r in range(size):
            for c in range(size):
                bit = int(symmetry.image(np.uint64(1 << (r * 8 + c)), k, 8 - size))
                assert bin(bit).count("1") == 1 and bit & board_mask(size)
                mapped.append(divmod(bit.bit_length() - 1, 8))
        found.add(tuple(mapped))
    assert found == _images(size)


def position(spec: str, empties: int, seed: int) -> State:
    """A position ``empties`` cells from the end, reached by random play (not over)."""
    game = load_game(spec)
    cells = game.size**2  # type: ignore[attr-defined]
    rng = random.Random(seed)
    while True:
        state = game.initial_state()
        while not state.is_terminal() and cells - sum(state.discs()) > empties:  # type: ignore[attr-defined]
            state = state.play(rng.choice(state.legal_moves()))
        if not state.is_terminal():
            return state


def test_canonical_is_one_position_for_all_images() -> None:
    for seed in range(5):
        me, opp = discs(position("othello:size=6", 20, seed))
        images = {
            symmetry.canonical(
                symmetry.image(np.uint64(me), k, 2), symmetry.image(np.uint64(opp), k, 2), 2
            )
            for k in range(8)
        }
        assert len(images) == 1


@pytest.mark.parametrize("spec", ["othello:size=6", "othello"])
def test_stable_discs_never_flip(spec: str) -> None:
    size = load_game(spec).size  # type: ignore[attr-defined]
    geo, full = stability.geometry(size), np.uint64(board_mask(size))
    rng = random.Random(7)
    found = 0
    for seed in range(12):
        state = position(spec, rng.choice((4, 8, 12)), seed)
        me, opp = discs(state)
        mine = int(stability.stable(np.uint64(me), np.uint64(opp), full, geo))
        theirs = int(stability.stable(np.uint64(opp), np.uint64(me), full, geo))
        assert mine & ~me == 0 and theirs & ~opp == 0
        found += bin(mine | theirs).count("1")
        for _ in range(5):
            end = state
            while not end.is_terminal():
                end = end.play(rng.choice(end.legal_moves()))
            owner = dict(zip((state.to_move, 1 - state.to_move), (mine, theirs), strict=True))
            for who, cells in owner.items():
                for r in range(size):
                    for c in range(size):
                        if cells >> (r * 8 + c) & 1:
                            assert end.disc(r * size + c) == who  # type: ignore[attr-defined]
    assert found > 0  # the test saw stable discs at all


def test_quadrants_split_every_board_in_four_equal_regions() -> None:
    for size in (4, 6, 8):
        regions = [int(q) for q in search.quadrants(size)]
        assert sum(regions) == board_mask(size) and len(set(regions)) == 4
        assert {bin(q).count("1") for q in regions} == {size * size // 4}


def test_6x6_endgames_equal_the_generic_solver() -> None:
    # Symmetry keyed at every node and stability cutoffs take part (the shallow
    # ordering starts at 13 empty cells: 1 ply at the root).
    fast = OthelloSolver(6, table_bits=16, symmetry_empties=0)
    for seed in range(3):
        state = position("othello:size=6", 13, seed)
        assert fast.solve(state).score == GenericSolver().solve(state).score, seed


def test_6x6_symmetry_keys_change_no_value() -> None:
    # 18 empty cells: the shallow ordering takes part too (3 plies at the root).
    plain = OthelloSolver(6, table_bits=18, symmetry_empties=99)
    keyed = OthelloSolver(6, table_bits=18, symmetry_empties=0)
    for seed in range(4):
        state = position("othello:size=6", 18, seed)
        assert keyed.solve(state).score == plain.solve(state).score


def test_every_first_move_of_4x4_gives_the_same_value() -> None:
    game = load_game("othello:size=4")
    solver = OthelloSolver(4, table_bits=12)
    start = game.initial_state()
    values = {solver.solve(start.play(m)).score for m in start.legal_moves()}
    assert values == {10}  # White's value after any first move: 13-3 with the empties


def test_long_solves_report_progress(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(solver_module, "QUIET_SECONDS", 0.0)
    monkeypatch.setattr(solver_module, "CHUNK_SECONDS", 0.0)  # 1000-node chunks
    state = position("othello:size=6", 16, 3)
    lines: list[str] = []
    found = OthelloSolver(6, table_bits=16).solve(state, progress=lines.append)
    assert found.score == OthelloSolver(6, table_bits=16).solve(state).score
    assert any("probing" in line for line in lines) and "nodes" in lines[-1]


def test_moves_and_flips_follow_the_rules() -> None:
    # Random games, every stage: the bitboard moves are the game's legal moves, and
    # placing a disc turns over exactly what the game's own rules turn over.
    from arena.solvers.othello.board import flips, moves

    game = load_game("othello")
    rng = random.Random(7)
    full = np.uint64(board_mask(8))
    for _ in range(12):
        state = game.initial_state()
        while not state.is_terminal():
            me, opp = (np.uint64(v) for v in discs(state))
            legal = [m for m in state.legal_moves() if 0 <= m < 64]
            assert int(moves(me, opp, full)) == sum(1 << m for m in legal), format_position(state)
            for move in legal:
                x = np.uint64(1 << move)
                after = state.play(move)
                mine = after.black if state.to_move == 0 else after.white  # type: ignore[attr-defined]
                assert int(me | flips(me, opp, x) | x) == mine, format_position(state)
            state = state.play(rng.choice(state.legal_moves()))


def _walked_flips(me: int, opp: int, cell: int) -> int:
    # The rules cell by cell: in each direction, a run of opp discs closed by mine.
    out = 0
    r0, c0 = divmod(cell, 8)
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            run, r, c = 0, r0 + dr, c0 + dc
            while (dr or dc) and 0 <= r < 8 and 0 <= c < 8 and opp >> (r * 8 + c) & 1:
                run |= 1 << (r * 8 + c)
                r, c = r + dr, c + dc
            if 0 <= r < 8 and 0 <= c < 8 and me >> (r * 8 + c) & 1:
                out |= run
    return out


def test_flips_equal_the_rules_on_crowded_boards() -> None:
    # Branchless flips: runs of opp discs to the edge (no closing disc) flip nothing,
    # with a disc of mine on a1 too (bit 0 stands in for "no blocker" going down).
    from arena.solvers.othello.board import flips

    rng = random.Random(3)
    for _ in range(3000):
        cells = rng.sample(range(64), 64)
        x, rest = cells[0], cells[1:]
        share = rng.random()
        opp = sum(1 << c for c in rest if rng.random() < share)
        me = sum(1 << c for c in rest if not opp >> c & 1 and rng.random() < 0.5)
        if rng.random() < 0.5 and x != 0 and not opp & 1:
            me |= 1
        got = int(flips(np.uint64(me), np.uint64(opp), np.uint64(1 << x)))
        assert got == _walked_flips(me, opp, x), (hex(me), hex(opp), x)


@pytest.mark.parametrize("size", [4, 6, 8])
def test_moves_and_flips_by_lanes_equal_the_rules_on_any_board(size: int) -> None:
    # The four-direction vector code (lanes.py) against the rules cell by cell, on
    # random boards of every density and the smaller boards' walls (cells outside a
    # board are never discs): every empty cell is a move exactly when it flips.
    from arena.solvers.othello.board import flips, moves

    rng = random.Random(size)
    cells = [c for c in range(64) if board_mask(size) >> c & 1]
    mask = np.uint64(board_mask(size))
    for _ in range(1500):
        share = rng.random()
        taken = [c for c in cells if rng.random() < share]
        me = sum(1 << c for c in taken if rng.random() < 0.5)
        opp = sum(1 << c for c in taken) & ~me
        want = 0
        for x in cells:
            if (me | opp) >> x & 1:
                continue
            walked = _walked_flips(me, opp, x)
            want |= (walked != 0) << x
            got = int(flips(np.uint64(me), np.uint64(opp), np.uint64(1 << x)))
            assert got == walked, (size, hex(me), hex(opp), x)
        assert int(moves(np.uint64(me), np.uint64(opp), mask)) == want, (size, hex(me), hex(opp))


def test_the_last_move_counted_by_lines_equals_its_flips() -> None:
    # One empty cell on a full 8x8 board: the count from the four lines through it
    # (search.last_one's shortcut) against the flips themselves, for both players.
    from arena.solvers.othello.board import final_score, flips

    rng = random.Random(5)
    full = np.uint64(board_mask(8))
    for _ in range(3000):
        x = rng.randrange(64)
        share = rng.choice([0.05, 0.5, 0.95])
        me = sum(1 << c for c in range(64) if c != x and rng.random() < share)
        opp = int(full) & ~me & ~(1 << x)
        p, o, cell = np.uint64(me), np.uint64(opp), np.uint64(1 << x)
        if f := int(flips(p, o, cell)):
            want = 2 * bin(me | f).count("1") + 2 - 64
        elif f := int(flips(o, p, cell)):
            want = 64 - 2 - 2 * bin(opp | f).count("1")
        else:
            want = final_score(p, o, full)
        assert search.last_one(p, o, cell, full) == want, (hex(me), x)


@pytest.mark.parametrize("empties", [1, 2, 3, 4, 5, 6])
def test_the_last_empty_cells_equal_the_generic_solver(empties: int) -> None:
    # end_few's unrolled code (1-4 empty cells) and the tail above it, passes and
    # games ending with empty cells included, against plain alpha-beta on the rules.
    solver = OthelloSolver(8, table_bits=12)
    rng = random.Random(empties)
    for _ in range(40):
        state = endgame(rng, empties)
        assert solver.solve(state).score == GenericSolver().solve(state).score, format_position(
            state
        )


def test_cell_classes_split_every_board() -> None:
    for size in (4, 6, 8):
        classes = [int(c) for c in search.cell_classes(size)]
        assert sum(classes) == board_mask(size) and len(set(classes)) == 4
    corners, _, c_cells, x_cells = (int(c) for c in search.cell_classes(8))
    assert corners == int(search.corners(8))
    assert x_cells == (1 << 9) | (1 << 14) | (1 << 49) | (1 << 54)  # b2, g2, b7, g7
    assert c_cells & (1 << 1) and c_cells & (1 << 8)  # b1, a2


@pytest.mark.parametrize(
    ("spec", "empties"), [("othello", 16), ("othello", 17), ("othello:size=6", 15)]
)
def test_every_move_on_one_table_equals_each_move_solved_alone(spec: str, empties: int) -> None:
    # What arena solve (and bench solve --every-move) does: the root, then each move,
    # one table for all; each value must be the child's own solve on a fresh solver.
    # From 16 empty cells (13 on 6x6) the nodes also sort by shallow searches.
    size = load_game(spec).size  # type: ignore[attr-defined]
    shared = OthelloSolver(size, table_bits=16)
    for seed in range(2):
        state = position(spec, empties, seed)
        shared.reset()
        root = shared.solve(state).score
        values = [-shared.solve(state.play(m)).score for m in state.legal_moves()]
        assert root == max(values)
        for move, value in zip(state.legal_moves(), values, strict=True):
            alone = OthelloSolver(size, table_bits=16)
            assert -alone.solve(state.play(move)).score == value, (format_position(state), move)

"""Gomoku's line patterns: shapes of known lines, the tables' symmetries, the fives and
fours they name checked against the game's own rules, and the engine's codes and sums
kept right as stones come and go."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

import arena
from arena.search.alphabeta.engines.gomoku import engine as gomoku
from arena.search.alphabeta.engines.gomoku import patterns
from helpers import clustered_states

SHAPE = patterns.shape_table()
CLASS = patterns.class_table()
NBR = patterns.neighbours(15)
POWERS = np.array([1, 10, 100, 1000])


@pytest.mark.parametrize(
    ("line", "shape"),
    [
        ("...xx.x..", "F3"),  # a broken three with room: x x . x
        ("...xxx...", "F3"),
        ("o.xxx...o", "F3"),
        ("..x.x.x..", "B3"),  # x . x . x: each next stone makes a four only
        ("..oxxx...", "B3"),  # closed on one side
        ("oo.xx..oo", "B2"),  # seven cells: any three here is closed
        ("...xx....", "F2"),
        ("..xxxx...", "F4"),
        ("x.xxx.x..", "F4"),  # two fives in one line: as good as an open four
        (".oxxxx...", "B4"),
        (".xx.xx...", "B4"),
        ("..xxxxx..", "FIVE"),
        ("xxxxxxx..", "FIVE"),  # freestyle: a longer line wins too
        ("...ox.o..", "DEAD"),  # three cells between the walls
        ("ooo.x.ooo", "DEAD"),
        ("o...x...o", "F1"),
        ("....xo...", "B1"),
    ],
)
def test_shapes_of_known_lines(line: str, shape: str) -> None:
    assert patterns.shape_of(line) == shape


def test_tables_are_the_same_mirrored_and_with_the_colours_swapped() -> None:
    """A line read backwards makes the same shape; a key with Black and White swapped
    gives White the shape it gave Black."""
    keys = np.arange(patterns.KEYS)
    states = [(keys >> 2 * s) & 3 for s in range(8)]
    mirrored = sum(states[7 - s] << 2 * s for s in range(8))
    swap = np.array([0, 2, 1, 3])
    swapped = sum(swap[states[s]] << 2 * s for s in range(8))
    assert np.array_equal(SHAPE[0], SHAPE[0][mirrored])
    assert np.array_equal(SHAPE[0], SHAPE[1][swapped])
    assert set(np.unique(SHAPE[0])) == set(range(len(patterns.SHAPES)))


def test_classes_combine_the_four_lines() -> None:
    cases = {
        (patterns.F3, patterns.F3, patterns.B1, patterns.B1): "F3x2",
        (patterns.B4, patterns.F3, patterns.DEAD, patterns.F1): "B4F3",
        (patterns.B4, patterns.B4, patterns.F1, patterns.F1): "F4",  # a double four
        (patterns.B4, patterns.F2, patterns.F1, patterns.F1): "B4+",
        (patterns.F3, patterns.B2, patterns.F1, patterns.F1): "F3",
        (patterns.F2, patterns.F2, patterns.B3, patterns.F1): "B3+",
        (patterns.F1, patterns.B1, patterns.DEAD, patterns.F1): "NONE",
    }
    for shapes, name in cases.items():
        assert patterns.CLASSES[patterns.class_of(shapes)] == name
        code = int(np.dot(shapes, POWERS))
        assert patterns.CLASSES[CLASS[code]] == name


def fives(state: arena.State) -> set[int]:
    """The cells where the mover completes a five, by the game's own rules."""
    out = set()
    for cell in state.legal_moves():
        after = state.play(cell)
        if after.is_terminal() and after.returns()[state.to_move] > 0:
            out.add(cell)
    return out


def test_fives_and_fours_agree_with_the_rules() -> None:
    """On positions of clustered stones, for the side to move: a cell's class is FIVE
    exactly where the rules say it wins; where it makes a four in some line (B4 and up),
    the rules give it a five to follow; where it makes an open or double four (F4), two;
    and where no line has a four (the classes below B4), none."""
    game = arena.load_game("gomoku")
    seen = {"FIVE": 0, "F4": 0, "B4": 0, "none": 0}
    rng = random.Random(5)
    for state in clustered_states(game, 60, seed=38):
        board = np.array(
            [0 if state.stone(c) is None else state.stone(c) + 1 for c in range(225)]  # type: ignore[attr-defined]
        )
        p = state.to_move
        codes = (SHAPE[p][patterns.keys(board, NBR)].astype(np.int64) * POWERS).sum(axis=1)
        wins = fives(state)
        for cell in state.legal_moves():
            kind = patterns.CLASSES[CLASS[codes[cell]]]
            assert (kind == "FIVE") == (cell in wins), (state, cell)
            seen["FIVE"] += kind == "FIVE"
            if kind == "FIVE" or wins or (rng.random() > 0.3 and kind in ("NONE", "B2", "F2")):
                continue  # a five already there; the commonest cells sampled (time)
            after = state.play(cell)
            if after.is_terminal():
                continue
            # The same player again: the other side passes on a cell far from the fight.
            far = next(c for c in (0, 14, 210, 224, 1, 13) if after.stone(c) is None)  # type: ignore[attr-defined]
            after = after.play(far)
            if after.is_terminal():
                continue
            count = len(fives(after))
            four = any(codes[cell] // power % 10 >= patterns.B4 for power in POWERS)
            if kind == "F4":
                assert count >= 2, (state, cell)
                seen["F4"] += 1
            elif four:
                assert count >= 1, (state, cell)
                seen["B4"] += 1
            else:
                assert count == 0, (state, cell)
                seen["none"] += 1
    assert seen["FIVE"] > 0 and seen["F4"] > 3 and seen["B4"] > 10 and seen["none"] > 100, seen


@pytest.mark.parametrize("by", ["class", "combination"])
def test_the_engine_keeps_codes_and_sums_through_place_and_remove(by: str) -> None:
    """With the pattern evaluation on, the engine's sums equal the weights of the empty
    cells' classes (the shipped ones) or combinations (random weights, one each) summed
    afresh from the board, after every stone placed; taking them off again gives back
    every array as it was."""
    game = arena.load_game("gomoku")
    engine = gomoku.make_engine(game)
    assert engine is not None
    search = engine.search
    if by == "class":
        mover, other = np.array(gomoku.PATTERN_MOVER), np.array(gomoku.PATTERN_OTHER)
        table = CLASS.astype(np.int64)
    else:
        rng = np.random.default_rng(5)
        mover, other = (rng.normal(0, 100, gomoku.N_COMBOS) for _ in "ab")
        table = patterns.combo_table()
    search.value[:] = gomoku.weights(5, pattern=1.0, pattern_weights=(mover, other))[0]
    at = 5 + gomoku.V_CELLS + 225 + int(search.geo[0][gomoku.G_WINDOWS])

    def afresh(board: np.ndarray) -> list[float]:
        out = []
        for r in (0, 1):
            code = (SHAPE[r][patterns.keys(board, NBR)].astype(np.int64) * POWERS).sum(axis=1)
            kinds = table[code][board == 0]
            out += [float(mover[kinds].sum()), float(other[kinds].sum())]
        return out

    def classes(board: np.ndarray) -> list[int]:  # each player's empty cells by class
        out: list[int] = []
        for r in (0, 1):
            code = (SHAPE[r][patterns.keys(board, NBR)].astype(np.int64) * POWERS).sum(axis=1)
            out += np.bincount(CLASS[code][board == 0], minlength=gomoku.N_CLASSES).tolist()
        return out

    kinds_at = gomoku.C_KEYS + 6 * 225

    assert np.allclose(search.value[at : at + gomoku.N_COMBOS], gomoku.by_combo(mover))
    rng = random.Random(7)
    for state in clustered_states(game, 8, seed=9):
        search.set_root(state)
        assert np.allclose(search.sums[gomoku.S_PATTERN :], afresh(search.board))
        assert search.c[kinds_at:].tolist() == classes(search.board)
        before = [a.copy() for a in (search.board, search.sums, search.c)]
        arrays = search.arrays()
        empty = [c for c in range(225) if search.board[c] == 0]
        played = [(cell, i % 2) for i, cell in enumerate(rng.sample(empty, 30))]
        for cell, p in played:
            gomoku.place(*arrays, cell, p)
            assert np.allclose(search.sums[gomoku.S_PATTERN :], afresh(search.board))
            assert search.c[kinds_at:].tolist() == classes(search.board)
        for cell, p in reversed(played):
            gomoku.remove(*arrays, cell, p)
        for old, new in zip(before, (search.board, search.sums, search.c), strict=True):
            assert np.allclose(old, new)


def test_combinations_group_the_codes_and_refine_the_classes() -> None:
    """Codes with the same four shapes in any order share a combination; every
    combination lies in one class; and weights given by class read the same through
    the combinations, while a wrong count of weights is refused."""
    combo, classes = patterns.combo_table(), patterns.combo_classes()
    assert len(patterns.COMBOS) == 715 and combo.max() == 714
    rng = random.Random(3)
    for _ in range(200):
        digits = [rng.randrange(10) for _ in range(4)]
        code = sum(d * 10**i for i, d in enumerate(digits))
        shuffled = rng.sample(digits, 4)
        other = sum(d * 10**i for i, d in enumerate(shuffled))
        assert combo[code] == combo[other]
        assert patterns.COMBOS[combo[code]] == tuple(sorted(digits))
    assert np.array_equal(classes[combo], CLASS.astype(np.int64))
    weights = np.arange(14.0) * 7
    assert np.array_equal(gomoku.by_combo(weights)[combo], weights[CLASS])
    with pytest.raises(ValueError, match=r"14.*715"):
        gomoku.by_combo(np.zeros(20))


def test_the_engine_plays_the_shipped_weights_by_combination(tmp_path: Path) -> None:
    """The engine's own table holds the shipped weights, one a combination: fitted ones
    differ within a class, and those never fitted (the mover's five: won at once) keep
    their class's weight; the measurement script's ``combos=classes`` is the engine by
    class, and a file that is not weights fails in one line."""
    mover, other = gomoku.shipped_combos()
    kinds = patterns.combo_classes()
    assert np.allclose(mover[kinds == patterns.C_FIVE], gomoku.PATTERN_MOVER[patterns.C_FIVE])
    assert np.ptp(other[kinds == patterns.C_F3]) > 10.0  # open threes told apart
    game = arena.load_game("gomoku")
    engine = gomoku.make_engine(game)
    assert engine is not None
    at = int(gomoku.pattern_at(engine.search.geo[0]))
    assert np.array_equal(engine.search.value[at : at + gomoku.N_COMBOS], mover)
    script = Path(__file__).parents[2] / "scripts" / "gomoku_variant.py"
    agent = arena.load_agent(f"py:{script}:Variant:combos=classes,threads=1")
    by_class = agent.engine(game)  # type: ignore[attr-defined]
    value = by_class.search.value[at : at + 2 * gomoku.N_COMBOS]
    assert np.array_equal(value[: gomoku.N_COMBOS], gomoku.by_combo(gomoku.PATTERN_MOVER))
    np.save(tmp_path / "array.npy", mover)
    np.savez(tmp_path / "keys.npz", weights=mover)
    np.savez(tmp_path / "short.npz", mover=mover[:20], other=other[:20])
    np.savez(tmp_path / "counts.npz", mover=mover, other=other, counts=np.zeros((2, 14)))
    (tmp_path / "junk.npz").write_bytes(b"PK\x03\x04" + b"x" * 40)
    bad = {
        script: "not pattern weights",
        tmp_path / "array.npy": "not pattern weights",
        tmp_path / "keys.npz": "no mover and other",
        tmp_path / "short.npz": "20 pattern weights",
        tmp_path / "junk.npz": "not pattern weights",
        tmp_path / "missing.npz": "not pattern weights",
        tmp_path / "counts.npz": r"counts of shape \(2, 14\)",
    }
    for path, message in bad.items():
        with pytest.raises(arena.SpecError, match=message) as error:
            arena.load_agent(f"py:{script}:Variant:combos={path}")
        assert "\n" not in str(error.value), path


def test_the_count_terms_weigh_each_class_present_and_its_count_capped() -> None:
    """With count terms, the static value is the squash of the cells' weights plus, for
    each class and side, a weight if the side has any empty cell of it and one a cell up
    to ``COUNT_CAP`` -- read here from the board itself; without them (all 0, as a file
    fitted without ``--counts`` has) the value is the cells' weights alone."""
    game = arena.load_game("gomoku")
    engine = gomoku.make_engine(game)
    assert engine is not None
    search = engine.search
    rng = np.random.default_rng(11)
    terms = rng.normal(0, 80, (4, gomoku.N_CLASSES))
    terms[:, patterns.C_NONE] = 0.0
    mover, other = gomoku.shipped_combos()
    with_terms = gomoku.weights(5, pattern=1.0, pattern_weights=(mover, other), counts=terms)[0]
    without = gomoku.weights(5, pattern=1.0, pattern_weights=(mover, other))[0]
    combo = patterns.combo_table()
    kinds = patterns.combo_classes()
    seen = 0
    for state in clustered_states(game, 12, seed=4):
        search.value[:] = with_terms
        search.set_root(state)
        p = state.to_move
        raw, extra = 0.0, 0.0
        for r, side in ((p, 0), (1 - p, 1)):
            code = (SHAPE[r][patterns.keys(search.board, NBR)].astype(np.int64) * POWERS).sum(1)
            cells = combo[code][search.board == 0]
            raw += float((mover if side == 0 else other)[cells].sum())
            n = np.bincount(kinds[cells], minlength=gomoku.N_CLASSES)
            extra += float(terms[2 * side] @ (n > 0) + terms[2 * side + 1] @ np.minimum(n, 3))
            seen += int(np.any(n[1:] > gomoku.COUNT_CAP))
        args = (search.geo[0], *search.geo[1:4], search.board, search.cnt, search.sums)
        value = gomoku.static(*args, search.c, p, search.value)
        squash = gomoku.STATIC * (raw + extra) / (abs(raw + extra) + gomoku.SOFT)
        assert value == pytest.approx(squash)
        search.value[:] = without
        search.set_root(state)
        plain = gomoku.STATIC * raw / (abs(raw) + gomoku.SOFT)
        assert gomoku.static(*args, search.c, p, search.value) == pytest.approx(plain)
    assert seen > 0  # some count was capped


def test_the_pattern_evaluation_plays_the_tactics() -> None:
    """``ids`` with the pattern evaluation and move order (``pattern=1,moves=1`` of the
    measurement script) takes a win, blocks a four and answers an open three."""
    from pathlib import Path

    script = Path(__file__).parents[2] / "scripts" / "gomoku_variant.py"
    game = arena.load_game("gomoku")
    agent = arena.load_agent(f"py:{script}:Variant:pattern=1,moves=1,threads=1")
    engine = agent.engine(game)  # type: ignore[attr-defined]
    assert isinstance(engine, gomoku.GomokuEngine)
    at = int(gomoku.pattern_at(engine.search.geo[0]))
    assert engine.search.value[at + 2 * gomoku.N_COMBOS] == 1.0  # the pattern evaluation
    cases = {
        "H8 A1 J8 A2 K8 A3 L8 A4": {"G8", "M8"},  # Black completes five
        "H8 G8 J8 A1 K8 A3 L8": {"M8"},  # White blocks the four
        "H8 A1 J8 A3 K8": {"G8", "L8", "F8", "M8"},  # White answers the open three
    }
    for text, moves in cases.items():
        state = game.play_moves(game.parse_moves(text))
        move, _ = engine.choose(state, 0.5, 64, agent)
        assert game.format_move(move) in moves, text


def test_moves_are_scored_by_their_log_odds_from_windows_and_classes() -> None:
    """With ``PATTERN_MOVES`` on, a move's score is the fitted log-odds: the windows'
    score's logarithm times ``MOVES_WINDOWS`` plus the weights of the cell's classes for
    the mover and the opponent, as read here from the board; and a winning cell still
    comes first."""
    game = arena.load_game("gomoku")
    engine = gomoku.make_engine(game)
    assert engine is not None
    search = engine.search
    search.value[:], plain_attack, plain_defend = gomoku.weights(5, pattern=1.0)
    search.attack[:], search.defend[:] = gomoku.weights(5, pattern=1.0, pattern_moves=1.0)[1:]
    g, _, through, count = search.geo[:4]
    state = game.play_moves(game.parse_moves("H8 H9 J8 J9 K8 K9 L8 A1"))  # Black's open four
    search.set_root(state)
    p = state.to_move
    cells, scores = np.zeros(225, np.int64), np.zeros(225)
    n = gomoku.score_moves(
        g, search.c, through, count, search.attack, search.defend, search.board, search.cnt,
        search.nearby, p, cells, scores,
    )  # fmt: skip
    board = np.asarray(search.board, np.int64)
    keys = patterns.keys(board, NBR)
    kinds = [CLASS[(SHAPE[r][keys].astype(np.int64) * POWERS).sum(1)] for r in (0, 1)]
    for cell, score in zip(cells[:n], scores[:n], strict=True):
        windows = gomoku.cell_score(
            g, search.c, through, count, plain_attack, plain_defend, search.cnt, p, cell
        )
        expected = gomoku.MOVES_WINDOWS * np.log1p(windows)
        expected += gomoku.MOVES_MOVER[kinds[p][cell]] + gomoku.MOVES_OTHER[kinds[1 - p][cell]]
        assert score == pytest.approx(expected)
    best = cells[int(np.argmax(scores[:n]))]
    assert game.format_move(int(best)) in ("G8", "M8")  # Black's fives


def test_moves_by_class_without_the_classes_is_refused() -> None:
    """The classes are kept only with the pattern evaluation on: ordering moves by them
    without it is a clear error, in the engine's weights and in the variant's spec."""
    from pathlib import Path

    from arena.core.errors import SpecError

    with pytest.raises(ValueError, match="pattern_moves needs pattern on"):
        gomoku.weights(5, pattern=0.0, pattern_moves=1.0)
    script = Path(__file__).parents[2] / "scripts" / "gomoku_variant.py"
    with pytest.raises(SpecError, match="needs pattern=1"):
        arena.load_agent(f"py:{script}:Variant:pattern=0,moves=1")

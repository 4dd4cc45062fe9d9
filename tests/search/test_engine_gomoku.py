"""Gomoku's compiled engine: threats found and blocked, the answers to a three, counts kept
right, time kept, the evaluation's fitting script."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

import arena
from arena.search.alphabeta.engines import engine_for
from arena.search.alphabeta.engines.gomoku import engine as gomoku
from arena.search.alphabeta.engines.gomoku import patterns
from arena.search.alphabeta.engines.gomoku.engine import (
    C_FOURS,
    C_THREES,
    GomokuEngine,
    four_cells,
    make_engine,
    place,
    remove,
)
from helpers import Stopwatch, clustered_states, random_states


@pytest.fixture(scope="module")
def engine() -> GomokuEngine:
    found = make_engine(arena.load_game("gomoku"))
    assert found is not None
    return found


def position(text: str, spec: str = "gomoku") -> arena.State:
    game = arena.load_game(spec)
    return game.play_moves(game.parse_moves(text))


def choose(engine: GomokuEngine, state: arena.State, seconds: float = 0.5) -> tuple[str, str]:
    move, info = engine.choose(state, seconds, 64, arena.load_agent("ids"))
    assert move in state.legal_moves()
    return state.game.format_move(move), info.root[0]["text"]


def test_takes_a_win_and_sees_a_lost_position(engine: GomokuEngine) -> None:
    state = position("H8 A1 J8 A2 K8 A3 L8 A4")  # Black: four in a row, to move
    assert choose(engine, state) in (("G8", "win in 1"), ("M8", "win in 1"))
    state = position("H8 A1 J8 A2 K8 A3 L8")  # White cannot block both ends
    assert choose(engine, state)[1] == "loss in 2"


def test_blocks_a_four(engine: GomokuEngine) -> None:
    # Black H8-L8 is closed at G8 by White: White must take M8.
    state = position("H8 G8 J8 A1 K8 A3 L8")
    assert choose(engine, state)[0] == "M8"


def test_makes_an_open_four_from_an_open_three(engine: GomokuEngine) -> None:
    state = position("H8 A1 J8 A3 K8 A5")  # Black to move with the open three H8-K8
    move, text = choose(engine, state)
    assert move in ("G8", "L8")
    assert text == "win in 3"


def test_finds_a_double_four_by_continuous_fours(engine: GomokuEngine) -> None:
    # Black's closed three H8-K8 (White G8) and closed three L9-L11 (White L12):
    # L8 makes two fours at once (M8 and L7), and only a search of fours sees it.
    state = position("H8 G8 J8 L12 K8 A1 L9 A3 L10 A5 L11 A15")
    assert choose(engine, state) == ("L8", "win in 3")


def test_counts_are_undone_exactly_and_fours_and_threes_are_counted_right(
    engine: GomokuEngine,
) -> None:
    search = engine.search
    rng = random.Random(4)
    state = position("H8 H9 J8 J9")
    search.set_root(state)
    before = [a.copy() for a in (search.board, search.cnt, search.sums, search.nearby, search.c)]
    arrays = search.arrays()
    played = []
    empty = [c for c in range(225) if search.board[c] == 0]
    rng.shuffle(empty)
    for i, cell in enumerate(empty[:60]):
        place(*arrays, cell, i % 2)
        played.append((cell, i % 2))
        w, cnt = search.geo[1], search.cnt
        for p in (0, 1):
            fours = int(np.sum((cnt[:, p] == 4) & (cnt[:, 1 - p] == 0)))
            assert search.c[C_FOURS + p] == fours
            threes = int(np.sum((cnt[:, p] == 3) & (cnt[:, 1 - p] == 0)))
            assert search.c[C_THREES + p] == threes
        assert np.array_equal(cnt[:, 0], (search.board[w] == 1).sum(axis=1))
    for cell, p in reversed(played):
        remove(*arrays, cell, p)
    after = (search.board, search.cnt, search.sums, search.nearby, search.c)
    for old, new in zip(before, after, strict=True):
        assert np.allclose(old, new)


def test_plays_legal_moves_and_keeps_time_with_tiny_limits(engine: GomokuEngine) -> None:
    game = arena.load_game("gomoku")
    agent = arena.load_agent("ids")
    for state in random_states(game, 12, seed=11):
        if state.is_terminal():
            continue
        for seconds in (0.002, 0.02):
            watch = Stopwatch()  # the thread's own time: a loaded machine's pauses left out
            move, _ = engine.choose(state, seconds, 64, agent)
            spent = watch.seconds()
            assert move in state.legal_moves()
            assert spent < seconds + 0.05, (state.ply, seconds, spent)  # the referee's grace


def test_proven_values_agree_with_the_python_reference() -> None:
    # Where both searches prove the result (a win in one, a loss in two) they report it alike.
    spec = "gomoku:size=9"
    fast, slow = arena.load_agent("ids"), arena.load_agent("ids:engine=python")
    assert isinstance(fast.engine(arena.load_game(spec)), GomokuEngine)
    for text in ("E5 A1 F5 A2 G5 A3 H5 B9", "E5 A1 F5 A2 G5 A3 D5"):
        state = position(text, spec)
        texts = []
        for agent in (fast, slow):
            agent.choose(state, arena.Limit(depth=2))
            texts.append(agent.last_search.root[0]["text"])
        assert texts[0] == texts[1] and texts[0] in ("win in 1", "loss in 2")


def barred(board: np.ndarray, window: np.ndarray, p: int, exact: bool, size: int) -> bool:
    """The rule's own reading: ``p`` cannot make five in ``window`` (a stone of the other in
    it; exactly five: one of its own next to either end)."""
    if (board[window] == 2 - p).any():
        return True
    (r0, c0), (r1, c1) = divmod(int(window[0]), size), divmod(int(window[1]), size)
    dr, dc = r1 - r0, c1 - c0
    ends = ((r0 - dr, c0 - dc), (r0 + len(window) * dr, c0 + len(window) * dc))
    return exact and any(
        0 <= r < size and 0 <= c < size and board[r * size + c] == p + 1 for r, c in ends
    )


@pytest.mark.parametrize("spec", ["gomoku:overline=nowin,size=9", "gomoku:size=9"])
def test_fours_threes_and_winning_cells_follow_the_rules(spec: str) -> None:
    """Exactly five and freestyle: the engine's counts of fours and threes are the windows
    the rule leaves a player, and its winning cells are the moves after which the game
    says the mover won (random crowded positions, where sixes are common)."""
    game = arena.load_game(spec)
    engine = make_engine(game)
    search, size = engine.search, 9
    w = search.geo[1]
    rng = random.Random(3)
    centre = [r * size + c for r in range(1, 8) for c in range(1, 8)]
    wins = sixes = 0
    for _ in range(150):
        state = game.initial_state()
        for _ in range(rng.randrange(10, 40)):
            near = [m for m in state.legal_moves() if m in centre]
            state = state.play(rng.choice(near or state.legal_moves()))
            if state.is_terminal():
                break
        if state.is_terminal():
            continue
        search.set_root(state)
        board = search.board
        for p in (0, 1):
            own = (board[w] == p + 1).sum(axis=1)
            held = np.array([not barred(board, win, p, game.exact, size) for win in w])
            assert search.c[C_FOURS + p] == int(np.sum(held & (own == 4)))
            assert search.c[C_THREES + p] == int(np.sum(held & (own == 3)))
            sixes += int(np.sum(~held & (own == 4) & ((board[w] == 2 - p).sum(axis=1) == 0)))
        p = state.to_move
        n = four_cells(search.geo[0], w, search.cnt, board, p, search.buf[0], search.c[C_FOURS + p])
        found = {int(cell) for cell in search.buf[0, :n]}
        won = {m for m in state.legal_moves() if state.play(m).returns()[p] > 0}
        assert found == won
        wins += bool(won)
    assert wins >= 30  # the positions do test the winning cells
    assert (sixes >= 30) == game.exact  # and, exactly five, fours a six spoils


@pytest.mark.parametrize(
    ("text", "freestyle", "exact"),
    [
        # Black H8 J8 K8 L8 and N8, White's G8: M8 makes six.
        ("H8 A1 J8 A2 K8 A3 L8 A4 N8 G8", ("M8", "win in 1"), ("A5", None)),
        # The same with G8 free: G8 makes exactly five (F8 and M8 stay empty).
        ("H8 A1 J8 A2 K8 A3 L8 A4 N8 A6", ("G8", "win in 1"), ("G8", "win in 1")),
    ],
)
def test_exactly_five_a_six_does_not_win_and_both_searches_agree(
    text: str, freestyle: tuple[str, str], exact: tuple[str, str | None]
) -> None:
    for spec, (move, value) in (("gomoku", freestyle), ("gomoku:overline=nowin", exact)):
        state = position(text, spec)
        fast, slow = arena.load_agent("ids"), arena.load_agent("ids:engine=python")
        assert isinstance(fast.engine(state.game), GomokuEngine)
        for agent in (fast, slow):
            assert state.game.format_move(agent.choose(state, arena.Limit(depth=2))) == move
            if value is not None:
                assert agent.last_search.root[0]["text"] == value
        assert fast.last_search.engine == "compiled"


def test_exactly_five_plays_whole_games_with_both_threads() -> None:
    """``best`` (two threads: one looks for wins by threats) on exactly five: every move
    legal, no game lost on time, against the readable search."""
    game = arena.load_game("gomoku:overline=nowin,size=11")
    assert engine_for(game, 2) is not None
    best, reference = arena.load_agent("best"), arena.load_agent("ids:engine=python")
    for agent in (best, reference):
        agent.reset(game)
    state = game.play_moves(game.parse_moves("F6 F7"))
    while not state.is_terminal():
        agent = best if state.to_move == 0 else reference
        move = agent.choose(state, arena.Limit(time=0.05))
        assert move in state.legal_moves()
        state = state.play(move)
    assert state.returns()[0] >= 0  # the compiled engine with the first move does not lose


def winning_cells(state: arena.State, player: int) -> set[int]:
    """The empty cells where ``player`` completes five (by the rules, not the engine)."""
    board = [state.stone(c) for c in range(225)]  # type: ignore[attr-defined]
    cells = set()
    size = 15
    for cell in range(225):
        if board[cell] is None:  # a stone of player's there: its runs both ways, and itself
            r0, c0 = divmod(cell, size)
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                run = 1
                for sign in (1, -1):
                    r, c = r0 + sign * dr, c0 + sign * dc
                    while 0 <= r < size and 0 <= c < size and board[r * size + c] == player:
                        run += 1
                        r, c = r + sign * dr, c + sign * dc
                if run >= 5:
                    cells.add(cell)
    return cells


def test_the_answers_to_a_three_hold_every_move_that_does_not_lose_at_once() -> None:
    """Against the opponent's threat of an open (or double) four, every move left out of
    ``defence_cells`` lets the opponent make it, and the mover then has no five."""
    from arena.search.alphabeta.engines.gomoku.engine import defence_cells

    game = arena.load_game("gomoku")
    engine = make_engine(game)
    assert engine is not None
    search = engine.search
    g, w, through, count = search.geo[:4]
    checked = 0
    for state in clustered_states(game, 400, seed=35):
        search.set_root(state)
        p, q = state.to_move, 1 - state.to_move
        if search.c[C_FOURS] or search.c[C_FOURS + 1] or not search.c[C_THREES + q]:
            continue
        out = np.zeros(225, np.int64)
        n = defence_cells(g, w, through, count, search.board, search.cnt, search.c, p, out)
        if n == 0:
            continue
        answers = set(out[:n].tolist())
        near = [m for m in state.legal_moves() if search.nearby[m] > 0]
        for m in near:
            if m in answers:
                continue
            after = state.play(m)
            assert not winning_cells(after, p), "a move that makes a four is an answer"
            # The opponent has a cell after which it wins at two cells.
            assert any(
                len(winning_cells(after.play(x), q)) >= 2
                for x in after.legal_moves()
                if search.nearby[x] > 0 or x == m
            ), game.format_move(m)
        checked += 1
        if checked == 6:
            break
    assert checked == 6


def test_the_answers_make_a_double_three_a_proven_win() -> None:
    """Black's G8 makes two open threes (G8-J8 and G8-G10): a win by threes that the
    search proves only when a node facing a three searches just its answers (else the
    beam leaves moves out, and the loss is only "lost soon")."""
    from arena.search.alphabeta.engines.gomoku.engine import G_ANSWER, PROVEN

    game = arena.load_game("gomoku")
    state = game.play_moves(game.parse_moves("H8 A1 J8 O1 G9 A15 G10 O15"))
    values = {}
    for answer in (0, 1):
        engine = make_engine(game)
        assert engine is not None
        search = engine.search
        search.geo[0][G_ANSWER] = answer
        search.set_root(state)
        search.allow[:] = 1
        iteration = search.iterate(5, 1 << 62)
        assert iteration is not None
        values[answer] = (game.format_move(iteration.move), iteration.value)
    assert values[1][0] == "G8" and values[1][1] >= PROVEN
    assert values[0][1] < PROVEN


def searched(state: arena.State, depth: int, lmr: int, null: int = 0) -> tuple[int, float, int]:
    """``(move, value, nodes)`` of the engine's search to ``depth`` (iterative deepening,
    a fresh table) with ``gomoku.LMR`` set to ``lmr`` and ``gomoku.NULL`` to ``null``."""
    from arena.search.alphabeta.engines.gomoku.engine import G_LMR, G_NULL

    engine = make_engine(state.game)
    assert engine is not None
    search = engine.search
    search.geo[0][G_LMR] = lmr
    search.geo[0][G_NULL] = null
    search.set_root(state)
    search.allow[:] = 1
    for d in range(1, depth + 1):
        iteration = search.iterate(d, 1 << 62)
        assert iteration is not None
    return iteration.move, iteration.value, search.nodes


def test_pvs_alone_finds_plain_alpha_betas_values() -> None:
    """PVS (null windows for the later moves, searched again when they beat alpha) changes
    which nodes are searched, not the root's value: each position's move and value to
    depth 4 are plain alpha-beta's."""
    game = arena.load_game("gomoku")
    for state in clustered_states(game, 10, seed=47):
        move, value, _ = searched(state, 4, 0)
        pvs_move, pvs_value, _ = searched(state, 4, 99)
        assert (pvs_move, round(pvs_value, 3)) == (move, round(value, 3)), state.ply


def test_null_moves_search_fewer_nodes_and_keep_proofs() -> None:
    """With null-move pruning (``NULL``) a depth costs fewer nodes, and the threats it must
    not pass over are all still seen: a win by two threes is proven, and so is the loss of
    the side that cannot stop them (it faces an open three: no pass is tried)."""
    from arena.search.alphabeta.engines.gomoku.engine import PROVEN

    game = arena.load_game("gomoku")
    plain = pruned = 0
    for state in clustered_states(game, 4, seed=48):
        plain += searched(state, 6, 0)[2]
        pruned += searched(state, 6, 0, null=3)[2]
    assert pruned < 0.8 * plain, (pruned, plain)  # 219,224 against 378,720 (2026-12-03)
    state = game.play_moves(game.parse_moves("H8 A1 J8 O1 G9 A15 G10 O15"))  # G8: two threes
    move, value, _ = searched(state, 5, 0, null=3)
    assert game.format_move(move) == "G8" and value >= PROVEN
    move, value, _ = searched(state.play(game.parse_move("G8")), 6, 0, null=3)
    assert value <= -PROVEN
    # A four to block: the one answer, with or without passes.
    state = game.play_moves(game.parse_moves("H8 G8 J8 A1 K8 A3 L8"))
    assert game.format_move(searched(state, 5, 0, null=3)[0]) == "M8"


def test_late_move_reductions_search_fewer_nodes_and_keep_proofs() -> None:
    """With the late moves a ply shallower (``LMR``) a depth costs far fewer nodes, and a
    win by threes is still proven: a proof does not depend on the depth it was found at,
    and the forced blocks and the answers to a three, never reduced, are all searched."""
    from arena.search.alphabeta.engines.gomoku.engine import PROVEN

    game = arena.load_game("gomoku")
    plain = reduced = 0
    for state in clustered_states(game, 4, seed=48):
        plain += searched(state, 7, 0)[2]
        reduced += searched(state, 7, 3)[2]
    assert reduced < 0.8 * plain, (reduced, plain)
    state = game.play_moves(game.parse_moves("H8 A1 J8 O1 G9 A15 G10 O15"))  # G8: two threes
    move, value, _ = searched(state, 5, 3)
    assert game.format_move(move) == "G8" and value >= PROVEN
    # Lost: White to move after G8 cannot stop both threes, however the late moves are cut.
    move, value, _ = searched(state.play(game.parse_move("G8")), 6, 3)
    assert value <= -PROVEN


def test_the_fit_script_makes_constants_from_a_match_database(tmp_path: Path) -> None:
    """``scripts/fit_gomoku_eval.py`` over a short match's database prints the engine's
    constants and writes the weights by combination, with the count terms when asked
    (which the measurement script then plays); a file that is not a database fails in
    one line."""
    import subprocess
    import sys

    root = Path(__file__).parents[2]
    env = {"PYTHONPATH": str(root / "src"), "PATH": "/usr/bin:/bin"}
    db = tmp_path / "games.db"
    subprocess.run(
        [sys.executable, "-m", "arena", "match", "gomoku", "ids:maxdepth=2", "ids:maxdepth=1",
         "--games", "8", "--openings", "random:plies=4", "--seed", "3", "--db", str(db)],
        check=True, capture_output=True, env=env, timeout=600,
    )  # fmt: skip
    script = str(root / "scripts" / "fit_gomoku_eval.py")
    done = subprocess.run(
        [sys.executable, script, str(db), "--patterns", "--combos", str(tmp_path / "c.npz"),
         "--counts"],
        capture_output=True, text=True, env=env, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split()[0].isdigit() and int(lines[0].split()[0]) > 20
    assert any(line.startswith("WINDOW = (") for line in lines)
    assert any(line.startswith("TEMPO = ") for line in lines)
    for name in ("FORK = (", "EDGE = ", "LINES = ("):  # the second regression's terms
        assert any(line.startswith(name) for line in lines), name
    for name in ("PATTERN_MOVER = (", "PATTERN_OTHER = ("):  # the pattern weights, 14 each
        (row,) = [line for line in lines if line.startswith(name)]
        assert len(row.split("(")[1].split(",")) == 14
    assert any(line.startswith("combinations: held-out log-loss") for line in lines)
    assert any(line.startswith("counts: ") and "without them" in line for line in lines)
    with np.load(tmp_path / "c.npz") as table:
        mover, other = table["mover"], table["other"]
    assert mover.shape == other.shape == (gomoku.N_COMBOS,)
    counts = gomoku.load_counts(tmp_path / "c.npz")
    assert counts.shape == (4, gomoku.N_CLASSES) and np.any(counts != 0.0)
    assert np.all(counts[:, patterns.C_NONE] == 0.0)  # NONE: no weight, as in --patterns
    # The mover's open fours and fives are never fitted (won at once): they keep the
    # shipped class weight; a class that was seen gets weights of its own.
    kinds = patterns.combo_classes()
    five = kinds == patterns.C_FIVE
    assert np.allclose(mover[five], gomoku.PATTERN_MOVER[patterns.C_FIVE])
    assert not np.allclose(other[kinds == patterns.C_F3], gomoku.PATTERN_OTHER[patterns.C_F3])
    variant = root / "scripts" / "gomoku_variant.py"
    agent = arena.load_agent(f"py:{variant}:Variant:combos={tmp_path / 'c.npz'},threads=1")
    engine = agent.engine(arena.load_game("gomoku"))  # type: ignore[attr-defined]
    at = gomoku.pattern_at(engine.search.geo[0])
    assert np.allclose(engine.search.value[at : at + gomoku.N_COMBOS], mover)
    terms = engine.search.value[at + 2 * gomoku.N_COMBOS + 1 :]
    assert terms[0] == 1.0 and np.allclose(terms[1:], counts.ravel())  # the count terms, on
    with pytest.raises(arena.SpecError, match="needs pattern=1"):
        arena.load_agent(f"py:{variant}:Variant:combos={tmp_path / 'c.npz'},pattern=0")
    bad = tmp_path / "notes.db"
    bad.write_text("not a database\n")
    done = subprocess.run(
        [sys.executable, script, str(bad)], capture_output=True, text=True, env=env, timeout=600
    )
    assert done.returncode != 0
    assert done.stderr.strip().count("\n") == 0 and "not a match database" in done.stderr
    refused = (
        (["--combos", "c.npz", "--ridge", "-1"], "--ridge"),
        (["--ridge", "0.1"], "--ridge"),  # a ridge for the combinations, without them
        (["--counts"], "--counts"),  # likewise the count terms
    )
    for options, flag in refused:
        done = subprocess.run(
            [sys.executable, script, str(db), *options],
            capture_output=True, text=True, env=env, timeout=600,
        )  # fmt: skip
        assert done.returncode == 2 and flag in done.stderr.splitlines()[-1], options


def test_four_three_cells_are_counted_by_their_definition() -> None:
    """``fork_cells`` counts, for each of p's windows of k-2 stones (and none of the
    other's), its empty cells that also lie in a window of p's with k-3 stones or more
    along another line: read here from the board itself, not the engine's counts."""
    from arena.search.alphabeta.engines.gomoku.engine import fork_cells

    game = arena.load_game("gomoku")
    engine = make_engine(game)
    assert engine is not None
    search = engine.search
    g, w, through, count = search.geo[:4]
    # Black's G8 makes the four F8-K8 (or G8-L8) and the three G8-G10: two (cell, window).
    search.set_root(position("H8 A1 J8 A3 K8 A5 G9 A7 G10"))
    assert fork_cells(g, w, through, count, search.board, search.cnt, 0) == 2
    assert fork_cells(g, w, through, count, search.board, search.cnt, 1) == 0
    steps = {(0, 1): 1, (1, 0): 15, (1, 1): 16, (1, -1): 14}
    seen = 0
    for state in clustered_states(game, 150, seed=36):
        search.set_root(state)
        board = [state.stone(c) for c in range(225)]  # type: ignore[attr-defined]

        def lines(board: list[int | None], cell: int, player: int) -> list[tuple[int, int]]:
            """(direction, stones) of the player's windows through ``cell`` it holds alone."""
            r0, c0 = divmod(cell, 15)
            found = []
            for (dr, dc), step in steps.items():
                for start in range(-4, 1):
                    cells = [(r0 + (start + i) * dr, c0 + (start + i) * dc) for i in range(5)]
                    if all(0 <= r < 15 and 0 <= c < 15 for r, c in cells):
                        owners = [board[r * 15 + c] for r, c in cells]
                        if 1 - player not in owners:
                            found.append((step, owners.count(player)))
            return found

        for p in (0, 1):
            expected = 0
            for x in range(225):
                if board[x] is None:
                    here = lines(board, x, p)
                    for step, stones in here:
                        if stones == 3 and any(s >= 2 and d != step for d, s in here):
                            expected += 1
            got = fork_cells(g, w, through, count, search.board, search.cnt, p)
            assert got == expected
            seen += got > 0
    assert seen >= 10  # the positions have four-threes to count

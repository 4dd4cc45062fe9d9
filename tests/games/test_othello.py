"""Othello against published perft counts, a slow mailbox reference and hand-built positions."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import arena
from arena.core.errors import IllegalMove, MoveSyntaxError, SpecError
from arena.games.othello.rules import Othello, OthelloState
from helpers import chi2_limit, first_move_chi2

STEPS = ((0, 1), (1, 0), (1, 1), (1, -1), (0, -1), (-1, 0), (-1, -1), (-1, 1))
RULES = ("standard", "nomove-ends")


class Reference:
    """Othello on a list of lists (row 0 at the top), walking every direction cell by cell."""

    def __init__(self, size: int, rule: str = "standard") -> None:
        self.n, self.rule = size, rule
        self.board: list[list[int | None]] = [[None] * size for _ in range(size)]
        h = size // 2
        self.board[h - 1][h - 1] = self.board[h][h] = 1
        self.board[h - 1][h] = self.board[h][h - 1] = 0
        self.player = 0

    def flips(self, player: int, row: int, col: int) -> list[tuple[int, int]]:
        if self.board[row][col] is not None:
            return []
        out = []
        for dr, dc in STEPS:
            run = []
            r, c = row + dr, col + dc
            while 0 <= r < self.n and 0 <= c < self.n and self.board[r][c] == 1 - player:
                run.append((r, c))
                r, c = r + dr, c + dc
            if run and 0 <= r < self.n and 0 <= c < self.n and self.board[r][c] == player:
                out += run
        return out

    def placements(self, player: int) -> list[int]:
        n = self.n
        return [r * n + c for r in range(n) for c in range(n) if self.flips(player, r, c)]

    def legal(self) -> list[int]:
        mine = self.placements(self.player)
        if mine:
            return mine
        if self.rule == "standard" and self.placements(1 - self.player):
            return [self.n * self.n]
        return []

    def play(self, move: int) -> None:
        if move != self.n * self.n:
            row, col = divmod(move, self.n)
            for r, c in [*self.flips(self.player, row, col), (row, col)]:
                self.board[r][c] = self.player
        self.player = 1 - self.player

    def margin(self) -> int:
        cells = [v for line in self.board for v in line]
        return cells.count(0) - cells.count(1)


def othello(size: int = 8, rule: str = "standard") -> Othello:
    game = arena.load_game(f"othello:size={size},rule={rule}")
    assert isinstance(game, Othello)
    return game


def names(game: Othello, moves: tuple[int, ...] | list[int]) -> list[str]:
    return [game.format_move(m) for m in moves]


def random_line(game: Othello, rng: random.Random) -> list[OthelloState]:
    """The states of one uniformly random game, start and end included."""
    state = game.initial_state()
    states = [state]
    while not state.is_terminal():
        state = state.play(rng.choice(state.legal_moves()))
        states.append(state)
    return states


# --- perft -------------------------------------------------------------------------------

PERFT_8X8 = [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288]


@pytest.mark.parametrize("depth", range(1, 9))
def test_perft_8x8(depth: int) -> None:
    assert arena.perft(othello().initial_state(), depth) == PERFT_8X8[depth - 1]


@pytest.mark.slow
def test_perft_8x8_depth_9() -> None:
    # About 3 s. Depth 10 takes about 25 s and gives 24571056: the published 24571284
    # also counts a pass from each of the 228 positions where the game is already over
    # at ply 9 (a wipe-out, see test_wipe_out_in_nine_plies), which these rules do not.
    assert arena.perft(othello().initial_state(), 9) == PERFT_8X8[8]


def test_perft_is_the_same_under_nomove_ends_before_any_game_can_end() -> None:
    state = othello(rule="nomove-ends").initial_state()
    assert [arena.perft(state, d) for d in range(1, 7)] == PERFT_8X8[:6]


# --- the move generator against the reference ---------------------------------------------


def check_against_reference(game: Othello, rule: str, rng: random.Random) -> OthelloState:
    n = game.size
    ref = Reference(n, rule)
    state = game.initial_state()
    while True:
        legal = ref.legal()
        assert list(state.legal_moves()) == legal, f"ply {state.ply}"
        assert state.is_terminal() == (not legal)
        assert state.to_move == ref.player
        assert [state.disc(c) for c in range(n * n)] == [v for line in ref.board for v in line]
        assert state.score() == ref.margin()
        if not legal:
            margin = ref.margin()
            assert state.returns() == ((margin > 0) - (margin < 0), (margin < 0) - (margin > 0))
            return state
        assert state.returns() == (0, 0)
        move = rng.choice(legal)
        ref.play(move)
        state = state.play(move)


@settings(max_examples=120, deadline=None)
@given(
    size=st.sampled_from([4, 6, 8, 10]),
    rule=st.sampled_from(RULES),
    seed=st.integers(0, 2**32),
)
def test_random_games_match_the_reference(size: int, rule: str, seed: int) -> None:
    check_against_reference(othello(size, rule), rule, random.Random(seed))


@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_random_16x16_games_match_the_reference(seed: int) -> None:
    check_against_reference(othello(16), "standard", random.Random(seed))


def test_random_games_include_passes_and_early_ends() -> None:
    """The random comparisons above do reach passes and boards left part-empty."""
    for size, least_passes, least_early_ends in ((4, 100, 10), (6, 60, 1)):
        game = othello(size)
        rng = random.Random(7)
        passes = early_ends = 0
        for _ in range(200):
            line = random_line(game, rng)
            passes += sum(s.legal_moves() == (game.PASS,) for s in line)
            early_ends += sum(line[-1].discs()) < size * size
        assert passes >= least_passes and early_ends >= least_early_ends


# --- keys, returns, immutability ----------------------------------------------------------


def test_keys_do_not_collide_and_returns_are_zero_sum() -> None:
    rng = random.Random(3)
    for size, rule, count in (
        (4, "standard", 500),
        (6, "nomove-ends", 1500),
        (8, "standard", 2500),
        (12, "standard", 1500),
    ):
        game = othello(size, rule)
        seen: dict[int, OthelloState] = {}
        states = 0
        while states < count:
            for state in random_line(game, rng):
                states += 1
                r0, r1 = state.returns()
                assert r0 + r1 == 0 and r0 in (-1, 0, 1)
                key = state.key()
                assert 0 <= key < 1 << 64
                assert seen.setdefault(key, state) == state, f"key collision on {game.spec}"
        assert len(seen) > count // 2


@pytest.mark.parametrize(
    ("line1", "line2"), [("d3 c3 c4 c5", "c4 c3 d3 c5"), ("d3 c3 f5 f6", "f5 f6 d3 c3")]
)
def test_transposed_lines_give_equal_states_and_keys(line1: str, line2: str) -> None:
    game = othello()
    a = game.play_moves(game.parse_moves(line1))
    b = game.play_moves(game.parse_moves(line2))
    assert a == b and a.key() == b.key() and hash(a) == hash(b) and a.ply == b.ply == 4
    assert a != game.play_moves(game.parse_moves("d3 c3 c4 e3"))


def test_states_are_immutable() -> None:
    game = othello()
    state = game.initial_state()
    with pytest.raises(AttributeError):
        state.to_move = 1  # type: ignore[misc]
    with pytest.raises(AttributeError):
        state.anything = 1  # type: ignore[attr-defined]
    before = (state.render(), state.legal_moves(), state.key(), state.discs())
    after = state.play(game.parse_move("d3"))
    assert after is not state and after != state
    assert (state.render(), state.legal_moves(), state.key(), state.discs()) == before
    assert after.discs() == (4, 1) and after.to_move == 1 and after.ply == 1


# --- the fast playout --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "rule", "games"),
    [
        (4, "standard", 300),
        (6, "standard", 200),
        (8, "standard", 150),
        (8, "nomove-ends", 150),
        (16, "standard", 10),
    ],
)
def test_playout_replays_through_the_rules(size: int, rule: str, games: int) -> None:
    game = othello(size, rule)
    for seed in range(games):
        rng = random.Random(seed)
        line = random_line(game, random.Random(-seed))
        start = line[seed % len(line)]
        moves: list[int] = []
        returns = game.playout(start, rng, moves)
        state = start
        for move in moves:
            assert move in state.legal_moves(), f"seed {seed}: illegal {game.format_move(move)}"
            state = state.play(move)
        assert state.is_terminal() and returns == state.returns(), f"seed {seed}"


def test_playout_passes_and_finishes_from_a_forced_pass() -> None:
    game = othello(4)
    state = game.state_from_discs("a1 b1", "c1", to_move=1)
    moves: list[int] = []
    assert game.playout(state, random.Random(1), moves) == (1, -1)
    assert names(game, moves) == ["pass", "d1"]
    ends = othello(4, "nomove-ends")
    moves = []
    start = ends.state_from_discs("a1 b1", "c1", to_move=1)
    assert ends.playout(start, random.Random(1), moves) == (1, -1)
    assert moves == []


@pytest.mark.parametrize("opening", ["", "d3 c5 f6 f5 e6 e3"])
def test_playout_first_move_is_uniform(opening: str) -> None:
    game = othello()
    state = game.play_moves(game.parse_moves(opening))
    chi2, df = first_move_chi2(game, state, 400, seed=5)
    assert chi2 < chi2_limit(df), chi2


# --- passes and the end of the game ------------------------------------------------------


def test_a_player_without_placement_passes_then_the_other_continues() -> None:
    game = othello(4)
    state = game.state_from_discs("a1 b1", "c1", to_move=1)
    assert state.legal_moves() == (game.PASS,) and not state.is_terminal()
    with pytest.raises(IllegalMove, match="flips no discs"):
        state.play(game.parse_move("d1"))
    after = state.play(game.PASS)
    assert after.to_move == 0 and after.ply == 1 and after.discs() == state.discs()
    assert names(game, after.legal_moves()) == ["d1"]
    with pytest.raises(IllegalMove, match="a pass is legal only when no placement is"):
        after.play(game.PASS)
    end = after.play(game.parse_move("d1"))
    # White has no disc left: neither side can move with 12 cells still empty.
    assert end.is_terminal() and end.legal_moves() == ()
    assert end.discs() == (4, 0) and end.score() == 4 and end.returns() == (1, -1)
    assert end.result_text() == "Black wins by 4"


def test_pass_is_not_legal_when_a_placement_exists() -> None:
    game = othello()
    assert game.PASS not in game.initial_state().legal_moves()
    with pytest.raises(IllegalMove, match="pass is legal only"):
        game.initial_state().play(game.PASS)


def test_wipe_out_in_nine_plies() -> None:
    game = othello()
    state = game.play_moves(game.parse_moves("d3 c3 b3 d2 e1 d6 d7 e3 f4"))
    assert state.is_terminal() and state.legal_moves() == () and state.ply == 9
    assert state.discs() == (13, 0) and state.score() == 13 and state.returns() == (1, -1)
    with pytest.raises(IllegalMove, match="the game is over"):
        state.play(game.parse_move("a1"))
    with pytest.raises(IllegalMove, match="the game is over"):
        state.play(game.PASS)


@pytest.mark.parametrize(
    ("black", "white", "score", "returns"),
    [
        ("a1 b1 a2", "d4", 2, (1, -1)),  # both colours on the board, no bracket anywhere
        ("a1", "d4 c4 d3", -2, (-1, 1)),
        ("a1 a2", "d4 d3", 0, (0, 0)),
    ],
)
def test_neither_side_can_move_ends_the_game(
    black: str, white: str, score: int, returns: tuple[int, int]
) -> None:
    for rule in RULES:
        game = othello(4, rule)
        for to_move in (0, 1):
            state = game.state_from_discs(black, white, to_move=to_move)
            assert state.is_terminal() and state.legal_moves() == ()
            assert state.score() == score and state.returns() == returns


def test_full_board_ends_the_game_with_the_disc_count() -> None:
    game = othello(4)
    for seed in range(50):
        end = random_line(game, random.Random(seed))[-1]
        black, white = end.discs()
        assert end.is_terminal() and end.score() == black - white
        assert end.returns() == (
            (black > white) - (black < white),
            (white > black) - (black > white),
        )
        if black + white == 16:
            break
    else:
        pytest.fail("no random 4x4 game filled the board")


def test_nomove_ends_stops_at_once_and_has_no_pass() -> None:
    game = othello(4, "nomove-ends")
    state = game.state_from_discs("a1 b1", "c1", to_move=1)
    assert state.is_terminal() and state.legal_moves() == ()
    assert state.score() == 1 and state.returns() == (1, -1)
    assert state.result_text() == "Black wins by 1"
    with pytest.raises(IllegalMove):
        state.play(game.PASS)
    # The same position with the mover able to place goes on; pass is still refused.
    going = game.state_from_discs("a1 b1", "c1", to_move=0)
    assert names(game, going.legal_moves()) == ["d1"]
    with pytest.raises(IllegalMove, match="no pass under rule=nomove-ends"):
        going.play(game.PASS)


def test_nomove_ends_ends_the_game_where_standard_rules_pass() -> None:
    std, ends = othello(6), othello(6, "nomove-ends")
    rng = random.Random(11)
    for _ in range(200):
        state, moves = std.initial_state(), []
        while state.legal_moves() not in ((), (std.PASS,)):
            moves.append(rng.choice(state.legal_moves()))
            state = state.play(moves[-1])
        if not state.is_terminal():
            break
    else:
        pytest.fail("no random 6x6 game had a pass")
    assert state.legal_moves() == (std.PASS,)
    same = ends.play_moves(moves)
    assert same.is_terminal() and same.legal_moves() == ()
    assert same.score() == state.score() and same.returns() == (
        (state.score() > 0) - (state.score() < 0),
        (state.score() < 0) - (state.score() > 0),
    )


# --- flips --------------------------------------------------------------------------------


def test_one_placement_flips_in_all_eight_directions() -> None:
    game = othello()
    ring = "f5 g5 d5 e6 e7 e4 f6 d6 c7 f4 g3 d4 c3 b2"
    state = game.state_from_discs("h5 c5 e8 e3 g7 b8 h2 a1", ring + " h8 a5", to_move=0)
    after = state.play(game.parse_move("e5"))
    flipped = {game.format_move(c) for c in range(64) if after.disc(c) == 0} - {
        game.format_move(c) for c in range(64) if state.disc(c) == 0
    }
    assert flipped == set(ring.split()) | {"e5"}
    assert after.discs() == (8 + 14 + 1, 2)
    assert after.disc(game.parse_move("h8")) == 1 and after.disc(game.parse_move("a5")) == 1


def test_runs_that_reach_an_empty_cell_or_the_edge_are_not_flipped() -> None:
    game = othello()
    # From c4: east d4 e4 then empty; west b4 a4 then the edge; south c5 then c6 Black.
    state = game.state_from_discs("c6", "d4 e4 b4 a4 c5", to_move=0)
    assert names(game, state.legal_moves()) == ["c4"]
    after = state.play(game.parse_move("c4"))
    kept = [after.disc(game.parse_move(t)) for t in ("d4", "e4", "b4", "a4", "c5")]
    assert kept == [1, 1, 1, 1, 0]


@pytest.mark.parametrize("size", [4, 8, 16])
def test_rays_never_wrap_around_the_edges(size: int) -> None:
    """For every cell and every index step: the position 'White one step away, Black two
    steps away' gives a legal placement exactly when the steps follow a board line."""
    game = othello(size)
    n = size
    for row in range(n):
        for col in range(n):
            move = row * n + col
            for dr, dc in STEPS:
                delta = dr * n + dc
                white, black = move + delta, move + 2 * delta
                if not (0 <= white < n * n and 0 <= black < n * n):
                    continue
                state = game.state_from_discs(
                    [game.format_move(black)], [game.format_move(white)], to_move=0
                )
                on_line = 0 <= col + 2 * dc < n
                assert (move in state.legal_moves()) == on_line, (move, delta)
                if on_line:
                    assert state.play(move).discs() == (3, 0)
                else:
                    with pytest.raises(IllegalMove):
                        state.play(move)


# --- sizes, spec and notation --------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "black", "white", "first"),
    [
        (4, "c2 b3", "b2 c3", "b1 a2 d3 c4"),
        (8, "e4 d5", "d4 e5", "d3 c4 f5 e6"),
        (16, "i8 h9", "h8 i9", "h7 g8 j9 i10"),
    ],
)
def test_start_positions(size: int, black: str, white: str, first: str) -> None:
    game = othello(size)
    state = game.initial_state()
    assert state == game.state_from_discs(black, white)
    assert state.discs() == (2, 2) and state.to_move == 0 and state.score() == 0
    assert names(game, state.legal_moves()) == first.split()
    assert game.player_names == ("Black", "White") and size * size == game.PASS


def reference_perft(ref: Reference, depth: int) -> int:
    legal = ref.legal()
    if depth == 1 or not legal:
        return len(legal) if depth == 1 else 0
    total = 0
    for move in legal:
        child = Reference(ref.n, ref.rule)
        child.board, child.player = [line[:] for line in ref.board], ref.player
        child.play(move)
        total += reference_perft(child, depth - 1)
    return total


@pytest.mark.parametrize(("size", "depth"), [(4, 8), (6, 5), (16, 3)])
def test_perft_of_other_sizes_matches_the_reference(size: int, depth: int) -> None:
    state = othello(size).initial_state()
    counts = [arena.perft(state, d) for d in range(1, depth + 1)]
    assert counts == [reference_perft(Reference(size), d) for d in range(1, depth + 1)]
    assert counts[:3] == [4, 12, 44 if size == 4 else 56]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("othello:size=5", "size=5 must be even"),
        ("othello:size=7", "size=7 must be even"),
        ("othello:size=15", "size=15 must be even"),
        ("othello:size=2", "size=2 is out of range (4..16)"),
        ("othello:size=18", "size=18 is out of range (4..16)"),
        ("othello:size=eight", "size=eight is not an int"),
        ("othello:rule=fast", "rule=fast is not one of standard|nomove-ends"),
        ("othello:komi=1", "unknown parameter 'komi'"),
    ],
)
def test_bad_specs(spec: str, message: str) -> None:
    with pytest.raises(SpecError) as info:
        arena.load_game(spec)
    assert message in str(info.value)


def test_spec_round_trip() -> None:
    assert othello().spec == "othello"
    game = arena.load_game("othello:size=6,rule=nomove-ends")
    assert game.spec == "othello:size=6,rule=nomove-ends" and arena.load_game(game.spec) == game


@pytest.mark.parametrize("size", [4, 8, 16])
def test_notation_round_trips(size: int) -> None:
    game = othello(size)
    texts = [game.format_move(m) for m in range(size * size + 1)]
    assert len(set(texts)) == size * size + 1
    assert texts[0] == "a1" and texts[size - 1] == "abcdefghijklmnop"[size - 1] + "1"
    assert texts[size] == "a2" and texts[-2] == texts[size - 1][0] + str(size)
    assert texts[-1] == "pass"
    for move, text in enumerate(texts):
        assert game.parse_move(text) == move
        assert game.parse_move(f" {text.upper()} ") == move


@pytest.mark.parametrize("text", ["", "i1", "a9", "a0", "3d", "d", "pas", "passs", "d3 e3"])
def test_malformed_moves(text: str) -> None:
    with pytest.raises(MoveSyntaxError, match="pass"):
        othello().parse_move(text)


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        (-1, "not a move"),
        (65, "not a move"),
        (2.0, "not a move"),
        ("d3", "not a move"),
        (True, "not a move"),
        (27, "the cell is occupied"),
        (0, "it flips no discs"),
    ],
)
def test_illegal_moves(move: object, reason: str) -> None:
    with pytest.raises(IllegalMove, match=reason):
        othello().initial_state().play(move)  # type: ignore[arg-type]


def test_render_shows_coordinates_counts_and_the_last_move() -> None:
    game = othello(4)
    state = game.initial_state().play(game.parse_move("b1"))
    assert state.render().splitlines() == [
        "  a b c d",
        "1 . X . . 1",
        "2 . X X . 2",
        "3 . X O . 3",
        "4 . . . . 4",
        "  a b c d",
        "X 4  O 1  White to move, last move b1",
    ]

"""Go: perft figures, a slow reference, captures, ko and superko, scoring and notation."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import arena
from arena.core.errors import IllegalMove, MoveSyntaxError, SpecError
from arena.games.go.rules import Go, GoState, handicap_points
from helpers import first_move_chi2

# --- a slow, obviously-correct reference -----------------------------------------------


class Reference:
    """Go on a flat list (row 0 at the top), re-deriving everything by walking the board.

    It keeps every position of the game, pass or not, so both ko rules are
    literal: simple ko compares with the position before the opponent's last
    move, positional superko with all of them.
    """

    def __init__(self, size: int, superko: bool, komi: float, maxlen: int) -> None:
        self.size, self.superko, self.komi, self.maxlen = size, superko, komi, maxlen
        self.positions: list[tuple[int, ...]] = [(0,) * (size * size)]
        self.colour, self.passes = 1, 0  # 1 Black, 2 White

    @property
    def board(self) -> tuple[int, ...]:
        return self.positions[-1]

    def neighbours(self, p: int) -> list[int]:
        row, col = divmod(p, self.size)
        out = []
        for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
            if 0 <= r < self.size and 0 <= c < self.size:
                out.append(r * self.size + c)
        return out

    def chain(self, board: list[int], p: int) -> tuple[set[int], set[int]]:
        """The stones connected to ``p`` and their liberties."""
        stones, liberties, todo = {p}, set(), [p]
        while todo:
            for q in self.neighbours(todo.pop()):
                if board[q] == 0:
                    liberties.add(q)
                elif board[q] == board[p] and q not in stones:
                    stones.add(q)
                    todo.append(q)
        return stones, liberties

    def after(self, p: int) -> tuple[int, ...] | None:
        """The board after the current player puts a stone on ``p``; None if illegal."""
        if self.board[p]:
            return None
        board = list(self.board)
        board[p] = self.colour
        for q in self.neighbours(p):
            if board[q] == 3 - self.colour:
                stones, liberties = self.chain(board, q)
                if not liberties:
                    for s in stones:
                        board[s] = 0
        if not self.chain(board, p)[1]:
            return None
        new = tuple(board)
        if self.superko and new in self.positions:
            return None
        if not self.superko and len(self.positions) >= 2 and new == self.positions[-2]:
            return None
        return new

    def terminal(self) -> bool:
        return self.passes >= 2 or len(self.positions) - 1 >= self.maxlen

    def legal(self) -> list[int]:
        if self.terminal():
            return []
        n = self.size * self.size
        return [p for p in range(n) if self.after(p) is not None] + [n]

    def play(self, move: int) -> None:
        if move == self.size * self.size:
            self.positions.append(self.board)
            self.passes += 1
        else:
            new = self.after(move)
            assert new is not None
            self.positions.append(new)
            self.passes = 0
        self.colour = 3 - self.colour

    def score(self) -> float:
        area = {1: 0, 2: 0}
        board = self.board
        seen: set[int] = set()
        for p in range(len(board)):
            if board[p]:
                area[board[p]] += 1
            elif p not in seen:
                region, reaches, todo = {p}, set(), [p]
                while todo:
                    for q in self.neighbours(todo.pop()):
                        if board[q]:
                            reaches.add(board[q])
                        elif q not in region:
                            region.add(q)
                            todo.append(q)
                seen |= region
                if len(reaches) == 1:
                    area[reaches.pop()] += len(region)
        return area[1] - area[2] - self.komi


def reference_for(game: Go) -> Reference:
    return Reference(game.size, game.superko, game.komi, game.maxlen)


def check_against_reference(game: Go, seed: int, pass_chance: float) -> list[int]:
    """Play a random game on both implementations, comparing every position.

    Stones are chosen uniformly, the pass with probability ``pass_chance``.
    Returns the moves played.
    """
    rng = random.Random(seed)
    ref, state = reference_for(game), game.initial_state()
    moves: list[int] = []
    while True:
        legal = ref.legal()
        assert state.legal_moves() == tuple(legal), f"ply {state.ply}\n{state.render()}"
        assert state.is_terminal() == ref.terminal()
        assert state.score() == ref.score()
        if not legal:
            sign = (ref.score() > 0) - (ref.score() < 0)
            assert state.returns() == (sign, -sign)
            return moves
        stones = legal[:-1]
        move = rng.choice(stones) if stones and rng.random() >= pass_chance else legal[-1]
        ref.play(move)
        state = state.play(move)
        moves.append(move)


# --- helpers -----------------------------------------------------------------------------


def setup_moves(game: Go, diagram: str, to_move: int = 0) -> list[int]:
    """Moves that put the stones of ``diagram`` on the board (rows from the top; X Black,
    O White, . empty) with ``to_move`` to play.

    One stone per ply, the side with more stones first while the other passes.
    Every group in the diagram has a liberty, so no stone captures or is
    captured on the way. With ``to_move=1`` Black passes last.
    """
    rows = diagram.split()
    assert len(rows) == game.size and all(len(r) == game.size for r in rows)
    stones: dict[str, list[int]] = {"X": [], "O": []}
    for p, symbol in enumerate("".join(rows)):
        if symbol in stones:
            stones[symbol].append(p)
    black, white = stones["X"], stones["O"]
    extra = len(black) - len(white)
    moves: list[int] = []
    for _ in range(abs(extra)):
        moves += [black.pop(), game.pass_move] if extra > 0 else [game.pass_move, white.pop()]
    for b, w in zip(black, white, strict=True):
        moves += [b, w]
    if to_move == 1:
        moves.append(game.pass_move)
    return moves


def position(game: Go, diagram: str, to_move: int = 0) -> GoState:
    state = game.play_moves(setup_moves(game, diagram, to_move))
    assert state.to_move == to_move and not state.is_terminal()
    assert rows_of(state) == diagram.split()
    return state


def play(state: GoState, text: str) -> GoState:
    game = state.game
    for token in text.split():
        state = state.play(game.parse_move(token))
    return state


def rows_of(state: GoState) -> list[str]:
    """The board rows from the top, as in the diagrams."""
    lines = state.render().splitlines()[1 : state.game.size + 1]
    return ["".join(line.split()[1:-1]) for line in lines]


# --- perft -------------------------------------------------------------------------------


def test_perft_5x5() -> None:
    state = arena.load_game("go:size=5").initial_state()
    assert [arena.perft(state, d) for d in (1, 2, 3)] == [26, 651, 15650]


def test_perft_5x5_depth_4() -> None:
    for ko in ("simple", "positional"):
        state = arena.load_game(f"go:size=5,ko={ko}").initial_state()
        assert arena.perft(state, 4) == 361041


def test_perft_19x19() -> None:
    state = arena.load_game("go:size=19").initial_state()
    assert arena.perft(state, 1) == 362
    assert arena.perft(state, 2) == 361 * 361 + 362  # after a pass, all 361 points and pass


# --- against the reference ------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), spec=st.sampled_from(["go:size=5", "go:size=5,ko=simple"]))
def test_moves_match_reference_5x5_long_games(seed: int, spec: str) -> None:
    # Few passes and a long cap: many captures, ko fights and repeated shapes.
    check_against_reference(arena.load_game(spec + ",maxlen=120"), seed, pass_chance=0.02)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), spec=st.sampled_from(["go:size=5", "go:size=6,komi=6"]))
def test_moves_match_reference_uniform_play(seed: int, spec: str) -> None:
    game = arena.load_game(spec)
    check_against_reference(game, seed, pass_chance=1 / (game.points + 1))


def test_superko_forbids_more_than_simple_ko_in_long_random_games() -> None:
    """Long random 5x5 games reach moves that only positional superko forbids."""
    positional = arena.load_game("go:size=5,maxlen=400")
    simple = arena.load_game("go:size=5,maxlen=400,ko=simple")
    only_superko = 0
    for seed in range(10):
        a, b = positional.initial_state(), simple.initial_state()
        for move in check_against_reference(positional, seed, pass_chance=0.0):
            assert set(a.legal_moves()) <= set(b.legal_moves())
            forbidden = set(b.legal_moves()) - set(a.legal_moves())
            for p in forbidden:
                with pytest.raises(IllegalMove, match="positional superko"):
                    a.play(p)
                b.play(p)
            only_superko += len(forbidden)
            a, b = a.play(move), b.play(move)
    assert only_superko > 0


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_moves_match_reference_9x9(seed: int) -> None:
    check_against_reference(arena.load_game("go:size=9,maxlen=100"), seed, pass_chance=0.01)


def test_keys_are_free_of_collisions_and_states_are_zero_sum() -> None:
    count = 0
    for spec in ("go:size=5,maxlen=150", "go:size=5,ko=simple,maxlen=150", "go:size=7"):
        game = arena.load_game(spec)
        keys: dict[int, GoState] = {}
        for seed in range(15):
            state = game.initial_state()
            for move in check_against_reference(game, seed, pass_chance=0.03):
                state = state.play(move)
                r0, r1 = state.returns()
                assert r0 + r1 == 0
                other = keys.setdefault(state.key(), state)
                assert other == state and other.key() == state.key()
                count += 1
        assert len(keys) > 1000
    assert count > 4000


def test_transpositions_are_equal_and_the_ply_counts() -> None:
    game = arena.load_game("go:size=5")
    a = play(game.initial_state(), "c3 d3 c4 d4")
    b = play(game.initial_state(), "c4 d4 c3 d3")
    assert a == b and a.key() == b.key() and len({a, b}) == 1
    c = play(game.initial_state(), "c3 d3 pass pass")
    d = play(game.initial_state(), "c3 d3")
    assert c != d and c.key() != d.key()  # same board, but the game is over
    e = play(game.initial_state(), "c3 pass d3 pass")
    f = play(game.initial_state(), "c3 d3")
    assert e != f  # the same board two plies later is nearer the length cap


def test_states_are_immutable() -> None:
    game = arena.load_game("go:size=5")
    state = play(game.initial_state(), "c3 d3")
    with pytest.raises(AttributeError):
        state.to_move = 1  # type: ignore[misc]
    with pytest.raises(AttributeError):
        state.extra = 1  # type: ignore[attr-defined]
    before = (state.render(), state.legal_moves(), state.key(), state.ply, state.score())
    after = state.play(game.parse_move("c4"))
    assert after is not state and after != state and after.ply == 3
    assert (state.render(), state.legal_moves(), state.key(), state.ply, state.score()) == before


# --- the fast playout ---------------------------------------------------------------------


def replay(start: GoState, seed: int) -> GoState:
    game = start.game
    moves: list[int] = []
    returns = game.playout(start, random.Random(seed), moves)
    state = start
    for move in moves:
        assert move in state.legal_moves(), f"seed {seed}: illegal playout move"
        state = state.play(move)
    assert state.is_terminal() and returns == state.returns()
    return state


@pytest.mark.parametrize(
    "spec", ["go:size=5", "go:size=5,ko=simple", "go:size=7,komi=0", "go:size=9", "go:size=19"]
)
def test_fast_playout_replays_through_the_rules(spec: str) -> None:
    game = arena.load_game(spec)
    for seed in range(3 if game.size == 19 else 30 if game.size == 9 else 100):
        rng = random.Random(-seed)
        start = game.initial_state()
        for _ in range(seed % 10):  # from a few plies in, passes included
            start = start.play(rng.choice(start.legal_moves()))
        replay(start, seed)


def test_fast_playout_from_mid_game_with_captures_and_kos() -> None:
    for spec in ("go:size=5,maxlen=300", "go:size=5,maxlen=300,ko=simple"):
        game = arena.load_game(spec)
        for seed in range(6):
            line = check_against_reference(game, seed, pass_chance=0.0)
            state = game.initial_state()
            for ply, move in enumerate(line):
                state = state.play(move)
                if ply % 23 == 22 and not state.is_terminal():
                    replay(state, seed * 1000 + ply)


def test_fast_playout_never_plays_what_only_superko_forbids() -> None:
    """One-ply playouts wherever a long random 5x5 game meets a superko ban.

    Such bans hit stones that capture and, after the board has been cleared and
    refilled, stones that capture nothing.
    """
    positional = arena.load_game("go:size=5,maxlen=600")
    simple = arena.load_game("go:size=5,maxlen=600,ko=simple")
    rng = random.Random(5)
    kinds = set()
    for _ in range(8):
        line: list[int] = []
        a, b = positional.initial_state(), simple.initial_state()
        while not a.is_terminal():
            forbidden = set(b.legal_moves()) - set(a.legal_moves())
            if forbidden:
                kinds |= {_captures(b, p) for p in forbidden}
                short = arena.load_game(f"go:size=5,maxlen={a.ply + 1}")
                start = short.play_moves(line)
                for _ in range(20):
                    first: list[int] = []
                    short.playout(start, rng, first)
                    assert first[0] not in forbidden
            stones = a.legal_moves()[:-1]
            move = rng.choice(stones) if stones else positional.pass_move
            a, b = a.play(move), b.play(move)
            line.append(move)
    assert kinds == {True, False}


def _captures(state: GoState, move: int) -> bool:
    stones = sum(row.count("X") + row.count("O") for row in rows_of(state))
    return sum(row.count("X") + row.count("O") for row in rows_of(state.play(move))) <= stones


def test_fast_playout_is_uniform_where_points_are_illegal() -> None:
    """One-ply playouts in a ko: the first move follows the uniform law (chi-squared)."""
    for ko in ("simple", "positional"):
        probe = arena.load_game(f"go:size=5,ko={ko}")
        line = [*setup_moves(probe, KO), probe.parse_move("d3")]  # White may not retake C3
        game = arena.load_game(f"go:size=5,ko={ko},maxlen={len(line) + 1}")
        state = game.play_moves(line)
        legal = state.legal_moves()
        assert game.parse_move("c3") not in legal and len(legal) == 18
        chi2, df = first_move_chi2(game, state, 100, seed=7)
        assert df == 17 and chi2 < 40.8  # the 0.999 quantile of chi-squared, 17 degrees of freedom


# --- captures, snapback, suicide ---------------------------------------------------------

KO = """
.....
..XO.
.XO.O
..XO.
.....
"""


def test_single_stone_capture() -> None:
    game = arena.load_game("go:size=5")
    state = play(position(game, "..... ..X.. .XOX. ..... ....."), "c2")
    assert rows_of(state) == [".....", "..X..", ".X.X.", "..X..", "....."]


def test_multi_stone_capture() -> None:
    game = arena.load_game("go:size=5")
    state = position(game, "..... ..X.. .XOX. .XOX. .....")
    assert rows_of(play(state, "c1")) == [".....", "..X..", ".X.X.", ".X.X.", "..X.."]


def test_one_stone_captures_two_groups() -> None:
    game = arena.load_game("go:size=5")
    state = position(game, "..... ..... .X.X. XO.OX .X.X.")
    after = play(state, "c2")
    assert rows_of(after) == [".....", ".....", ".X.X.", "X.X.X", ".X.X."]
    assert after.score() == 25 - 7.5  # every empty point now reaches Black only


def test_capture_that_looks_like_suicide_is_legal() -> None:
    # A1 has no empty neighbour, but it takes the White stone on A2.
    game = arena.load_game("go:size=5")
    state = position(game, "..... ..... X.... OX... .O...")
    a1 = game.parse_move("a1")
    assert a1 in state.legal_moves()
    assert rows_of(state.play(a1)) == [".....", ".....", "X....", ".X...", "XO..."]


def test_suicide_is_illegal_for_one_stone_and_for_a_group() -> None:
    game = arena.load_game("go:size=5")
    state = position(game, "...O. ....O ..... OO... X.O..")
    for text in ("e5", "b1"):  # E5 alone; B1 would join A1 into a group without liberties
        move = game.parse_move(text)
        assert move not in state.legal_moves()
        with pytest.raises(IllegalMove, match="suicide") as info:
            state.play(move)
        assert info.value.reason == "suicide is not allowed"
        assert str(info.value) == f"illegal move {text.upper()}: suicide is not allowed"
    # White's stones there are not in danger: B1 is an ordinary move for White.
    assert game.parse_move("b1") in state.play(game.pass_move).legal_moves()


def test_snapback() -> None:
    # Black throws a stone in at A1; White takes it with B1 and is left with one liberty.
    for ko in ("simple", "positional"):
        game = arena.load_game(f"go:size=5,ko={ko}")
        state = position(game, "..... ..... XX... OOX.. ..X..")
        state = play(state, "a1")
        assert rows_of(state)[3:] == ["OOX..", "X.X.."]
        state = play(state, "b1")  # takes one stone, but with a three-stone group
        assert rows_of(state)[3:] == ["OOX..", ".OX.."]
        assert game.parse_move("a1") in state.legal_moves()
        state = play(state, "a1")
        assert rows_of(state) == [".....", ".....", "XX...", "..X..", "X.X.."]


# --- ko and superko ------------------------------------------------------------------------


@pytest.mark.parametrize(("ko", "reason"), [("simple", "ko:"), ("positional", "superko")])
def test_simple_ko_forbids_the_immediate_retake(ko: str, reason: str) -> None:
    game = arena.load_game(f"go:size=5,ko={ko}")
    state = play(position(game, KO), "d3")
    assert rows_of(state)[1:4] == ["..XO.", ".X.XO", "..XO."]
    c3 = game.parse_move("c3")
    assert c3 not in state.legal_moves()
    with pytest.raises(IllegalMove, match=reason):
        state.play(c3)
    later = play(state, "a1 e5")  # a threat and an answer elsewhere
    assert c3 in later.legal_moves()
    assert rows_of(play(later, "c3"))[1:4] == ["..XO.", ".XO.O", "..XO."]


def test_ko_ban_lifts_after_a_pass_under_simple_ko() -> None:
    game = arena.load_game("go:size=5,ko=simple")
    state = play(position(game, KO), "d3 pass pass")
    assert state.is_terminal()  # two passes: over before any retake
    state = play(position(game, KO), "d3 a1 pass")
    assert game.parse_move("c3") in state.legal_moves()


def triple_ko(game: Go) -> GoState:
    """Three kos on 9x9 between a Black wall (left) and a White wall (right).

    In rows 8, 5 and 2 the points D and E form a ko: a White stone on D (Black
    may take it from E) or a Black stone on E (White may take it from D).
    Black to move; kos 1 and 2 hold a White stone, ko 3 a Black one.
    """
    rows = []
    for r in range(9):
        row = list("XXXXOOOOO")
        if r in (1, 4, 7):
            row[0] = row[8] = "."  # eyes
            row[3], row[4] = ("O", ".") if r < 7 else (".", "X")
        rows.append("".join(row))
    return position(game, "\n".join(rows))


def test_triple_ko_cycle_only_superko_forbids() -> None:
    cycle = "e8 d2 e5 d8 e2"  # each player takes the ko the opponent did not just take
    simple = arena.load_game("go:size=9,ko=simple")
    start = triple_ko(simple)
    state = play(start, cycle)
    d5 = simple.parse_move("d5")
    assert d5 in state.legal_moves()
    again = state.play(d5)
    assert rows_of(again) == rows_of(start) and again.to_move == start.to_move
    assert again != start  # six plies nearer the length cap
    positional = arena.load_game("go:size=9")
    state = play(triple_ko(positional), cycle)
    assert d5 not in state.legal_moves()
    with pytest.raises(IllegalMove, match="positional superko"):
        state.play(d5)
    assert len(state.legal_moves()) == len(play(triple_ko(simple), cycle).legal_moves()) - 1


# --- the end of the game and the score -------------------------------------------------------

WALLS = """
.X.O.
.X.O.
.X.O.
.X.O.
.X.O.
"""


@pytest.mark.parametrize(
    ("komi", "margin", "returns", "text"),
    [
        ("7.5", -7.5, (-1, 1), "White wins by 7.5: B 10, W 10 + 7.5 komi"),
        ("0", 0.0, (0, 0), "draw (0: B 10, W 10)"),
        ("-2", 2.0, (1, -1), "Black wins by 2: B 10, W 10 - 2 komi"),
    ],
)
def test_score_of_a_finished_board_with_dame(
    komi: str, margin: float, returns: tuple[int, int], text: str
) -> None:
    # Black: 5 stones + column A; White: 5 stones + column E; column C is dame.
    game = arena.load_game(f"go:size=5,komi={komi}")
    state = play(position(game, WALLS), "pass pass")
    assert state.is_terminal() and state.legal_moves() == ()
    assert state.score() == margin and state.returns() == returns
    assert state.result_text() == text


def test_score_counts_every_stone_and_no_dead_stone_removal() -> None:
    # The White stone on A3 splits column A into two regions touching both colours:
    # Black 5 stones; White 6 stones + column E = 11.
    game = arena.load_game("go:size=5")
    state = play(position(game, ".X.O. .X.O. OX.O. .X.O. .X.O."), "pass pass")
    assert state.score() == 5 - 11 - 7.5 and state.returns() == (-1, 1)
    assert state.winner() == 1


def test_score_while_the_game_goes_on() -> None:
    game = arena.load_game("go:size=9")
    assert game.initial_state().score() == -7.5  # the empty board reaches nobody
    assert play(game.initial_state(), "e5").score() == 81 - 7.5
    assert play(game.initial_state(), "e5 e6").score() == -7.5  # one stone each, no area
    assert play(game.initial_state(), "e5").returns() == (0, 0)


def test_two_passes_in_a_row_end_the_game() -> None:
    game = arena.load_game("go:size=5")
    state = play(game.initial_state(), "pass")
    assert not state.is_terminal() and state.returns() == (0, 0)
    state = play(state, "c3 pass")
    assert not state.is_terminal() and game.pass_move in state.legal_moves()
    state = play(state, "pass")  # White's stone on C3 reaches every point
    assert state.is_terminal() and state.returns() == (-1, 1)
    assert state.result_text() == "White wins by 32.5: B 0, W 25 + 7.5 komi"
    with pytest.raises(IllegalMove, match="the game is over"):
        state.play(game.parse_move("a1"))
    assert play(game.initial_state(), "pass pass").returns() == (-1, 1)  # komi


def test_the_length_cap_ends_and_scores_the_game() -> None:
    game = arena.load_game("go:size=5,maxlen=3")
    state = play(game.initial_state(), "c3 pass")
    assert not state.is_terminal()
    state = play(state, "d4")
    assert state.is_terminal() and state.legal_moves() == ()
    assert state.score() == 25 - 7.5 and state.returns() == (1, -1)
    with pytest.raises(IllegalMove, match="the game is over"):
        state.play(game.pass_move)
    assert game.playout(play(game.initial_state(), "c3"), random.Random(1)) in ((1, -1), (-1, 1))


def test_the_default_cap_is_twice_the_board_area() -> None:
    game = arena.load_game("go:size=5")
    assert game.maxlen == 50 and arena.load_game("go:size=5,maxlen=0") == game
    state = game.initial_state()
    while state.ply < 50:
        assert not state.is_terminal()
        stones = state.legal_moves()[:-1]
        state = state.play(stones[len(stones) // 2] if stones else game.pass_move)
    assert state.is_terminal() and state.ply == 50 and state.legal_moves() == ()
    for seed in range(20):
        moves: list[int] = []
        game.playout(game.initial_state(), random.Random(seed), moves)
        assert len(moves) <= 50


# --- notation, rendering, errors -------------------------------------------------------------


def test_notation_is_gtp_without_i_and_with_pass() -> None:
    game = arena.load_game("go:size=9")
    assert game.format_move(0) == "A9" and game.format_move(80) == "J1"
    assert game.format_move(8) == "J9" and game.format_move(81) == "pass"
    assert game.parse_move("j1") == 80 and game.parse_move(" PASS ") == game.parse_move("pass")
    assert [game.format_move(m) for m in range(9)] == [f"{c}9" for c in "ABCDEFGHJ"]
    for move in range(82):
        assert game.parse_move(game.format_move(move)) == move
        assert game.parse_move(game.format_move(move).lower()) == move
    big = arena.load_game("go:size=19")
    assert big.parse_move("K10") == 9 * 19 + 9  # the centre point: K is the tenth letter
    assert big.format_move(0) == "A19" and big.format_move(360) == "T1"
    assert {big.parse_move(big.format_move(m)) for m in range(362)} == set(range(362))


@pytest.mark.parametrize("text", ["", "i5", "I5", "k1", "a0", "a10", "5a", "passs", "a", "z"])
def test_malformed_moves(text: str) -> None:
    game = arena.load_game("go:size=9")
    with pytest.raises(MoveSyntaxError) as info:
        game.parse_move(text)
    assert "A1..J9" in str(info.value) and "pass" in str(info.value)


def test_illegal_moves_say_why() -> None:
    game = arena.load_game("go:size=5")
    state = play(game.initial_state(), "c3")
    with pytest.raises(IllegalMove, match="illegal move C3: the point is occupied"):
        state.play(game.parse_move("c3"))
    for bad in (-1, 26, 10**9, 2.0, "c3", None, True):
        with pytest.raises(IllegalMove, match=r"expected a point 0\.\.24 or pass \(25\)"):
            state.play(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("go:size=4", "size=4 is out of range (5..19)"),
        ("go:size=20", "size=20 is out of range (5..19)"),
        ("go:size=9.5", "size=9.5 is not an int"),
        ("go:komi=x", "komi=x is not a float"),
        ("go:komi=nan", "komi=nan is not a finite number"),
        ("go:komi=inf", "komi=inf is out of range"),
        ("go:ko=super", "ko=super is not one of simple|positional"),
        ("go:maxlen=-1", "maxlen=-1 is out of range"),
        ("go:handicap=1", "9x9 takes 2..9 fixed handicap stones, not 1"),
        ("go:size=6,handicap=2", "6x6 takes no fixed handicap"),
        ("go:size=8,handicap=5", "8x8 takes 2..4 fixed handicap stones, not 5"),
        ("go:bogus=2", "unknown parameter 'bogus'"),
    ],
)
def test_bad_specs(spec: str, message: str) -> None:
    with pytest.raises(SpecError) as info:
        arena.load_game(spec)
    assert message in str(info.value)


def test_render_shows_coordinates_stones_and_the_last_move() -> None:
    game = arena.load_game("go:size=5")
    assert game.initial_state().render().splitlines()[0] == "  A B C D E"
    text = play(game.initial_state(), "a1 e5").render()
    assert text.splitlines()[1] == "5 . . . . O 5"
    assert text.splitlines()[5] == "1 X . . . . 1"
    assert text.splitlines()[-1] == "last move: E5 (White)"
    assert play(game.initial_state(), "pass").render().endswith("last move: pass (Black)")
    big = arena.load_game("go:size=19").initial_state().render().splitlines()
    assert big[0] == "   A B C D E F G H J K L M N O P Q R S T" and big[1].startswith("19 .")


def test_handicap_starts_with_black_stones_and_white_to_move() -> None:
    game = arena.load_game("go:size=19,handicap=4,komi=0.5")
    start = game.initial_state()
    stones = sorted(game.format_move(p) for p in game.handicap_stones)
    assert stones == ["D16", "D4", "Q16", "Q4"]
    assert start.to_move == 1 and start.white == 0 and not start.is_terminal()
    # White's first move, then Black's: the game goes on as usual from there.
    after = start.play(game.parse_move("K10")).play(game.parse_move("C3"))
    assert after.to_move == 1 and after.black.bit_count() == 5
    assert [game.format_move(p) for p in handicap_points(19, 9)][-1] == "K10"
    nine = arena.load_game("go:size=9")
    assert [nine.format_move(p) for p in handicap_points(9, 2)] == ["C3", "G7"]


def test_free_handicap_state() -> None:
    game = arena.load_game("go:size=9")
    state = game.handicap_state([game.parse_move("E5"), game.parse_move("A1")])
    assert state.to_move == 1 and state.black.bit_count() == 2
    with pytest.raises(ValueError, match="named twice"):
        game.handicap_state([3, 3])
    with pytest.raises(ValueError, match=r"2\.\.80 stones, not 1"):
        game.handicap_state([3])

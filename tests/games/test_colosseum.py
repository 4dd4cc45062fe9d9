"""Colosseum Survival against hand-worked positions and a slow reference.

No published perft figures exist for this game, so the move generator, the
end detection and the region counts are checked against ``Reference``: plain
BFS over (row, col) tuples with the walls as a set of edges.
"""

from __future__ import annotations

import random
from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import arena
from arena.core.errors import IllegalMove, MoveSyntaxError, SpecError
from arena.games.colosseum.rules import Colosseum, ColosseumState

Cell = tuple[int, int]
STEPS = {"u": (-1, 0), "r": (0, 1), "d": (1, 0), "l": (0, -1)}
SIDES = "urdl"


class Reference:
    """An obviously-correct Colosseum: a wall is the frozenset of the two cells it
    parts (an off-board cell for the border); moves are found by BFS."""

    def __init__(self, state: ColosseumState) -> None:
        self.size, self.stride = state.size, state.game.stride
        self.players = list(state.positions)
        self.to_move = state.to_move
        self.walls: set[frozenset[Cell]] = set()
        for r in range(self.size):
            for c in range(self.size):
                for side in SIDES:
                    if state.has_wall(r, c, side):
                        self.walls.add(self.edge((r, c), side))

    def edge(self, cell: Cell, side: str) -> frozenset[Cell]:
        dr, dc = STEPS[side]
        return frozenset({cell, (cell[0] + dr, cell[1] + dc)})

    def neighbours(self, cell: Cell) -> list[Cell]:
        out = []
        for side, (dr, dc) in STEPS.items():
            nxt = (cell[0] + dr, cell[1] + dc)
            on_board = 0 <= nxt[0] < self.size and 0 <= nxt[1] < self.size
            if on_board and self.edge(cell, side) not in self.walls:
                out.append(nxt)
        return out

    def distances(self, start: Cell, blocked: Cell | None = None) -> dict[Cell, int]:
        dist = {start: 0}
        queue = deque([start])
        while queue:
            cell = queue.popleft()
            for nxt in self.neighbours(cell):
                if nxt not in dist and nxt != blocked:
                    dist[nxt] = dist[cell] + 1
                    queue.append(nxt)
        return dist

    def destinations(self) -> set[Cell]:
        me, them = self.players[self.to_move], self.players[1 - self.to_move]
        k = (self.size + 1) // 2
        return {cell for cell, d in self.distances(me, blocked=them).items() if d <= k}

    def regions(self) -> tuple[int, int] | None:
        a, b = self.players
        region = self.distances(a)
        if b in region:
            return None
        return len(region), len(self.distances(b))

    def legal(self) -> list[int]:
        if self.regions() is not None:
            return []
        return sorted(
            ((r * self.stride + c) * 4 + SIDES.index(side))
            for r, c in self.destinations()
            for side in SIDES
            if self.edge((r, c), side) not in self.walls
        )

    def play(self, move: int) -> None:
        (r, c), side = divmod(move >> 2, self.stride), SIDES[move & 3]
        self.walls.add(self.edge((r, c), side))
        self.players[self.to_move] = (r, c)
        self.to_move = 1 - self.to_move

    def voronoi(self) -> tuple[int, int]:
        d0, d1 = (self.distances(p) for p in self.players)
        far = self.size * self.size
        first = sum(1 for cell in d0 if d0[cell] < d1.get(cell, far))
        second = sum(1 for cell in d1 if d1[cell] < d0.get(cell, far))
        return first, second


def check_against_reference(state: ColosseumState, ref: Reference) -> None:
    assert list(state.legal_moves()) == ref.legal()
    assert state.regions == ref.regions()
    assert state.is_terminal() == (ref.regions() is not None)
    assert state.territory() == ref.voronoi()
    r0, r1 = state.returns()
    assert r0 + r1 == 0
    if state.is_terminal():
        a, b = state.regions
        assert (r0, state.score()) == ((a > b) - (a < b), a - b)
    else:
        assert (r0, r1) == (0, 0) and state.legal_moves(), "a mover always has a move"


def destinations(state: ColosseumState) -> set[Cell]:
    stride = state.game.stride
    return {divmod(move >> 2, stride) for move in state.legal_moves()}


def texts(game: Colosseum, state: ColosseumState) -> list[str]:
    return [game.format_move(m) for m in state.legal_moves()]


def reason(state: ColosseumState, text: str) -> str:
    with pytest.raises(IllegalMove) as info:
        state.play(state.game.parse_move(text))
    return info.value.reason


# -- the generator against the reference ----------------------------------------------


@settings(max_examples=150, deadline=None)
@given(
    spec=st.sampled_from(["size=3", "size=4", "size=5,walls=3", "size=6", "size=9", ""]),
    seed=st.integers(0, 10**6),
    choices=st.lists(st.integers(0, 10**6), max_size=20),
)
def test_random_games_match_the_reference(spec: str, seed: int, choices: list[int]) -> None:
    """Whole games: ``choices`` picks the first moves, then a seeded rng the rest."""
    game = arena.load_game(f"colosseum:{spec}" if spec else "colosseum")
    state = game.initial_state(seed)
    ref = Reference(state)
    check_against_reference(state, ref)
    rng = random.Random(seed)
    choices = choices + [rng.randrange(10**6) for _ in range(2 * state.size**2)]
    for choice in choices:
        if state.is_terminal():
            break
        moves = state.legal_moves()
        move = moves[choice % len(moves)]
        state = state.play(move)
        ref.play(move)
        check_against_reference(state, ref)
    assert state.is_terminal(), "every game ends within 2 * M * (M - 1) plies"


@settings(max_examples=400, deadline=None)
@given(
    size=st.integers(3, 7),
    density=st.floats(0.0, 0.6),
    seed=st.integers(0, 10**6),
    to_move=st.integers(0, 1),
)
def test_hand_built_walled_positions_match_the_reference(
    size: int, density: float, seed: int, to_move: int
) -> None:
    """Dense random walls (not symmetric) exercise blocked walks, cuts and dead regions."""
    rng = random.Random(seed)
    walls = [
        (r, c, side)
        for r in range(size)
        for c in range(size)
        for side in "rd"
        if rng.random() < density
    ]
    a, b = rng.sample([(r, c) for r in range(size) for c in range(size)], 2)
    game = Colosseum(size=size)
    state = game.position([a, b], walls=walls, to_move=to_move)
    ref = Reference(state)
    check_against_reference(state, ref)
    while not state.is_terminal():
        move = rng.choice(state.legal_moves())
        state = state.play(move)
        ref.play(move)
        check_against_reference(state, ref)


def test_keys_are_free_of_collisions_and_transpositions_are_equal() -> None:
    game = Colosseum(size=6)
    seen: dict[int, ColosseumState] = {}
    rng = random.Random(3)
    for seed in range(120):
        state = game.initial_state(seed)
        while True:
            assert seen.setdefault(state.key(), state) == state
            if state.is_terminal():
                break
            state = state.play(rng.choice(state.legal_moves()))
    assert len(seen) > 1500
    # A and B stay put and wall their own cells: the order of A's two walls does not matter.
    start = game.position([(0, 0), (5, 5)])
    one = game.play_moves(game.parse_moves("0,0,r 5,5,u 0,0,d"), start)
    two = game.play_moves(game.parse_moves("0,0,d 5,5,u 0,0,r"), start)
    assert one == two and one.key() == two.key() and one.ply == two.ply == 3
    assert one != game.position([(0, 0), (5, 5)], walls=["0,0,r", "5,5,u", "0,0,d"])  # to move


# -- walking: walls, the opponent and the K limit --------------------------------------


def test_walks_are_blocked_by_walls_and_by_the_opponent() -> None:
    game = Colosseum(size=5)  # K = 3
    state = game.position([(2, 2), (2, 3)], walls=["2,2,u", "3,2,r", "2,1,u"])
    assert state.max_steps == 3
    assert destinations(state) == {
        (2, 2), (3, 2), (2, 1),  # 0 and 1 step: up is walled, right is B
        (4, 2), (3, 1), (2, 0),  # 2 steps
        (4, 3), (4, 1), (3, 0), (1, 0),  # 3 steps
    }  # fmt: skip
    # The wall between A and B is a free side: A may close it.
    assert [t for t in texts(game, state) if t.startswith("2,2,")] == ["2,2,r", "2,2,d", "2,2,l"]
    assert reason(state, "2,3,l") == "2,3 is B's cell"
    assert reason(state, "1,2,l") == "1,2 cannot be reached from 2,2 in at most 3 steps"
    # B's turn: A's cell blocks B the same way.
    b_state = game.position([(2, 2), (2, 3)], walls=["2,2,u", "3,2,r", "2,1,u"], to_move=1)
    assert (2, 2) not in destinations(b_state) and (2, 4) in destinations(b_state)


def test_the_walk_is_at_most_k_steps() -> None:
    for size, k in ((7, 4), (8, 4), (3, 2), (12, 6), (20, 10)):
        state = Colosseum(size=size).position([(0, 0), (size - 1, size - 1)])
        assert state.max_steps == k
        assert destinations(state) == {
            (r, c) for r in range(size) for c in range(size) if r + c <= k
        }
    # B next to A: the way round it is longer, so some cells within K fall out of reach.
    state = Colosseum(size=7).position([(0, 0), (0, 1)])
    near = {(r, c) for r in range(7) for c in range(7) if r + c <= 4}
    assert destinations(state) == near - {(0, 1), (0, 3), (0, 4)}
    # 0 steps is a walk: boxed in on three sides, A may still wall its own cell.
    boxed = Colosseum(size=4).position([(1, 1), (3, 3)], walls=["1,1,u", "1,1,r", "1,1,l"])
    assert (1, 1) in destinations(boxed) and texts(Colosseum(size=4), boxed)[0] == "1,1,d"


def test_walls_cannot_go_on_the_border_or_on_an_existing_wall() -> None:
    game = Colosseum(size=4)
    state = game.position([(0, 0), (3, 3)], walls=["1,1,u"])
    assert reason(state, "0,0,u") == "the up side of 0,0 is the edge of the board"
    assert reason(state, "0,0,l") == "the left side of 0,0 is the edge of the board"
    assert reason(state, "1,1,u") == "the up side of 1,1 has a wall already"
    # The same wall seen from the cell above it.
    assert reason(state, "0,1,d") == "the down side of 0,1 has a wall already"
    assert "0,1,d" not in texts(game, state) and "0,1,r" in texts(game, state)
    # A wall is shared by both of its cells: after 1,0,r the side 1,1,l is taken.
    after = state.play(game.parse_move("1,0,r"))
    assert after.has_wall(1, 1, "l") and after.has_wall(1, 0, 1)
    assert "1,1,l" not in texts(game, after)


def test_illegal_moves_name_the_reason() -> None:
    game = Colosseum(size=6)
    state = game.position([(5, 5), (0, 0)])
    for move, why in (
        (-1, "no such move: moves are 0..143"),
        (144, "no such move: moves are 0..143"),
        ("1,1,u", "moves are ints, not str"),
        (None, "moves are ints, not NoneType"),
        (True, "moves are ints, not bool"),
    ):
        with pytest.raises(IllegalMove) as info:
            state.play(move)  # type: ignore[arg-type]
        assert info.value.reason == why
    with pytest.raises(IllegalMove, match="illegal move 5,5,d: the down side of 5,5 is the edge"):
        state.play(game.parse_move("5,5,d"))
    # With a drawn size, moves use a 12-wide frame: cells past the board are named as such.
    drawn = Colosseum().position([(0, 0), (5, 5)], size=6)
    with pytest.raises(IllegalMove, match="7,7 is off the 6x6 board"):
        drawn.play(drawn.game.parse_move("7,7,u"))


# -- the end ---------------------------------------------------------------------------


def test_closing_a_region_ends_the_game_with_region_sizes() -> None:
    game = Colosseum(size=4)  # K = 2
    box = ["0,1,r", "1,1,r", "1,0,d"]  # the top-left 2x2 square, open at the bottom of 1,1
    state = game.position([(0, 0), (3, 3)], walls=box)
    assert not state.is_terminal() and state.regions is None
    end = state.play(game.parse_move("1,1,d"))
    assert end.is_terminal() and end.positions == ((1, 1), (3, 3))
    assert end.regions == (4, 12) and end.score() == -8
    assert end.returns() == (-1, 1) and end.winner() == 1
    assert end.result_text() == "B wins by 8"
    assert end.legal_moves() == ()
    assert reason(end, "3,3,u") == "the game is over"
    assert "regions A 4, B 12: B wins by 8; last move 1,1,d" in end.render()


def test_equal_regions_draw() -> None:
    game = Colosseum(size=4)
    state = game.position([(3, 1), (0, 3)], walls=["0,1,r", "1,1,r", "2,1,r"])
    end = state.play(game.parse_move("3,1,r"))
    assert end.regions == (8, 8) and end.returns() == (0, 0) and end.score() == 0
    assert end.is_terminal() and end.winner() is None and end.result_text() == "draw (0)"


def test_a_cut_that_leaves_the_players_together_goes_on() -> None:
    """Walling off an empty pocket makes a dead region, not the end of the game."""
    game = Colosseum(size=4)
    pocket = ["0,1,r", "1,1,r", "1,0,d"]  # the top-left 2x2 square, open below 1,1
    state = game.position([(2, 2), (3, 3)], walls=pocket)
    assert (1, 1) in destinations(state)
    closed = state.play(game.parse_move("2,1,u"))
    assert not closed.is_terminal() and closed.positions == ((2, 1), (3, 3))
    assert closed.territory() == (7, 5)  # 12 cells: the pocket belongs to nobody now
    assert not destinations(closed.play(game.parse_move("3,3,u"))) & {(0, 0), (1, 1)}


def test_the_mover_can_shut_the_opponent_in() -> None:
    game = Colosseum(size=4)
    # B sits in the pocket; A closes it from outside and keeps 12 cells against 4.
    state = game.position([(2, 1), (0, 0)], walls=["0,1,r", "1,1,r", "1,0,d"])
    end = state.play(game.parse_move("2,1,u"))
    assert (
        end.regions == (12, 4) and end.returns() == (1, -1) and end.result_text() == "A wins by 8"
    )


def test_already_apart_positions_are_terminal() -> None:
    game = Colosseum(size=3)
    state = game.position([(0, 0), (2, 2)], walls=["0,0,r", "0,0,d"])
    assert state.is_terminal() and state.regions == (1, 8) and state.legal_moves() == ()


def test_score_before_the_end_is_the_voronoi_count() -> None:
    game = Colosseum(size=3)
    state = game.position([(0, 0), (0, 1)])
    # A is strictly nearer to its column; B to the rest.
    assert state.territory() == (3, 6) and state.score() == -3
    assert game.position([(0, 0), (2, 2)]).score() == 0  # the anti-diagonal is tied


# -- the set-up ------------------------------------------------------------------------


@pytest.mark.parametrize("spec", ["size=6", "size=7", "size=3", "size=12,walls=20", ""])
def test_initial_boards_are_point_symmetric(spec: str) -> None:
    game = arena.load_game(f"colosseum:{spec}" if spec else "colosseum")
    for seed in range(60):
        state = game.initial_state(seed)
        m = state.size
        a, b = state.positions
        assert b == (m - 1 - a[0], m - 1 - a[1]) and a != b
        assert not state.is_terminal() and state.ply == 0 and state.to_move == 0
        inner = 0
        for r in range(m):
            for c in range(m):
                for d in range(4):
                    wall = state.has_wall(r, c, d)
                    assert wall == state.has_wall(m - 1 - r, m - 1 - c, (d + 2) % 4)
                    on_border = (r == 0, c == m - 1, r == m - 1, c == 0)[d]
                    assert not on_border or wall
                    inner += wall and not on_border
        pairs = game.config["walls"] if game.config["walls"] is not None else m // 2
        assert inner == 4 * pairs  # each pair is two walls, each wall is seen from two cells


def test_the_seed_decides_the_board() -> None:
    game = Colosseum(size=8)
    assert game.initial_state(42) == game.initial_state(42)
    assert game.initial_state(42).render() == game.initial_state(42).render()
    assert game.initial_state(None) == game.initial_state(0) == game.initial_state()
    boards = {game.initial_state(seed).key() for seed in range(50)}
    assert len(boards) == 50
    assert Colosseum(size=8).initial_state(7) == Colosseum(size=8).initial_state(7)


def test_size_is_drawn_from_6_to_12_when_not_given() -> None:
    game = Colosseum()
    sizes = [game.initial_state(seed).size for seed in range(300)]
    assert set(sizes) == set(range(6, 13))
    assert game.stride == 12 and Colosseum(size=7).stride == 7
    # A 6x6 board of the drawn-size game: moves in the 12-wide frame.
    state = next(game.initial_state(s) for s in range(100) if game.initial_state(s).size == 6)
    assert max(state.legal_moves()) < 4 * (5 * 12 + 6)


def test_wall_count_parameter() -> None:
    bare = Colosseum(size=5, walls=0).initial_state(3)
    assert sum(bare.has_wall(r, c, d) for r in range(5) for c in range(5) for d in range(4)) == 20
    assert arena.load_game("colosseum:size=10,walls=22").spec == "colosseum:size=10,walls=22"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("colosseum:size=2", "size=2 is out of range (3..20)"),
        ("colosseum:size=21", "size=21 is out of range (3..20)"),
        ("colosseum:size=big", "size=big is not an int"),
        ("colosseum:walls=-1", "walls=-1 is out of range (0..95)"),
        ("colosseum:size=6,walls=8", "walls=8 is too many for size=6: at most 7"),
        ("colosseum:walls=8", "walls=8 is too many for a size drawn from 6..12: at most 7"),
        ("colosseum:size=3,walls=2", "at most 1"),
        ("colosseum:steps=3", "unknown parameter 'steps'"),
    ],
)
def test_bad_specs(spec: str, message: str) -> None:
    with pytest.raises(SpecError, match=None) as info:
        arena.load_game(spec)
    assert message in str(info.value)


def test_position_rejects_bad_input() -> None:
    game = Colosseum(size=5)
    for kwargs, message in (
        ({"players": [(0, 0), (0, 0)]}, "two different cells"),
        ({"players": [(0, 0), (5, 0)]}, "cell 5,0 is off the 5x5 board"),
        ({"players": [(0, 0), (1, 0)], "walls": [(0, 9, "u")]}, "no side (0, 9, 'u')"),
        ({"players": [(0, 0), (1, 0)], "walls": [(0, 0, "x")]}, "u r d l or 0..3, not 'x'"),
        ({"players": [(0, 0), (1, 0)], "walls": [(0, 0, 4)]}, "u r d l or 0..3, not 4"),
        ({"players": [(0, 0), (1, 0)], "to_move": 2}, "to_move 0 or 1"),
        ({"players": [(0, 0), (1, 0)], "size": 6}, "size must be 5, not 6"),
    ):
        with pytest.raises(ValueError, match=None) as info:
            game.position(**kwargs)  # type: ignore[arg-type]
        assert message in str(info.value)
    with pytest.raises(ValueError, match=r"size must be given, 3..12, not None"):
        Colosseum().position([(0, 0), (1, 1)])
    with pytest.raises(ValueError, match="not 13"):
        Colosseum().position([(0, 0), (1, 1)], size=13)
    # Border sides may be listed (board files list them); walls take letters or numbers.
    listed = game.position([(0, 0), (4, 4)], walls=[(0, 0, "U"), (0, 0, 1), "1, 1, D"])
    assert listed == game.position([(0, 0), (4, 4)], walls=["0,0,r", "2,1,u"])


# -- notation --------------------------------------------------------------------------


def test_notation() -> None:
    game = Colosseum(size=8)
    assert game.parse_move("2,3,u") == (2 * 8 + 3) * 4 + 0
    assert game.parse_move(" 2 , 3 , L ") == (2 * 8 + 3) * 4 + 3
    assert game.format_move((7 * 8 + 0) * 4 + 1) == "7,0,r"
    assert all(game.parse_move(game.format_move(m)) == m for m in range(4 * 64))
    assert game.parse_moves("2,3,u 4 , 4, d") == [
        game.parse_move("2,3,u"),
        game.parse_move("4,4,d"),
    ]
    assert game.parse_moves(["0,0,r"]) == [1]
    assert Colosseum().parse_move("11,11,l") == (11 * 12 + 11) * 4 + 3


@pytest.mark.parametrize(
    "text", ["", "2,3", "2,3,x", "a,b,u", "2;3;u", "-1,2,u", "2,3,u,d", "2 3 u", "2,3,up", "+2,3,u"]
)
def test_malformed_notation_names_the_format(text: str) -> None:
    with pytest.raises(MoveSyntaxError, match="expected row,col,side like '2,3,u'"):
        Colosseum(size=8).parse_move(text)


def test_off_board_notation() -> None:
    with pytest.raises(MoveSyntaxError, match=r"off the board: rows and columns are 0..7"):
        Colosseum(size=8).parse_move("8,0,u")
    with pytest.raises(ValueError, match="not a colosseum move"):
        Colosseum(size=8).format_move(256)


# -- playouts, rendering, immutability -------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "games"), [("size=3", 60), ("size=5", 60), ("size=8", 40), ("size=12", 15), ("", 15)]
)
def test_fast_playouts_replay_through_the_rules(spec: str, games: int) -> None:
    game = arena.load_game(f"colosseum:{spec}" if spec else "colosseum")
    outcomes = set()
    for seed in range(games):
        rng = random.Random(seed)
        state = game.initial_state(seed)
        moves: list[int] = []
        returns = game.playout(state, rng, moves)
        ref = Reference(state)
        for move in moves:
            assert move in ref.legal(), f"seed {seed}: {game.format_move(move)} is illegal"
            state = state.play(move)
            ref.play(move)
        assert state.is_terminal() and ref.regions() == state.regions
        assert returns == state.returns()
        outcomes.add(returns)
    assert (1, -1) in outcomes and (-1, 1) in outcomes


def test_playout_from_a_terminal_state_returns_its_result() -> None:
    game = Colosseum(size=3)
    state = game.position([(0, 0), (2, 2)], walls=["0,0,r", "0,0,d"])
    moves: list[int] = []
    assert game.playout(state, random.Random(1), moves) == (-1, 1) and moves == []


def test_render_draws_walls_players_and_the_last_wall() -> None:
    game = Colosseum(size=4)
    state = game.position([(0, 0), (3, 3)], walls=["1,1,u"]).play(game.parse_move("0,0,r"))
    assert state.render().splitlines() == [
        "   0   1   2   3",
        "  +---+---+---+---+",
        "0 | A #           | 0",
        "  +   +---+   +   +",
        "1 |               | 1",
        "  +   +   +   +   +",
        "2 |               | 2",
        "  +   +   +   +   +",
        "3 |             B | 3",
        "  +---+---+---+---+",
        "   0   1   2   3",
        "B to move (up to 2 steps); last move 0,0,r",
    ]


def test_states_are_immutable() -> None:
    game = Colosseum(size=6)
    state = game.initial_state(9)
    with pytest.raises(AttributeError):
        state.to_move = 1  # type: ignore[misc]
    with pytest.raises(AttributeError):
        state.walls = 0  # type: ignore[attr-defined]
    before = (state.render(), state.legal_moves(), state.key(), state.positions)
    after = state.play(state.legal_moves()[-1])
    assert after != state and after.ply == 1 and after.to_move == 1
    assert (state.render(), state.legal_moves(), state.key(), state.positions) == before

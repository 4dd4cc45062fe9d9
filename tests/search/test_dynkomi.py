"""Dynamic komi (``mcts:dynkomi=1``): a handicap read from the position, the search komi's
schedule, the kernel counting another komi than the rules', and a search giving a
handicap that sees its game as a contest with it and as lost without it. Situational komi
(``dynkomi=2``, ``search/mcts/komi.py``): points given while well ahead, by the player to
move, taken back when the lead looks smaller, gone by the end, none in a close game."""

from __future__ import annotations

import random

import pytest

import arena
from arena.core.errors import SpecError
from arena.core.limit import Limit
from arena.games import knowledge, load_kernel
from arena.games.go.heuristic import HANDICAP_PLIES, HANDICAP_STONE, search_komi
from arena.games.go.rules import Go, GoState
from arena.search.mcts.komi import given, situational


def random_moves(state: GoState, plies: int, seed: int) -> list[int]:
    """``plies`` random legal moves from ``state`` that are not passes (where it can)."""
    rng = random.Random(seed)
    pass_move = state.game.pass_move
    moves: list[int] = []
    for _ in range(plies):
        if state.is_terminal():
            break
        legal = [m for m in state.legal_moves() if m != pass_move] or list(state.legal_moves())
        moves.append(rng.choice(legal))
        state = state.play(moves[-1])
    return moves


def played(state: GoState, plies: int, seed: int) -> GoState:
    """``state`` after :func:`random_moves`."""
    for move in random_moves(state, plies, seed):
        state = state.play(move)
    return state


def test_the_handicap_is_read_from_the_position_fixed_free_or_none() -> None:
    game = Go(size=19)
    assert played(game.initial_state(), 60, 1).handicap == 0
    fixed = arena.load_game("go:size=19,handicap=4,komi=0.5")
    assert played(fixed.initial_state(), 120, 2).handicap == 4
    # A free handicap (GTP's set_free_handicap) is a position, not a game parameter.
    free = game.handicap_state([game.parse_move(v) for v in ("D4", "Q16", "K10")])
    later = played(free, 150, 3)  # captures start new runs of boards: still 3
    assert later.handicap == 3 and later.ply == 151
    # White passes at once: Black's next board has no white stone either, and one more stone.
    assert free.play(game.pass_move).play(game.parse_move("C3")).handicap == 3
    assert arena.load_game("go:size=9,handicap=2,ko=simple").initial_state().handicap == 2


def test_the_search_komi_counts_the_stones_back_and_falls_to_the_rules_komi() -> None:
    game = arena.load_game("go:size=19,handicap=4,komi=0.5")
    start = game.initial_state()
    assert search_komi(start) == pytest.approx(0.5 + 4 * HANDICAP_STONE * (1 - 1 / 198.55))
    komis = [search_komi(s) for s in (played(start, n, 4) for n in (0, 50, 100, 150))]
    assert komis == sorted(komis, reverse=True)  # falling, move by move
    assert search_komi(played(start, int(HANDICAP_PLIES * 361) + 1, 5)) == 0.5
    even = arena.load_game("go:size=9,komi=6.5")
    assert search_komi(played(even.initial_state(), 10, 6)) == 6.5
    assert knowledge(game).search_komi is search_komi
    assert knowledge(arena.load_game("connect4")).search_komi is None


def test_the_kernel_counts_the_komi_it_is_given_as_the_rules_would() -> None:
    base = arena.load_game("go:size=9,komi=7.5")
    kernel = load_kernel(base)
    assert kernel is not None and kernel.komi is not None
    outcome = kernel.functions["outcome"]
    rng = random.Random(7)
    checked = 0
    for seed in range(12):
        moves = random_moves(base.initial_state(), 70 + seed, seed) + [base.pass_move] * 2
        state = base.play_moves(moves)
        margin = round(state.score() + base.komi)  # Black's area less White's
        for komi in (margin - 0.5, float(margin), margin + 0.5, rng.uniform(-40, 40)):
            kernel.komi(komi)
            rules = arena.load_game(f"go:size=9,komi={komi}")
            expected = rules.play_moves(moves).returns()[0]
            assert outcome(kernel.params, kernel.encode(state)) == expected, (seed, komi)
            checked += 1
    assert checked == 48
    # Another kernel of the same game keeps the rules' komi: each has its own params.
    other = load_kernel(base)
    assert other is not None and list(other.params[:8]) != list(kernel.params[:8])


def white_win_rate(spec: str, seed: int) -> float:
    """The win rate White's search gives its chosen move at the start of a 9x9 game where
    Black has three handicap stones (komi 0.5), after 4,000 simulations."""
    game = arena.load_game("go:size=9,handicap=3,komi=0.5")
    agent = arena.load_agent(f"{spec},seed={seed}")
    agent.reset(game)
    agent.choose(game.initial_state(), Limit(rollouts=4000))
    info = agent.last_search
    assert info is not None and info.value is not None
    return info.value


def test_a_search_giving_a_handicap_sees_a_contest_with_dynkomi_and_a_lost_game_without() -> None:
    spec = "mcts:c=0,rave=1000,prior=20,rollout=tactics,threads=1"
    plain = [white_win_rate(spec, seed) for seed in (1, 2, 3)]
    counted = [white_win_rate(f"{spec},dynkomi=1", seed) for seed in (1, 2, 3)]
    # Three stones on 81 points: most of White's simulations lose by the rules' komi (its
    # win rates here 0.18-0.25); with 21 points counted back they nearly split (0.43-0.46).
    # A fixed budget on one seeded thread: the same figures on every machine.
    assert max(plain) < 0.3 and min(counted) > 0.4, (plain, counted)


def test_dynkomi_is_refused_where_there_is_no_komi_or_no_compiled_engine() -> None:
    agent = arena.load_agent("mcts:dynkomi=1,rollouts=50")
    with pytest.raises(SpecError, match=r"dynkomi=1 is for games with a komi \(go\), not connect4"):
        agent.choose(arena.load_game("connect4").initial_state(), Limit())
    with pytest.raises(SpecError, match="compiled engine only"):
        arena.load_agent("mcts:dynkomi=1,engine=python")
    agent = arena.load_agent("mcts:dynkomi=2,rollouts=50")
    with pytest.raises(SpecError, match=r"dynkomi=2 is for games with a komi \(go\), not othello"):
        agent.choose(arena.load_game("othello").initial_state(), Limit())
    for bad in ("3", "-1", "yes"):
        with pytest.raises(SpecError) as err:
            arena.load_agent(f"mcts:dynkomi={bad}")
        assert "\n" not in str(err.value) and "dynkomi" in str(err.value)


def test_situational_komi_gives_a_point_a_search_when_well_ahead_and_halves_in_doubt() -> None:
    extra, seen = 0, []
    for rate in (0.95, 0.8, 0.79, 0.5, 0.9, 0.49, 0.2, 0.1, 0.0):
        extra = situational(extra, rate, plies_left=300)
        seen.append(extra)
    assert seen == [1, 2, 2, 2, 3, 1, 0, 0, 0]
    # Bounded by the plies left (0.1 a ply): nothing given at the end, where points count.
    assert situational(50, 0.99, plies_left=None) == 51
    assert [situational(50, 0.99, n) for n in (300, 100, 25, 9, 0)] == [30, 10, 2, 0, 0]
    # Given by the player to move: Black counts more komi for White, White less.
    assert given(0.5, 4, black_to_move=True) == 4.5
    assert given(0.5, 4, black_to_move=False) == -3.5


SEARCH = "mcts:c=0,rave=1000,prior=20,rollout=tactics,threads=1,dynkomi=2"


def test_a_search_far_ahead_gives_points_and_counts_them_in_its_komi() -> None:
    # Black 30 points ahead by the komi alone: each search rates its move near 1 and the
    # next gives a point more, counted in the kernel's komi for White.
    game = arena.load_game("go:size=9,komi=-30.5")
    agent = arena.load_agent(f"{SEARCH},seed=1")
    agent.reset(game)
    state, counted = game.initial_state(), []
    for _ in range(4):
        state = state.play(agent.choose(state, Limit(rollouts=1500)))
        counted.append(agent.search_komi)
        state = state.play(random_moves(state, 1, 9)[0])  # White's random (losing) replies
    assert counted == [-30.5, -29.5, -28.5, -27.5] and agent.given == 4
    # White ahead by as much gives them as a smaller komi for itself.
    white = arena.load_game("go:size=9,komi=38.5")
    agent.reset(white)
    state = white.initial_state().play(white.parse_move("E5"))
    for expected in (38.5, 37.5, 36.5):
        state = state.play(agent.choose(state, Limit(rollouts=1500)))
        assert agent.search_komi == expected
        state = state.play(random_moves(state, 1, 10)[0])
    # A new game (or a position before the last one) starts from the rules' komi again.
    agent.choose(white.initial_state().play(white.parse_move("E5")), Limit(rollouts=200))
    assert agent.search_komi == 38.5


def test_the_given_points_are_played_for_and_a_close_game_gives_none() -> None:
    game = arena.load_game("go:size=9,komi=-30.5")
    state = game.initial_state()
    rates = []
    for extra in (0, 40):
        agent = arena.load_agent(f"{SEARCH},seed=2")
        agent.reset(game)
        agent.given = extra
        agent.choose(state, Limit(rollouts=2000))
        assert agent.search_komi == -30.5 + extra
        info = agent.last_search
        assert info is not None and info.value is not None
        rates.append(info.value)
    # Giving 40 of a 30-point lead, the search sees a contest (0.84 and 0.47 here: a fixed
    # budget on one seeded thread): it now plays to win by more than 40, and the next
    # search gives less (at most 8 on 81 points).
    assert rates[0] > 0.8 and rates[1] < rates[0] - 0.3, rates
    assert agent.given == 8
    # An even game between two such searches: the rates stay well below 0.8, nothing given.
    even = arena.load_game("go:size=9,komi=7.5")
    sides = [arena.load_agent(f"{SEARCH},seed={seed}") for seed in (3, 4)]
    state = even.initial_state()
    for side in sides:
        side.reset(even)
    for ply in range(6):
        side = sides[ply % 2]
        state = state.play(side.choose(state, Limit(rollouts=1500)))
        assert side.search_komi == 7.5 and side.given == 0

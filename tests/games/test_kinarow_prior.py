"""The k-in-a-row kernel's ``prior`` (Gomoku and Tic-tac-toe knowledge for ``mcts:prior=``):
wins over blocks over open fours over stopping the opponent's open three over fours and
open threes over closeness to the stones; and with it RAVE finds a forced block sooner."""

from __future__ import annotations

import numpy as np

import arena
from arena.games.kinarow import kernel as kk
from arena.games.kinarow.rules import KInARowGame
from helpers import random_states


def scores(spec: str, moves: str) -> dict[str, int]:
    """The prior of every empty cell after ``moves``, by the cell's name."""
    game = arena.load_game(spec)
    assert isinstance(game, KInARowGame)
    k = kk.kernel(game, gravity=False, near=spec.startswith("gomoku"))
    state = game.play_moves(game.parse_moves(moves))
    s = k.encode(state)
    out = np.full(k.max_moves, -1, np.int64)
    assert k.functions["prior"](k.params, s, out) == 1
    return {game.format_move(m).lower(): int(out[m]) for m in state.legal_moves()}


def test_a_win_comes_before_a_block_and_a_block_before_the_rest() -> None:
    # Black's four h8-l8 (columns skip i) wins at g8 or m8; White's g10-k10 at f10 or l10.
    prior = scores("gomoku", "h8 g10 j8 h10 k8 j10 l8 k10")  # Black to move
    assert prior["g8"] == prior["m8"] == kk.PRIOR_WIN
    assert prior["f10"] == prior["l10"] == kk.PRIOR_BLOCK
    rest = [v for m, v in prior.items() if m not in ("g8", "m8", "f10", "l10")]
    assert max(rest) < kk.PRIOR_BLOCK


def test_open_fours_threes_and_stopping_the_opponents_three() -> None:
    # Black has an open three h8 j8 k8; White has stones elsewhere.
    black = scores("gomoku", "h8 c3 j8 c5 k8 o15")  # Black to move
    assert black["g8"] == black["l8"] == kk.PRIOR_OPEN_FOUR
    white = scores("gomoku", "h8 c3 j8 c5 k8")  # White to move: the same cells stop it
    assert white["g8"] == white["l8"] == kk.PRIOR_STOP_FOUR
    # White's c3 and c5: c4 makes White's three open at both ends.
    assert white["c4"] == kk.PRIOR_OPEN_THREE
    assert white["a15"] == kk.PRIOR_FAR and white["h9"] == kk.PRIOR_TOUCH
    assert white["h10"] == kk.PRIOR_NEAR


def test_tictactoe_threats_and_the_empty_board() -> None:
    assert set(scores("tictactoe", "").values()) == {kk.PRIOR_EMPTY}
    prior = scores("tictactoe", "a1 b2 a2")  # O to move must block a3
    assert prior["a3"] == kk.PRIOR_BLOCK
    prior = scores("tictactoe", "a1 b2 c3")  # O: b1 makes two in a column with one end open
    assert prior["b1"] == kk.PRIOR_FOUR


def test_every_legal_cell_gets_a_rate_in_percent() -> None:
    for spec in ("tictactoe", "gomoku:size=9", "tictactoe:m=5,n=5,k=4"):
        game = arena.load_game(spec)
        assert isinstance(game, KInARowGame)
        k = kk.kernel(game, gravity=False)
        for state in random_states(game, 40, seed=3):
            out = np.full(k.max_moves, -1, np.int64)
            written = k.functions["prior"](k.params, k.encode(state), out)
            assert written == (0 if state.is_terminal() else 1)
            if written:
                assert all(0 <= out[m] <= 100 for m in state.legal_moves())


def test_the_prior_finds_a_forced_block_sooner() -> None:
    """White must answer Black's four h8-l8 at g8 or m8 (it cannot stop both: any answer
    loses, but the prior finds the cells that delay it): at 40 simulations among 221
    cells RAVE alone rarely plays one; primed with the prior it does."""
    game = arena.load_game("gomoku")
    state = game.play_moves(game.parse_moves("h8 a1 j8 a15 k8 o1 l8"))  # White to move
    blocks = {game.parse_move(m) for m in ("g8", "m8")}

    def found(options: str) -> int:
        hits = 0
        for seed in range(10):
            spec = f"mcts:rollouts=40,c=0,rave=300,rollout=cheap,{options}seed={seed}"
            hits += arena.load_agent(spec).choose(state, arena.Limit()) in blocks
        return hits

    primed, alone = found("prior=20,"), found("")
    assert primed >= 9 and primed - alone >= 3, (primed, alone)
